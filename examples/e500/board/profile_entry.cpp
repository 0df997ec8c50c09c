// The one entry point on this board (profiler/profile_main.h): pmukit_add_firmware(... PROFILE)
// links it. The e500's performance monitor (e500 Core Reference Manual, chapter 7) is read through
// mfpmr/mtpmr; QEMU's mpc8544ds has none (every mfpmr is a program interrupt, caught by the probe:
// pmu_absent), so there the program runs uncounted as the region "main" and the decrementer samples
// it, and the entry says so. Under pmusim the PMU is the project's model: PMC0 counts cycles,
// PMC1 instructions, and PMC0's overflow (the performance monitor interrupt, IVOR35) samples.
// Stacks are copied from the same interrupt (board::interrupted_stack gives the interrupted r1).
#include <cstdint>

#include "board/board.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/e500/driver.hpp"

using pmukit_backend = pmu::e500::Driver<pmu::PmrBus>;
#include "profiler/c_api_impl.hpp"
#include "profiler/profile_main_impl.hpp"

extern "C" void pmukit_board_init(void);  // examples/common/libc/board_glue.cpp

namespace {

// The decrementer's period: 10 us of the 400 MHz time base (board.hpp).
constexpr std::uint32_t kTickPeriod = board::kTimebaseHz / 100'000;

struct Mpc8544ds {
  static void putc(char c) { board::putc(c); }
  static bool timer_start(pmukit::IrqCallback tick) {
    board::decrementer_start(kTickPeriod, tick);
    return true;
  }
  static void timer_stop() { board::decrementer_stop(); }
  static bool pmu_interrupt(pmukit::IrqCallback irq) {
    board::set_perfmon_handler(irq);
    return true;
  }
  static void irq_enable() { board::ee_enable(); }
  static void irq_disable() { board::ee_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
};

}  // namespace

extern "C" int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* options) {
  pmukit_board_init();
  const bool counting = pmukit_c::state.profiler.probe().status == pmu::Status::ok;
  const pmukit::BoardProfile bp{"e500", 0, std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kTimebaseHz,
                                counting};
  return pmukit::profile_main<Mpc8544ds>(run, options, bp);
}

extern "C" int pmukit_profile_main(int (*run)(void)) { return pmukit_profile_main_with(run, nullptr); }
