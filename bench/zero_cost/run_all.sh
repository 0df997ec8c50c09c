#!/usr/bin/env bash
# Zero-cost proof for all five cross presets: configure + build only the probes, print ONE table
# (target x operation), exit non-zero if any gated ratio > 1.00 (see check.py for the rule).
#
# usage: bench/zero_cost/run_all.sh [--full] [BUILD_ROOT] [PRESET...]
#   BUILD_ROOT  where the build trees go, one per preset: BUILD_ROOT/zc-<preset>
#               (default: <repo>/build)
#   PRESET      any target of cmake/targets.cmake (default: all of them)
#   --full      configure the whole project (-DPMUKIT_BUILD_TESTS=OFF) instead of the probes alone;
#               slower, and fails if any other part of the tree does not configure
# Exit status: 0 pass, 1 a gated operation costs more than hand-written code (or the gate's
# self-test failed), 2 a tool is missing or a configure/build failed.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

full=0
if [[ "${1:-}" == "--full" ]]; then full=1; shift; fi
root="${1:-$repo/build}"
[[ $# -gt 0 ]] && shift
# The targets (cmake/targets.cmake, through scripts/targets.sh).
# shellcheck source=../../scripts/targets.sh
. "$repo/scripts/targets.sh"
presets=("$@")
[[ ${#presets[@]} -eq 0 ]] && presets=("${pmu_targets[@]}")

toolchain_args() {  # preset -> toolchain file and cache entries
  [[ -n "$1" && -n "${pmu_toolchain[$1]+set}" ]] || return 1
  echo "-DCMAKE_TOOLCHAIN_FILE=$repo/cmake/toolchains/${pmu_toolchain[$1]}.cmake ${pmu_toolchain_args[$1]}"
}
compiler_of() { echo "${pmu_toolchain[$1]}-g++"; }

for t in cmake ninja python3; do
  command -v "$t" >/dev/null || { echo "run_all.sh: '$t' not found" >&2; exit 2; }
done
for p in "${presets[@]}"; do
  toolchain_args "$p" >/dev/null || { echo "run_all.sh: unknown preset '$p'" >&2; exit 2; }
  command -v "$(compiler_of "$p")" >/dev/null ||
    { echo "run_all.sh: $(compiler_of "$p") not found (preset $p; scripts/setup.sh installs it)" >&2; exit 2; }
done
mkdir -p "$root" || exit 2
root="$(cd "$root" && pwd)"

build_one() {  # configure + build the probe objects of one preset; output to its log
  local p="$1" dir="$root/zc-$1" src="$here" extra=""
  if [[ $full -eq 1 ]]; then src="$repo"; extra="-DPMUKIT_BUILD_TESTS=OFF"; fi
  # Only objects are built, so CMake's compiler check need not link. It must not for rm7000:
  # Debian's mips-linux-gnu crt files are MIPS32r2 and ld refuses to link MIPS IV objects to them.
  # shellcheck disable=SC2046
  cmake -S "$src" -B "$dir" -G Ninja $(toolchain_args "$p") -DPMU_PRESET="$p" $extra \
    -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY &&
    cmake --build "$dir" --target zero_cost
}

start=$(date +%s)
pids=()
for p in "${presets[@]}"; do
  mkdir -p "$root/zc-$p"
  build_one "$p" >"$root/zc-$p/run_all.log" 2>&1 &
  pids+=($!)
done
status=0
for k in "${!presets[@]}"; do
  if ! wait "${pids[$k]}"; then
    p="${presets[$k]}"
    echo "run_all.sh: configure/build failed for $p (log: $root/zc-$p/run_all.log):" >&2
    tail -n 30 "$root/zc-$p/run_all.log" >&2
    status=2
  fi
done
[[ $status -ne 0 ]] && exit $status

args=()
gate_fail=0
for p in "${presets[@]}"; do
  info="$root/zc-$p/zero_cost_probe.txt"
  [[ -f "$info" ]] || { echo "run_all.sh: $info missing (probe not configured?)" >&2; exit 2; }
  mapfile -t f <"$info"   # preset, objdump, probe object, gate self-test object
  args+=(--probe "${f[0]}" "${f[1]}" "${f[2]}")
  if ! python3 "$here/check.py" --expect-regression --objdump "${f[1]}" --target "${f[0]}-gate" \
       "${f[3]}" >"$root/zc-$p/gate_selftest.log" 2>&1; then
    echo "run_all.sh: the gate self-test failed for $p (log: $root/zc-$p/gate_selftest.log)" >&2
    gate_fail=1
  fi
done
python3 "$here/check.py" "${args[@]}"
rc=$?
echo "run_all.sh: ${#presets[@]} presets in $(( $(date +%s) - start )) s"
[[ $rc -ne 0 ]] && exit $rc
[[ $gate_fail -ne 0 ]] && exit 1
exit 0
