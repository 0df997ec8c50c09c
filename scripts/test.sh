#!/usr/bin/env bash
# The project's test command: installs what is missing, then for every preset configures, builds
# and runs ctest (host suite; cross builds with header checks, zero-cost probes, firmware on QEMU,
# and the host suite again under qemu-user on big-endian MIPS/PowerPC and i686), then prints the
# combined zero-cost table. Ends with one line "tests: N passed, N failed".
#   scripts/test.sh            all presets
#   scripts/test.sh host e500  only these presets
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "test: setup failed"; exit 1; }

# Default: the host presets, then every target (cmake/targets.cmake, through scripts/targets.sh).
. scripts/targets.sh
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(host host-asan "${pmu_targets[@]}")

passed=0
failed=0
bad=()
logdir=build/logs
mkdir -p "$logdir"
# Seconds per preset and for the whole run, for bench/summary.sh's CI table (a timing: never compared).
run_start=$(date +%s)
: >"$logdir/times.txt"
for p in "${presets[@]}"; do
  echo "=== preset $p"
  start=$(date +%s)
  if ! cmake --workflow --preset "$p" >"$logdir/$p.log" 2>&1; then
    bad+=("$p")
  fi
  # ctest's own summary line: "NN% tests passed, F tests failed out of T"
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$logdir/$p.log" | tail -n1)
  if [ -n "$line" ]; then
    f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
    t=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
    passed=$((passed + t - f))
    failed=$((failed + f))
    echo "    $line ($(( $(date +%s) - start )) s)"
  else
    echo "    no ctest summary ($(( $(date +%s) - start )) s)"
  fi
  echo "preset $p $(( $(date +%s) - start ))" >>"$logdir/times.txt"
  # pmusim is a host program: the cross presets run the host preset's instead of each compiling one.
  if [ "$p" = host ] && [ -x build/host/pmusim ]; then export PMUKIT_PMUSIM="$PWD/build/host/pmusim"; fi
  if [[ " ${bad[*]-} " == *" $p "* ]]; then
    echo "    FAILED: last lines of $logdir/$p.log:"
    grep -E 'FAILED|Failed|\*\*\*|error' "$logdir/$p.log" | head -40 | sed 's/^/    /'
    tail -n 15 "$logdir/$p.log" | sed 's/^/    /'
  fi
done

# The host tool on what the firmware really wrote: every profile run's dump must be accepted with
# its own ELF (machine, build-id and the CRC the firmware took of its code in emulator memory) and
# symbolize without a warning. The console logs, and the captured files (docs/capture.md: the
# semihosting file and the debugger's copy, *.pmud).
if [ -x build/host/tools/pmukit ]; then
  for log in build/*/examples/*/*_profile.elf.*.log build/*/examples/*/*_profile.elf.*.pmud; do
    [ -f "$log" ] || continue
    elf="${log%%.elf.*}.elf"
    if build/host/tools/pmukit report "$log" --elf "$elf" --format flat >/dev/null 2>"$logdir/report.err" &&
       [ ! -s "$logdir/report.err" ]; then
      passed=$((passed + 1))
      echo "=== report of $log against its ELF: ok"
    else
      failed=$((failed + 1))
      bad+=("report:$log")
      echo "=== report of $log against its ELF: FAILED"
      sed 's/^/    /' "$logdir/report.err"
    fi
    # A pmusim run also multiplexed a steady workload: pmukit stat's estimates and metrics must be
    # within 2% of the exact counts (examples/common/multiplex_check.hpp, scripts/check_mux_stat.py).
    case "$log" in
      *_profile.elf.*_profile_pmusim.log)
        if python3 scripts/check_mux_stat.py build/host/tools/pmukit "$log" >"$logdir/mux.out" 2>&1; then
          passed=$((passed + 1))
          echo "=== multiplexed estimates of $log: within 2%"
          sed 's/^/    /' "$logdir/mux.out"
        else
          failed=$((failed + 1))
          bad+=("mux:$log")
          echo "=== multiplexed estimates of $log: FAILED"
          sed 's/^/    /' "$logdir/mux.out"
        fi ;;
    esac
    # And every format of it tells the same story (tests/host/dump/format_consistency.cpp), with
    # inlined code as its own functions too (--inline).
    check=build/host/tests/host/dump/pmukit_format_consistency
    [ -x "$check" ] || continue
    for opt in "" --inline; do
      scratch=$(mktemp -d)
      if "$check" build/host/tools/pmukit "$elf" "$log" "$scratch" $opt >"$logdir/consistency.out" 2>&1; then
        passed=$((passed + 1))
        echo "=== every format of $log${opt:+ ($opt)}: the same samples"
      else
        failed=$((failed + 1))
        bad+=("formats${opt}:$log")
        echo "=== every format of $log${opt:+ ($opt)}: FAILED"
        sed 's/^/    /' "$logdir/consistency.out"
      fi
      rm -rf "$scratch"
    done
  done
fi

# Every command the README, docs/ and the examples' READMEs show, run as written (the presets are
# built by now, so the main job and the examples' commands only link and run).
if [ -x tests/docs/run_commands.sh ] && [ $# -eq 0 ]; then
  echo "=== commands in the docs (tests/docs/run_commands.sh)"
  if bash tests/docs/run_commands.sh; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    bad+=("docs-commands")
  fi
fi

if [ -x bench/zero_cost/run_all.sh ] && [ $# -eq 0 ]; then
  echo "=== zero-cost table (all targets)"
  if bash bench/zero_cost/run_all.sh build; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    bad+=("zero-cost")
  fi
fi

if [ -x bench/footprint/footprint.sh ] && [ $# -eq 0 ]; then
  echo "=== profiler footprint per target (bench/footprint)"
  bash bench/footprint/footprint.sh build/footprint || bad+=("footprint")
fi

# docs/figures.md is generated from bench/summary.sh's tables (bench/README.md): regenerated into
# build/figures.md, its deterministic figures must be the committed page's.
if [ -f bench/figures.py ] && [ $# -eq 0 ]; then
  echo "total $(( $(date +%s) - run_start )) $((passed + failed))" >>"$logdir/times.txt"
  echo "=== figures: bench/summary.sh's tables, docs/figures.md regenerated and compared (bench/figures.py)"
  if python3 bench/figures.py --check build; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    bad+=("figures")
  fi
fi

if [ ${#bad[@]} -gt 0 ]; then echo "failing: ${bad[*]}"; fi
echo "tests: $passed passed, $failed failed"
[ $failed -eq 0 ] && [ ${#bad[@]} -eq 0 ]
