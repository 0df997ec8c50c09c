#pragma once
// PMU overflow sampling through the board's fast vector (board.hpp, fast_pmu_sampling_start;
// start.S, malta_fast_pmu_vector_cm / _rm7000) on the cycles counter (slot 0), against a
// hand-written handler doing the same job in the same image (board/handwritten_pmu.S) and the
// profiler's own entries (Sampler::on_pmu_interrupt through the board's glue), all in one run
// under pmusim. Call it from main() after examples::profile(): it adds the cycles counter afresh
// (slot 0) and leaves the Profiler stopped.
//
// Every cost is measured whole on the board's free-running clock, CP0 Count (board::count(): one
// tick per two instructions under pmusim, Board::clock_hz()), over a long spin loop with the
// sampling interrupt on, less the same loop with it quiet, per interrupt taken: from the vector to
// the return, and what the interrupt makes the interrupted code run again. A MIPS interrupt taken
// on a branch's delay slot returns to the branch (EPC is the branch, Cause.BD set: MIPS32 PRA,
// Cause and EPC registers), which then runs once more. pmusim takes an interrupt on the instruction
// where it falls, delay slots included (tools/sim/mips.cpp), so the clock counts that re-run. With
// one fixed period the spin loop's overflows all settle on the branch or all on its delay slot
// (fast_sampling.h): each entry is measured at two periods one apart, one of each, and the figure
// is their mean, the cost with interrupts spread evenly over the loop. The general entry freezes
// the counters for part of its work, which no counter sees; the clock does, so it is whole too.
//
// The 64-bit software part: the fast vector rewinds the register by one period per interrupt and
// adds one to the ring's head, and nothing else; stop() adds (head delta) x period to the software
// part (Profiler::account_rearm), so the counter reads what it counted once sampling stops. The
// check below compares the sampled counter's reading over each sampled run with the quiet run's
// plus the vector's own counted events: a rewind lost or counted twice is a period off.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "fast_sampling.h"
#include "malta_profile.hpp"

extern "C" {
extern const std::uint32_t handwritten_pmu_vector_cm[], handwritten_pmu_vector_cm_end[];
extern const std::uint32_t handwritten_pmu_vector_cm_plus1[], handwritten_pmu_vector_cm_plus1_end[];
extern const std::uint32_t handwritten_pmu_vector_rm7000[], handwritten_pmu_vector_rm7000_end[];
extern const std::uint32_t handwritten_pmu_vector_rm7000_plus1[], handwritten_pmu_vector_rm7000_plus1_end[];
extern const std::uint32_t malta_fast_vector[], malta_fast_vector_end[];
extern std::uint32_t handwritten_ring[];
}

namespace malta {

// The events each fast PMU vector's rewind does not count: its own, between the counter's read
// and its write (start.S).
inline constexpr std::uint32_t kFastPmuRewindWindow = 4;
// Every handler image here ends in its path's eret, then `la $k0, malta_exception; jr $k0; nop`
// (four words) for any other exception: the path from the vector to eret is the rest.
inline std::uint32_t path_instructions(const std::uint32_t* image, const std::uint32_t* end) {
  return static_cast<std::uint32_t>(end - image) - 4;
}

struct PmuRun {
  std::uint32_t ticks = 0;       // CP0 Count over the loop
  std::uint32_t interrupts = 0;  // taken in it
  std::uint64_t counted = 0;     // the sampled counter's reading over start..stop
};

// The loop with one sampling entry on: start() arms and installs it (interrupts masked), stop()
// takes it down and accounts; interrupts() counts the entries taken.
template <class Board, prof::Backend B, class Start, class Stop, class Count>
[[gnu::noinline]] PmuRun pmu_run(prof::Counter cycles, std::uint32_t iters, Start start, Stop stop, Count interrupts) {
  prof::Profiler<B>& p = examples::Bench<B>::profiler;
  start();
  const std::uint64_t c0 = p.read(cycles);
  const std::uint32_t n0 = interrupts();
  const std::uint32_t t0 = board::count();
  board::irq_enable();
  Board::spin_exact(iters);
  board::irq_disable();
  const std::uint32_t t1 = board::count();
  PmuRun r;
  r.interrupts = interrupts() - n0;
  stop();
  r.counted = p.read(cycles) - c0;
  r.ticks = t1 - t0;
  return r;
}

// Instructions over the quiet run's, from Count (pmusim: one instruction per ns).
template <class Board>
std::uint64_t extra_instructions(const PmuRun& on, const PmuRun& quiet) {
  if (on.ticks <= quiet.ticks) return 0;
  return std::uint64_t{on.ticks - quiet.ticks} * 1'000'000'000u / Board::clock_hz();
}
// Per interrupt, x10 and rounded; kNoCost without interrupts.
template <class Board>
std::uint64_t whole_cost_x10(const PmuRun& on, const PmuRun& quiet) {
  if (on.interrupts == 0 || on.ticks <= quiet.ticks) return examples::kNoCost;
  return (extra_instructions<Board>(on, quiet) * 10 + on.interrupts / 2) / on.interrupts;
}
// The mean of two runs' costs (kNoCost if either has none).
inline std::uint64_t mean_x10(std::uint64_t a, std::uint64_t b) {
  return a == examples::kNoCost || b == examples::kNoCost ? examples::kNoCost : (a + b + 1) / 2;
}

inline void put_ratio(const examples::Console& out, std::uint64_t x10, std::uint64_t base_x10) {
  const std::uint32_t pct = static_cast<std::uint32_t>((x10 * 100 + base_x10 / 2) / base_x10);
  out.dec(pct / 100);
  out.put('.');
  if (pct % 100 < 10) out.put('0');
  out.dec(pct % 100);
}

// "<what>: <path> instructions from the vector to eret; <a> per interrupt on the loop's branch,
// <b> on its delay slot" (the two periods' runs, whichever is which).
inline void put_breakdown(const examples::Console& out, const char* what, std::uint32_t path, std::uint64_t a_x10,
                          std::uint64_t b_x10) {
  if (a_x10 == examples::kNoCost || b_x10 == examples::kNoCost) return;
  const std::uint64_t lo = a_x10 < b_x10 ? a_x10 : b_x10, hi = a_x10 < b_x10 ? b_x10 : a_x10;
  out.put(what);
  out.put(": ");
  out.dec(path);
  out.put(" instructions from the vector to eret; per interrupt ");
  examples::put_tenths(out, lo);
  out.put(" when it lands on the spin loop's branch, ");
  examples::put_tenths(out, hi);
  out.line(" on its delay slot (the branch runs again after eret)");
}

template <class Board, prof::Backend B>
[[gnu::noinline]] int pmu_fast_sampling(std::uintptr_t counter_address) {
  const examples::Console& out = Board::console();
  examples::Checks checks{out};
  if (!board::under_pmusim()) {
    out.line("PMU sampling, fast vector: not measured (its costs are measured under pmusim)");
    return 0;
  }
  using examples::Bench;
  prof::Profiler<B>& p = Bench<B>::profiler;
  prof::Sampler<B, examples::ProfileRing>& sampler = Bench<B>::sampler;
  // The cycles counter added afresh: the multiplexing check programs the PMU's events after
  // profile()'s own use of them.
  p.clear();
  prof::Counter cycles;
  if (p.template add<pmu::Preset::cycles>(cycles) != pmu::Status::ok || p.slot_of(cycles) != 0) {
    out.line("PMU sampling, fast vector: the cycles counter is not on slot 0: not measured");
    return 0;
  }
  constexpr std::uint32_t kIters = 1'000'000, kPeriod = MALTA_PMU_PERIOD;
  const auto fn = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&malta::spin_exact));
  p.start();
  examples::FastRing& ring = examples::fast_ring;
  ring.reset();

  // The fast vector, with its arm, install, stop and account; quiet: the same with a period the
  // loop never reaches.
  std::uint32_t period = 0x80000000u, head0 = 0;
  auto fast_start = [&] {
    checks.check(sampler.arm(cycles, period) == pmu::Status::ok, "sampler armed (fast vector)");
    head0 = ring.recorded();
    checks.check(board::fast_pmu_sampling_start(period, counter_address, ring), "fast PMU vector installed");
  };
  auto fast_stop = [&] {
    sampler.disarm();
    board::pmu_vector_stop();
    // Each run of the vector was one rewind by the period: the software part takes them all.
    p.account_rearm(cycles, std::uint64_t{ring.recorded() - head0} * period);
  };
  auto head = [&] { return ring.recorded(); };
  const PmuRun quiet = pmu_run<Board, B>(cycles, kIters, fast_start, fast_stop, head);
  checks.check(quiet.interrupts == 0, "quiet run: no PMU interrupt");

  // The hand-written handlers, one per period.
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
  const std::uint32_t* const hand_image[2] = {handwritten_pmu_vector_cm, handwritten_pmu_vector_cm_plus1};
  const std::uint32_t* const hand_end[2] = {handwritten_pmu_vector_cm_end, handwritten_pmu_vector_cm_plus1_end};
  const std::uint32_t fast_path = path_instructions(malta_fast_pmu_vector_cm, malta_fast_pmu_vector_cm_end);
#else
  const std::uint32_t* const hand_image[2] = {handwritten_pmu_vector_rm7000, handwritten_pmu_vector_rm7000_plus1};
  const std::uint32_t* const hand_end[2] = {handwritten_pmu_vector_rm7000_end, handwritten_pmu_vector_rm7000_plus1_end};
  const std::uint32_t fast_path = path_instructions(malta_fast_pmu_vector_rm7000, malta_fast_pmu_vector_rm7000_end);
#endif
  const std::uint32_t hand_path = path_instructions(hand_image[0], hand_end[0]);

  std::uint64_t fast_x10[2], hand_x10[2], general_x10[2], slot0_x10[2];
  bool counts = true, in_loop = true;
  std::uint32_t samples = 0;
  for (unsigned k = 0; k < 2; ++k) {
    period = kPeriod + k;
    const PmuRun fast = pmu_run<Board, B>(cycles, kIters, fast_start, fast_stop, head);
    fast_x10[k] = whole_cost_x10<Board>(fast, quiet);
    // Every sample interrupted the spin loop: PC a loop instruction, $ra the return from its call.
    for (prof::Sample smp; ring.pop(smp); ++samples) in_loop &= Board::in_known_loop(smp);
    ring.reset();
    // The sampled counter still counts: over the sampled run it read the quiet run's events plus
    // the vector's own, less each rewind's window, whatever the number of rewinds: within 16 (a
    // Count tick at each end of each run, and the stop's 64-bit multiply, whose length depends on
    // its operands, inside the counter's reading).
    const std::uint64_t expect =
        extra_instructions<Board>(fast, quiet) - std::uint64_t{fast.interrupts} * kFastPmuRewindWindow;
    const std::uint64_t got = fast.counted >= quiet.counted ? fast.counted - quiet.counted : ~std::uint64_t{0};
    out.put("PMU fast vector, period ");
    out.dec(period);
    out.put(": the sampled counter read ");
    out.dec(static_cast<std::uint32_t>(quiet.counted));
    out.put(" quiet and ");
    out.dec(static_cast<std::uint32_t>(fast.counted));
    out.put(" sampled over ");
    out.dec(fast.interrupts);
    out.put(" rewinds (the vector's own events: ");
    out.dec(static_cast<std::uint32_t>(got));
    out.put(", expected ");
    out.dec(static_cast<std::uint32_t>(expect));
    out.line(" +- 16)");
    counts &= fast.interrupts >= 100 && got + 16 >= expect && got <= expect + 16;

    const std::uint32_t hand_head0 = handwritten_head;
    const PmuRun hand = pmu_run<Board, B>(
        cycles, kIters,
        [&] {
          checks.check(sampler.arm(cycles, period) == pmu::Status::ok, "sampler armed (hand-written)");
          checks.check(board::pmu_vector_start(hand_image[k], hand_end[k]), "hand-written PMU handler installed");
        },
        [&] {
          sampler.disarm();
          board::pmu_vector_stop();
        },
        [] { return handwritten_head; });
    hand_x10[k] = whole_cost_x10<Board>(hand, quiet);
    for (std::uint32_t i = hand_head0; i != handwritten_head && i - hand_head0 < 256; ++i)
      in_loop &= handwritten_ring[i % 256] == fn || handwritten_ring[i % 256] == fn + 4;

    // The profiler's entries through the board's interrupt glue.
    auto entry_run = [&](void (*irq)(std::uint32_t, std::uint32_t)) {
      return pmu_run<Board, B>(
          cycles, kIters,
          [&] {
            checks.check(Board::pmu_interrupt(irq), "PMU interrupt routed");
            checks.check(sampler.arm(cycles, period) == pmu::Status::ok, "sampler armed");
          },
          [&] {
            sampler.disarm();
            Board::pmu_interrupt(nullptr);
          },
          [&] { return sampler.interrupts(); });
    };
    general_x10[k] = whole_cost_x10<Board>(entry_run(&Bench<B>::on_pmu), quiet);
    slot0_x10[k] = whole_cost_x10<Board>(entry_run(&Bench<B>::on_pmu_slot0), quiet);
    for (prof::Sample drop; examples::profile_ring.pop(drop);) {
    }
  }
  p.stop();

  out.put("PMU fast vector and hand-written samples in the spin loop: ");
  out.dec(samples);
  out.line(in_loop ? " fast, all with their PC and return address" : " fast; some outside the loop");
  checks.check(samples > 0 && in_loop, "PMU fast vector samples carry the interrupted PC and return address");
  put_breakdown(out, "PMU fast vector", fast_path, fast_x10[0], fast_x10[1]);
  put_breakdown(out, "PMU hand-written handler", hand_path, hand_x10[0], hand_x10[1]);
  const std::uint64_t fast_mean = mean_x10(fast_x10[0], fast_x10[1]), hand_mean = mean_x10(hand_x10[0], hand_x10[1]);
  examples::print_cost(out, "PMU sampling interrupt cost, fast vector", fast_mean,
                       "vector to return, PC and return address into the ring");
  examples::print_cost(out, "PMU sampling interrupt cost, hand-written", hand_mean, "vector to return");
  if (fast_mean != examples::kNoCost && hand_mean != examples::kNoCost) {
    out.put("PMU sampling, fast vector to hand-written: ");
    put_ratio(out, fast_mean, hand_mean);
    out.line(" (goal: at most 1.50)");
  }
  checks.check(fast_mean != examples::kNoCost && hand_mean != examples::kNoCost && 2 * fast_mean <= 3 * hand_mean,
               "PMU fast vector within 1.5x the hand-written handler");
  examples::print_cost(out, "PMU sampling interrupt cost, general entry", mean_x10(general_x10[0], general_x10[1]),
                       "vector to return, whole");
  examples::print_cost(out, "PMU sampling interrupt cost, compile-time slot", mean_x10(slot0_x10[0], slot0_x10[1]),
                       "vector to return, whole");
  checks.check(counts, "sampled counter counts every event after many fast-vector rewinds (Profiler::account_rearm)");

  // The board's fast timer path and its hand-written baseline on the same clock, where an interrupt
  // can land on a delay slot: their Count/Compare re-arm from Count settles the spin loop's
  // interrupts on the branch or on its slot by each handler's own length, whatever the period, so
  // both are printed with their path lengths. QEMU takes them only between its translation blocks.
  const PmuRun tq = pmu_run<Board, B>(cycles, kIters, [] {}, [] {}, [] { return 0u; });
  const std::uint32_t ring0 = ring.recorded();
  const PmuRun tf = pmu_run<Board, B>(
      cycles, kIters,
      [&] {
        checks.check(Board::fast_sampling_start(false), "fast timer sampling started");
        board::irq_disable();
      },
      [] { Board::fast_sampling_stop(); }, [&] { return ring.recorded() - ring0; });
  const PmuRun th = pmu_run<Board, B>(
      cycles, kIters,
      [&] {
        checks.check(Board::fast_sampling_start(true), "hand-written timer sampling started");
        board::irq_disable();
      },
      [] { Board::fast_sampling_stop(); }, [] { return Board::handwritten_samples(); });
  ring.reset();
  const std::uint64_t tf_x10 = whole_cost_x10<Board>(tf, tq), th_x10 = whole_cost_x10<Board>(th, tq);
  if (tf_x10 != examples::kNoCost && th_x10 != examples::kNoCost) {
    const std::uint32_t tf_path = path_instructions(malta_fast_vector, malta_fast_vector_end),
                        th_path = path_instructions(handwritten_count_vector, handwritten_count_vector_end);
    auto rerun = [&](std::uint64_t x10, std::uint32_t path) {
      examples::put_tenths(out, x10 > path * 10u ? x10 - path * 10u : 0);
    };
    out.put("timer fast path under pmusim: ");
    out.dec(tf_path);
    out.put(" instructions from the vector to eret, ");
    examples::put_tenths(out, tf_x10);
    out.put(" per interrupt (branch re-runs: ");
    rerun(tf_x10, tf_path);
    out.put("); hand-written: ");
    out.dec(th_path);
    out.put(", ");
    examples::put_tenths(out, th_x10);
    out.put(" (");
    rerun(th_x10, th_path);
    out.put("); with interrupts spread evenly over the branch and its delay slot: ");
    examples::put_tenths(out, tf_path * 10u + 5);
    out.put(" and ");
    examples::put_tenths(out, th_path * 10u + 5);
    out.put(", ");
    put_ratio(out, tf_path * 10u + 5, th_path * 10u + 5);
    out.line(" (goal: at most 1.50)");
    checks.check(tf_x10 >= tf_path * 10u && tf_x10 <= tf_path * 10u + 10 && th_x10 >= th_path * 10u &&
                     th_x10 <= th_path * 10u + 10,
                 "timer fast path and hand-written: their path plus at most one branch re-run per interrupt");
  }
  return checks.failures;
}

}  // namespace malta
