# QEMU "virt" with a Cortex-A15 (ARMv7-A) as a unit a firmware project links
# (cmake/PmukitBoards.cmake): pmukit::board::virt-a15. Startup, vectors (VBAR), PL011, GICv2, the
# generic timer and semihosting exit; newlib is the C library (the toolchain's):
# board/newlib_syscalls.cpp gives it the UART and exit, examples/common/libc/newlib_stubs.cpp a
# heap, so printf and malloc work. Built
# only where the toolchain gives -mcpu=cortex-a15 (the armv7a target's PMU_ARM_CPU,
# cmake/targets.cmake). QEMU only: untested on silicon.
pmukit_board(virt-a15 ARCH arm DIR virt_a15
  SOURCES board/startup.S board/board.cpp board/newlib_syscalls.cpp ../common/libc/newlib_stubs.cpp
  PROFILE_SOURCES board/profile_entry.cpp
  LINKER_SCRIPT board/virt.ld
  LINK_OPTIONS -nostartfiles -Wl,--gc-sections
  TOOLCHAIN_FLAGS -mcpu=cortex-a15
  TOOLCHAIN_HINT "configure with -DPMU_ARM_CPU=cortex-a15 (cmake/toolchains/arm-none-eabi.cmake), as the armv7a preset does"
  QEMU qemu-system-arm -M virt -cpu cortex-a15 -nographic -semihosting -icount shift=0,sleep=off)
