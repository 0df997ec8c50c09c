# Big-endian MIPS compiled by clang 14 (users bring GCC or clang); assembled and linked by
# mips-linux-gnu-gcc (clang-gnu-cross.cmake). CPS: -march=mips32r2, as in the GCC build. RM7000
# (PMU_MIPS_ARCH=rm7000): clang knows no rm7000, and refuses o32 on every 64-bit ISA (mips3, mips4:
# "ABI 'o32' is not supported"), so its C++ is MIPS II, the 32-bit subset of the RM7000's MIPS IV;
# the board's .S files stay -march=rm7000 under GNU as. clang's integrated assembler has no cfc0/ctc0
# (RM7000 Interrupt Control): hal/core/bus/cp0.hpp emits their words under clang.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR mips)
set(PMU_TARGET_TRIPLE mips-linux-gnu)
set(PMU_MIPS_ARCH "mips32r2" CACHE STRING "-march for MIPS builds (mips32r2 for CPS, rm7000 for RM7000)")
if(PMU_MIPS_ARCH STREQUAL "rm7000")
  set(_clang_arch mips2)
else()
  set(_clang_arch ${PMU_MIPS_ARCH})
endif()
set(PMU_CLANG_FLAGS "-march=${_clang_arch} -EB -mabi=32")
set(PMU_GNU_FLAGS "-march=${PMU_MIPS_ARCH} -EB -mabi=32")
include(${CMAKE_CURRENT_LIST_DIR}/clang-gnu-cross.cmake)
