// Firmware for pmusim's limit test: it sets MSR[PMM] (the performance monitor mark, CRM 7.5.1),
// which Unicorn's e500 MSR cannot hold. pmusim must stop the run with a clear message instead of
// counting the marked code as unmarked; the firmware's next line must never print.
#include <cstdint>

#include "board/board.hpp"

int main() {
  board::init();
  board::console.line("setting MSR[PMM]");
  std::uint32_t msr;
  asm volatile("mfmsr %0" : "=r"(msr));
  asm volatile("mtmsr %0\n\tisync" : : "r"(msr | (1u << 2)) : "memory");  // MSR[PMM]: bit 29 (Book E)
  board::console.line("SHOULD NOT RUN ON");
  board::exit(0);
}
