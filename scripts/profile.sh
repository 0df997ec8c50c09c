#!/usr/bin/env bash
# The main job: run a firmware where its PMU counts (QEMU, or pmusim where QEMU's PMU counts
# nothing), capture its console, decode the dump with the host tool against the firmware's ELF and
# print the report. See --help; the exit statuses are listed there.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'TEXT'
usage: scripts/profile.sh [BOARD] [--sim | --qemu] [--elf FILE] [--no-build] [REPORT OPTIONS...]

Builds the board's example firmware (or takes FILE), runs it on pmusim or the board's QEMU machine,
captures the console (UART text frames) and prints `pmukit report` of the dump against the ELF.

BOARD (default xscale), and where it runs by default:
  xscale    PXA270, QEMU -M mainstone: CCNT counts (instructions, under -icount); the event
            counters read 0 and no PMU interrupt comes there (pmusim has both)
  e500      e500v2, pmusim: QEMU's mpc8544ds has no PMU (mfpmr/mtpmr trap)
  rm7000    RM7000, pmusim: QEMU's malta 5Kc counter is inert
  mips-cps  P5600 cluster with the CM, pmusim: QEMU's GCR block is there but its counters are silent
  netburst  Pentium 4, pmusim: QEMU's (TCG) MSRs read 0, rdpmc faults
On QEMU the e500, rm7000, mips-cps and netburst examples find no counting PMU and sample from a
timer; under pmusim (tools/sim/README.md) the project's PMU model counts and interrupts.

options:
  --sim         run under pmusim (`pmukit sim`, the host build's)
  --qemu        run on the board's QEMU machine, under -icount shift=0,sleep=off (a deterministic
                clock)
  --elf FILE    run this firmware instead of the example: a 32-bit ELF for the board's machine
                (built against its board/ code, e.g. examples/<board>/board), the profiler linked
                in and its dump written as text frames on the console UART
                (profiler/dump/text_frame_sink.hpp)
  --no-build    do not build (the example and the host tool must be built already)
  -h, --help    this text
REPORT OPTIONS are passed to `pmukit report` (--format table|flat|folded|callgrind|json|csv|html|svg,
-o FILE, --top N ...; `pmukit report --help`). Without any: the table, then the flat profile.
The console log is kept in build/<board>-profile.log.

Exit status:
  0  the firmware exited with status 0 (its checks passed) and the report was printed
  1  the firmware exited with another status (printed; the report is printed if it wrote a dump)
  2  a bad command line: an unknown board or option, an option without its value, both --sim and
     --qemu, an --elf that does not exist, is not an ELF or is not for the board's machine, or
     report options `pmukit report` refused
  3  a tool or build is missing or failed: the packages (scripts/setup.sh), the example or host
     tool build, the board's QEMU, pmusim (a pmukit built without libunicorn-dev), or with
     --no-build a firmware or host tool not built yet
  4  the run or the report failed: the emulator stopped without the firmware's exit (the 120 s
     limit, a fault pmusim does not model, QEMU's own exit), or the log holds no dump pmukit can
     report
Every error is one line on stderr starting "profile.sh: ".
TEXT
}

die() {  # die STATUS MESSAGE...
  local status=$1
  shift
  echo "profile.sh: $*" >&2
  exit "$status"
}

board=xscale
sim_isa=
elf=
build=1
runner=
report=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --board) [ $# -ge 2 ] || die 2 "--board needs a value (--help)"; board=$2; shift 2 ;;
    --board=*) board=${1#--board=}; shift ;;
    --elf) [ $# -ge 2 ] && [ -n "$2" ] || die 2 "--elf needs a file (--help)"; elf=$2; shift 2 ;;
    --elf=*) elf=${1#--elf=}; [ -n "$elf" ] || die 2 "--elf needs a file (--help)"; shift ;;
    --no-build) build=0; shift ;;
    --sim|--qemu)
      [ -z "$runner" ] || [ "$runner" = "${1#--}" ] || die 2 "--sim and --qemu: choose one (--help)"
      runner=${1#--}; shift ;;
    -*) report+=("$1"); shift
        # a report option's value (every report option but --force-elf takes one)
        if [ "${report[-1]}" != --force-elf ] && [[ "${report[-1]}" != *=* ]] && [ $# -gt 0 ]; then report+=("$1"); shift; fi ;;
    *) board=$1; shift ;;
  esac
done

# Per board: the example, the ELF it must be (e_machine, byte order), QEMU's machine, pmusim's
# PMU and where it runs by default: pmusim where QEMU's emulated PMU counts nothing (QEMU 7.2:
# only the PXA270's CCNT counts; --help).
case "$board" in
  xscale) preset=xscale; fw=xscale_profile; example=build/xscale/examples/xscale/xscale_profile.elf
          machine=40; machine_name=ARM; order=little; sim_pmu=xscale; default=qemu
          why="QEMU's PXA270 counts CCNT (--sim: the event counters and overflow interrupts too)"
          qemu=(qemu-system-arm -M mainstone -nographic -semihosting -icount shift=0,sleep=off) ;;
  e500)   preset=e500; fw=e500_profile; example=build/e500/examples/e500/e500_profile.elf
          machine=20; machine_name=PowerPC; order=big; sim_pmu=e500; default=sim
          why="QEMU's mpc8544ds has no e500 PMU (--qemu: a timer samples there)"
          qemu=(qemu-system-ppc -M mpc8544ds -nographic -no-reboot -icount shift=0,sleep=off) ;;
  rm7000) preset=rm7000; fw=rm7000_profile; example=build/rm7000/examples/malta/rm7000_profile.elf
          machine=8; machine_name=MIPS; order=big; sim_pmu=rm7000; sim_isa=3; isa_name="MIPS IV"; default=sim
          why="QEMU's malta 5Kc counter never counts (--qemu: a timer samples there)"
          qemu=(qemu-system-mips64 -M malta -cpu 5Kc -nographic -no-reboot -semihosting -icount shift=0,sleep=off) ;;
  mips-cps) preset=mips-cps; fw=cps_profile; example=build/mips-cps/examples/malta/cps_profile.elf
          machine=8; machine_name=MIPS; order=big; sim_pmu=mips-cm; sim_isa=7; isa_name=MIPS32r2; default=sim
          why="QEMU's CM counters are silent (--qemu: a timer samples there)"
          qemu=(qemu-system-mips -M malta -cpu P5600 -smp 2 -nographic -no-reboot -semihosting -icount shift=0,sleep=off) ;;
  netburst) preset=netburst; fw=netburst_profile; example=build/netburst/examples/pc/netburst_profile.elf
          machine=3; machine_name=i386; order=little; sim_pmu=netburst; default=sim
          why="QEMU's Pentium 4 has no PMU (--qemu: a timer samples there)"
          qemu=(qemu-system-i386 -cpu qemu32,family=15,model=2,vendor=GenuineIntel -display none -serial stdio
                -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04 -icount shift=0,sleep=off) ;;
  *) die 2 "unknown board '$board' (xscale, e500, rm7000, mips-cps or netburst; --help)" ;;
esac
[ -n "$runner" ] || runner=$default

# --elf: an ELF32 of the board's machine and byte order (ELF header: e_ident's class and data
# bytes, then e_machine at offset 18 in that order), before anything is built or run.
if [ -n "$elf" ]; then
  [ -e "$elf" ] || die 2 "--elf $elf: no such file"
  [ -f "$elf" ] && [ -r "$elf" ] || die 2 "--elf $elf: not a readable file"
  read -r -a b <<<"$( (od -An -v -tu1 -N40 -- "$elf" 2>/dev/null || true) | tr "\n" " ")"
  if [ ${#b[@]} -lt 40 ] || [ "${b[0]}" != 127 ] || [ "${b[1]}" != 69 ] || [ "${b[2]}" != 76 ] || [ "${b[3]}" != 70 ]; then
    die 2 "--elf $elf: not an ELF file"
  fi
  [ "${b[4]}" = 1 ] || die 2 "--elf $elf: a 64-bit ELF; board $board runs 32-bit $machine_name code"
  case "${b[5]}" in 1) got_order=little; m=$((b[18] | b[19] << 8)) ;; 2) got_order=big; m=$((b[18] << 8 | b[19])) ;;
    *) die 2 "--elf $elf: not an ELF file (byte order ${b[5]})" ;; esac
  [ "$m" = "$machine" ] || die 2 "--elf $elf: e_machine $m, board $board runs $machine_name (e_machine $machine)"
  [ "$got_order" = "$order" ] || die 2 "--elf $elf: $got_order-endian, board $board runs $order-endian $machine_name"
  # MIPS: pmusim picks its machine by e_flags' ISA level (bits 31:28; big-endian here).
  if [ "$runner" = sim ] && [ -n "$sim_isa" ] && [ $((b[36] >> 4)) != "$sim_isa" ]; then
    die 2 "--elf $elf: MIPS ISA level $((b[36] >> 4)) in e_flags; pmusim's $board machine runs $isa_name code (level $sim_isa; --qemu runs others)"
  fi
fi

pmukit=build/host/tools/pmukit
mkdir -p build
if [ $build -eq 1 ]; then
  blog=build/profile-build.log
  : >"$blog"
  bash scripts/setup.sh >>"$blog" 2>&1 || die 3 "scripts/setup.sh failed: packages missing (see $blog)"
  if [ -z "$elf" ]; then
    echo "== building the example firmware (preset $preset)" >&2
    { cmake --preset "$preset" && cmake --build --preset "$preset" --target "$fw"; } >>"$blog" 2>&1 ||
      die 3 "building $fw (preset $preset) failed (see $blog)"
  fi
  echo "== building the host tool (preset host)" >&2
  { cmake --preset host && cmake --build --preset host --target pmukit_cli; } >>"$blog" 2>&1 ||
    die 3 "building the host tool (preset host) failed (see $blog)"
fi
[ -n "$elf" ] || elf=$example
hint=
[ $build -eq 1 ] || hint=" (drop --no-build)"
[ -f "$elf" ] || die 3 "$elf is not built$hint"
[ -x "$pmukit" ] || die 3 "$pmukit is not built$hint"
if [ "$runner" = sim ]; then
  probe=$("$pmukit" sim 2>&1 || true)
  case "$probe" in *"without Unicorn"*)
    die 3 "$pmukit was built without Unicorn (libunicorn-dev): no pmusim (--qemu runs the board's QEMU)" ;; esac
  run=("$PWD/$pmukit" sim --pmu "$sim_pmu" --timeout 120)
  where="pmusim (pmukit sim --pmu $sim_pmu)"
else
  command -v "${qemu[0]}" >/dev/null || die 3 "${qemu[0]} not found (scripts/setup.sh installs it)"
  run=(timeout 120 "${qemu[@]}" -kernel)
  where="QEMU (${qemu[*]})"
fi
if [ "$runner" = "$default" ]; then said="the default for $board: $why"; else said="--$runner"; fi
log=build/$board-profile.log
echo "== running $elf on $where; $said" >&2
elf_abs=$(realpath "$elf")
set +e
# In build/: a firmware that writes a semihosting file (docs/capture.md) writes it there.
(cd build && "${run[@]}" "$elf_abs") >"$log" 2>&1
status=$?
set -e
grep -v '^@PMUD' "$log" >&2 || true

# The firmware's exit status, or why the run ended without one.
failed=
if [ "$runner" = sim ]; then
  # pmusim: the firmware's code, or 3 with its reason on the line after its summary when the run
  # stopped without an exit; no summary: it never ran the image (its message is its last line).
  if grep -q '^pmusim: [0-9]* instructions in ' "$log"; then
    reason=$(sed -n '/^pmusim: [0-9]* instructions in /{n;p;}' "$log" | grep '^pmusim: ' || true)
  else
    reason=$(grep '^pmusim: ' "$log" | tail -n 1 || true)
    [ -n "$reason" ] || reason="pmusim: exited with status $status before running the image"
  fi
  if [ $status -ne 0 ] && [ -n "$reason" ]; then failed="pmusim stopped: ${reason#pmusim: }"; fi
elif [ $status -eq 124 ]; then
  failed="${qemu[0]} did not exit within 120 s"
elif [ "$board" = netburst ]; then
  # isa-debug-exit: QEMU's status is (code << 1) | 1; an even status is QEMU's own.
  if [ $((status % 2)) -eq 1 ]; then status=$(((status - 1) / 2));
  else failed="${qemu[0]} exited with status $status, not through isa-debug-exit (the firmware did not reach its exit)"; fi
elif grep -q "^${qemu[0]}: " "$log"; then
  failed="$(grep -m1 "^${qemu[0]}: " "$log")"
elif [ "$board" = e500 ] && [ $status -eq 0 ]; then
  # QEMU's mpc8544ds exits 0 on any reset: the firmware's code is its "EXIT <code>" line.
  code=$(sed -n 's/^EXIT \([0-9][0-9]*\)\r*$/\1/p' "$log" | tail -n 1)
  [ -z "$code" ] || status=$code
fi
[ -z "$failed" ] || die 4 "$failed (see $log)"
if [ $status -ne 0 ]; then
  echo "profile.sh: the firmware exited with status $status (see $log)" >&2
fi
grep -q '@PMUD BEGIN' "$log" || die 4 "the firmware wrote no dump (no @PMUD frame in $log)"

echo "== report" >&2
reported=0
if [ ${#report[@]} -eq 0 ]; then
  "$pmukit" report "$log" --elf "$elf" --format table && "$pmukit" report "$log" --elf "$elf" --format flat || reported=$?
else
  "$pmukit" report "$log" --elf "$elf" "${report[@]}" || reported=$?
fi
case $reported in
  0) ;;
  2) die 2 "pmukit report refused the report options: ${report[*]} (pmukit report --help)" ;;
  *) die 4 "pmukit report could not report $log against $elf (its error is above)" ;;
esac
[ $status -eq 0 ] || exit 1
