// A board adaptor without one of the members the orchestration calls (profiler/board.hpp) is an
// error that names the member, not a page of template instantiations: here timer_stop().
#include <cstdint>

#include "profiler/board.hpp"

struct Board {
  static void putc(char) {}
  static bool timer_start(pmukit::IrqCallback) { return true; }
#ifndef PMU_MISUSE
  static void timer_stop() {}
#endif
  static bool pmu_interrupt(pmukit::IrqCallback) { return false; }
  static void irq_enable() {}
  static void irq_disable() {}
};

static_assert(pmukit::board_check<Board>());
static_assert(pmukit::Board<Board> == true);
