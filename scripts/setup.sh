#!/usr/bin/env bash
# Installs exactly the Debian 12 packages the builds, tests and emulators need.
# Idempotent: packages already present are skipped, so a second run is quick.
set -euo pipefail

PKGS=(
  # host build and tests
  cmake ninja-build g++ libgtest-dev libgmock-dev pkg-config
  # host tool: ELF/DWARF symbolization, fuzzing
  libdw-dev libelf-dev clang libclang-rt-14-dev
  # host tool: pprof output (tools/pprof/), and protoc --decode in its test; LLVM's DWARF library
  # for the call frame information libdw cannot read (MIPS: tools/elf/unwind_llvm.hpp)
  protobuf-compiler libprotobuf-dev llvm-14-dev
  # XScale (the only target with newlib in Debian)
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
  # MIPS (CPS and RM7000), e500, NetBurst cross compilers.
  # Never g++-multilib: it conflicts with every gcc-*-linux-gnu cross compiler.
  g++-mips-linux-gnu g++-powerpc-linux-gnu g++-i686-linux-gnu
  binutils-mips-linux-gnu binutils-powerpc-linux-gnu binutils-i686-linux-gnu
  # emulators; Unicorn for pmusim (tools/sim/)
  libunicorn-dev
  qemu-system-arm qemu-system-mips qemu-system-ppc qemu-system-x86 qemu-user
  # capture from a debugger (docs/capture.md): GDB for every target architecture
  gdb-multiarch
  # the report formats' own consumers, run by the tests: callgrind_annotate (gprof comes with
  # each cross binutils above)
  valgrind
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
