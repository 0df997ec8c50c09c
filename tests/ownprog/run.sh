#!/usr/bin/env bash
# A program not written for pmukit (tests/ownprog: a benchmark with its own main, printf, malloc
# and four modules), built OUT OF TREE against the installed package for each board, exactly as
# docs/your-program.md says: cmake --install to a prefix, then this folder as a separate CMake
# project (find_package(pmukit), pmukit_add_firmware(... PROFILE)); and once more with pmukit's
# source tree as its subdirectory (add_subdirectory: the same lines). Each image runs on the
# board's QEMU and under pmusim (`pmukit sim`; not for a board whose target has SIM none, e.g.
# virt-a15: its counts and samples come from QEMU's own PMU), and each report must show
#   the program's verdict     "bench: PASS" and exit status 0
#   a region                  main, one call
#   the hot function          mat_mul has the most samples
#   a call chain              a stack through the program's own main into mat_mul
# usage: tests/ownprog/run.sh HOST_BUILD_DIR [BOARD...]   (a built host tree with pmukit_cli, e.g.
#        build/host; boards: those of cmake/targets.cmake (default: the first target's)
# Exit 0 when every board passes; otherwise the failing step's log and exit 1.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/scripts/targets.sh"
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: $0 HOST_BUILD_DIR [BOARD...]" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=("${pmu_board[${pmu_targets[0]}]}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
failed=0

# The toolchain file each board is built with (<prefix>/share/pmukit/toolchains/), and what it is
# told (docs/your-program.md, "Boards"): those of the board's target (cmake/targets.cmake,
# scripts/targets.sh).
toolchain() {
  local t
  for t in "${pmu_targets[@]}"; do
    if [ "${pmu_board[$t]}" = "$1" ]; then echo "${pmu_toolchain[$t]}.cmake ${pmu_toolchain_args[$t]}"; return 0; fi
  done
  return 1
}

# The board's pmusim machine (scripts/targets.sh's pmu_sim): "none" where there is none.
sim_of() {
  local t
  for t in "${pmu_targets[@]}"; do
    if [ "${pmu_board[$t]}" = "$1" ]; then echo "${pmu_sim[$t]}"; return 0; fi
  done
  return 1
}

step() {  # step NAME COMMAND...: runs it quietly, shows the log when it fails
  local name=$1; shift
  if "$@" >"$work/$name.log" 2>&1; then
    echo "ownprog: $name: ok"
  else
    echo "ownprog: $name: FAILED"; sed 's/^/    /' "$work/$name.log" | tail -n 40
    failed=1
  fi
}
# check LOG ELF: the verdict, the region, the hot function and the call chain in its report.
check() {
  local log=$1 elf=$2 table folded
  grep -q '^bench: PASS' "$log" || { echo "no 'bench: PASS' in $log"; return 1; }
  # Boards whose QEMU exits 0 whatever the program returned print its status: it must be 0 too.
  if grep -q '^EXIT ' "$log"; then grep -q '^EXIT 0$' "$log" || { grep '^EXIT ' "$log"; return 1; }; fi
  table=$("$prefix/bin/pmukit" report "$log" --elf "$elf" --format table) || return 1
  echo "$table"
  # Here-strings, not `echo | grep -q`: under pipefail grep -q's early exit fails the echo (SIGPIPE).
  grep -Eq '^ +main +1( |$)' <<<"$table" || { echo "no region 'main' with one call"; return 1; }
  sed -n '/^ *samples  *percent/{n;p;q}' <<<"$table" | grep -Eq ' mat_mul ' ||
    { echo "mat_mul is not the function with the most samples"; return 1; }
  folded=$("$prefix/bin/pmukit" report "$log" --elf "$elf" --format folded) || return 1
  grep -Eq '(^|;)main;(iteration;)?mat_mul [0-9]+$' <<<"$folded" ||
    { echo "no call chain main -> mat_mul in the folded stacks:"; echo "$folded" | head; return 1; }
}
run_board() {  # run_board BOARD package|subdirectory
  local board=$1 dir=$work/$1-$2 tc how
  read -r -a tc <<<"$(toolchain "$board")" && [ ${#tc[@]} -gt 0 ] || { echo "no toolchain for board $board"; return 1; }
  if [ "$2" = package ]; then
    how=(-DCMAKE_TOOLCHAIN_FILE="$prefix/share/pmukit/toolchains/${tc[0]}" -Dpmukit_DIR="$prefix/share/cmake/pmukit")
  else
    how=(-DCMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchains/${tc[0]}" -DPMUKIT_SOURCE_DIR="$repo")
  fi
  how+=("${tc[@]:1}")
  cmake -S "$repo/tests/ownprog" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${how[@]}" -DBOARD="$board" &&
  cmake --build "$dir" || return 1
  local status
  timeout 120 "$dir/bench.qemu.sh" >"$dir/qemu.log" 2>&1
  status=$?
  [ $status -eq 0 ] || { echo "QEMU: exit status $status"; tail -n 20 "$dir/qemu.log"; return 1; }
  echo "== QEMU"; check "$dir/qemu.log" "$dir/bench.elf" || return 1
  [ "$(sim_of "$board")" != none ] || { echo "== pmusim: no machine for $board"; return 0; }
  timeout 120 "$prefix/bin/pmukit" sim "$dir/bench.elf" >"$dir/sim.log"
  status=$?
  [ $status -eq 0 ] || { echo "pmusim: exit status $status"; tail -n 20 "$dir/sim.log"; return 1; }
  echo "== pmusim"; check "$dir/sim.log" "$dir/bench.elf"
}

step install cmake --install "$build" --prefix "$prefix"
[ $failed -eq 0 ] || exit 1
have_sim=1
"$prefix/bin/pmukit" sim --help >/dev/null 2>&1 || have_sim=0
for b in "${boards[@]}"; do
  if [ $have_sim -eq 0 ] && [ "$(sim_of "$b")" != none ]; then
    echo "ownprog: $b: the installed pmukit has no 'sim' (Unicorn missing): skipped"
    continue
  fi
  step "$b" run_board "$b" package
  step "$b-subdirectory" run_board "$b" subdirectory
done
exit $failed
