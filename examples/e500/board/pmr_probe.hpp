#pragma once
// A raw mfpmr for board self-tests (does an mfpmr trap here?). PMU drivers use hal's PMR bus, not this.
#include <cstdint>

namespace board {

// mfpmr is a performance monitor APU instruction (CRM 7.2); `.machine e500` lets the assembler
// accept it whatever -mcpu the including file was built with.
template <unsigned Pmr>
inline std::uint32_t mfpmr() {
  std::uint32_t v;
  asm volatile(".machine push\n\t.machine e500\n\tmfpmr %0, %1\n\t.machine pop" : "=r"(v) : "n"(Pmr));
  return v;
}

}  // namespace board
