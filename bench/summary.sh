#!/usr/bin/env bash
# Issue 18's figures in one run, each as a ratio against its hand-written or peer baseline, with
# the goal and whether it is met. Reads the example firmware logs of a finished build (ctest of
# the cross presets) and runs the zero-cost gate, the footprint and the symbolization benchmark.
#
# usage: bench/summary.sh [BUILD_ROOT]     (default: <repo>/build, as scripts/test.sh leaves it)
# Prints Markdown tables; exits 0 (a summary, not a gate: the gates are ctest and the zero-cost
# check).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
root=${1:-$repo/build}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }
meets() { awk -v r="$1" -v g="$2" 'BEGIN { print (r != "-" && r + 0 <= g + 0) ? "yes" : "no" }'; }

echo "## Region windows on the example firmware (instructions read between a counter's two reads, the read included; hand-written: 1)"
echo
echo "| run | counter | fast region | Region (calibrated away) | fast / hand | goal <= 3 (2 between) |"
echo "|---|---|---|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  fast=$(sed -n 's/^fast region: window \([0-9]*\) \(.*\) raw;.*/\1|\2/p' "$log" | head -n1)
  region=$(sed -n 's/^calibration: one region measurement costs \([0-9]*\) .*/\1/p' "$log" | head -n1)
  [ -n "$fast" ] || continue
  w=${fast%%|*}; unit=${fast#*|}
  r=$(ratio "$w" 1)
  goal=$(meets "$r" 3)
  case $unit in *ticks*) goal="n/a (a clock, not an instruction count)" ;; esac
  echo "| $run | $unit | $w | ${region:--} | $r | $goal |"
done
echo
echo "Under QEMU -icount shift=0,sleep=off (xscale_profile_qemu) and pmusim a count is an instruction; the"
echo "time-base, Count and TSC runs are coarser clocks, where a window of a few ticks is the clock's."
echo

echo "## Sampling interrupt, vector to return (instructions per interrupt, measured in the same firmware run)"
echo
echo "| run | general path (callback, Sampler) | fast path (PC and LR into the ring) | hand-written PC-to-ring | fast / hand | goal <= 1.5 |"
echo "|---|---|---|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  cost=$(sed -n 's/^sampling interrupt cost: \([0-9.]*\) instructions.*/\1/p' "$log" | head -n1)
  [ -n "$cost" ] || continue
  fast=$(sed -n 's/^sampling interrupt cost, fast path: \([0-9.]*\) instructions.*/\1/p' "$log" | head -n1)
  hand=$(sed -n 's/^sampling interrupt cost, hand-written PC-to-ring: \([0-9.]*\) instructions.*/\1/p' "$log" | head -n1)
  if [ -n "$fast" ] && [ -n "$hand" ]; then
    r=$(ratio "$fast" "$hand")
    echo "| $run | $cost | $fast | $hand | $r | $(meets "$r" 1.5) |"
  else
    echo "| $run | $cost | - (no fast path on this board) | - | - | no |"
  fi
done
echo

echo "## Multiplexing (pmusim: a steady workload multiplexed against each group alone; examples/common/multiplex_check.hpp)"
echo
echo "| run | events | counters | groups | rotate() (thread) | rotating timer interrupt, vector to return | worst error | goal <= 2% |"
echo "|---|---|---|---|---|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*_pmusim.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  shape=$(sed -n 's/^multiplexing: \([0-9]*\) events on \([0-9]*\) counters in \([0-9]*\) groups.*/\1|\2|\3/p' "$log" | head -n1)
  [ -n "$shape" ] || continue
  cost=$(sed -n 's/^multiplexing: rotate() costs \([0-9.]*\) instructions.*vector to return: \([0-9.]*\) instructions.*/\1|\2/p' "$log" | head -n1)
  worst=$(sed -n 's/^multiplexing: worst error \([0-9.]*\)%.*/\1/p' "$log" | head -n1)
  ok=$(awk -v w="${worst:-100}" 'BEGIN { print (w + 0 <= 2) ? "yes" : "no" }')
  echo "| $run | ${shape//|/ | } | ${cost%%|*} | ${cost#*|} | ${worst:--}% | $ok |"
done
echo

echo "## PMU overflow sampling (pmusim; vector to return through the board's IRQ glue)"
echo
echo "| run | compile-time slot (on_pmu_interrupt<0>, nothing frozen) | general entry, at least (frozen part unseen) |"
echo "|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  quick=$(sed -n 's/^PMU sampling interrupt cost, compile-time slot: \([0-9.]*\) .*/\1/p' "$log" | head -n1)
  slow=$(sed -n 's/^PMU sampling interrupt cost, general entry, at least: \([0-9.]*\) .*/\1/p' "$log" | head -n1)
  [ -n "$quick" ] && echo "| $run | $quick | ${slow:--} |"
done
echo
echo "Its service is branch-free but for the common-case test: the branches_pmu_irq rows below."
echo

echo "## Zero-cost gate and fast-region window from the disassembly (bench/zero_cost)"
echo
if out=$(bash "$repo/bench/zero_cost/run_all.sh" "$root" 2>&1); then status=passed; else status=FAILED; fi
echo "| target | window_1slot instructions between the reads | goal <= 2 |"
echo "|---|---|---|"
grep -E '^\| [a-z0-9-]+ +\| window_1slot ' <<<"$out" | awk -F'|' '{gsub(/ /, "", $2); gsub(/ /, "", $4); print "| " $2 " | " $4 " | " ($4 + 0 <= 2 ? "yes" : "no") " |"}'
echo
echo "| target | branches_pmu_irq: conditional branches in on_pmu_interrupt<0> | limit |"
echo "|---|---|---|"
grep -E '^\| [a-z0-9-]+ +\| branches_pmu_irq ' <<<"$out" | awk -F'|' '{gsub(/ /, "", $2); gsub(/ /, "", $4); gsub(/ /, "", $5); print "| " $2 " | " $4 " | " $5 " |"}'
echo
tail -n 2 <<<"$out" | head -n 1
echo "(gate $status)"
echo

echo "## Footprint, minimal configuration (.text after --gc-sections; hand-written job: 228 B on XScale)"
echo
echo "| target | .text | ratio to 228 B | goal <= 512 B |"
echo "|---|---|---|---|"
bash "$repo/bench/footprint/footprint.sh" "$root/footprint" 2>/dev/null |
  awk -F'|' '$4 ~ /minimal/ {gsub(/ /, "", $2); gsub(/ /, "", $5); printf "| %s | %s | %.2f | %s |\n", $2, $5, $5 / 228, ($5 <= 512 ? "yes" : "no")}'
echo

echo "## Symbolization (bench/symbolize: 1,000,000 samples; ratio = addr2line -f -C time / pmukit's)"
echo
bench=$root/host/bench/symbolize/bench_symbolize
if [ ! -x "$bench" ]; then
  cmake --build "$root/host" --target bench_symbolize >/dev/null 2>&1 || true
fi
if [ -x "$bench" ]; then
  elfs=("$root/host/tools/pmukit")
  # and the first target's example (cmake/targets.cmake, scripts/targets.sh), where built
  . "$repo/scripts/targets.sh"
  t=${pmu_targets[0]}
  fw=$root/$t/examples/${pmu_dir[$t]}/${pmu_profile[$t]}.elf
  [ -f "$fw" ] && elfs+=("$fw")
  "$bench" "${elfs[@]}" | sed 's/^/    /'
else
  echo "bench_symbolize not built (build the host preset first)"
fi
