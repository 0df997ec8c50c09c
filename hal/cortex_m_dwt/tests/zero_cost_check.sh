#!/usr/bin/env bash
# The DWT's zero-cost probe (zero_cost_probe.cpp) on a Cortex-M4 build, in host builds too: the
# zero-cost gate (bench/zero_cost/check.py, as the cortex-m4 preset's zero_cost_cortex-m4 runs it),
# and each driver_read_<counter> pair disassembling to exactly the same instructions (registers and
# all), i.e. read<0>() is the one load of DWT_CYCCNT a hand accessor is.
# usage: zero_cost_check.sh REPO_ROOT WORK_DIR. Exit 77 (ctest: skipped) without arm-none-eabi-g++.
set -euo pipefail
repo=$1 work=$2
command -v arm-none-eabi-g++ >/dev/null || { echo "no arm-none-eabi-g++: skipped"; exit 77; }
mkdir -p "$work"
obj=$work/zero_cost_probe.o
# The zero-cost bench's flags (bench/zero_cost/CMakeLists.txt): -fno-ipa-icf keeps identical
# ours_/hand_ bodies two functions.
arm-none-eabi-g++ -std=c++20 -mcpu=cortex-m4 -mthumb -O2 -g -ffreestanding -fno-exceptions -fno-rtti \
  -fno-threadsafe-statics -fno-ipa-icf -ffunction-sections \
  -Wall -Wextra -Werror -I"$repo" -c "$repo/hal/cortex_m_dwt/tests/zero_cost_probe.cpp" -o "$obj"
fail=0
python3 "$repo/bench/zero_cost/check.py" --objdump arm-none-eabi-objdump --target cortex-m4 "$obj" || fail=1
dis=$work/zero_cost_probe.txt
arm-none-eabi-objdump -d --no-show-raw-insn "$obj" > "$dis"
body() {  # the instructions of one function, addresses and literal comments dropped
  awk -v f="<$1>:" '$2 == f {on = 1; next} on && /^$/ {exit} on {sub(/^ *[0-9a-f]+:\t/, ""); sub(/\t?@.*/, ""); print}' "$dis"
}
for op in driver_read_cyccnt driver_read_cpicnt; do
  ours=$(body "ours_$op") hand=$(body "hand_$op")
  n=$(printf '%s\n' "$ours" | grep -c .)
  if [ -z "$ours" ] || [ "$ours" != "$hand" ]; then
    echo "$op: FAILED, ours differs from hand"; echo "ours:"; echo "$ours"; echo "hand:"; echo "$hand"; fail=1
  else
    echo "$op: ok, $n instructions as hand ($(echo $ours | tr '\n' ';'))"
  fi
done
exit $fail
