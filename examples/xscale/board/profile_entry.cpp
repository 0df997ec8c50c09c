// The one entry point on this board (profiler/profile_main.h): pmukit_add_firmware(... PROFILE)
// links it. The PXA270's core is an XSC2 (MIDR); the probe says whether its PMU interrupt works
// (pmusim: CCNT overflow sets FLAG and raises interrupt controller source 12) or not (QEMU: CCNT
// counts instructions and never interrupts, so the OS timer samples). Stacks are copied from the
// same interrupt (board::interrupted_stack gives the interrupted SYS-mode SP and r11).
#include <stdio.h>

#include <cstdint>

#include "board/board.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/regs.hpp"

using pmukit_backend = pmu::xscale::Xsc2<pmu::Cp14Bus>;
#include "profiler/c_api_impl.hpp"
#include "profiler/profile_main_impl.hpp"

extern "C" void pmukit_board_init(void);  // examples/common/libc/board_glue.cpp

namespace {

// The OS timer's shortest period: 32 ticks of 3.25 MHz, ~9.8 us (board.hpp).
constexpr std::uint32_t kTickPeriod = board::kMinPeriodTicks;

struct Mainstone {
  static void putc(char c) { board::putc(c); }
  static bool timer_start(pmukit::IrqCallback tick) { return board::timer_start(kTickPeriod, tick); }
  static void timer_stop() { board::timer_stop(); }
  static bool pmu_interrupt(pmukit::IrqCallback irq) { return board::pmu_irq_start(irq); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  static void flush() { fflush(stdout); }
};

}  // namespace

extern "C" int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* options) {
  pmukit_board_init();
  const std::uint32_t midr = pmu::Regs<pmu::ArmCpBus>::read_raw<pmu::xscale::MIDR>();
  if (pmu::xscale::identify(midr).variant != pmu::xscale::Variant::xsc2) {
    board::write("pmukit: not an XSC2 core (MIDR): the program runs unmeasured\n");
    return run();
  }
  pmukit_c::state.profiler.probe();
  const auto& report = pmukit_backend::probe_report();
  const pmukit::BoardProfile bp{"xscale", 0,
                                std::uint64_t{kTickPeriod} * 1'000'000'000u / board::timer_hz(),
                                report.inten_holds && report.ccnt_overflow};
  return pmukit::profile_main<Mainstone>(run, options, bp);
}

extern "C" int pmukit_profile_main(int (*run)(void)) { return pmukit_profile_main_with(run, nullptr); }
