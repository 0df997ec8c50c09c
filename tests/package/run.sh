#!/usr/bin/env bash
# A user's project consumes pmukit every way the README offers, on this machine's toolchains:
#   1. cmake --install of a host build: headers, the pmukit tool, pmukitConfig.cmake + version
#   2. find_package(pmukit) with g++, and with clang++     (consumer_host built and run)
#   3. add_subdirectory, and FetchContent from this git repository's HEAD (run; no tool, test,
#      example or pmusim target may appear in the user's build)
#   4. a Cortex-M4 toolchain file (arm-none-eabi-gcc), by add_subdirectory and by the package
#      (consumer_firmware built; PRIMASK used for the interrupt mask)
# usage: tests/package/run.sh HOST_BUILD_DIR      (a built host tree, e.g. build/host)
# Exit 0 when every way works; otherwise the failing step's log and exit 1.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: $0 HOST_BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
consumer=$repo/tests/package/consumer
failed=0

step() {  # step NAME COMMAND...: runs it quietly, shows the log when it fails
  local name=$1; shift
  if "$@" >"$work/$name.log" 2>&1; then
    echo "package: $name: ok"
  else
    echo "package: $name: FAILED"; sed 's/^/    /' "$work/$name.log" | tail -n 40
    failed=1
  fi
}
installed() {
  cmake --install "$build" --prefix "$prefix" &&
  test -f "$prefix/include/pmukit/hal/xscale/driver.hpp" &&
  test -f "$prefix/include/pmukit/profiler/profiler.hpp" &&
  test -f "$prefix/share/cmake/pmukit/pmukitConfig.cmake" &&
  test -f "$prefix/share/cmake/pmukit/pmukitConfigVersion.cmake" &&
  test -x "$prefix/bin/pmukit-llvm-cfi" &&
  "$prefix/bin/pmukit" --version &&
  ! find "$prefix/include" -path '*/tests/*' | grep .
}
host() {  # host NAME CMAKE-ARGS...: configure, build and run consumer_host
  local dir=$work/$1; shift
  cmake -S "$consumer" -B "$dir" "$@" && cmake --build "$dir" && "$dir/consumer_host"
}
firmware() {  # firmware NAME CMAKE-ARGS...: a Cortex-M4 build of consumer_firmware
  local dir=$work/$1; shift
  cmake -S "$consumer" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$consumer/cortex-m4.cmake" "$@" &&
  cmake --build "$dir" && arm-none-eabi-objdump -d "$dir/libconsumer_firmware.a" > "$dir/disassembly.txt" &&
  grep -qi 'msr.*primask' "$dir/disassembly.txt"
}

step install installed
step find_package-gcc host pkg-gcc -DPMUKIT_CONSUME=package -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER=g++
if command -v clang++ >/dev/null; then
  step find_package-clang host pkg-clang -DPMUKIT_CONSUME=package -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER=clang++
else
  echo "package: find_package-clang: skipped (no clang++)"
fi
step add_subdirectory host subdir -DPMUKIT_CONSUME=subdirectory -DPMUKIT_SOURCE_DIR="$repo"
if rev=$(git -C "$repo" rev-parse HEAD 2>/dev/null); then
  step fetchcontent host fetch -DPMUKIT_CONSUME=fetchcontent -DPMUKIT_GIT="$repo" -DPMUKIT_GIT_TAG="$rev"
else
  echo "package: fetchcontent: skipped ($repo is not a git checkout)"
fi
if command -v arm-none-eabi-g++ >/dev/null; then
  step cortex-m4-subdirectory firmware m4-subdir -DPMUKIT_CONSUME=subdirectory -DPMUKIT_SOURCE_DIR="$repo"
  step cortex-m4-package firmware m4-pkg -DPMUKIT_CONSUME=package -Dpmukit_DIR="$prefix/share/cmake/pmukit"
else
  echo "package: cortex-m4: skipped (no arm-none-eabi-g++)"
fi
exit $failed
