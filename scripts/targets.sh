# Generated from cmake/targets.cmake (with the boards' examples/*/board/pmukit_board.cmake and the
# PMUs' hal/<pmu>/pmu.cmake) by `cmake -P cmake/PmuTargets.cmake`: do not edit. Sourced by the
# scripts; the fields are cmake/PmuTargets.cmake's, lower case, indexed by preset (dir: the board's
# examples/<dir>/, qemu: its QEMU command line, debug_exit: 1 where QEMU's status is
# (code << 1) | 1, driver/driver_headers: the PMU's PMU_SILICON_DRIVER/_HEADERS).
pmu_targets=(xscale mips-cps rm7000 e500 netburst armv7a)
declare -gA pmu_arch=( [xscale]='arm' [mips-cps]='mips' [rm7000]='mips' [e500]='powerpc' [netburst]='i686' [armv7a]='arm' )
declare -gA pmu_toolchain=( [xscale]='arm-none-eabi' [mips-cps]='mips-linux-gnu' [rm7000]='mips-linux-gnu' [e500]='powerpc-linux-gnu' [netburst]='i686-linux-gnu' [armv7a]='arm-none-eabi' )
declare -gA pmu_toolchain_args=( [xscale]='' [mips-cps]='-DPMU_MIPS_ARCH=mips32r2' [rm7000]='-DPMU_MIPS_ARCH=rm7000' [e500]='' [netburst]='' [armv7a]='-DPMU_ARM_CPU=cortex-a15' )
declare -gA pmu_flags=( [xscale]='-mcpu=xscale -marm' [mips-cps]='-march=mips32r2 -EB -mabi=32' [rm7000]='-march=rm7000 -EB -mabi=32' [e500]='-mcpu=8548 -msoft-float -Wa,-me500' [netburst]='-march=pentium4 -mno-sse -mno-mmx' [armv7a]='-mcpu=cortex-a15 -marm' )
declare -gA pmu_code_model=( [xscale]='' [mips-cps]='-mno-abicalls -fno-pic -G0' [rm7000]='-mno-abicalls -fno-pic -G0' [e500]='-fno-pic -fno-pie' [netburst]='-fno-pic -fno-pie' [armv7a]='' )
declare -gA pmu_pmu=( [xscale]='xscale' [mips-cps]='mips_cps' [rm7000]='rm7000' [e500]='e500' [netburst]='netburst' [armv7a]='armv7a' )
declare -gA pmu_board=( [xscale]='mainstone' [mips-cps]='malta-p5600' [rm7000]='malta-5kc' [e500]='mpc8544ds' [netburst]='pc-p4' [armv7a]='virt-a15' )
declare -gA pmu_dir=( [xscale]='xscale' [mips-cps]='malta' [rm7000]='malta' [e500]='e500' [netburst]='pc' [armv7a]='virt_a15' )
declare -gA pmu_qemu=( [xscale]='qemu-system-arm -M mainstone -nographic -semihosting -icount shift=0,sleep=off' [mips-cps]='qemu-system-mips -M malta -cpu P5600 -smp 2 -nographic -no-reboot -semihosting -icount shift=0,sleep=off' [rm7000]='qemu-system-mips64 -M malta -cpu 5Kc -nographic -no-reboot -semihosting -icount shift=0,sleep=off' [e500]='qemu-system-ppc -M mpc8544ds -nographic -no-reboot -icount shift=0,sleep=off' [netburst]='qemu-system-i386 -cpu qemu32,family=15,model=2,vendor=GenuineIntel -display none -serial stdio -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04 -icount shift=0,sleep=off' [armv7a]='qemu-system-arm -M virt -cpu cortex-a15 -nographic -semihosting -icount shift=0,sleep=off' )
declare -gA pmu_debug_exit=( [xscale]='0' [mips-cps]='0' [rm7000]='0' [e500]='0' [netburst]='1' [armv7a]='0' )
declare -gA pmu_profile=( [xscale]='xscale_profile' [mips-cps]='cps_profile' [rm7000]='rm7000_profile' [e500]='e500_profile' [netburst]='netburst_profile' [armv7a]='virt_a15_profile' )
declare -gA pmu_sim=( [xscale]='xscale' [mips-cps]='mips-cm' [rm7000]='rm7000' [e500]='e500' [netburst]='netburst' [armv7a]='none' )
declare -gA pmu_elf_machine=( [xscale]='40' [mips-cps]='8' [rm7000]='8' [e500]='20' [netburst]='3' [armv7a]='40' )
declare -gA pmu_elf_order=( [xscale]='little' [mips-cps]='big' [rm7000]='big' [e500]='big' [netburst]='little' [armv7a]='little' )
declare -gA pmu_elf_name=( [xscale]='ARM' [mips-cps]='MIPS' [rm7000]='MIPS' [e500]='PowerPC' [netburst]='i386' [armv7a]='ARM' )
declare -gA pmu_elf_isa=( [xscale]='' [mips-cps]='7' [rm7000]='3' [e500]='' [netburst]='' [armv7a]='' )
declare -gA pmu_elf_isa_name=( [xscale]='' [mips-cps]='MIPS32r2' [rm7000]='MIPS IV' [e500]='' [netburst]='' [armv7a]='' )
declare -gA pmu_run=( [xscale]='qemu' [mips-cps]='sim' [rm7000]='sim' [e500]='sim' [netburst]='sim' [armv7a]='qemu' )
declare -gA pmu_why=( [xscale]='QEMU'\''s PXA270 counts CCNT (--sim: the event counters and overflow interrupts too)' [mips-cps]='QEMU'\''s CM counters are silent (--qemu: a timer samples there)' [rm7000]='QEMU'\''s malta 5Kc counter never counts (--qemu: a timer samples there)' [e500]='QEMU'\''s mpc8544ds has no e500 PMU (--qemu: a timer samples there)' [netburst]='QEMU'\''s Pentium 4 has no PMU (--qemu: a timer samples there)' [armv7a]='QEMU'\''s Cortex-A15 and A7 count cycles (instructions under -icount) and raise PMCCNTR'\''s overflow interrupt  no pmusim machine' )
declare -gA pmu_driver=( [xscale]='pmu::xscale::Xsc2<pmu::Cp14Bus>' [mips-cps]='pmu::mips_cps::Driver<pmu::mips_cps::HwBus>' [rm7000]='pmu::rm7000::Driver<pmu::Cp0Bus>' [e500]='pmu::e500::Driver<pmu::PmrBus>' [netburst]='pmu::netburst::Driver<pmu::netburst::HwBus>' [armv7a]='pmu::armv7a::CortexA15<pmu::ArmCpBus>' )
declare -gA pmu_driver_headers=( [xscale]='hal/core/bus/arm_cp.hpp hal/xscale/driver.hpp' [mips-cps]='hal/mips_cps/driver.hpp' [rm7000]='hal/core/bus/cp0.hpp hal/rm7000/driver.hpp' [e500]='hal/core/bus/pmr.hpp hal/e500/driver.hpp' [netburst]='hal/netburst/driver.hpp' [armv7a]='hal/core/bus/arm_cp.hpp hal/armv7a/driver.hpp' )
