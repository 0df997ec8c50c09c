#!/usr/bin/env bash
# A profiling example built by clang (cmake/toolchains/<triple>-clang.cmake) instead of GCC, in a
# build tree of its own, then the listed ctests of that tree (QEMU and pmusim) with the same checks
# as the GCC image. Fails if any listed test is not registered there. The ctests
# <example>_clang (pmu_add_clang_test, cmake/PmuFirmware.cmake) run it.
#   examples/common/clang_profile.sh SOURCE_DIR BUILD_DIR TOOLCHAIN FIRMWARE PMUSIM TEST... [-DVAR=VALUE...]
# TOOLCHAIN: a file in cmake/toolchains/; PMUSIM: pmusim for the pmusim tests, or "".
set -euo pipefail
src=$1 build=$2 toolchain=$3 firmware=$4 sim=$5
shift 5
tests=() defs=()
for a in "$@"; do
  case $a in
    -D*) defs+=("$a") ;;
    *) tests+=("$a") ;;
  esac
done
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  --toolchain "$src/cmake/toolchains/$toolchain" -DPMUKIT_BUILD_TESTS=OFF \
  ${sim:+-DPMU_SIM_EXECUTABLE="$sim"} "${defs[@]}" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j2 --target "$firmware.elf"
cd "$build"
regex="^($(IFS='|'; echo "${tests[*]}"))\$"
found=$(ctest -N -R "$regex" | grep -c '^ *Test *#' || true)
if [ "$found" -ne "${#tests[@]}" ]; then
  echo "clang_profile: $found of ${#tests[@]} tests registered in $build: ${tests[*]}"
  exit 1
fi
ctest -R "$regex" --output-on-failure
