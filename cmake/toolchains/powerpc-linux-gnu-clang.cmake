# e500v2 (MPC8548 class) firmware compiled by clang 14 (users bring GCC or clang); assembled and
# linked by powerpc-linux-gnu-gcc (clang-gnu-cross.cmake). clang takes GCC's -mcpu=8548 as LLVM's
# e500 processor (Book E, isel, SPE with e500v2's double-precision efd* instructions); a name clang
# 14 does not know (e500v2) silently becomes generic PowerPC. -msoft-float turns SPE floating point
# off: floating point is libgcc calls in GCC's soft-float ABI, as in the GCC build. The PMR bus's
# `.machine e500` lets clang's integrated assembler take mfpmr/mtpmr (GCC's -Wa,-me500 is for GNU
# as: the .S files).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR powerpc)
set(PMU_TARGET_TRIPLE powerpc-linux-gnu)
set(PMU_CLANG_FLAGS "-mcpu=8548 -msoft-float")
set(PMU_GNU_FLAGS "-mcpu=8548 -msoft-float -Wa,-me500")
include(${CMAKE_CURRENT_LIST_DIR}/clang-gnu-cross.cmake)
