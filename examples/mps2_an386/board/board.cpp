// Board support for the MPS2 AN386 (board.hpp): reset, console, SysTick, exit, faults.
#include "board/board.hpp"

#include <cstdint>

#include "hal/core/bus/semihosting.hpp"

extern "C" {
extern std::uint32_t __bss_start[], __bss_end[];
using InitFn = void (*)();
extern InitFn __init_array_start[], __init_array_end[];
int main();
[[noreturn]] void board_reset();
void board_systick(const std::uint32_t* frame);
[[noreturn]] void board_fault(const std::uint32_t* frame, std::uint32_t ipsr);
}

namespace {

volatile std::uint32_t& reg(std::uintptr_t a) { return *reinterpret_cast<volatile std::uint32_t*>(a); }

// CMSDK APB UART0 (AN386 memory map).
constexpr std::uintptr_t kUart0 = 0x40004000u;
constexpr std::uintptr_t kUartData = kUart0 + 0x000, kUartState = kUart0 + 0x004, kUartCtrl = kUart0 + 0x008,
                         kUartBaudDiv = kUart0 + 0x010;
constexpr std::uint32_t kTxFull = 1u << 0, kTxEnable = 1u << 0;
// SysTick (ARMv7-M ARM B3.3.2).
constexpr std::uintptr_t kSystCsr = 0xE000E010u, kSystRvr = 0xE000E014u, kSystCvr = 0xE000E018u;
constexpr std::uint32_t kCsrEnable = 1u << 0, kCsrTickInt = 1u << 1, kCsrClkSource = 1u << 2;

pmukit::IrqCallback tick_callback = nullptr;
volatile std::uint32_t ticks = 0;

}  // namespace

namespace board {

void putc(char c) {
  while (reg(kUartState) & kTxFull) {
  }
  reg(kUartData) = static_cast<std::uint8_t>(c);
}

void write(const char* s) {
  while (*s) putc(*s++);
}

void write_hex(std::uint32_t v) {
  write("0x");
  for (int i = 28; i >= 0; i -= 4) putc("0123456789abcdef"[(v >> i) & 0xFu]);
}

void exit(int code) {
  irq_disable();
  // SYS_EXIT_EXTENDED (0x20): {ADP_Stopped_ApplicationExit, status}.
  const std::uint32_t block[2] = {0x20026u, static_cast<std::uint32_t>(code)};
  (void)pmu::semihosting::call(0x20, block);
  for (;;) {
  }
}

bool timer_start(std::uint32_t period, pmukit::IrqCallback tick) {
  if (period < 1 || period > kMaxPeriod) return false;
  reg(kSystCsr) = 0;
  tick_callback = tick;
  reg(kSystRvr) = period - 1;
  reg(kSystCvr) = 0;  // any write clears it: the first period is a whole one
  reg(kSystCsr) = kCsrEnable | kCsrTickInt | kCsrClkSource;
  return true;
}

void timer_stop() {
  reg(kSystCsr) = 0;
  tick_callback = nullptr;
}

std::uint32_t timer_ticks() { return ticks; }

}  // namespace board

// The stacked frame (vectors.S): r0, r1, r2, r3, r12, lr, return address, xPSR.
void board_systick(const std::uint32_t* frame) {
  ticks = ticks + 1;
  if (tick_callback != nullptr) tick_callback(frame[6], frame[5]);
}

void board_fault(const std::uint32_t* frame, std::uint32_t ipsr) {
  board::write("\nFATAL: exception ");
  board::write_hex(ipsr & 0x1FFu);
  board::write(" at pc ");
  board::write_hex(frame[6]);
  board::write("\n");
  board::exit(3);
}

void board_reset() {
  for (std::uint32_t* p = __bss_start; p < __bss_end; ++p) *p = 0;
  for (InitFn* f = __init_array_start; f < __init_array_end; ++f) (*f)();
  reg(kUartBaudDiv) = 16;  // the smallest divider the CMSDK UART accepts
  reg(kUartCtrl) = kTxEnable;
  board::exit(main());
}
