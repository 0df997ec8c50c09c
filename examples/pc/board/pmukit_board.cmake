# QEMU's PC with a Pentium 4 CPU model as a unit a firmware project links
# (cmake/PmukitBoards.cmake): pmukit::board::pc-p4. No C library comes with the toolchain for bare
# metal (Debian's i686-linux-gnu brings glibc): examples/common/libc/ gives printf, malloc and the
# string functions (docs/your-program.md), its console and exit, runtime.cpp
# mem*, libgcc the rest. Frame pointers kept: the interrupt names the interrupted function's caller
# from EBP. QEMU's Multiboot loader boots the ELF; isa-debug-exit ends the run with status
# (code << 1) | 1, which <name>.qemu.sh turns back into the program's (DEBUG_EXIT).
pmukit_board(pc-p4 ARCH i686 DIR pc
  SOURCES board/start.S board/pmu_fast.S board/board.cpp
  RUNTIME_SOURCES ../common/runtime.cpp ../common/libc/libc.cpp ../common/libc/board_glue.cpp
  PROFILE_SOURCES board/profile_entry.cpp
  LINKER_SCRIPT board/pc.ld
  COMPILE_OPTIONS -fno-pic -fno-pie $<$<COMPILE_LANGUAGE:C,CXX>:-fno-omit-frame-pointer>
  LINK_OPTIONS -nostdlib -static -no-pie -Wl,--gc-sections -Wl,--no-warn-rwx-segments
  LINK_LIBRARIES gcc
  DEBUG_EXIT
  QEMU qemu-system-i386 -cpu qemu32,family=15,model=2,vendor=GenuineIntel -display none -serial stdio
       -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04 -icount shift=0,sleep=off)
