// Full call stacks on PowerPC from the CFI rather than the back chain: the unwind table example
// (examples/common/unwind_table_run.hpp) on QEMU's mpc8544ds, sampled from the decrementer.
// Instructions are counted on the time base, calibrated against the loop.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/unwind_table_run.hpp"

namespace {

[[gnu::noinline]] void spin_loop(std::uint32_t n) { asm volatile("1: addic. %0, %0, -1\n\tbne 1b" : "+r"(n) : : "cc", "xer"); }

struct Mpc8544ds {
  static constexpr const char* kTarget = "e500";  // the dump's TARGET chunk
  static constexpr const char* kPmu = "e500";
  static constexpr std::uint32_t kWalkGoal = 300;  // issue 39, gated (unwind_table_run.hpp)
  static const examples::Console& console() { return board::console; }
  static std::uint32_t clock() { return board::timebase_lo(); }
  static void spin(std::uint32_t n) { spin_loop(n); }
  static void timer_start(void (*tick)(std::uint32_t, std::uint32_t)) {
    board::decrementer_start(board::kTimebaseHz / 100000, tick);  // every 10 us
  }
  static void timer_stop() { board::decrementer_stop(); }
  static void irq_enable() { board::ee_enable(); }
  static void irq_disable() { board::ee_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  static std::uintptr_t stack_bottom() { return board::stack_bottom(); }
};

}  // namespace

int main() {
  board::init();
  return examples::unwind::run<Mpc8544ds>() ? 0 : 1;
}
