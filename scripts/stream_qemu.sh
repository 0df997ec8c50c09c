#!/usr/bin/env bash
# Runs a board's live stream example (examples/common/stream_run.hpp) on its QEMU machine with the
# console UART on a TCP port or in a file, for `pmukit record` or a check (docs/stream-format.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/targets.sh
. scripts/targets.sh

usage() {
  cat <<TEXT
usage: scripts/stream_qemu.sh PRESET PORT|FILE [--seconds N] [--wait] [--elf FILE] [--check [--min-samples N]]

PRESET: ${pmu_targets[*]}. Runs build/PRESET/examples/<board>/<example>_stream.elf (built with
cmake --build build/PRESET --target <example>_stream) on the board's QEMU, its UART:
  PORT (a number)  a TCP server on localhost:PORT (-serial tcp::PORT,server=on,wait=off); --wait:
                   QEMU waits for the recorder to connect before it starts the board
  FILE             the bytes written to FILE (-serial file:FILE)
--seconds N  kill the board after N seconds (mid-stream, as a crash would); default: run until killed
--check      then check FILE's frames (tests/stream/check_stream.py), at least N samples (default 1)
TEXT
}

[ $# -ge 2 ] || { usage >&2; exit 2; }
preset=$1 dest=$2
shift 2
[ -n "${pmu_qemu[$preset]:-}" ] || { echo "stream_qemu.sh: unknown preset '$preset'" >&2; exit 2; }
seconds=0 wait=off elf="" check=0 min=1
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --wait) wait=on; shift ;;
    --elf) elf=$2; shift 2 ;;
    --check) check=1; shift ;;
    --min-samples) min=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "stream_qemu.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$elf" ] || elf="build/$preset/examples/${pmu_dir[$preset]}/${pmu_profile[$preset]%_profile}_stream.elf"
[ -f "$elf" ] || { echo "stream_qemu.sh: $elf not built" >&2; exit 3; }

# The board's QEMU line with its own serial (the PC's "-serial stdio") replaced by ours.
read -r -a qemu <<<"${pmu_qemu[$preset]//-serial stdio/}"
if [[ $dest =~ ^[0-9]+$ ]]; then
  serial="tcp:127.0.0.1:$dest,server=on,wait=$wait"
  [ $check = 0 ] || { echo "stream_qemu.sh: --check needs a FILE" >&2; exit 2; }
else
  rm -f "$dest"
  serial="file:$dest"
fi
run=("${qemu[@]}" -monitor none -serial "$serial" -kernel "$elf")
echo "stream_qemu.sh: ${run[*]}" >&2
status=0
if [ "$seconds" != 0 ]; then
  timeout "$seconds" "${run[@]}" </dev/null || status=$?
  [ $status = 124 ] && status=0  # killed mid-stream on purpose
else
  "${run[@]}" </dev/null || status=$?
fi
# The PC's isa-debug-exit makes QEMU's status (code << 1) | 1: 1 is the firmware's exit(0).
[ "${pmu_debug_exit[$preset]}" = 1 ] && [ $status = 1 ] && status=0
[ $status = 0 ] || { echo "stream_qemu.sh: QEMU exited with status $status" >&2; exit 4; }
[ $check = 0 ] || exec python3 tests/stream/check_stream.py "$dest" --min-samples "$min"
