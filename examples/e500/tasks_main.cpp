// Per-task profiles under a preemptive round-robin scheduler (examples/common/tasks_run.hpp) on
// the e500 board: the decrementer preempts (board/task_switch.S), PMC0's overflow (IVOR35)
// samples. Under pmusim only: QEMU 7.2's e500 has no performance monitor.
#include <cstdint>

#include "board/board.hpp"
#include "board/task_port.hpp"
#include "examples/common/tasks_run.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/e500/driver.hpp"

namespace {

using Pmu = pmu::e500::Driver<pmu::PmrBus>;

struct Mpc8544ds {
  static constexpr const char* kTarget = "e500";
  static const examples::Console& console() { return board::console; }
  static void putc(char c) { board::putc(c); }
  // A time slice of 20 us of the 400 MHz time base.
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) {
    board::decrementer_start(board::kTimebaseHz / 50'000, tick);
    return true;
  }
  static void timer_stop() { board::decrementer_stop(); }
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) {
    board::set_perfmon_handler(irq);
    return true;
  }
  static void irq_enable() { board::ee_enable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  static void irq_disable() { board::ee_disable(); }
};

}  // namespace

extern "C" int main() {
  board::init();
  const examples::Console& out = board::console;
  out.line("pmukit e500 per-task profile (round-robin scheduler)");
  const pmu::ProbeResult probe = examples::tasks::State<Pmu>::profiler.probe();
  out.put("probe: ");
  out.line(pmu::status_name(probe.status));
  const int failed = examples::tasks::run<Mpc8544ds, Pmu, board::TaskPort>();
  out.line(failed == 0 ? "TASKS PASS" : "TASKS FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
