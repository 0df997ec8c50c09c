// Per-task profiles under a preemptive round-robin scheduler (examples/common/tasks_run.hpp) on
// the XScale board: the OS timer's IRQ preempts (board/task_switch.S), CCNT's overflow IRQ
// samples. Under pmusim only: QEMU's PXA270 PMU has no PMN counters and never interrupts.
#include <cstdint>

#include "board/board.hpp"
#include "board/task_port.hpp"
#include "examples/common/tasks_run.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"

namespace {

using Pmu = pmu::xscale::Xsc2<pmu::Cp14Bus>;

struct Mainstone {
  static constexpr const char* kTarget = "xscale";
  static const examples::Console& console() { return board::console; }
  static void putc(char c) { board::putc(c); }
  // 64 ticks of 3.25 MHz: a time slice of ~20 us.
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) { return board::timer_start(64, tick); }
  static void timer_stop() { board::timer_stop(); }
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) { return board::pmu_irq_start(irq); }
  static void irq_enable() { board::irq_enable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  static void irq_disable() { board::irq_disable(); }
};

}  // namespace

extern "C" int main() {
  board::init();
  const examples::Console& out = board::console;
  out.line("pmukit XScale per-task profile (round-robin scheduler)");
  const pmu::ProbeResult probe = examples::tasks::State<Pmu>::profiler.probe();
  out.put("probe: ");
  out.line(pmu::status_name(probe.status));
  const int failed = examples::tasks::run<Mainstone, Pmu, board::TaskPort>();
  out.line(failed == 0 ? "TASKS PASS" : "TASKS FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
