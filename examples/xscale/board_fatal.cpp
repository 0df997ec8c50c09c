// Firmware that dies on purpose, to test the board's fatal exception reports and exit codes. Built
// once per BOARD_FATAL_KIND: 1 undefined instruction (exit 3), 2 prefetch abort from BKPT (exit 4),
// 3 data abort from a load through an unmapped MMU section (exit 5), 4 stray SVC (exit 6).
#include <cstdint>

#include "board/board.hpp"

#ifndef BOARD_FATAL_KIND
#error "define BOARD_FATAL_KIND"
#endif

#if BOARD_FATAL_KIND == 3
namespace {
constexpr std::uint32_t kHole = 0x80000000;  // nothing lives there on this board
alignas(16384) std::uint32_t g_l1[4096];      // first-level translation table
}  // namespace
#endif

int main() {
  board::init();
  board::write("fatal-path test " BOARD_FATAL_NAME "\n");
#if BOARD_FATAL_KIND == 1
  asm volatile(".word 0xe7f000f0");  // permanently undefined; nothing armed pmu::fault
#elif BOARD_FATAL_KIND == 2
  asm volatile("bkpt 0");  // ARMv5: BKPT is reported as a prefetch abort
#elif BOARD_FATAL_KIND == 3
  // QEMU 7.2 raises no data abort for this board with the MMU off (unassigned addresses read 0; v5
  // unaligned loads rotate even with SCTLR.A set), so fault through the MMU: a flat section map with
  // one unmapped megabyte (ARM ARM, virtual memory system: first-level section descriptors).
  for (std::uint32_t i = 0; i < 4096; ++i) {
    g_l1[i] = (i << 20) | (3u << 10) | (1u << 4) | 2u;  // section, AP=full access, domain 0
  }
  g_l1[kHole >> 20] = 0;  // fault descriptor
  std::uint32_t sctlr, v;
  asm volatile("mcr p15, 0, %0, c3, c0, 0" : : "r"(1u));                       // DACR: domain 0 client
  asm volatile("mcr p15, 0, %0, c2, c0, 0" : : "r"(g_l1) : "memory");          // TTB
  asm volatile("mcr p15, 0, %0, c8, c7, 0" : : "r"(0u));                       // invalidate TLBs
  asm volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(sctlr));
  asm volatile("mcr p15, 0, %0, c1, c0, 0" : : "r"(sctlr | 1u) : "memory");    // M: MMU on
  asm volatile("mrc p15, 0, %0, c2, c0, 0\n\tmov %0, %0\n\tsub pc, pc, #4" : "=r"(v));  // CPWAIT
  asm volatile("ldr %0, [%1]" : "=r"(v) : "r"(kHole) : "memory");
  board::console.hex(v);
#elif BOARD_FATAL_KIND == 4
  asm volatile("svc 0");
#endif
  board::write("still running after the fault\n");
  return board::kExitFail;
}
