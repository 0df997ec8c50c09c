// Full call stacks on ARM without frame pointers: the unwind table example
// (examples/common/unwind_table_run.hpp) on the PXA270, sampled from the OS timer's IRQ. CCNT
// counts one per instruction under pmusim and under QEMU -icount shift=0.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/unwind_table_run.hpp"

extern "C" char __sys_stack_top[], __sys_stack_size[];  // mainstone.ld: main's (SYS mode) stack

namespace {

// CP14 accesses used only here (the driver is hal/xscale/): PMNC.E on, CCNT read.
inline void pmnc_write(std::uint32_t v) { asm volatile("mcr p14, 0, %0, c0, c1, 0" : : "r"(v)); }

[[gnu::noinline]] void spin_loop(std::uint32_t n) { asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc"); }

struct Mainstone {
  static constexpr const char* kTarget = "xscale";  // the dump's TARGET chunk
  static constexpr const char* kPmu = "xscale-xsc2";
  static constexpr std::uint32_t kWalkGoal = 300;  // issue 39, gated (unwind_table_run.hpp)
  static const examples::Console& console() { return board::console; }
  static std::uint32_t clock() {
    std::uint32_t v;
    asm volatile("mrc p14, 0, %0, c1, c1, 0" : "=r"(v));  // CCNT
    return v;
  }
  static void spin(std::uint32_t n) { spin_loop(n); }
  static void timer_start(void (*tick)(std::uint32_t, std::uint32_t)) { board::timer_start(board::kMinPeriodTicks, tick); }
  static void timer_stop() { board::timer_stop(); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return reinterpret_cast<std::uintptr_t>(__sys_stack_top); }
  static std::uintptr_t stack_bottom() { return stack_top() - reinterpret_cast<std::uintptr_t>(__sys_stack_size); }
};

}  // namespace

int main() {
  board::init();
  pmnc_write(1);  // PMNC.E: CCNT counts
  return examples::unwind::run<Mainstone>() ? 0 : 1;
}
