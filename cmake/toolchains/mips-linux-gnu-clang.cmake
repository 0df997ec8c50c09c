# Big-endian MIPS compiled by clang 14 (users bring GCC or clang); assembled and linked by
# mips-linux-gnu-gcc (clang-gnu-cross.cmake) with -march=${PMU_MIPS_ARCH}, as in the GCC build (the
# targets' TOOLCHAIN_ARGS, cmake/targets.cmake). clang compiles o32 only for a 32-bit ISA it knows:
# where it refuses the -march (a CPU it does not know, or a 64-bit ISA: "ABI 'o32' is not supported")
# its C++ is MIPS II, the 32-bit subset of every later MIPS ISA, and the board's .S files keep the
# -march under GNU as. clang's integrated assembler has no cfc0/ctc0 (RM7000 Interrupt Control):
# hal/core/bus/cp0.hpp emits their words under clang.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR mips)
set(PMU_TARGET_TRIPLE mips-linux-gnu)
set(PMU_MIPS_ARCH "mips32r2" CACHE STRING "-march for MIPS builds (the targets' TOOLCHAIN_ARGS, cmake/targets.cmake)")
find_program(PMU_CLANG NAMES clang clang-14 REQUIRED)
execute_process(COMMAND ${PMU_CLANG} --target=mips-linux-gnu -march=${PMU_MIPS_ARCH} -EB -mabi=32 -fsyntax-only -x c /dev/null
                RESULT_VARIABLE _clang_refuses OUTPUT_QUIET ERROR_QUIET)
if(_clang_refuses)
  set(_clang_arch mips2)
else()
  set(_clang_arch ${PMU_MIPS_ARCH})
endif()
set(PMU_CLANG_FLAGS "-march=${_clang_arch} -EB -mabi=32")
set(PMU_GNU_FLAGS "-march=${PMU_MIPS_ARCH} -EB -mabi=32")
include(${CMAKE_CURRENT_LIST_DIR}/clang-gnu-cross.cmake)
