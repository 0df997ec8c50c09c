#pragma once
// What every profiling example on the Malta board shares: CP0 Count as a clock, the known-length
// loop, the board adaptor examples::profile() takes, and the Count-clock setup. Include it from the
// one main.cpp of an image.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "profiler/clock_backend.hpp"

namespace malta {

// CP0 Count as a clock: 32 bits, wraps every 2^32 ticks (25.8 s at QEMU's 166.7 MHz).
struct CountClock {
  static constexpr unsigned kWidth = 32;
  static constexpr const char* kId = "mips-count";
  static std::uint64_t now() { return board::count(); }
};
using CountBackend = prof::ClockBackend<CountClock>;

// 2n + 4 instructions once called (n + 1 passes of bnez + its delay slot, then jr + its delay slot),
// 2n + 6 with the call around it.
__attribute__((noipa, section("work_known"))) inline void spin_exact(std::uint32_t n) {
  asm volatile(".set push\n\t.set noreorder\n1:\tbnez %0, 1b\n\taddiu %0, %0, -1\n\t.set pop"
               : "+r"(n));
}

inline constexpr std::uint32_t kTickPeriod = board::kCountHz / 100'000;  // Count/Compare: 10 us
inline constexpr std::uint64_t kTickPeriodNs =
    std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kCountHz;

// The adaptor examples::profile() takes. `pmu_interrupt` routes the PMU's own overflow interrupt
// where the board has one for the PMU in use (set_perf_handler says).
struct Board {
  static const examples::Console& console() { return board::console; }
  static void putc(char c) { board::putc(c); }
  static void spin_exact(std::uint32_t n) { malta::spin_exact(n); }
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) {
    board::timer_start(kTickPeriod, tick);
    return true;
  }
  static void timer_stop() { board::timer_stop(); }
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) { return board::set_perf_handler(irq); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
};

// QEMU's Count: one tick per board::kCountNs ns of virtual time; under -icount shift=0 one
// instruction is 1 ns, so 1 / kCountNs ticks per instruction, +-1 tick at each end of a reading.
constexpr examples::Setup count_setup(const char* target) {
  return {.target = target, .unit = "Count ticks", .counter_hz = board::kCountHz,
          .known_iters = 10'000, .known_per_iter = 2, .known_extra = 6,
          .per_instr_num = 1, .per_instr_den = board::kCountNs, .resolution = 1,
          .tolerance_permille = 1, .tolerance_abs = 0,
          .pmu_interrupt = false, .pmu_period = 0, .tick_period_ns = kTickPeriodNs};
}

}  // namespace malta
