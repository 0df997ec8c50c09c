# The PXA270 "mainstone" board as a unit a firmware project links (cmake/PmukitBoards.cmake):
# pmukit::board::mainstone. newlib is the C library (the toolchain's): board/newlib_syscalls.cpp
# gives it the UART and exit, examples/common/libc/newlib_stubs.cpp a heap, so printf and malloc
# work, examples/common/libc/board_glue.cpp the board's init on first use (pmukit_board_init; its
# console glue for boards without newlib is left out by --gc-sections). -nostartfiles:
# board/startup.S replaces crt0.
pmukit_board(mainstone ARCH arm DIR xscale
  SOURCES board/startup.S board/vectors.S board/pmu_fast.S board/board.cpp board/newlib_syscalls.cpp ../common/libc/newlib_stubs.cpp
          ../common/libc/board_glue.cpp
  PROFILE_SOURCES board/profile_entry.cpp
  LINKER_SCRIPT board/mainstone.ld
  LINK_OPTIONS -nostartfiles -Wl,--gc-sections
  QEMU qemu-system-arm -M mainstone -nographic -semihosting -icount shift=0,sleep=off)
