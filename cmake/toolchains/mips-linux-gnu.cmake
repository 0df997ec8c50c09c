# Big-endian MIPS, -march=${PMU_MIPS_ARCH} (mips32r2 unless told: the targets' TOOLCHAIN_ARGS,
# cmake/targets.cmake).
# The linux-gnu compiler doubles as a bare-metal compiler with -ffreestanding -nostdlib
# (firmware targets add those); host tests link normally and run under qemu-mips.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR mips)
set(PMU_TARGET_TRIPLE mips-linux-gnu)
set(PMU_MIPS_ARCH "mips32r2" CACHE STRING "-march for MIPS builds (the targets' TOOLCHAIN_ARGS, cmake/targets.cmake)")
set(CMAKE_C_COMPILER mips-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER mips-linux-gnu-g++)
set(CMAKE_ASM_COMPILER mips-linux-gnu-gcc)
set(CMAKE_OBJDUMP mips-linux-gnu-objdump CACHE FILEPATH "")
set(CMAKE_SIZE mips-linux-gnu-size CACHE FILEPATH "")
set(_pmu_flags "-march=${PMU_MIPS_ARCH} -EB -mabi=32")
set(CMAKE_C_FLAGS_INIT "${_pmu_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_pmu_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_pmu_flags}")
set(CMAKE_FIND_ROOT_PATH /usr/mips-linux-gnu)
# Debian's mips-linux-gnu C library is built for mips32r2: an rm7000 (MIPS IV) object cannot link
# against it, so compiler checks build static libraries there (other ISAs' builds are freestanding).
if(NOT PMU_MIPS_ARCH STREQUAL "mips32r2")
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-mips -L /usr/mips-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
