#!/usr/bin/env bash
# The DWT's zero-cost check on a Cortex-M4 build: each ours_<op> in zero_cost_probe.cpp must
# disassemble to exactly its hand_<op> (registers and all), i.e. read<0>() is the one load of
# DWT_CYCCNT a hand accessor is. usage: zero_cost_check.sh REPO_ROOT WORK_DIR
# Exit 77 (ctest: skipped) without arm-none-eabi-g++.
set -euo pipefail
repo=$1 work=$2
command -v arm-none-eabi-g++ >/dev/null || { echo "no arm-none-eabi-g++: skipped"; exit 77; }
mkdir -p "$work"
obj=$work/zero_cost_probe.o
arm-none-eabi-g++ -std=c++20 -mcpu=cortex-m4 -mthumb -O2 -ffreestanding -fno-exceptions -fno-rtti \
  -Wall -Wextra -Werror -I"$repo" -c "$repo/hal/cortex_m_dwt/tests/zero_cost_probe.cpp" -o "$obj"
dis=$work/zero_cost_probe.txt
arm-none-eabi-objdump -d --no-show-raw-insn "$obj" > "$dis"
body() {  # the instructions of one function, addresses and literal comments dropped
  awk -v f="<$1>:" '$2 == f {on = 1; next} on && /^$/ {exit} on {sub(/^ *[0-9a-f]+:\t/, ""); sub(/\t?@.*/, ""); print}' "$dis"
}
fail=0
for op in read_cyccnt read_cpicnt; do
  ours=$(body "ours_$op") hand=$(body "hand_$op")
  n=$(printf '%s\n' "$ours" | grep -c .)
  loads=$(printf '%s\n' "$ours" | grep -c '^ldr.*\[r[0-9], #[0-9]*\]$' || true)
  if [ -z "$ours" ] || [ "$ours" != "$hand" ]; then
    echo "$op: FAILED, ours differs from hand"; echo "ours:"; echo "$ours"; echo "hand:"; echo "$hand"; fail=1
  else
    echo "$op: ok, $n instructions as hand ($(echo $ours | tr '\n' ';'))"
  fi
done
exit $fail
