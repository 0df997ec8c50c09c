// The one entry point on the Malta with a P5600 cluster (profiler/profile_main.h), for the MIPS CPS
// Coherence Manager's performance counters: pmukit_add_firmware(... PROFILE) links it. The CM is
// found through CP0 (Config3.CMGCR, CMGCRBase) and the GCR (the core's CPS Software User's Manual,
// the CM's performance counter registers); the counters are claimed for this VP before they count. QEMU
// reports CM3, whose counter layout is not published, so the probe leaves them alone: there the
// program runs uncounted as the region "main" and the Count/Compare timer samples it, and the
// entry says so. Under pmusim the CM is the project's model (CM2.5, one CM cycle per
// instruction) and its Malta wires CM_PCInt to hardware interrupt 4: the counters count CM cycles
// (not core cycles) and their overflow samples.
#include <cstdint>

#include "board/board.hpp"
#include "hal/mips_cps/driver.hpp"

using pmukit_backend = pmu::mips_cps::Driver<pmu::mips_cps::HwBus>;
#include "profiler/c_api_impl.hpp"
#include "profiler/profile_main_impl.hpp"

extern "C" void pmukit_board_init(void);  // examples/common/libc/board_glue.cpp

namespace {

// Count/Compare every 10 us (board.hpp: Count runs at kCountHz).
constexpr std::uint32_t kTickPeriod = board::kCountHz / 100'000;

struct MaltaP5600 {
  static void putc(char c) { board::putc(c); }
  static bool timer_start(pmukit::IrqCallback tick) {
    board::timer_start(kTickPeriod, tick);
    return true;
  }
  static void timer_stop() { board::timer_stop(); }
  static bool pmu_interrupt(pmukit::IrqCallback irq) { return board::set_cm_pcint_handler(irq); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
};

}  // namespace

extern "C" int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* options) {
  pmukit_board_init();
  bool counting = pmukit_c::state.profiler.probe().status == pmu::Status::ok;
  // The counters are shared by the cluster's VPs: this one owns them for the run.
  if (counting && pmukit_backend::claim() != pmu::Status::ok) {
    board::console.line("pmukit: the CM counters are owned by another VP: the program runs unmeasured");
    return run();
  }
  // CM_PCInt is the SoC's to wire: pmusim's Malta wires it to hardware interrupt 4, QEMU's does not.
  if (board::under_pmusim()) pmukit_backend::set_pcint_source(board::kCmPcintSource);
  const pmukit::BoardProfile bp{"mips-cm", 0, std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kCountHz,
                                counting && pmukit_backend::pcint_wired()};
  const int rc = pmukit::profile_main<MaltaP5600>(run, options, bp);
  if (counting) pmukit_backend::release();
  return rc;
}

extern "C" int pmukit_profile_main(int (*run)(void)) { return pmukit_profile_main_with(run, nullptr); }
