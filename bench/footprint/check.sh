#!/usr/bin/env bash
# The minimal footprint's goal (issue 39 item 6): flash (.text + .rodata + .data, footprint.sh) at
# most 512 B on every target. usage: bench/footprint/check.sh [OUT_DIR]; exits 1 over the goal.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/targets.sh
. "$root/scripts/targets.sh"
table=$(FOOTPRINT_CONFIGS=minimal bash "$here/footprint.sh" "${1:-$(mktemp -d)}")
echo "$table"
awk -F'|' -v targets="${#pmu_targets[@]}" '
  $4 ~ /minimal/ {n++; gsub(/ /, "", $2); if ($9 + 0 > 512) {print "footprint: " $2 " minimal flash " $9 + 0 " B, over 512 B"; bad = 1}}
  END {if (n != targets) {print "footprint: " n + 0 " minimal rows for " targets " targets"; exit 1}
       if (bad) exit 1
       print "footprint: minimal flash <= 512 B on every target"}' <<<"$table"
