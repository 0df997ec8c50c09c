#!/usr/bin/env bash
# The main job: build an example firmware, run it on its emulated board, capture its UART, decode
# the dump with the host tool against the firmware ELF and print the report.
#   scripts/profile.sh [--board xscale|e500|rm7000|mips-cps|netburst] [--format table|flat|folded|callgrind|json|csv|html|svg] [-o FILE]
# Boards (README "Targets"; each runs under -icount shift=0 so its clock is deterministic):
#   xscale  (default) PXA270 on qemu-system-arm -M mainstone: XScale CCNT counts instructions
#   e500    e500v2 on qemu-system-ppc -M mpc8544ds: no PMU there, time base and decrementer
#   rm7000  RM7000 code on qemu-system-mips64 -M malta -cpu 5Kc: counter inert, CP0 Count and timer
#   mips-cps  P5600 cluster on qemu-system-mips -M malta -smp 2: GCR found, CM counters silent,
#           CP0 Count and timer
#   netburst  Pentium 4 CPU model on qemu-system-i386 (PC, Multiboot): PMU absent, TSC and PIT timer
set -euo pipefail
cd "$(dirname "$0")/.."
board=xscale
if [ "${1-}" = "--board" ]; then
  board=${2-}
  shift 2 || { echo "profile: --board needs a value" >&2; exit 2; }
fi
case "$board" in
  xscale) preset=xscale; fw=xscale_profile; elf=build/xscale/examples/xscale/xscale_profile.elf
          qemu=(qemu-system-arm -M mainstone -nographic -semihosting -icount shift=0) ;;
  e500)   preset=e500; fw=e500_profile; elf=build/e500/examples/e500/e500_profile.elf
          qemu=(qemu-system-ppc -M mpc8544ds -nographic -no-reboot -icount shift=0) ;;
  rm7000) preset=rm7000; fw=rm7000_profile; elf=build/rm7000/examples/malta/rm7000_profile.elf
          qemu=(qemu-system-mips64 -M malta -cpu 5Kc -nographic -no-reboot -semihosting -icount shift=0) ;;
  mips-cps) preset=mips-cps; fw=cps_profile; elf=build/mips-cps/examples/malta/cps_profile.elf
          qemu=(qemu-system-mips -M malta -cpu P5600 -smp 2 -nographic -no-reboot -semihosting -icount shift=0) ;;
  netburst) preset=netburst; fw=netburst_profile; elf=build/netburst/examples/pc/netburst_profile.elf
          qemu=(qemu-system-i386 -cpu qemu32,family=15,model=2,vendor=GenuineIntel -display none -serial stdio
                -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04 -icount shift=0) ;;
  *) echo "profile: unknown board '$board' (xscale, e500, rm7000, mips-cps or netburst)" >&2; exit 2 ;;
esac
bash scripts/setup.sh >/dev/null
echo "== building firmware (preset $preset) and host tool (preset host)" >&2
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target "$fw" >/dev/null
cmake --preset host >/dev/null
cmake --build --preset host --target pmukit_cli >/dev/null
log=build/$board-profile.log
echo "== running $elf on ${qemu[*]}" >&2
set +e
timeout 120 "${qemu[@]}" -kernel "$elf" >"$log" 2>&1
status=$?
set -e
# isa-debug-exit (netburst): QEMU's status is (code << 1) | 1; an even status is QEMU's own.
if [ "$board" = netburst ]; then
  if [ $((status % 2)) -eq 1 ]; then status=$(((status - 1) / 2)); elif [ $status -eq 0 ]; then status=125; fi
fi
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
