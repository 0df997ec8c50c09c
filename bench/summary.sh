#!/usr/bin/env bash
# The performance figures in one run, each as a ratio against its hand-written or peer baseline,
# with the goal and whether it is met. Reads the example firmware logs of a finished build (ctest
# of the cross presets), the zero-cost probes run_all.sh built, and runs the footprint, the
# symbolization benchmark and pmusim's speed.
#
# usage: bench/summary.sh [BUILD_ROOT [SCRATCH]]
#   BUILD_ROOT  a finished build (default: <repo>/build, as scripts/test.sh leaves it); only read,
#               but for the zero-cost probes when run_all.sh has not built them there yet
#   SCRATCH     where the footprint objects go (default: BUILD_ROOT)
# Prints Markdown tables; exits 0 (a summary, not a gate: the gates are ctest and the zero-cost
# check).
#
# docs/figures.md is generated from this output (bench/figures.py, bench/README.md): every table
# is one block between `table NAME KIND` and `end_table`, and bench/figures.md.in places it with a
# line @figures:NAME@. KIND says whether scripts/test.sh compares it with the committed page:
#   compared  deterministic figures: instruction counts under QEMU -icount and pmusim (the same
#             build's logs are byte-identical run to run), sizes, counts from the disassembly
#   timing    host timings (noisy): regenerated, never compared
# A table mixes no kinds: a timing column goes into a table of its own. A new table is one block
# here and one marker line in bench/figures.md.in.
set -uo pipefail
export LC_ALL=C  # the same row order (glob) on every machine: docs/figures.md compares them
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
root=${1:-$repo/build}
scratch=${2:-$root}

table() { echo "<!-- figures:$1 $2 -->"; }
end_table() { echo "<!-- end figures -->"; }
# The first line of a log matching a sed -n expression, printed by it ("" if none).
first() { sed -n "$1" "$2" | head -n1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }
# The preset a build file belongs to: BUILD_ROOT/<preset>/examples/<board>/<file>.
preset_of() { basename "$(dirname "$(dirname "$(dirname "$1")")")"; }
meets() { awk -v r="$1" -v g="$2" 'BEGIN { print (r != "-" && r + 0 <= g + 0) ? "yes" : "no" }'; }

echo "## Region windows on the example firmware (instructions read between a counter's two reads, the read included; hand-written: 1)"
echo
table region-windows compared
echo "| run | counter | fast region | Region (calibrated away) | fast / hand | goal <= 3 (2 between; NetBurst 4) | Region / hand | Region's goal <= 5 (4 between) |"
echo "|---|---|---|---|---|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  fast=$(sed -n 's/^fast region: window \([0-9]*\) \(.*\) raw;.*/\1|\2/p' "$log" | head -n1)
  region=$(sed -n 's/^calibration: one region measurement costs \([0-9]*\) .*/\1/p' "$log" | head -n1)
  [ -n "$fast" ] || continue
  w=${fast%%|*}; unit=${fast#*|}
  r=$(ratio "$w" 1)
  # i686: the first rdpmc's EDX:EAX stored and ECX loaded again (profiler/fast_region.hpp)
  case $run in netburst*) goal=$(meets "$r" 4) ;; *) goal=$(meets "$r" 3) ;; esac
  # Region: its first counter (cycles, one instruction to read by hand), innermost in its prepared
  # reads (profiler/region.hpp; the sweep where the counters added cannot be prepared).
  rr=$(ratio "${region:-0}" 1); [ -n "$region" ] || rr=-
  rgoal=$(meets "$rr" 5)
  case $unit in *ticks*) goal="n/a (a clock, not an instruction count)"; rgoal=$goal ;; esac
  echo "| $run | $unit | $w | ${region:--} | $r | $goal | $rr | $rgoal |"
done
end_table
echo
echo "Under QEMU -icount shift=0,sleep=off (xscale_profile_qemu) and pmusim a count is an instruction; the"
echo "time-base, Count and TSC runs are coarser clocks, where a window of a few ticks is the clock's."
echo

echo "## Counter regions: counters chosen at run time (profiler/counter_region.hpp; instructions, the read included)"
echo
table counter-region-windows compared
# The hand-written baseline is two reads of the innermost counter back to back: its window is the
# read's own instructions (the example prints them: 1, or 3 for a counter behind a select, ARMv7-A's
# event counters: PMSELR write, ISB, PMXEVCNTR read, ARM ARM ARMv7-A/R C12.8; 1 where it prints
# none, a clock's read). The goal: at most 4 more (ARMv7-A's 4: the reader's return, the move
# keeping the first value, the second call and the reader's load of the select value).
echo "| run | counter | one counter | several, outermost first (each in its counter's events) | innermost's own read (hand-written window: 1, or 3 behind a select, ARMv7-A's PMSELR) | innermost between the reads (its read excluded) | innermost / hand-written | goal <= 4 between |"
echo "|---|---|---|---|---|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  one=$(sed -n 's/^counter region (one counter chosen at run time): window \([0-9]*\) \(.*\) raw;.*/\1|\2/p' "$log" | head -n1)
  [ -n "$one" ] || continue
  w=${one%%|*}; unit=${one#*|}
  several=$(sed -n 's/^counter region on [0-9]* counters chosen at run time: windows \([0-9 ]*\) .* raw .*/\1/p' "$log" | head -n1)
  several=${several% }
  inner=${several##* }
  read1=$(sed -n 's/^counter region: a hand-written read of the counter is \([0-9]*\) instructions$/\1/p' "$log" | head -n1)
  readn=$(sed -n 's/^counter region on several counters: a hand-written read of the innermost counter is \([0-9]*\) instructions$/\1/p' "$log" | head -n1)
  if [ -n "$several" ]; then win=$inner; rd=${readn:-1}; else win=$w; rd=${read1:-1}; fi
  between=$((win - rd))
  goal=$( [ "$between" -le 4 ] && echo yes || echo no)
  case $unit in *ticks*) goal="n/a (a clock, not an instruction count)" ;; esac
  echo "| $run | $unit | $w | ${several:--} | $rd | $between | $(ratio "$win" "$rd") | $goal |"
done
end_table
echo

echo "## Sampling interrupt, vector to return (instructions per interrupt, measured in the same firmware run)"
echo
table sampling-interrupt compared
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
end_table
echo

echo "## Multiplexing (pmusim: a steady workload multiplexed against each group alone; examples/common/multiplex_check.hpp)"
echo
table multiplexing compared
echo "| run | events | counters | groups | rotate() (thread) | rotating timer interrupt, vector to return | worst error, firmware | worst error, \`pmukit stat\` (events and metrics) | goal <= 2% |"
echo "|---|---|---|---|---|---|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*_pmusim.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  shape=$(sed -n 's/^multiplexing: \([0-9]*\) events on \([0-9]*\) counters in \([0-9]*\) groups.*/\1|\2|\3/p' "$log" | head -n1)
  [ -n "$shape" ] || continue
  cost=$(sed -n 's/^multiplexing: rotate() costs \([0-9.]*\) instructions.*vector to return: \([0-9.]*\) instructions.*/\1|\2/p' "$log" | head -n1)
  worst=$(sed -n 's/^multiplexing: worst error \([0-9.]*\)%.*/\1/p' "$log" | head -n1)
  # pmukit stat's estimates and metrics from the dump in the log (scripts/check_mux_stat.py)
  stat=-
  if [ -x "$root/host/tools/pmukit" ]; then
    stat=$(python3 "$repo/scripts/check_mux_stat.py" "$root/host/tools/pmukit" "$log" 2>/dev/null |
           sed -n 's/.*: [0-9]* events, \([0-9]*\) metrics, worst error \([0-9.]*\)%.*/\2% (\1 metrics)/p' | tail -n1)
  fi
  ok=$(awk -v w="${worst:-100}" -v t="${stat%%%*}" 'BEGIN { print (w + 0 <= 2 && t != "" && t != "-" && t + 0 <= 2) ? "yes" : "no" }')
  echo "| $run | ${shape//|/ | } | ${cost%%|*} | ${cost#*|} | ${worst:--}% | ${stat:--} | $ok |"
done
end_table
echo

echo "## PMU overflow sampling (pmusim; vector to return through the board's IRQ glue)"
echo
table pmu-sampling compared
echo "| run | compile-time slot (on_pmu_interrupt<0>, nothing frozen) | general entry, whole (timed by the board's clock) |"
echo "|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  quick=$(sed -n 's/^PMU sampling interrupt cost, compile-time slot: \([0-9.]*\) .*/\1/p' "$log" | head -n1)
  slow=$(sed -n 's/^PMU sampling interrupt cost, general entry: \([0-9.]*\) .*/\1/p' "$log" | head -n1)
  [ -n "$quick" ] && echo "| $run | $quick | ${slow:--} |"
done
end_table
echo
echo "Its service is branch-free but for the common-case test: the branches_pmu_irq rows below."
echo

# The board's fast vector for the PMU interrupt against a hand-written handler in the same image and
# run (examples/common/pmu_fast_vector.hpp); the firmware fails its own check above 1.5.
echo "## PMU overflow sampling, fast vector (pmusim; vector to return, instructions per interrupt)"
echo
table pmu-fast-vector compared
echo "| run | fast vector | hand-written | ratio | goal <= 1.5 |"
echo "|---|---|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  fast=$(first 's/^PMU sampling interrupt cost, fast vector: \([0-9.]*\) .*/\1/p' "$log")
  hand=$(first 's/^PMU sampling interrupt cost, hand-written: \([0-9.]*\) .*/\1/p' "$log")
  [ -n "$fast" ] && [ -n "$hand" ] || continue
  r=$(ratio "$fast" "$hand")
  echo "| $run | $fast | $hand | $r | $(meets "$r" 1.5) |"
done
end_table
echo

echo "## Call stacks per sample (instructions per timer interrupt, vector to return through the general timer IRQ)"
echo
table call-stacks compared
echo "| run | no capture (general path) | 512-byte stack copy (profiler/stack.hpp) | frame walk, 16 frames (profiler/frame_walk.hpp) |"
echo "|---|---|---|---|"
for log in "$root"/*/examples/*/*_profile.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  copy=$(first 's/^sampling interrupt cost with a 512-byte stack capture: \([0-9.]*\) .*/\1/p' "$log")
  [ -n "$copy" ] || continue
  none=$(first 's/^sampling interrupt cost: \([0-9.]*\) .*/\1/p' "$log")
  walk=$(first 's/^sampling interrupt cost with a frame walk on the target: \([0-9.]*\) .*/\1/p' "$log")
  echo "| $run | ${none:--} | $copy | ${walk:--} |"
done
end_table
echo

echo "## Full stacks from the unwind table (profiler/unwind_table.hpp: ten levels of 2 KiB frames; instructions per sampling interrupt)"
echo
table unwind-table compared
echo "| preset | run | walks reaching _start | frames | per interrupt, vector to return | interrupt path alone | the walk | goal: walk <= 300 |"
echo "|---|---|---|---|---|---|---|---|"
for log in "$root"/*/examples/*/*_unwind_table.elf.*.log; do
  [ -f "$log" ] || continue
  run=$(basename "$log" .log); run=${run#*.elf.}
  preset=$(preset_of "$log")
  walks=$(first 's/^unwind table walks: \([0-9]*\) samples, [0-9]* complete, \([0-9]*\) reach _start, \([0-9.]*\) frames.*/\2 of \1|\3/p' "$log")
  cost=$(first 's/^sampling interrupt cost with the unwind table walk: \([0-9.]*\) .*alone: \([0-9.]*\); the walk: \([0-9.]*\).*/\1|\2|\3/p' "$log")
  [ -n "$walks" ] && [ -n "$cost" ] || continue
  w=${cost##*|}
  echo "| $preset | $run | ${walks%%|*} | ${walks#*|} | ${cost%%|*} | $(cut -d'|' -f2 <<<"$cost") | $w | $(awk -v w="$w" 'BEGIN { print (w + 0 <= 300) ? "yes" : "no" }') |"
done
end_table
echo

echo "## Per-task counts (profiler/task_counters.hpp: the examples' round-robin scheduler under pmusim, or QEMU where the board has no pmusim machine; instructions)"
echo
table tasks compared
echo "| preset | run | on_switch | sampling interrupt | task | counted | executed alone | error | switches in | samples (own/other task/elsewhere) | error less its samples' cost, per switch |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
# Every tasks example's test log: pmusim's, then QEMU's (deterministic too: -icount).
for log in "$root"/*/examples/*/*_tasks*.elf.*_pmusim.log "$root"/*/examples/*/*_tasks*.elf.*_qemu.log; do
  [ -f "$log" ] || continue
  preset=$(preset_of "$log")
  run=${log##*.elf.}
  run=${run%.log}
  on_switch=$(first 's/^on_switch: \([0-9]*\) instructions.*/\1/p' "$log")
  interrupt=$(first 's/^sampling interrupt: \([0-9]*\) instructions.*/\1/p' "$log")
  sed -n '/^task  instructions/,/^no task:/p' "$log" | sed '1d;$d' |
    while read -r name counted alone error switches samples detail per; do
      echo "| $preset | $run | $on_switch | $interrupt | $name | $counted | $alone | $error | $switches | $samples $detail | $per |"
    done
done
end_table
echo

echo "## Live stream: bytes per sample on the UART (profiler/stream/: each board's <example>_stream_qemu run, QEMU)"
echo
# The run is killed after a wall-clock time, so its sample count varies: regenerated, not compared.
table stream timing
echo "| preset | samples | bytes per sample, SAMPLES frames with their framing | samples/s that fill 11,520 B/s (115,200 baud, 8N1) | dropped by the ring | corrupt frames | frames missing |"
echo "|---|---|---|---|---|---|---|"
for f in "$root"/*/examples/*/*_stream.elf.stream; do
  [ -f "$f" ] || continue
  preset=$(preset_of "$f")
  line=$(python3 "$(dirname "$0")/../tests/stream/check_stream.py" "$f" 2>/dev/null | head -n1)
  n=$(sed -n 's/.*; \([0-9]*\) samples, \([0-9]*\) dropped by the firmware, \([0-9.]*\) bytes per sample.*; \([0-9]*\) corrupt, \([0-9]*\) frames missing.*/\1|\2|\3|\4|\5/p' <<<"$line")
  [ -n "$n" ] || continue
  IFS='|' read -r samples dropped bps corrupt missing <<<"$n"
  echo "| $preset | $samples | $bps | $(awk -v b="$bps" 'BEGIN { printf "%.0f", 11520 / b }') | $dropped | $corrupt | $missing |"
done
end_table
echo

echo "## Zero-cost gate and fast-region window from the disassembly (bench/zero_cost)"
echo
# The probes scripts/test.sh's run_all.sh built just before, where they are all there (only read:
# check.py disassembles them); else run_all.sh builds them under BUILD_ROOT.
. "$repo/scripts/targets.sh"
probes=()
for t in "${pmu_targets[@]}"; do
  info=$root/zc-$t/zero_cost_probe.txt
  [ -f "$info" ] || { probes=(); break; }
  mapfile -t f <"$info"
  probes+=(--probe "${f[0]}" "${f[1]}" "${f[2]}")
done
if [ ${#probes[@]} -gt 0 ]; then
  if out=$(python3 "$repo/bench/zero_cost/check.py" "${probes[@]}" 2>&1); then status=passed; else status=FAILED; fi
elif out=$(bash "$repo/bench/zero_cost/run_all.sh" "$root" 2>&1); then status=passed; else status=FAILED; fi
table zero-cost-window compared
echo "| target | window_1slot instructions between the reads | goal <= 2 (netburst 3) | around a call (window_call_1slot) | calibrate() (window_calibrate_1slot) |"
echo "|---|---|---|---|---|"
grep -E '^\| [a-z0-9-]+ +\| window_(call_|calibrate_)?1slot ' <<<"$out" |
  awk -F'|' '{gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $4); gsub(/ /, "", $5); w[$2, $3] = $4; if ($3 == "window_1slot") lim[$2] = $5 + 0; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
    END { for (i = 0; i < n; i++) { t = order[i]; l = lim[t];
      print "| " t " | " w[t, "window_1slot"] " | " (w[t, "window_1slot"] + 0 <= l ? "yes" : "no") " | " w[t, "window_call_1slot"] " | " w[t, "window_calibrate_1slot"] " |" } }'
end_table
echo
table zero-cost-counter-region compared
echo "| target | 1 counter | innermost, 2 / 3 counters (window less the nested reads) | goal <= 4 | one nested read | outermost, 3 counters | 4 + its nested reads | calibrate() (1 counter) | around a call with an argument (calibrate() + 1) |"
echo "|---|---|---|---|---|---|---|---|---|"
grep -E '^\| [a-z0-9-]+ +\| window_(info_)?region_[0-9a-z_]+ ' <<<"$out" |
  awk -F'|' '{gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $4); gsub(/ /, "", $5); w[$2, $3] = $4; h[$2, $3] = $5
      if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
    END { for (i = 0; i < n; i++) { t = order[i]; i2 = w[t, "window_region_2counters"]; i3 = w[t, "window_region_3counters"]
      cal = w[t, "window_region_calibrate_1counter"]; arg = w[t, "window_region_call_arg_1counter"]
      cal = (cal == "" ? "-" : cal) " | " (arg == "" ? "-" : arg)
      if (i2 == "") { print "| " t " | " w[t, "window_region_1counter"] " | - (one counter) | " (w[t, "window_region_1counter"] + 0 <= 4 ? "yes" : "no") " | - | - | - | " cal " |"; continue }
      ok = (w[t, "window_region_1counter"] + 0 <= 4 && i2 + 0 <= 4 && i3 + 0 <= 4) ? "yes" : "no"
      print "| " t " | " w[t, "window_region_1counter"] " | " i2 " / " i3 " | " ok " | " w[t, "window_region_3counters_read"] " | " w[t, "window_info_region_3counters_outer"] " | " h[t, "window_info_region_3counters_outer"] " | " cal " |" } }'
end_table
echo
table zero-cost-window-standalone compared
echo "| target | window_standalone_1slot | around a call (window_standalone_call_1slot) | calibrate() (window_standalone_calibrate_1slot) |"
echo "|---|---|---|---|"
grep -E '^\| [a-z0-9-]+ +\| window_standalone_(call_|calibrate_)?1slot ' <<<"$out" |
  awk -F'|' '{gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $4); w[$2, $3] = $4; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
    END { for (i = 0; i < n; i++) { t = order[i]
      print "| " t " | " w[t, "window_standalone_1slot"] " | " w[t, "window_standalone_call_1slot"] " | " w[t, "window_standalone_calibrate_1slot"] " |" } }'
end_table
echo
table zero-cost-branches compared
echo "| target | branches_pmu_irq: conditional branches in on_pmu_interrupt<0> | limit |"
echo "|---|---|---|"
grep -E '^\| [a-z0-9-]+ +\| branches_pmu_irq ' <<<"$out" | awk -F'|' '{gsub(/ /, "", $2); gsub(/ /, "", $4); gsub(/ /, "", $5); print "| " $2 " | " $4 " | " $5 " |"}'
end_table
echo
echo "(zero-cost gate $status)"
echo

echo "## Footprint (bench/footprint: flash = .text + .rodata + .data after --gc-sections; .bss is RAM only; hand-written minimal job: 228 B on XScale)"
echo
fp=$(bash "$repo/bench/footprint/footprint.sh" "$scratch/footprint" 2>/dev/null)
table footprint compared
echo "| target | minimal .text | .rodata | .data | .bss | flash | flash / 228 B | goal <= 512 B | counting flash | largest symbols of minimal |"
echo "|---|---|---|---|---|---|---|---|---|---|"
awk -F'|' '{for (i = 2; i <= 9; i++) gsub(/^ +| +$/, "", $i); gsub(/^ +| +$/, "", $10)}
  $4 == "counting" {counting[$2] = $9}
  $4 == "minimal" {order[++n] = $2; text[$2] = $5; ro[$2] = $6; data[$2] = $7; bss[$2] = $8; flash[$2] = $9; syms[$2] = $10}
  END {for (i = 1; i <= n; i++) {t = order[i]; s = syms[t]; gsub(/; /, ", ", s)
    printf "| %s | %s | %s | %s | %s | %s | %.2f | %s | %s | %s |\n", t, text[t], ro[t], data[t], bss[t], flash[t], flash[t] / 228, (flash[t] + 0 <= 512 ? "yes" : "no"), counting[t], s}}' <<<"$fp"
end_table
echo

echo "## Symbolization (bench/symbolize: 1,000,000 samples; every report format; ratio = addr2line -f -C CPU time / pmukit's; peaks of fresh execs)"
echo
bench=$root/host/bench/symbolize/bench_symbolize
if [ ! -x "$bench" ]; then
  cmake --build "$root/host" --target bench_symbolize >/dev/null 2>&1 || true
fi
table symbolization timing
echo '```'
if [ -x "$bench" ]; then
  elfs=("$root/host/tools/pmukit")
  # and the first target's example (cmake/targets.cmake, scripts/targets.sh), where built
  t=${pmu_targets[0]}
  fw=$root/$t/examples/${pmu_dir[$t]}/${pmu_profile[$t]}.elf
  [ -f "$fw" ] && elfs+=("$fw")
  "$bench" "${elfs[@]}" | sed "s|$root/|build/|g"  # the page names the build tree, not this machine's path
else
  echo "bench_symbolize not built (build the host preset first)"
fi
echo '```'
end_table
echo

echo "## pmusim's speed (bench/pmusim/run.sh: emulated instructions per second, with the PMU model and without)"
echo
table pmusim-speed timing
echo '```'
bash "$here/pmusim/run.sh" "$root" 2>&1
echo '```'
end_table
echo

echo "## CI: seconds per preset (scripts/test.sh's last run in this build, $root/logs/times.txt)"
echo
table ci-seconds timing
if [ -s "$root/logs/times.txt" ]; then
  echo "| preset | seconds |"
  echo "|---|---|"
  awk '$1 == "preset" {print "| " $2 " | " $3 " |"}
       $1 == "total" {print "| whole run (scripts/test.sh to this summary, " $3 " tests) | " $2 " |"}' "$root/logs/times.txt"
else
  echo "Not recorded in this build: scripts/test.sh (all presets) records it."
fi
end_table
