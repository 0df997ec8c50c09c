# NetBurst (Pentium 4), 32-bit, compiled by clang 14 (users bring GCC or clang); assembled and
# linked by i686-linux-gnu-gcc (clang-gnu-cross.cmake). No MMX/SSE, as in the GCC build.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(PMU_TARGET_TRIPLE i686-linux-gnu)
set(PMU_CLANG_FLAGS "-march=pentium4 -mno-sse -mno-mmx")
set(PMU_GNU_FLAGS "${PMU_CLANG_FLAGS}")
include(${CMAKE_CURRENT_LIST_DIR}/clang-gnu-cross.cmake)
