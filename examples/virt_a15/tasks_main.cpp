// Per-task profiles under a preemptive round-robin scheduler (examples/common/tasks_run.hpp) on
// QEMU virt with a Cortex-A15: the generic timer's IRQ preempts (board/task_switch.S), PMCCNTR's
// overflow IRQ samples, QEMU's own PMU counts (PMCCNTR and INST_RETIRED: one per instruction under
// -icount shift=0). QEMU only: untested on silicon.
#include <cstdint>

#include "board/board.hpp"
#include "board/task_port.hpp"
#include "examples/common/tasks_run.hpp"
#include "hal/armv7a/driver.hpp"
#include "hal/core/bus/arm_cp.hpp"

namespace {

using Pmu = pmu::armv7a::CortexA15<pmu::ArmCpBus>;

// The time slice: 50 kHz of the virtual timer, 1,250 ticks of QEMU's 62.5 MHz CNTFRQ (20,000
// instructions under -icount shift=0).
constexpr std::uint32_t kSliceHz = 50'000;

struct Virt {
  static constexpr const char* kTarget = "armv7a";
  static const examples::Console& console() { return virt::Board::console(); }
  static void putc(char c) { virt::Board::putc(c); }
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) { return virt::Board::timer_start(tick, kSliceHz); }
  static void timer_stop() { virt::Board::timer_stop(); }
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) { return virt::Board::pmu_interrupt(irq); }
  static void irq_enable() { virt::Board::irq_enable(); }
  static void irq_disable() { virt::Board::irq_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { virt::Board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return virt::Board::stack_top(); }
};

}  // namespace

extern "C" int main() {
  const examples::Console& out = virt::Board::console();
  out.line("pmukit ARMv7-A per-task profile (round-robin scheduler, QEMU virt)");
  const pmu::ProbeResult probe = examples::tasks::State<Pmu>::profiler.probe();
  out.put("probe: ");
  out.line(pmu::status_name(probe.status));
  const int failed = examples::tasks::run<Virt, Pmu, virt::TaskPort>();
  out.line(failed == 0 ? "TASKS PASS" : "TASKS FAIL");
  virt::Board::exit(failed == 0 ? 0 : 1);
}
