#pragma once
// Board support for the Arm MPS2 with the AN386 FPGA image, a Cortex-M4 (QEMU: -M mps2-an386
// -semihosting): console on the CMSDK APB UART0, the core's SysTick as the sampling timer, exit
// through semihosting, every fault reported and fatal.
//
// Sources: Arm AN386 application note (memory map: UART0 at 0x40004000, the 25 MHz system clock);
// Arm CMSDK Technical Reference Manual, "APB UART" (DATA 0x000, STATE 0x004 TXFULL bit 0, CTRL
// 0x008 TX enable bit 0, BAUDDIV 0x010); ARMv7-M ARM B3.3 "The system timer, SysTick" (SYST_CSR
// 0xE000E010 ENABLE/TICKINT/CLKSOURCE, SYST_RVR 0xE000E014 24 bits, SYST_CVR 0xE000E018).
#include <cstdint>

#include "profiler/board.hpp"

namespace board {

// The processor clock SysTick counts with CLKSOURCE = 1 (AN386: 25 MHz; QEMU's model too).
inline constexpr std::uint32_t kCoreHz = 25'000'000u;
// SysTick's reload value is 24 bits (B3.3.3): the longest period, in core clocks.
inline constexpr std::uint32_t kMaxPeriod = 1u << 24;

void putc(char c);
void write(const char* s);
void write_hex(std::uint32_t v);

// Ends the program through semihosting SYS_EXIT_EXTENDED: QEMU's exit status is `code`.
[[noreturn]] void exit(int code);

// SysTick every `period` core clocks (1 .. kMaxPeriod), calling tick(pc, lr) of the interrupted
// code from its handler, which runs with interrupts masked (PRIMASK stays as the handler found it:
// nothing else preempts SysTick here). False: a period out of range.
bool timer_start(std::uint32_t period, pmukit::IrqCallback tick);
void timer_stop();
std::uint32_t timer_ticks();  // SysTick interrupts taken since the start

inline void irq_enable() { asm volatile("cpsie i" ::: "memory"); }
inline void irq_disable() { asm volatile("cpsid i" ::: "memory"); }

}  // namespace board
