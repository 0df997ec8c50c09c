#!/usr/bin/env bash
# The live stream end to end on one board's QEMU (docs/stream-format.md, issue "Live"): the stream
# example with its UART on a TCP port, `pmukit record` connected to it, the board killed mid-stream
# after SECONDS; then the same with `pmukit top` (not a TTY: periodic text). Checks that the record
# ends at the end of the input with a dump `pmukit report` reads, nothing lost or corrupt on the
# link (but the last frame, which the kill may cut), every sample the recorder counted in the dump, most of them in the example's workloads, and
# that top's last block names the hottest workload. Everything in a temporary folder of its own.
#   usage: scripts/stream_record_check.sh PRESET ELF PMUKIT [SECONDS]
# Exit 0 and "RECORD PASS" when every check passes; 77 without the host tool (skipped).
set -uo pipefail
cd "$(dirname "$0")/.."
preset=${1:?usage: stream_record_check.sh PRESET ELF PMUKIT [SECONDS]} elf=${2:?ELF} pmukit=${3:?PMUKIT}
seconds=${4:-6}
[ -x "$pmukit" ] || { echo "stream_record_check: no host pmukit at $pmukit (build the host preset): skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() {  # check DESCRIPTION CONDITION...
  local what=$1; shift
  if "$@"; then echo "check: $what: ok"; else echo "check: $what: FAILED"; fail=1; fi
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
board() {  # board PORT: the stream example on its QEMU, waiting for the reader, killed after SECONDS
  bash scripts/stream_qemu.sh "$preset" "$1" --wait --seconds "$seconds" --elf "$elf" 2>>"$work/qemu.err" &
}

# 1. pmukit record over TCP, the board killed mid-stream.
port=$(free_port)
board "$port"
"$pmukit" record "tcp:127.0.0.1:$port" -o "$work/live.pmud" 2>"$work/record.err"
rc=$?
wait
sed 's/^/    /' "$work/record.err"
totals=$(sed -n 's/^pmukit record: totals: //p' "$work/record.err")
val() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" <<<"$totals"; }
check "record exits 0 at the end of the input" test "$rc" = 0
check "record stopped by the end of the input (the board killed)" grep -q "stopped by the end of the input" "$work/record.err"
check "at least 500 samples received" test "$(val samples)" -ge 500
for k in lost malformed dropped; do
  check "$k = 0" test "$(val $k)" = 0
done
# Killed mid-stream, the board may leave its last frame cut: one corrupt frame and its bytes
# skipped (at most a whole frame, 8 + 1024 + 4). A frame damaged anywhere else would also leave a
# gap in the sequence numbers (lost above), so with none lost, a corrupt frame is the last one.
check "at most the last frame cut (corrupt $(val corrupt), $(val skipped_bytes) bytes skipped)" \
  test "$(val corrupt)" -le 1 -a "$(val skipped_bytes)" -le $(( 1036 * $(val corrupt) ))
"$pmukit" report "$work/live.pmud" --elf "$elf" --format json >"$work/report.json" 2>"$work/report.err"
check "pmukit report reads the dump" test $? = 0
python3 - "$work/report.json" "$(val samples)" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
total = r["total_samples"]
work = sum(f["samples"] for f in r["functions"] if "examples::work::" in f["name"])
print("check: the dump holds every sample received (%d of %d): %s" % (total, want, "ok" if total == want else "FAILED"))
print("check: most samples in the workloads (%d of %d): %s" % (work, total, "ok" if work * 2 > total else "FAILED"))
sys.exit(0 if total == want and work * 2 > total else 1)
PY

# 2. pmukit top, not a TTY, on a second run.
port=$(free_port)
board "$port"
"$pmukit" top --elf "$elf" "tcp:127.0.0.1:$port" >"$work/top.out" 2>"$work/top.err"
rc=$?
wait
tail -n 12 "$work/top.out" | sed 's/^/    /'
check "top exits 0 at the end of the input" test "$rc" = 0
check "top printed its periodic text" grep -q "examples::work::" "$work/top.out"
if [ $fail = 0 ]; then echo "RECORD PASS"; else echo "RECORD FAIL"; sed 's/^/    qemu: /' "$work/qemu.err" | tail -n 5; fi
exit $fail
