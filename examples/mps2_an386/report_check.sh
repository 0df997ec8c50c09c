#!/usr/bin/env bash
# The MPS2 AN386 example's dump read back (ctest cortex_m4_profile_report): `pmukit report` on the
# QEMU run's console log must show the program's regions with their calls (crc32 40, sort 1,
# fib 1, main 1) and crc32 as the function with the most SysTick samples.
# usage: report_check.sh PMUKIT LOG ELF; exit 77 (skipped) without the host tool or the log.
set -uo pipefail
pmukit=$1 log=$2 elf=$3
[ -x "$pmukit" ] || { echo "no host pmukit at $pmukit (build the host preset): skipped"; exit 77; }
[ -f "$log" ] || { echo "no log $log (run cortex_m4_profile_qemu first): skipped"; exit 77; }
table=$("$pmukit" report "$log" --elf "$elf" --format table) || { echo "REPORT FAIL: pmukit report failed"; exit 1; }
echo "$table"
fail=0
for want in "crc32 40" "sort 1" "fib 1" "main 1"; do
  set -- $want
  grep -Eq "^ +$1 +$2( |$)" <<<"$table" || { echo "REPORT FAIL: no region $1 with $2 calls"; fail=1; }
done
sed -n '/^ *samples  *percent/{n;p;q}' <<<"$table" | grep -q 'examples::work::crc32' ||
  { echo "REPORT FAIL: crc32 is not the function with the most samples"; fail=1; }
[ $fail -eq 0 ] && echo "REPORT PASS"
exit $fail
