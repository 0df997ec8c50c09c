#!/usr/bin/env bash
# pmusim's speed: emulated instructions per second on the NetBurst example firmware, with the PMU
# model attached and without it (--no-pmu: the same per-instruction hook, no model), measured in one
# run and printed as a ratio (these machines are noisy: compare the ratio, not the rates).
#   bench/pmusim/run.sh [PMUSIM] [FIRMWARE.elf]
# Defaults: build/netburst/pmusim and build/netburst/examples/pc/netburst_profile.elf (preset netburst).
set -euo pipefail
cd "$(dirname "$0")/../.."
sim=${1:-build/netburst/pmusim}
fw=${2:-build/netburst/examples/pc/netburst_profile.elf}
[ -x "$sim" ] && [ -f "$fw" ] || { echo "bench/pmusim: build the netburst preset first ($sim, $fw)" >&2; exit 2; }
rate() {  # prints "instructions seconds" from pmusim's summary line
  "$sim" "$fw" --quiet "$@" 2>&1 >/dev/null | sed -nE 's/^pmusim: ([0-9]+) instructions in ([0-9.]+) s.*/\1 \2/p' | head -n1
}
read -r i_on s_on < <(rate)
read -r i_off s_off < <(rate --no-pmu)
awk -v a="$i_on" -v b="$s_on" -v c="$i_off" -v d="$s_off" 'BEGIN {
  on = a / b / 1e6; off = c / d / 1e6;
  printf "pmusim, NetBurst example: %.1f M instructions/s with the PMU model, %.1f M/s without (ratio %.2f)\n", on, off, on / off;
  printf "(with: %d instructions in %.2f s; without: %d in %.2f s; the two runs take different paths: without the PMU the probe fails and the firmware falls back to the TSC)\n", a, b, c, d }'
