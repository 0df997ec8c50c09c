# The Arm MPS2 AN386 board (Cortex-M4) as a unit a firmware project links (cmake/PmukitBoards.cmake):
# pmukit::board::mps2-an386. No C library glue: newlib's mem* and str* link, printf and malloc do
# not (no system calls here); the console is board::putc. -nostartfiles: board/board.cpp's
# board_reset replaces crt0. Built only where the toolchain's flags are the Cortex-M4's
# (cmake/toolchains/arm-none-eabi.cmake with -DPMU_ARM_CPU=cortex-m4).
pmukit_board(mps2-an386 ARCH arm DIR mps2_an386
  SOURCES board/vectors.S board/board.cpp
  PROFILE_SOURCES board/profile_entry.cpp
  LINKER_SCRIPT board/mps2.ld
  LINK_OPTIONS -nostartfiles -Wl,--gc-sections
  NO_LIBC
  TOOLCHAIN_FLAGS -mcpu=cortex-m4
  TOOLCHAIN_HINT "configure with cmake/toolchains/arm-none-eabi.cmake and -DPMU_ARM_CPU=cortex-m4 (the cortex-m4 preset)"
  QEMU qemu-system-arm -M mps2-an386 -nographic -semihosting -icount shift=0,sleep=off)
