#!/usr/bin/env bash
# The main job: run a firmware on its emulated board, capture its console, decode the dump with the
# host tool against the firmware's ELF and print the report. See --help.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'TEXT'
usage: scripts/profile.sh [BOARD] [--elf FILE] [--no-build] [REPORT OPTIONS...]

Builds the board's example firmware (or takes FILE), runs it on the board's emulator under
-icount shift=0,sleep=off (a deterministic clock), captures the console (UART text frames) and prints
`pmukit report` of the dump against the ELF.

BOARD (default xscale):
  xscale    PXA270 on qemu-system-arm -M mainstone: XScale CCNT counts instructions
  e500      e500v2 on qemu-system-ppc -M mpc8544ds: no PMU there, time base and decrementer
  rm7000    RM7000 code on qemu-system-mips64 -M malta -cpu 5Kc: counter inert, CP0 Count and timer
  mips-cps  P5600 cluster on qemu-system-mips -M malta -smp 2: GCR found, CM counters silent
  netburst  Pentium 4 CPU model on qemu-system-i386 (PC, Multiboot): PMU absent, TSC and PIT timer

options:
  --elf FILE    run this firmware instead of the example: built for the board's machine (its
                board/ code, e.g. against examples/<board>/board), the profiler linked in and its
                dump written as text frames on the console UART (profiler/dump/text_frame_sink.hpp)
  --no-build    do not build (the example and the host tool must be built already)
  -h, --help    this text
REPORT OPTIONS are passed to `pmukit report` (--format table|flat|folded|callgrind|json|csv|html|svg,
-o FILE, --top N ...; `pmukit report --help`). Without any: the table, then the flat profile.
The console log is kept in build/<board>-profile.log. Exit status: the firmware's (0: its checks
passed), 2 for a bad command line.
TEXT
}

board=xscale
elf=
build=1
report=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --board) [ $# -ge 2 ] || { echo "profile: --board needs a value" >&2; exit 2; }; board=$2; shift 2 ;;
    --elf) [ $# -ge 2 ] && [ -n "$2" ] || { echo "profile: --elf needs a file" >&2; exit 2; }; elf=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    xscale|e500|rm7000|mips-cps|netburst) board=$1; shift ;;
    -*) report+=("$1"); shift
        # a report option's value (every report option but --force-elf takes one)
        if [ "${report[-1]}" != --force-elf ] && [[ "${report[-1]}" != *=* ]] && [ $# -gt 0 ]; then report+=("$1"); shift; fi ;;
    *) echo "profile: unknown board '$1' (xscale, e500, rm7000, mips-cps or netburst; --help)" >&2; exit 2 ;;
  esac
done

case "$board" in
  xscale) preset=xscale; fw=xscale_profile; example=build/xscale/examples/xscale/xscale_profile.elf; machine=ARM
          qemu=(qemu-system-arm -M mainstone -nographic -semihosting -icount shift=0,sleep=off) ;;
  e500)   preset=e500; fw=e500_profile; example=build/e500/examples/e500/e500_profile.elf; machine=PowerPC
          qemu=(qemu-system-ppc -M mpc8544ds -nographic -no-reboot -icount shift=0,sleep=off) ;;
  rm7000) preset=rm7000; fw=rm7000_profile; example=build/rm7000/examples/malta/rm7000_profile.elf; machine=MIPS
          qemu=(qemu-system-mips64 -M malta -cpu 5Kc -nographic -no-reboot -semihosting -icount shift=0,sleep=off) ;;
  mips-cps) preset=mips-cps; fw=cps_profile; example=build/mips-cps/examples/malta/cps_profile.elf; machine=MIPS
          qemu=(qemu-system-mips -M malta -cpu P5600 -smp 2 -nographic -no-reboot -semihosting -icount shift=0,sleep=off) ;;
  netburst) preset=netburst; fw=netburst_profile; example=build/netburst/examples/pc/netburst_profile.elf; machine="Intel 80386"
          qemu=(qemu-system-i386 -cpu qemu32,family=15,model=2,vendor=GenuineIntel -display none -serial stdio
                -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04 -icount shift=0,sleep=off) ;;
esac

if [ -n "$elf" ]; then
  [ -f "$elf" ] || { echo "profile: --elf $elf: no such file" >&2; exit 2; }
  got=$(LC_ALL=C readelf -h "$elf" 2>/dev/null | sed -n 's/^ *Machine: *//p')
  [ -n "$got" ] || { echo "profile: --elf $elf: not an ELF file" >&2; exit 2; }
  [ "$got" = "$machine" ] || { echo "profile: --elf $elf is for '$got', board $board runs '$machine'" >&2; exit 2; }
fi
if [ $build -eq 1 ]; then
  bash scripts/setup.sh >/dev/null
  if [ -z "$elf" ]; then
    echo "== building the example firmware (preset $preset)" >&2
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" --target "$fw" >/dev/null
  fi
  echo "== building the host tool (preset host)" >&2
  cmake --preset host >/dev/null
  cmake --build --preset host --target pmukit_cli >/dev/null
fi
[ -n "$elf" ] || elf=$example
[ -f "$elf" ] || { echo "profile: $elf is not built (drop --no-build)" >&2; exit 2; }
log=build/$board-profile.log
mkdir -p build
echo "== running $elf on ${qemu[*]}" >&2
elf_abs=$(realpath "$elf")
set +e
# In build/: a firmware that writes a semihosting file (docs/capture.md) writes it there.
(cd build && timeout 120 "${qemu[@]}" -kernel "$elf_abs") >"$log" 2>&1
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
if [ ${#report[@]} -eq 0 ]; then
  build/host/tools/pmukit report "$log" --elf "$elf" --format table
  build/host/tools/pmukit report "$log" --elf "$elf" --format flat
else
  build/host/tools/pmukit report "$log" --elf "$elf" "${report[@]}"
fi
exit $status
