// Stack capture needs both the interrupted stack pointer and the stack's top (profiler/board.hpp):
// a board with one of them is an error that names both.
#include <cstdint>

#include "profiler/board.hpp"

struct Board {
  static void putc(char) {}
  static bool timer_start(pmukit::IrqCallback) { return true; }
  static void timer_stop() {}
  static bool pmu_interrupt(pmukit::IrqCallback) { return false; }
  static void irq_enable() {}
  static void irq_disable() {}
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { sp = fp = 0; }
#ifndef PMU_MISUSE
  static std::uintptr_t stack_top() { return 0; }
#endif
};

static_assert(pmukit::board_check<Board>());
