#!/usr/bin/env bash
# scripts/profile.sh's errors: each bad command line or missing build ends with one stderr line
# "profile.sh: ..." and the exit status its --help documents (2: bad command line, 3: a tool or
# build missing), before anything is built or run. Needs no cross build: the script runs from a
# copy in a scratch tree with no build/, so --no-build finds nothing built.
#   tests/scripts/profile_errors.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scripts"
cp "$root/scripts/profile.sh" "$root/scripts/targets.sh" "$work/scripts/"
# ELF headers, 52 bytes: 32-bit (class 1), byte order (1 little, 2 big), e_machine at offset 18,
# e_flags at 36 (MIPS: the ISA level in bits 31:28).
byte() { printf "\\$(printf %03o "$1")"; }
zeros() { head -c "$1" /dev/zero; }
elf32() {  # elf32 FILE DATA MACHINE [FLAGS_TOP_BYTE]
  local m=$3 f=${4:-0}
  {
    printf '\177ELF'; byte 1; byte "$2"; byte 1; zeros 9; byte 2; byte 0
    if [ "$2" = 1 ]; then byte $((m & 255)); byte $((m >> 8)); else byte $((m >> 8)); byte $((m & 255)); fi
    zeros 16; byte "$f"; zeros 15
  } >"$1"
}
elf32 "$work/arm.elf" 1 40
elf32 "$work/ppc.elf" 2 20
elf32 "$work/mips32r2.elf" 2 8 0x70
elf32 "$work/arm_be.elf" 2 40
{ printf '\177ELF'; byte 2; byte 1; byte 1; zeros 57; } >"$work/elf64.elf"
printf 'root:x:0:0:root:/root:/bin/bash\n' >"$work/passwd"

failed=0
# expect STATUS MESSAGE_PREFIX ARGS...: the exit status and exactly one stderr line, starting
# "profile.sh: " MESSAGE_PREFIX.
expect() {
  local want=$1 prefix=$2
  shift 2
  local err status
  err=$(cd / && bash "$work/scripts/profile.sh" "$@" 2>&1 >/dev/null)
  status=$?
  if [ $status -ne "$want" ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || [[ "$err" != "profile.sh: $prefix"* ]]; then
    echo "FAIL: profile.sh $*: status $status (want $want), stderr:"
    printf '%s\n' "$err" | sed 's/^/    /'
    echo "    (want one line starting 'profile.sh: $prefix')"
    failed=1
  else
    echo "ok: profile.sh $*: $status, $err"
  fi
}

# 2: a bad command line.
expect 2 "unknown board 'pxa255'" pxa255
expect 2 "unknown board 'pxa255'" --board pxa255
expect 2 "--board needs a value" --board
expect 2 "--elf needs a file" --elf
expect 2 "--elf needs a file" --elf=
expect 2 "--sim and --qemu: choose one" e500 --sim --qemu
expect 2 "--elf $work/missing.elf: no such file" --elf "$work/missing.elf"
expect 2 "--elf $work: not a readable file" --elf "$work"
expect 2 "--elf $work/passwd: not an ELF file" --elf "$work/passwd"
expect 2 "--elf /etc/passwd: not an ELF file" --elf /etc/passwd
expect 2 "--elf $work/elf64.elf: a 64-bit ELF" --elf "$work/elf64.elf"
expect 2 "--elf $work/ppc.elf: e_machine 20, board xscale runs ARM (e_machine 40)" xscale --elf "$work/ppc.elf"
expect 2 "--elf $work/arm.elf: e_machine 40, board e500 runs PowerPC (e_machine 20)" e500 --elf "$work/arm.elf"
expect 2 "--elf $work/arm_be.elf: big-endian, board xscale runs little-endian ARM" --elf "$work/arm_be.elf"
expect 2 "--elf $work/mips32r2.elf: MIPS ISA level 7 in e_flags; pmusim's rm7000 machine runs MIPS IV" \
  rm7000 --sim --elf "$work/mips32r2.elf"
expect 2 "--sim: pmusim has no machine for board armv7a" armv7a --sim
# 3: nothing built (--no-build in a tree without build/).
expect 3 "build/xscale/examples/xscale/xscale_profile.elf is not built (drop --no-build)" --no-build
expect 3 "build/netburst/examples/pc/netburst_profile.elf is not built" netburst --qemu --no-build
expect 3 "build/host/tools/pmukit is not built (drop --no-build)" xscale --no-build --elf "$work/arm.elf"
expect 3 "build/host/tools/pmukit is not built" rm7000 --qemu --no-build --elf "$work/mips32r2.elf"
# --help: the statuses documented, status 0.
help=$(bash "$work/scripts/profile.sh" --help)
for line in "  2  a bad command line" "  3  a tool or build is missing" "  4  the run or the report failed" \
            "  1  the firmware exited with another status" "  --sim " "  --qemu "; do
  if [[ "$help" != *"$line"* ]]; then echo "FAIL: --help lacks '$line'"; failed=1; fi
done
[ $failed -eq 0 ] && echo "profile.sh errors: all as documented"
exit $failed
