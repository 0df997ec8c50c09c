// The one entry point for RM7000 code on the Malta (profiler/profile_main.h):
// pmukit_add_firmware(... PROFILE) links it. The RM7000's counter (RM7000 User's Manual,
// "Performance Counter": PerfControl and PerfCount, CP0 $22 and $25) is probed only on a core whose
// PRId says RM7000. QEMU's closest core is a 5Kc (MIPS64, runs the MIPS IV code): not an RM7000,
// so there the program runs uncounted as the region "main" and the Count/Compare timer samples
// it, and the entry says so. Under pmusim the core is an RM7000 and its counter the project's
// model: it counts cycles and its overflow (interrupt 13) samples.
#include <cstdint>

#include "board/board.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/rm7000/driver.hpp"

using pmukit_backend = pmu::rm7000::Driver<pmu::Cp0Bus>;
#include "profiler/c_api_impl.hpp"
#include "profiler/profile_main_impl.hpp"

extern "C" void pmukit_board_init(void);  // examples/common/libc/board_glue.cpp

namespace {

// Count/Compare every 10 us (board.hpp: Count runs at kCountHz).
constexpr std::uint32_t kTickPeriod = board::kCountHz / 100'000;

struct Malta5kc {
  static void putc(char c) { board::putc(c); }
  static bool timer_start(pmukit::IrqCallback tick) {
    board::timer_start(kTickPeriod, tick);
    return true;
  }
  static void timer_stop() { board::timer_stop(); }
  static bool pmu_interrupt(pmukit::IrqCallback irq) { return board::set_perf_handler(irq); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
};

}  // namespace

extern "C" int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* options) {
  pmukit_board_init();
  const bool counting = pmukit_c::state.profiler.probe().status == pmu::Status::ok;
  const pmukit::BoardProfile bp{"rm7000", 0, std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kCountHz,
                                counting};
  return pmukit::profile_main<Malta5kc>(run, options, bp);
}

extern "C" int pmukit_profile_main(int (*run)(void)) { return pmukit_profile_main_with(run, nullptr); }
