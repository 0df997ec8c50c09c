#!/usr/bin/env bash
# The main job: build the XScale example firmware, run it on the emulated PXA270 board (QEMU
# mainstone, -icount shift=0 so CCNT counts instructions deterministically), capture its UART,
# decode the dump with the host tool against the firmware ELF and print the report.
#   scripts/profile.sh [--format table|flat|folded|callgrind|json|csv|html|svg] [-o FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
echo "== building firmware (preset xscale) and host tool (preset host)" >&2
cmake --preset xscale >/dev/null
cmake --build --preset xscale --target xscale_profile >/dev/null
cmake --preset host >/dev/null
cmake --build --preset host --target pmukit_cli >/dev/null
elf=build/xscale/examples/xscale/xscale_profile.elf
log=build/xscale-profile.log
echo "== running $elf on qemu-system-arm -M mainstone" >&2
set +e
timeout 120 qemu-system-arm -M mainstone -nographic -semihosting -icount shift=0 \
  -kernel "$elf" >"$log" 2>&1
status=$?
set -e
grep -v '^@PMUD' "$log" >&2 || true
if [ $status -ne 0 ]; then
  echo "firmware exited with status $status (see $log)" >&2
fi
echo "== report" >&2
if [ $# -eq 0 ]; then
  build/host/tools/pmukit report "$log" --elf "$elf" --format table
  build/host/tools/pmukit report "$log" --elf "$elf" --format flat
else
  build/host/tools/pmukit report "$log" --elf "$elf" "$@"
fi
exit $status
