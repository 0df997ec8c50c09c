#!/usr/bin/env bash
# Every command the docs show runs as written: each ```sh block of README.md, docs/*.md and
# examples/*/README.md, in file order, from the repository's root, in its own `bash -euo pipefail`
# (10 minutes at most). A block right after a line `<!-- not run: REASON -->` is listed, not run.
#   tests/docs/run_commands.sh [--list]        (after scripts/test.sh has built the presets)
# Prints one line per block; exit 1 when any block failed (its output is shown).
set -uo pipefail
cd "$(dirname "$0")/../.."
list=0
[ "${1-}" = --list ] && list=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 ran=0 skipped=0
for doc in README.md docs/*.md examples/*/README.md; do
  [ -f "$doc" ] || continue
  # Split the file's sh blocks into $work/<n>.sh, with the skip reason in $work/<n>.skip.
  rm -f "$work"/block.*
  awk -v dir="$work" '
    /^```sh[[:space:]]*$/ { n++; inside = 1; file = sprintf("%s/block.%03d.sh", dir, n)
                            printf "" > file
                            if (reason != "") { print reason > sprintf("%s/block.%03d.skip", dir, n) }
                            reason = ""; next }
    inside && /^```[[:space:]]*$/ { inside = 0; next }
    inside { print >> file; next }
    /^<!-- not run: .* -->[[:space:]]*$/ { reason = $0; sub(/^<!-- not run: /, "", reason); sub(/ -->[[:space:]]*$/, "", reason); next }
    /[^[:space:]]/ { reason = "" }
  ' "$doc"
  for block in "$work"/block.*.sh; do
    [ -f "$block" ] || continue
    name="$doc#$(basename "$block" .sh | sed 's/^block\.0*//')"
    first=$(grep -m1 . "$block")
    if [ -f "${block%.sh}.skip" ]; then
      echo "docs: $name: not run ($(cat "${block%.sh}.skip")): $first"
      skipped=$((skipped + 1))
      continue
    fi
    if [ $list -eq 1 ]; then echo "docs: $name: $first"; continue; fi
    ran=$((ran + 1))
    if timeout 600 bash -euo pipefail "$block" >"$work/out" 2>&1; then
      echo "docs: $name: ok ($first)"
    else
      echo "docs: $name: FAILED ($first)"
      sed 's/^/    /' "$work/out" | tail -n 30
      failed=$((failed + 1))
    fi
  done
done
echo "docs: $ran blocks ran, $failed failed, $skipped not run"
[ $failed -eq 0 ]
