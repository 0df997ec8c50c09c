#pragma once
// What every profiling example on the Malta board shares: CP0 Count as a clock, the known-length
// loop, the board adaptor examples::profile() takes, and the Count-clock setup. Include it from the
// one main.cpp of an image.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "fast_sampling.h"
#include "profiler/clock_backend.hpp"

extern "C" {
extern const std::uint32_t handwritten_count_vector[], handwritten_count_vector_end[];  // handwritten_count.S
extern volatile std::uint32_t handwritten_head;
// board/handwritten_pmu.S: the PMU's hand-written handler, one image per period (fast_sampling.h).
extern const std::uint32_t handwritten_pmu_vector_cm[], handwritten_pmu_vector_cm_end[];
extern const std::uint32_t handwritten_pmu_vector_cm_plus1[], handwritten_pmu_vector_cm_plus1_end[];
extern const std::uint32_t handwritten_pmu_vector_rm7000[], handwritten_pmu_vector_rm7000_end[];
extern const std::uint32_t handwritten_pmu_vector_rm7000_plus1[], handwritten_pmu_vector_rm7000_plus1_end[];
}

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
__attribute__((EXAMPLES_NOIPA, section("work_known"))) inline void spin_exact(std::uint32_t n) {
  asm volatile(".set push\n\t.set noreorder\n1:\tbnez %0, 1b\n\taddiu %0, %0, -1\n\t.set pop"
               : "+r"(n));
}

inline constexpr std::uint32_t kTickPeriod = board::kCountHz / 100'000;  // Count/Compare: 10 us
inline constexpr std::uint64_t kTickPeriodNs =
    std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kCountHz;

// The adaptor examples::profile() takes. `pmu_interrupt` routes the PMU's own overflow interrupt
// where the board has one for the PMU in use (set_perf_handler says).
struct Board {
  // The multiplexer's clock (examples/common/multiplex_check.hpp): CP0 Count, whose rate pmusim
  // and QEMU state differently (board.hpp).
  using Clock = CountClock;
  static std::uint64_t clock_hz() { return board::under_pmusim() ? 500'000'000u : board::kCountHz; }
  static const examples::Console& console() { return board::console; }
  static void putc(char c) { board::putc(c); }
  static void spin_exact(std::uint32_t n) { malta::spin_exact(n); }
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) {
    board::timer_start(kTickPeriod, tick);
    return true;
  }
  static void timer_stop() { board::timer_stop(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) { return board::set_perf_handler(irq); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  // The fast path: the exception vector straight into the ring (board.hpp, fast_sampling_start),
  // and its hand-written baseline (handwritten_count.S), on the same Count/Compare period.
  static bool fast_sampling_start(bool handwritten) {
    const bool ok = handwritten ? board::timer_vector_start(MALTA_FAST_PERIOD, handwritten_count_vector,
                                                            handwritten_count_vector_end)
                                : board::fast_sampling_start(MALTA_FAST_PERIOD, examples::fast_ring);
    if (ok) board::irq_enable();
    return ok;
  }
  static void fast_sampling_stop() {
    board::irq_disable();
    board::timer_stop();
  }
  static std::uint32_t handwritten_samples() { return handwritten_head; }
  // PMU overflow sampling through the board's fast vector (board.hpp, fast_pmu_sampling_start) into
  // the fast ring, and its hand-written baseline (board/handwritten_pmu.S), measured by
  // examples/common/pmu_fast_vector.hpp. Status.IE set here. pmu_counter: the sampled counter's
  // address where it is memory-mapped (the CM's PC_CYCLE, set by its main), else 0.
  static inline std::uintptr_t pmu_counter = 0;
  static bool pmu_fast_start(std::uint32_t period, volatile std::uint32_t* folds) {
    const bool ok = board::fast_pmu_sampling_start(period, pmu_counter, examples::fast_ring, folds);
    if (ok) board::irq_enable();
    return ok;
  }
  // Two periods one apart (fast_sampling.h): the hand-written image for each.
  static constexpr unsigned kPmuPeriods = 2;
  static constexpr std::uint32_t kPmuHandwrittenPeriod = MALTA_PMU_PERIOD;
  static bool pmu_handwritten_start(unsigned k = 0) {
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
    const std::uint32_t* const image[2] = {handwritten_pmu_vector_cm, handwritten_pmu_vector_cm_plus1};
    const std::uint32_t* const end[2] = {handwritten_pmu_vector_cm_end, handwritten_pmu_vector_cm_plus1_end};
#else
    const std::uint32_t* const image[2] = {handwritten_pmu_vector_rm7000, handwritten_pmu_vector_rm7000_plus1};
    const std::uint32_t* const end[2] = {handwritten_pmu_vector_rm7000_end, handwritten_pmu_vector_rm7000_plus1_end};
#endif
    const bool ok = k < 2 && board::pmu_vector_start(image[k], end[k]);
    if (ok) board::irq_enable();
    return ok;
  }
  static void pmu_fast_stop() {
    board::irq_disable();
    board::pmu_vector_stop();
  }
  static std::uint32_t pmu_handwritten_samples() { return handwritten_head; }
  static std::uint64_t fast_sampling_period_ns() { return std::uint64_t{MALTA_FAST_PERIOD} * board::kCountNs; }
  // spin_exact is `bnez; addiu` then `jr $ra; nop`: EPC is the bnez (also when the addiu in its
  // delay slot was interrupted) or the addiu, and $ra - 8 a `jal` (opcode 3) whose target, the
  // 256 MB region of $ra - 4 with instr_index << 2, is spin_exact.
  static bool in_known_loop(prof::Sample smp) {
    const auto fn = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&malta::spin_exact));
    if (smp.pc != fn && smp.pc != fn + 4) return false;
    const std::uint32_t jal = *reinterpret_cast<const volatile std::uint32_t*>(smp.lr - 8);
    return (jal >> 26) == 3 && (((smp.lr - 4) & 0xF0000000u) | ((jal & 0x03FFFFFFu) << 2)) == fn;
  }
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
