#pragma once
// QEMU "virt" with an ARMv7-A core (-cpu cortex-a15, cortex-a7): the board support a profiling
// firmware needs (profiler/board.hpp's Board): the PL011 console, the generic timer's virtual
// timer as the sampling tick, the PMU overflow interrupt, CPSR.I, all through the GICv2.
//
// Interrupt numbers are QEMU's virt wiring (hw/arm/virt.c, checked on QEMU 7.2): the PMU request
// is PPI 7 (INTID 23), the virtual timer PPI 11 (INTID 27). Board::exit(status) ends the QEMU run
// (semihosting SYS_EXIT; QEMU needs -semihosting). Model-free: everything here runs on QEMU only,
// not on silicon.
#include <cstdint>

namespace virt {

using IrqCallback = void (*)(std::uint32_t pc, std::uint32_t lr);

struct Board {
  static void putc(char c);
  static void puts(const char* s);
  // The virtual timer every `ticks` of CNTFRQ (QEMU: 62.5 MHz), f from its interrupt.
  static bool timer_start(IrqCallback f);
  static void timer_stop();
  static std::uint32_t timer_frequency();
  static bool pmu_interrupt(IrqCallback f);
  static void irq_enable();
  static void irq_disable();
  [[noreturn]] static void exit(int status);
  static constexpr std::uint32_t kTimerHz = 1000;
};

}  // namespace virt
