// Full call stacks on i386 from the CFI: the unwind table example
// (examples/common/unwind_table_run.hpp) on QEMU's PC, sampled from the PIT. Instructions are
// counted on the TSC, calibrated against the loop.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/unwind_table_run.hpp"

namespace {

[[gnu::noinline]] void spin_loop(std::uint32_t n) { asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc"); }

struct Pc {
  static constexpr const char* kTarget = "netburst";  // the dump's TARGET chunk
  static constexpr const char* kPmu = "netburst";
  static constexpr std::uint32_t kWalkGoal = 300;  // issue 39, gated (unwind_table_run.hpp)
  static const examples::Console& console() { return board::console; }
  static std::uint32_t clock() { return static_cast<std::uint32_t>(board::tsc()); }
  static void spin(std::uint32_t n) { spin_loop(n); }
  static void timer_start(void (*tick)(std::uint32_t, std::uint32_t)) { board::timer_start(12, tick); }
  static void timer_stop() { board::timer_stop(); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  // board::interrupted_stack inline: a call in the tick would cost the walk a tenth more.
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) {
    sp = board::g_irq_sp;
    fp = board::g_irq_fp;
  }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  static std::uintptr_t stack_bottom() { return board::stack_bottom(); }
};

}  // namespace

int main() {
  board::init();
  return examples::unwind::run<Pc>() ? 0 : 1;
}
