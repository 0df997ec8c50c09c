# Every cross target: one pmu_target line each, the only place a target is named outside its PMU's
# folder (hal/<pmu>/), its board's folder (examples/<board>/) and the docs. cmake/PmuTargets.cmake
# says what each field is for and who reads it; after editing this file run
#   cmake -P cmake/PmuTargets.cmake
# which regenerates CMakePresets.json and scripts/targets.sh (the host ctest
# targets_generated_files_match_cmake_targets_cmake fails until they match).
pmu_target(xscale ARCH arm TOOLCHAIN arm-none-eabi FLAGS -mcpu=xscale -marm
  PMU xscale BOARD mainstone PROFILE xscale_profile SIM xscale
  ELF_MACHINE 40 ELF_ORDER little ELF_NAME ARM
  RUN qemu WHY "QEMU's PXA270 counts CCNT (--sim: the event counters and overflow interrupts too)"
  DESCRIPTION "XScale PXA2xx (arm-none-eabi, -mcpu=xscale -marm): firmware, header checks, zero-cost probe")
pmu_target(mips-cps ARCH mips TOOLCHAIN mips-linux-gnu TOOLCHAIN_ARGS -DPMU_MIPS_ARCH=mips32r2
  FLAGS -march=mips32r2 -EB -mabi=32 CODE_MODEL -mno-abicalls -fno-pic -G0
  PMU mips_cps BOARD malta-p5600 PROFILE cps_profile SIM mips-cm
  ELF_MACHINE 8 ELF_ORDER big ELF_NAME MIPS ELF_ISA 7 ELF_ISA_NAME MIPS32r2
  RUN sim WHY "QEMU's CM counters are silent (--qemu: a timer samples there)"
  DESCRIPTION "MIPS CPS (mips32r2, big-endian): header checks, zero-cost probe, host tests under qemu-mips"
  PRESET_CACHE "PMU_TEST_COMPILE_OPTIONS=-O1;-g0;-Wno-maybe-uninitialized")
pmu_target(rm7000 ARCH mips TOOLCHAIN mips-linux-gnu TOOLCHAIN_ARGS -DPMU_MIPS_ARCH=rm7000
  FLAGS -march=rm7000 -EB -mabi=32 CODE_MODEL -mno-abicalls -fno-pic -G0
  PMU rm7000 BOARD malta-5kc PROFILE rm7000_profile SIM rm7000
  ELF_MACHINE 8 ELF_ORDER big ELF_NAME MIPS ELF_ISA 3 ELF_ISA_NAME "MIPS IV"
  RUN sim WHY "QEMU's malta 5Kc counter never counts (--qemu: a timer samples there)"
  DESCRIPTION "RM7000 (-march=rm7000, MIPS IV): header checks, zero-cost probe, firmware on QEMU malta (-cpu 5Kc)"
  PRESET_CACHE PMUKIT_BUILD_TESTS=OFF)
pmu_target(e500 ARCH powerpc TOOLCHAIN powerpc-linux-gnu FLAGS -mcpu=8548 -msoft-float -Wa,-me500
  CODE_MODEL -fno-pic -fno-pie
  PMU e500 BOARD mpc8544ds PROFILE e500_profile SIM e500
  ELF_MACHINE 20 ELF_ORDER big ELF_NAME PowerPC
  RUN sim WHY "QEMU's mpc8544ds has no e500 PMU (--qemu: a timer samples there)"
  DESCRIPTION "e500v2 (-mcpu=8548 -msoft-float): firmware, header checks, zero-cost probe"
  PRESET_CACHE PMUKIT_BUILD_TESTS=OFF)
pmu_target(netburst ARCH i686 TOOLCHAIN i686-linux-gnu FLAGS -march=pentium4 -mno-sse -mno-mmx
  CODE_MODEL -fno-pic -fno-pie
  PMU netburst BOARD pc-p4 PROFILE netburst_profile SIM netburst
  ELF_MACHINE 3 ELF_ORDER little ELF_NAME i386
  RUN sim WHY "QEMU's Pentium 4 has no PMU (--qemu: a timer samples there)"
  DESCRIPTION "NetBurst (i686, -march=pentium4): header checks, zero-cost probe, host tests under qemu-i386"
  PRESET_CACHE "PMU_TEST_COMPILE_OPTIONS=-O1;-g0;-Wno-maybe-uninitialized")
pmu_target(armv7a ARCH arm TOOLCHAIN arm-none-eabi TOOLCHAIN_ARGS -DPMU_ARM_CPU=cortex-a15
  FLAGS -mcpu=cortex-a15 -marm
  PMU armv7a BOARD virt-a15 PROFILE virt_a15_profile SIM none
  ELF_MACHINE 40 ELF_ORDER little ELF_NAME ARM
  RUN qemu WHY "QEMU's Cortex-A15 and A7 count cycles (instructions under -icount) and raise PMCCNTR's overflow interrupt; no pmusim machine"
  DESCRIPTION "ARMv7-A (arm-none-eabi, -mcpu=cortex-a15 -marm): firmware on QEMU virt, header checks, zero-cost probe")
pmu_target(cortex-m4 ARCH arm TOOLCHAIN arm-none-eabi TOOLCHAIN_ARGS -DPMU_ARM_CPU=cortex-m4
  FLAGS -mcpu=cortex-m4 -mthumb
  PMU cortex_m_dwt BOARD mps2-an386 PROFILE cortex_m4_profile SIM none
  ELF_MACHINE 40 ELF_ORDER little ELF_NAME ARM
  RUN qemu WHY "QEMU's mps2-an386 maps no DWT (the probe finds no counter), SysTick samples, no pmusim machine"
  DESCRIPTION "Cortex-M4 DWT (arm-none-eabi, -mcpu=cortex-m4 -mthumb): firmware on QEMU mps2-an386, header checks, zero-cost probe")
