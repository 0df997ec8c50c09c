#!/usr/bin/env bash
# The main job: run a firmware where its PMU counts (QEMU, or pmusim where QEMU's PMU counts
# nothing), capture its console, decode the dump with the host tool against the firmware's ELF and
# print the report. See --help; the exit statuses are listed there.
set -euo pipefail
cd "$(dirname "$0")/.."

# The targets: one pmu_target line each in cmake/targets.cmake, generated into scripts/targets.sh.
# shellcheck source=scripts/targets.sh
. scripts/targets.sh

usage() {
  cat <<'TEXT'
usage: scripts/profile.sh [BOARD] [--sim | --qemu] [--elf FILE] [--no-build] [REPORT OPTIONS...]

Builds the board's example firmware (or takes FILE), runs it on pmusim or the board's QEMU machine,
captures the console (UART text frames) and prints `pmukit report` of the dump against the ELF.

TEXT
  echo "BOARD (default ${pmu_targets[0]}: the first target of cmake/targets.cmake), and where it runs by default:"
  local t
  for t in "${pmu_targets[@]}"; do
    printf '  %-9s %s; %s by default: %s\n' "$t" "${pmu_board[$t]}" "${pmu_run[$t]/sim/pmusim}" "${pmu_why[$t]}"
  done
  cat <<'TEXT'
On QEMU the examples of boards whose QEMU PMU counts nothing find no counting PMU and sample from
a timer; under pmusim (tools/sim/README.md) the project's PMU model counts and interrupts.

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
     --qemu, --sim for a board pmusim has no machine for, an --elf that does not exist, is not an
     ELF or is not for the board's machine, or report options `pmukit report` refused
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

board=${pmu_targets[0]}
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

# Per target (scripts/targets.sh): the example, the ELF it must be (e_machine, byte order, MIPS ISA
# level), QEMU's command line (its board's), pmusim's machine and where it runs by default: pmusim
# where QEMU's emulated PMU counts nothing (QEMU 7.2: only the PXA270's CCNT counts; --help).
if [ -z "$board" ] || [ -z "${pmu_arch[$board]+set}" ]; then
  list=$(printf '%s, ' "${pmu_targets[@]}")
  die 2 "unknown board '$board' (${list%, }; --help)"
fi
preset=$board
fw=${pmu_profile[$board]}
example=build/$preset/examples/${pmu_dir[$board]}/$fw.elf
machine=${pmu_elf_machine[$board]}
machine_name=${pmu_elf_name[$board]}
order=${pmu_elf_order[$board]}
sim_pmu=${pmu_sim[$board]}
sim_isa=${pmu_elf_isa[$board]}
isa_name=${pmu_elf_isa_name[$board]}
default=${pmu_run[$board]}
why=${pmu_why[$board]}
read -r -a qemu <<<"${pmu_qemu[$board]}"
[ -n "$runner" ] || runner=$default
[ "$runner" != sim ] || [ "$sim_pmu" != none ] || die 2 "--sim: pmusim has no machine for board $board (--qemu runs it)"

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
elif [ "${pmu_debug_exit[$board]}" = 1 ]; then
  # isa-debug-exit: QEMU's status is (code << 1) | 1; an even status is QEMU's own.
  if [ $((status % 2)) -eq 1 ]; then status=$(((status - 1) / 2));
  else failed="${qemu[0]} exited with status $status, not through isa-debug-exit (the firmware did not reach its exit)"; fi
elif grep -q "^${qemu[0]}: " "$log"; then
  failed="$(grep -m1 "^${qemu[0]}: " "$log")"
elif [ $status -eq 0 ] && grep -q '^EXIT [0-9][0-9]*'$'\r''*$' "$log"; then
  # A board whose QEMU exits 0 on any reset (no semihosting exit) prints the firmware's code as its
  # "EXIT <code>" line.
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
