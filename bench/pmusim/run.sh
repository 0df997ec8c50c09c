#!/usr/bin/env bash
# pmusim's speed: emulated instructions per second on the example firmware, with the PMU model
# attached and without it (--no-pmu: the same per-instruction hook, no model), measured in one run
# and printed as a ratio (these machines are noisy: compare the ratio, not the rates). Without the
# model the probe fails and the firmware takes its fallback path, so the two runs execute different
# code; the rates are per instruction either way.
#   bench/pmusim/run.sh        (after the cross presets are built; a missing one is skipped)
set -euo pipefail
cd "$(dirname "$0")/../.."
rate() {  # prints "instructions seconds" from pmusim's summary line
  # (the firmware's verdict does not matter here: without the model some examples fail their checks)
  { "$1" "$2" --quiet "${@:3}" 2>&1 >/dev/null || true; } | sed -nE 's/^pmusim: ([0-9]+) instructions in ([0-9.]+) s.*/\1 \2/p' | head -n1
}
# Every target's profiling example on its pmusim machine (cmake/targets.cmake, scripts/targets.sh).
. scripts/targets.sh
ran=0
for t in "${pmu_targets[@]}"; do
  name=${pmu_sim[$t]} sim=build/$t/pmusim fw=build/$t/examples/${pmu_dir[$t]}/${pmu_profile[$t]}.elf
  if [ ! -x "$sim" ] || [ ! -f "$fw" ]; then
    echo "bench/pmusim: $name: build the $t preset first ($sim, $fw)" >&2
    continue
  fi
  read -r i_on s_on < <(rate "$sim" "$fw")
  read -r i_off s_off < <(rate "$sim" "$fw" --no-pmu)
  awk -v n="$name" -v a="$i_on" -v b="$s_on" -v c="$i_off" -v d="$s_off" 'BEGIN {
    on = a / b / 1e6; off = c / d / 1e6;
    printf "pmusim, %s example: %.1f M instructions/s with the PMU model, %.1f M/s without (ratio %.2f; %d and %d instructions)\n", n, on, off, on / off, a, c }'
  ran=1
done
[ $ran -eq 1 ] || exit 2
