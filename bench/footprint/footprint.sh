#!/usr/bin/env bash
# Footprint of the profiler per target: .text/.rodata/.data/.bss of the minimal job (one counter
# on a fixed slot, a calibrated fast region; no probe, sampling or dump writer), of counting (probe,
# one counter, calibrated region, start/stop/read) and of counting + sampling (Sampler, 256-entry
# ring, ISR entry). Compiled with the firmware flags (-O2, freestanding, -ffunction-sections) and
# linked relocatably with --gc-sections from footprint_main (what a firmware link keeps): the
# sizes include the driver and everything the profiler pulls in, nothing else. Flash is what the
# image stores: .text + .rodata + .data (initialised data is copied from flash at start-up); .bss
# takes RAM only. The last column names the three largest symbols (bytes). Goal for "minimal"
# (issue 39 item 6): <= 512 B of flash (check.sh gates it); the same job written by hand is 228 B
# on XScale. FOOTPRINT_CONFIGS="minimal" builds that configuration alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
common="-std=c++20 -O2 -ffreestanding -fno-exceptions -fno-rtti -fno-threadsafe-statics -ffunction-sections -fdata-sections -Wall -Wextra -Werror -I$root"
# The targets (cmake/targets.cmake, through scripts/targets.sh): compiler, CPU flags, code model and
# the PMU's driver on its silicon bus (PMU_SILICON_DRIVER in hal/<pmu>/pmu.cmake).
# shellcheck source=../../scripts/targets.sh
. "$root/scripts/targets.sh"
printf '| target | backend | configuration | .text | .rodata | .data | .bss | flash | largest symbols |\n|---|---|---|---|---|---|---|---|---|\n'
run() {  # target
  local target=$1 cxx=${pmu_toolchain[$1]}-g++ backend=${pmu_driver[$1]} h
  local flags="${pmu_flags[$1]} ${pmu_code_model[$1]}"
  # The driver: footprint.cpp's Pmu, from a header written here.
  local driver="$out/$target-driver.hpp"
  { echo "#pragma once"; for h in ${pmu_driver_headers[$1]}; do echo "#include \"$h\""; done
    echo "using Pmu = $backend;"; } >"$driver"
  backend=${backend//pmu::/}
  for cfg in ${FOOTPRINT_CONFIGS:-minimal counting sampling}; do
    local s=0 m=0; [ $cfg = sampling ] && s=1; [ $cfg = minimal ] && m=1
    local obj="$out/$target-$cfg.o"
    # shellcheck disable=SC2086
    $cxx $common $flags -include "$driver" -DPMU_FOOTPRINT_SAMPLING=$s -DPMU_FOOTPRINT_MINIMAL=$m -c "$here/footprint.cpp" -o "$obj.o"
    local keep=(-e footprint_main); [ $cfg = sampling ] && keep+=(-u footprint_pmu_irq)
    ${cxx%g++}ld -r --gc-sections "${keep[@]}" "$obj.o" -o "$obj"
    # .eh_frame is left out because every board's linker script discards it (-fno-exceptions
    # firmware never unwinds). PowerPC's small data: .sdata2 is read-only (.rodata), .sdata and
    # .sbss are .data and .bss.
    ${cxx%g++}objcopy --remove-section=.eh_frame "$obj"
    local text rodata data bss
    read -r text rodata data bss < <(${cxx%g++}size -A "$obj" | awk '
      $1 ~ /^\.text/ {t += $2} $1 ~ /^\.(rodata|sdata2)/ {r += $2}
      $1 ~ /^\.s?data/ && $1 !~ /^\.sdata2/ {d += $2} $1 ~ /^\.s?bss/ {b += $2}
      END {print t+0, r+0, d+0, b+0}')
    # Largest symbols: demangled, template arguments and parameter lists folded to keep them short.
    local top
    top=$(${cxx%g++}nm --size-sort -S -C --radix=d "$obj" | tail -n3 | tac |
          awk '{sz=$2+0; $1=$2=$3=""; n=$0; while (gsub(/<[^<>]*>/, "", n)) {} gsub(/\([^()]*\)/, "", n);
                sub(/^ +/, "", n); sub(/ \[clone.*/, "", n); printf "%s%s %d", sep, n, sz; sep="; "}')
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$target" "$backend" "$cfg" "$text" "$rodata" "$data" "$bss" \
      $((text + rodata + data)) "$top"
  done
}
for t in "${pmu_targets[@]}"; do run "$t"; done
