#!/usr/bin/env bash
# pmusim's speed: emulated instructions per second on the example firmware, with the PMU model
# attached and without it (--no-pmu: the same per-instruction hook, no model), measured in one run
# and printed as a ratio (these machines are noisy: compare the ratio, not the rates). Without the
# model the probe fails and the firmware takes its fallback path, so the two runs execute different
# code; the rates are per instruction either way.
#   bench/pmusim/run.sh [BUILD_ROOT]   (default: <repo>/build; after the cross presets are built,
#                                       a missing one is skipped)
# Each target runs under the pmusim its own tests used: the one its preset was configured with
# (PMU_SIM_EXECUTABLE, which scripts/test.sh sets to the host preset's build/host/pmusim), else the
# one the preset compiled itself (<build>/<t>/pmusim), else the host preset's.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=${1:-build}
rate() {  # prints "instructions seconds" from pmusim's summary line
  # (the firmware's verdict does not matter here: without the model some examples fail their checks)
  { "$1" "$2" --quiet "${@:3}" 2>&1 >/dev/null || true; } | sed -nE 's/^pmusim: ([0-9]+) instructions in ([0-9.]+) s.*/\1 \2/p' | head -n1
}
# The pmusim a preset's firmware tests ran (cmake/PmuSim.cmake); empty if none is found.
sim_of() {
  local dir=$1 cached
  cached=$(sed -n 's/^PMU_SIM_EXECUTABLE:FILEPATH=//p' "$dir/CMakeCache.txt" 2>/dev/null | head -n1)
  for sim in "$cached" "$dir/pmusim" "${PMUKIT_PMUSIM:-}" "$root/host/pmusim"; do
    if [ -n "$sim" ] && [ -x "$sim" ]; then echo "$sim"; return; fi
  done
}
# Every target's profiling example on its pmusim machine (cmake/targets.cmake, scripts/targets.sh).
. scripts/targets.sh
ran=0 sims=0
for t in "${pmu_targets[@]}"; do
  [ "${pmu_sim[$t]}" != none ] || continue  # no pmusim machine (SIM none, cmake/PmuTargets.cmake)
  sims=$((sims + 1))
  name=${pmu_sim[$t]} fw=$root/$t/examples/${pmu_dir[$t]}/${pmu_profile[$t]}.elf
  sim=$(sim_of "$root/$t")
  if [ -z "$sim" ] || [ ! -f "$fw" ]; then
    echo "bench/pmusim: $name: build the $t preset first (pmusim: ${sim:-none found}, $fw)" >&2
    continue
  fi
  read -r i_on s_on < <(rate "$sim" "$fw")
  read -r i_off s_off < <(rate "$sim" "$fw" --no-pmu)
  awk -v n="$name" -v a="$i_on" -v b="$s_on" -v c="$i_off" -v d="$s_off" 'BEGIN {
    on = a / b / 1e6; off = c / d / 1e6;
    printf "pmusim, %s example: %.1f M instructions/s with the PMU model, %.1f M/s without (ratio %.2f; %d and %d instructions)\n", n, on, off, on / off, a, c }'
  ran=$((ran + 1))
done
[ $ran -eq $sims ] || exit 2
