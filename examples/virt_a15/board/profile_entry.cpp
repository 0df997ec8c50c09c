// The one entry point on this board (profiler/profile_main.h): pmukit_add_firmware(... PROFILE)
// links it. The core's PMU is the ARMv7-A one (ARM ARM ARMv7-A/R, C12): PMCCNTR counts cycles
// (QEMU: one per instruction under -icount shift=0) and INST_RETIRED instructions, and PMCCNTR's
// overflow interrupt (GIC INTID 23 on QEMU virt) samples where the probe finds the PMU counting;
// the generic timer samples otherwise. Stacks are copied from the same interrupt
// (virt::Board::interrupted_stack gives the interrupted SYS-mode SP and r11). QEMU only: untested
// on silicon.
#include <stdio.h>

#include <cstdint>

#include "board/board.hpp"
#include "hal/armv7a/driver.hpp"
#include "hal/armv7a/regs.hpp"
#include "hal/core/bus/arm_cp.hpp"

using pmukit_backend = pmu::armv7a::CortexA15<pmu::ArmCpBus>;
#include "profiler/c_api_impl.hpp"
#include "profiler/profile_main_impl.hpp"

namespace {

// The generic timer's rate where it samples: 100 kHz, 625 ticks of QEMU's 62.5 MHz CNTFRQ.
constexpr std::uint32_t kTickHz = 100'000;

struct Virt {
  static void putc(char c) { virt::Board::putc(c); }
  static bool timer_start(pmukit::IrqCallback tick) { return virt::Board::timer_start(tick, kTickHz); }
  static void timer_stop() { virt::Board::timer_stop(); }
  static bool pmu_interrupt(pmukit::IrqCallback irq) { return virt::Board::pmu_interrupt(irq); }
  static void irq_enable() { virt::Board::irq_enable(); }
  static void irq_disable() { virt::Board::irq_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { virt::Board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return virt::Board::stack_top(); }
  static void flush() { fflush(stdout); }
};

}  // namespace

extern "C" int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* options) {
  // PMCCNTR (slot 0) counting: its overflow interrupt samples (PMINTENSET.C, PMOVSR.C).
  const pmu::ProbeResult probe = pmukit_c::state.profiler.probe();
  const bool ccnt = probe.status == pmu::Status::ok && (probe.working_slots & 1u) != 0;
  const pmukit::BoardProfile bp{"armv7a", 0, 1'000'000'000u / kTickHz, ccnt};
  return pmukit::profile_main<Virt>(run, options, bp);
}

extern "C" int pmukit_profile_main(int (*run)(void)) { return pmukit_profile_main_with(run, nullptr); }
