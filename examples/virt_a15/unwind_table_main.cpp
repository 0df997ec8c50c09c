// Full call stacks on ARM without frame pointers: the unwind table example
// (examples/common/unwind_table_run.hpp) on QEMU virt's Cortex-A15, sampled from the generic
// timer's IRQ. PMCCNTR counts one per instruction under QEMU -icount shift=0.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/unwind_table_run.hpp"

namespace {

// CP15 c9 accesses used only here (the driver is hal/armv7a/; ARM ARM ARMv7-A/R, B4.1 PMCR,
// PMCNTENSET, PMCCNTR): PMCR.E on, PMCCNTR enabled, PMCCNTR read.
inline void pmccntr_start() {
  asm volatile("mcr p15, 0, %0, c9, c12, 0" : : "r"(1u));           // PMCR.E
  asm volatile("mcr p15, 0, %0, c9, c12, 1" : : "r"(0x80000000u));  // PMCNTENSET.C
  asm volatile("isb" ::: "memory");
}

[[gnu::noinline]] void spin_loop(std::uint32_t n) { asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc"); }

constexpr std::uint32_t kTickHz = 100'000;  // 10,000 instructions under -icount shift=0

struct Virt {
  static constexpr const char* kTarget = "armv7a";  // the dump's TARGET chunk
  static constexpr const char* kPmu = "armv7a-6";  // hal/armv7a/events.hpp, the 6-counter catalog
  static constexpr std::uint32_t kWalkGoal = 300;  // issue 39, gated (unwind_table_run.hpp)
  static const examples::Console& console() { return virt::Board::console(); }
  static std::uint32_t clock() {
    std::uint32_t v;
    asm volatile("mrc p15, 0, %0, c9, c13, 0" : "=r"(v));  // PMCCNTR
    return v;
  }
  static void spin(std::uint32_t n) { spin_loop(n); }
  static void timer_start(void (*tick)(std::uint32_t, std::uint32_t)) { virt::Board::timer_start(tick, kTickHz); }
  static void timer_stop() { virt::Board::timer_stop(); }
  static void irq_enable() { virt::Board::irq_enable(); }
  static void irq_disable() { virt::Board::irq_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { virt::Board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return virt::Board::stack_top(); }
  static std::uintptr_t stack_bottom() { return virt::Board::stack_bottom(); }
};

}  // namespace

int main() {
  pmccntr_start();
  return examples::unwind::run<Virt>() ? 0 : 1;
}
