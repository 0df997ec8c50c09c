#pragma once
// QEMU "virt" with an ARMv7-A core (-cpu cortex-a15, cortex-a7): the board support a profiling
// firmware needs (profiler/board.hpp's Board): the PL011 console, the generic timer's virtual
// timer as the sampling tick, the PMU overflow interrupt, CPSR.I, all through the GICv2.
//
// Interrupt numbers are QEMU's virt wiring (checked on QEMU 7.2): the PMU request is PPI 7
// (INTID 23), the virtual timer PPI 11 (INTID 27). Board::exit(status) ends the QEMU run
// (semihosting SYS_EXIT_EXTENDED: QEMU's exit status is `status`; QEMU needs -semihosting).
// main() runs in SYS mode on __sys_stack_top with IRQ and FIQ masked. QEMU only: nothing here has
// run on silicon.
#include <cstddef>
#include <cstdint>

#include "examples/common/console.hpp"

namespace virt {

using IrqCallback = void (*)(std::uint32_t pc, std::uint32_t lr);

struct Board {
  static void putc(char c);
  static void puts(const char* s);
  // Never waits: the bytes of data[0, n) the PL011's transmit FIFO takes now (none while UARTFR.TXFF
  // says it is full), for the live stream (examples/common/stream_run.hpp).
  static std::size_t try_write(const std::uint8_t* data, std::size_t n);
  static const examples::Console& console();
  // The virtual timer at `hz` interrupts per second of CNTFRQ (QEMU: 62.5 MHz; at most one per
  // kMinTimerTicks), f(pc, lr) from its interrupt. false: a rate it cannot give, or f null.
  static bool timer_start(IrqCallback f, std::uint32_t hz = kTimerHz);
  static void timer_stop();
  static std::uint32_t timer_frequency();
  static std::uint64_t timer_count();  // CNTVCT: the virtual count, CNTFRQ per second
  // Ticks of CNTFRQ between two timer interrupts at `hz` (0: the rate cannot be given).
  static std::uint32_t timer_period_ticks(std::uint32_t hz);
  static bool pmu_interrupt(IrqCallback f);  // nullptr: masked at the GIC
  static void irq_enable();
  static void irq_disable();
  // From inside an IRQ callback: the interrupted SYS-mode SP and r11 (kept by the IRQ entry,
  // startup.S), for a stack capture or walk; main's stack is [stack_bottom(), stack_top()).
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp);
  static std::uintptr_t stack_top();
  static std::uintptr_t stack_bottom();
  [[noreturn]] static void exit(int status);
  static constexpr std::uint32_t kTimerHz = 1000;
  static constexpr std::uint32_t kMinTimerTicks = 64;  // the handler's headroom to reload CNTV_TVAL
};

}  // namespace virt
