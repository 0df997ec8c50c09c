#!/usr/bin/env bash
# The profiling example built by clang (cmake/toolchains/arm-none-eabi-clang.cmake) instead of GCC,
# linked against the GNU Arm toolchain's newlib, then run on QEMU's mainstone and under pmusim with
# the same checks as the GCC image (ctest xscale_profile_clang).
#   examples/xscale/clang_profile.sh SOURCE_DIR BUILD_DIR [PMUSIM]
set -euo pipefail
src=$1 build=$2 sim=${3:-}
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  --toolchain "$src/cmake/toolchains/arm-none-eabi-clang.cmake" -DPMU_PRESET=xscale \
  ${sim:+-DPMU_SIM_EXECUTABLE="$sim"} >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
cmake --build "$build" --target xscale_profile.elf
cd "$build"
ctest -R "xscale_profile_qemu${sim:+|xscale_profile_pmusim}" --output-on-failure
