// Full call stacks on MIPS, which keeps no frame chain: the unwind table example
// (examples/common/unwind_table_run.hpp) on QEMU's Malta, sampled from the Count/Compare timer
// (IP7). Instructions are counted on CP0 Count, calibrated against the loop (one tick per six
// instructions under QEMU -icount shift=0, per two under pmusim).
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/unwind_table_run.hpp"

extern "C" char __stack_top[];  // malta.ld: the one stack, STACK_SIZE below it

namespace {

[[gnu::noinline]] void spin_loop(std::uint32_t n) {
  asm volatile(".set push\n\t.set noreorder\n1:\taddiu %0, %0, -1\n\tbnez %0, 1b\n\tnop\n\t.set pop" : "+r"(n));
}

struct Malta {
#if defined(_MIPS_ARCH_RM7000)
  static constexpr const char* kTarget = "rm7000";  // the dump's TARGET chunk
  static constexpr const char* kPmu = "rm7000";
#else
  static constexpr const char* kTarget = "mips-cps";
  static constexpr const char* kPmu = "mips-cm";
#endif
  static constexpr std::uint32_t kWalkGoal = 300;  // issue 39, gated (unwind_table_run.hpp)
  static const examples::Console& console() { return board::console; }
  static std::uint32_t clock() { return board::count(); }
  // The loop is 3n instructions (the delay slot's nop): spin(n) runs it for 2n/3 trips.
  static void spin(std::uint32_t n) { spin_loop(2 * n / 3); }
  static void timer_start(void (*tick)(std::uint32_t, std::uint32_t)) { board::timer_start(5000, tick); }
  static void timer_stop() { board::timer_stop(); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  // board::interrupted_stack inline: a call in the tick would cost the walk a tenth more.
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) {
    sp = board::g_irq_sp;
    fp = 0;  // $30 is not kept by the handler; the o32 CFI needs only $sp
  }
  static std::uintptr_t stack_top() { return reinterpret_cast<std::uintptr_t>(__stack_top); }
  static std::uintptr_t stack_bottom() { return stack_top() - 64 * 1024; }  // malta.ld's STACK_SIZE
};

}  // namespace

int main() {
  board::init();
  return examples::unwind::run<Malta>() ? 0 : 1;
}
