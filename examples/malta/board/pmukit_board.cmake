# QEMU's Malta as two units a firmware project links (cmake/PmukitBoards.cmake), one per PMU, each
# with the -march of its core, which the toolchain file sets (cmake/toolchains/mips-linux-gnu.cmake:
# PMU_MIPS_ARCH, mips32r2 unless told):
#   pmukit::board::malta-p5600  MIPS32r2 on a P5600 cluster (-smp 2: the CPS exists only with two
#                               or more VPs; VP 1 stays parked): the CM's performance counters
#   pmukit::board::malta-5kc    RM7000 code (MIPS IV) on QEMU's 5Kc, the closest core QEMU has;
#                               under pmusim an RM7000 with its counter
# No C library comes with the toolchain for bare metal (Debian's mips-linux-gnu brings glibc):
# examples/common/libc/ gives printf, malloc and the string functions (docs/your-program.md),
# libc/board_glue.cpp its console and exit, runtime.cpp mem*. No libgcc (Debian's is MIPS32r2
# code, which a MIPS IV image cannot link): board/int64.cpp has the 64-bit helpers. UHI exit
# (-semihosting): QEMU's exit status is the program's.
set(_pmukit_malta_sources board/start.S board/board.cpp board/int64.cpp)
set(_pmukit_malta_options -mno-abicalls -fno-pic -G0)
set(_pmukit_malta_link -nostdlib -static -no-pie -Wl,--gc-sections -Wl,--no-warn-rwx-segments)
pmukit_board(malta-p5600 ARCH mips DIR malta
  SOURCES ${_pmukit_malta_sources}
  RUNTIME_SOURCES ../common/runtime.cpp ../common/libc/libc.cpp ../common/libc/board_glue.cpp
  PROFILE_SOURCES board/profile_entry_cps.cpp
  LINKER_SCRIPT board/malta.ld
  COMPILE_OPTIONS ${_pmukit_malta_options}
  TOOLCHAIN_FLAGS -march=mips32r2 TOOLCHAIN_HINT "configure with -DPMU_MIPS_ARCH=mips32r2 (mips-linux-gnu.cmake)"
  LINK_OPTIONS ${_pmukit_malta_link}
  QEMU qemu-system-mips -M malta -cpu P5600 -smp 2 -nographic -no-reboot -semihosting -icount shift=0,sleep=off)
pmukit_board(malta-5kc ARCH mips DIR malta
  SOURCES ${_pmukit_malta_sources}
  RUNTIME_SOURCES ../common/runtime.cpp ../common/libc/libc.cpp ../common/libc/board_glue.cpp
  PROFILE_SOURCES board/profile_entry_rm7000.cpp
  LINKER_SCRIPT board/malta.ld
  COMPILE_OPTIONS ${_pmukit_malta_options}
  TOOLCHAIN_FLAGS -march=rm7000 TOOLCHAIN_HINT "configure with -DPMU_MIPS_ARCH=rm7000 (mips-linux-gnu.cmake)"
  LINK_OPTIONS ${_pmukit_malta_link}
  QEMU qemu-system-mips64 -M malta -cpu 5Kc -nographic -no-reboot -semihosting -icount shift=0,sleep=off)
unset(_pmukit_malta_sources)
unset(_pmukit_malta_options)
unset(_pmukit_malta_link)
