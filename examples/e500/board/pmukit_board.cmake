# QEMU's mpc8544ds (an e500v2 core) as a unit a firmware project links (cmake/PmukitBoards.cmake):
# pmukit::board::mpc8544ds. No C library comes with the toolchain for bare metal (Debian's
# powerpc-linux-gnu brings glibc): examples/common/libc/ gives printf, malloc and the string
# functions (docs/your-program.md), its console and exit, runtime.cpp mem*,
# libgcc the rest. -icount shift=0: one instruction per virtual nanosecond, so the decrementer's
# samples fall in the same places every run.
pmukit_board(mpc8544ds ARCH powerpc DIR e500
  SOURCES board/start.S board/pmu_fast.S board/board.cpp
  RUNTIME_SOURCES ../common/runtime.cpp ../common/libc/libc.cpp ../common/libc/board_glue.cpp
  PROFILE_SOURCES board/profile_entry.cpp
  LINKER_SCRIPT board/e500.ld
  COMPILE_OPTIONS -fno-pic -fno-pie
  LINK_OPTIONS -nostdlib -static -no-pie -Wl,--gc-sections -Wl,--no-warn-rwx-segments
  LINK_LIBRARIES gcc
  QEMU qemu-system-ppc -M mpc8544ds -nographic -no-reboot -icount shift=0,sleep=off)
