#pragma once
// PMU overflow sampling through the board's fast vector, against a hand-written handler in the same
// image and run (issue 39, item 1), and the general entry's cost measured whole. Called from
// profile_run.hpp's PMU sampling phase, where an exact instructions counter measures (pmusim).
//
// A board with a fast vector (its assembly in examples/<board>/board/: the PMU overflow interrupt
// acknowledged, the cycles counter on slot 0 re-armed by rewinding it one period, the interrupted
// PC and return address into fast_ring, nothing else) gives these examples' Board members:
//
//   static bool pmu_fast_start(std::uint32_t period, volatile std::uint32_t* folds);
//                                                       // the fast vector into fast_ring; unmasks it
//   static bool pmu_handwritten_start();                // the hand-written handler, its own period
//   static void pmu_fast_stop();                        // either one routed back, masked
//   static std::uint32_t pmu_handwritten_samples();     // the hand-written ring's count
//   static constexpr std::uint32_t kPmuHandwrittenPeriod;
//   static bool in_known_loop(prof::Sample);            // optional, as for the fast timer path
//   // Optional, where an interrupt can land on a branch's delay slot (MIPS): costs are the mean
//   // over kPmuPeriods periods one apart (kPmuHandwrittenPeriod + k, the hand-written handler's
//   // own for each k), see pmu_periods().
//   static constexpr unsigned kPmuPeriods;
//   static bool pmu_handwritten_start(unsigned k);
//
// Where the backend has no exact instructions counter beside the sampled one (one counter, or
// none that counts instructions: MIPS CM, RM7000) but the board's clock is instruction-exact
// (pmusim), every cost is measured whole on the clock instead (clock_cost_x10).
//
// The counter is armed by the Sampler as for the general path (its preset, its overflow interrupt
// enabled); only the entry differs. The fast vector cannot afford Profiler::account_rearm: its
// re-arms are fast_ring's head, which Profiler::count_rearms_in folds into the counter's value, so
// the sampled counter still counts every event, and it bumps the profiler's fold count (`folds`,
// Profiler::fold_count_word) so that a read it interrupted retries. The hand-written handler's
// re-arms are accounted after its run (account_rearm, once per sample it took). While either is
// routed the program reads the PMU (regions) but does not program it: XScale's FIQ is not masked by
// the profiler's interrupt guard.
#include <cstdint>

#include "examples/common/profile_run.hpp"

namespace examples {

// The fast ring's head, the word the board's fast vector bumps once per re-arm.
inline const volatile std::uint32_t* fast_ring_head() {
  return reinterpret_cast<const volatile std::uint32_t*>(reinterpret_cast<const volatile char*>(&fast_ring) +
                                                          FastRing::kHeadOffset);
}

template <class Board>
concept PmuFastVector = requires(std::uint32_t period, volatile std::uint32_t* folds) {
  { Board::pmu_fast_start(period, folds) } -> std::convertible_to<bool>;
  { Board::pmu_handwritten_start() } -> std::convertible_to<bool>;
  Board::pmu_fast_stop();
  { Board::pmu_handwritten_samples() } -> std::convertible_to<std::uint32_t>;
  Board::kPmuHandwrittenPeriod;
};

inline void put_ratio(const Console& out, std::uint64_t ours, std::uint64_t hand) {
  const std::uint32_t pct = static_cast<std::uint32_t>((ours * 100 + hand / 2) / hand);
  out.dec(pct / 100);
  out.put('.');
  if (pct % 100 < 10) out.put('0');
  out.dec(pct % 100);
}

// A MIPS interrupt taken on a branch's delay slot returns to the branch (EPC is the branch,
// Cause.BD set: MIPS32 PRA, Cause and EPC registers), which runs once more; with one fixed period
// the spin loop's overflows all settle on the branch or all on its delay slot, by the period's
// parity. A board that says so is measured at kPmuPeriods periods one apart and the figure is
// their mean: the cost with interrupts spread evenly over the loop.
template <class Board>
constexpr unsigned pmu_periods() {
  if constexpr (requires { Board::kPmuPeriods; }) return Board::kPmuPeriods;
  else return 1;
}
template <class Board>
bool pmu_handwritten_start(unsigned k) {
  if constexpr (requires { Board::pmu_handwritten_start(k); }) return Board::pmu_handwritten_start(k);
  else return k == 0 && Board::pmu_handwritten_start();
}

// The board's clock over a spin of n known-loop iterations, in its ticks.
template <class Board>
std::uint64_t spin_clock_ticks(std::uint32_t n) {
  const std::uint64_t mask = Board::Clock::kWidth >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << Board::Clock::kWidth) - 1;
  const std::uint64_t t0 = Board::Clock::now();
  Board::spin_exact(n);
  return (Board::Clock::now() - t0) & mask;
}
// Ticks over the quiet spin's to instructions x10, rounded, per interrupt (under pmusim one
// instruction is 1 ns); kNoCost without interrupts.
template <class Board>
std::uint64_t ticks_x10_per_interrupt(std::uint64_t busy, std::uint64_t quiet, std::uint32_t n) {
  if (n == 0 || busy <= quiet) return kNoCost;
  return ((busy - quiet) * 10'000'000'000ull / Board::clock_hz() + n / 2) / n;
}
// The clock over a spin of `iters` with interrupts unmasked only around the spin (the board's
// mask, Board::irq_enable), and the interrupts taken in it (interrupts(): a running count); masked
// after.
template <class Board, class Count>
std::uint64_t clock_run_ticks(std::uint32_t iters, Count interrupts, std::uint32_t& taken) {
  const std::uint64_t mask = Board::Clock::kWidth >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << Board::Clock::kWidth) - 1;
  Board::irq_disable();
  const std::uint32_t n0 = interrupts();
  const std::uint64_t t0 = Board::Clock::now();
  Board::irq_enable();
  Board::spin_exact(iters);
  Board::irq_disable();
  const std::uint64_t t1 = Board::Clock::now();
  taken = interrupts() - n0;
  return (t1 - t0) & mask;
}
// One sampling interrupt's cost measured whole on the clock: the spin of `iters` with the
// interrupt routed less the same spin quiet (`quiet` ticks, clock_run_ticks with nothing routed),
// per interrupt taken in it: from the vector to the return and what it makes the interrupted code
// run again.
template <class Board, class Count>
std::uint64_t clock_cost_x10(std::uint32_t iters, std::uint64_t quiet, Count interrupts) {
  std::uint32_t n = 0;
  const std::uint64_t busy = clock_run_ticks<Board>(iters, interrupts, n);
  return ticks_x10_per_interrupt<Board>(busy, quiet, n);
}

// The general entry (board glue, Sampler::on_pmu_interrupt) measured whole: it freezes every counter
// for part of its work, which no PMU counter then sees, so the board's free-running clock times a
// long spin with and without it (under pmusim one instruction is 1 ns: instructions = ticks x
// 1e9 / clock_hz; the XScale's OS timer ticks every 307.7 instructions, the e500's time base
// every 2.5, the PC's TSC every one). x10, or kNoCost.
template <class Board, prof::Backend B>
std::uint64_t entry_whole_x10(const Setup& s, prof::Counter cycles, void (*entry)(std::uint32_t, std::uint32_t),
                              Checks& checks, unsigned k = 0, std::uint32_t times = 2000) {
  if constexpr (!BoardClock<Board>) {
    return kNoCost;
  } else {
    if (s.per_instr_num != 1 || s.per_instr_den != 1 || s.resolution != 0) return kNoCost;
    const std::uint64_t hz = Board::clock_hz();
    // The spin long enough for `times` (2,000) x known region at the firmware's own period (the entry's cost
    // depends on it: NetBurst's at 1,000 is not its cost at 100,000), and longer where one tick is
    // many instructions, so that the two readings' ticks are well under an instruction per interrupt.
    const std::uint32_t kTimes = times * static_cast<std::uint32_t>(1 + 1'000'000'000ull / hz / 50);
    const std::uint64_t kPeriod = s.pmu_period + k;
    auto spin_ticks = [&] { return spin_clock_ticks<Board>(kTimes * s.known_iters); };
    const std::uint64_t quiet = spin_ticks();
    checks.check(Board::pmu_interrupt(entry), "PMU interrupt routed (clock-timed)");
    checks.check(Bench<B>::sampler.arm(cycles, kPeriod) == pmu::Status::ok, "sampler armed (clock-timed)");
    Board::irq_enable();
    const std::uint32_t n0 = Bench<B>::sampler.interrupts();
    const std::uint64_t busy = spin_ticks();
    const std::uint32_t n = Bench<B>::sampler.interrupts() - n0;
    Board::irq_disable();
    Bench<B>::sampler.disarm();
    for (prof::Sample drop; profile_ring.pop(drop);) {
    }
    return ticks_x10_per_interrupt<Board>(busy, quiet, n);
  }
}
// Its mean over the board's periods (pmu_periods), on a spin of `times` x the known region.
template <class Board, prof::Backend B>
std::uint64_t entry_whole_mean_x10(const Setup& s, prof::Counter cycles, void (*entry)(std::uint32_t, std::uint32_t),
                                   Checks& checks, std::uint32_t times) {
  std::uint64_t sum = 0;
  for (unsigned k = 0; k < pmu_periods<Board>(); ++k) {
    const std::uint64_t x10 = entry_whole_x10<Board, B>(s, cycles, entry, checks, k, times);
    if (x10 == kNoCost) return kNoCost;
    sum += x10;
  }
  return (sum + pmu_periods<Board>() / 2) / pmu_periods<Board>();
}

// The general entry's figure, whole; the clock's method checked first on the compile-time-slot
// entry, which freezes nothing, against that entry's figure on the exact instructions counter
// (`exact_x10`): within one instruction.
template <class Board, prof::Backend B>
std::uint64_t general_entry_whole_x10(const Setup& s, prof::Counter cycles, std::uint64_t exact_x10, Checks& checks) {
  const std::uint64_t slot0 = entry_whole_x10<Board, B>(s, cycles, &Bench<B>::on_pmu_slot0, checks);
  if (slot0 == kNoCost || exact_x10 == kNoCost) return kNoCost;
  print_cost(checks.out, "PMU sampling interrupt cost, compile-time slot, clock-timed", slot0,
             "vector to return, whole: the general entry's method");
  checks.check(slot0 + 10 >= exact_x10 && slot0 <= exact_x10 + 10,
               "the clock times an entry within one instruction of the exact instructions counter");
  return entry_whole_x10<Board, B>(s, cycles, &Bench<B>::on_pmu, checks);
}

// The fast vector and the hand-written handler, each on the known loop while the cycles counter on
// slot 0 samples it, measured on the instructions counter (no re-arm moves it); where the samples
// land; and a region on the sampled counter itself across many fast re-arms.
template <class Board, prof::Backend B>
[[gnu::noinline]] void pmu_fast_vector_cost(const Setup& s, prof::Profiler<B>& p, prof::Regions<B>& regions,
                                            prof::Counter cycles, prof::Counter instr, Checks& checks) {
  if constexpr (PmuFastVector<Board>) {
    const Console& out = checks.out;
    const bool exact = s.per_instr_num == 1 && s.per_instr_den == 1 && s.resolution == 0;
    // No exact instructions counter: the board's clock measures whole (clock_cost_x10).
    const bool clocked = !instr.valid() && BoardClock<Board>;
    if (p.slot_of(cycles) != 0 || !exact || (!instr.valid() && !clocked)) {
      out.line("PMU sampling, fast vector: not measured here (the cycles counter on slot 0 and an exact instructions counter needed)");
      return;
    }
    auto& sampler = Bench<B>::sampler;
    constexpr std::uint32_t period = Board::kPmuHandwrittenPeriod;
    constexpr unsigned kPeriods = pmu_periods<Board>();
    static prof::RegionStats<B> ours_stats{"spin_exact_pmu_fast_sampled"}, hand_stats{"spin_exact_pmu_hand_sampled"};
    std::uint64_t quiet = 0;
    if constexpr (BoardClock<Board>) {
      std::uint32_t none = 0;
      if (clocked) quiet = clock_run_ticks<Board>(1000 * s.known_iters, [] { return 0u; }, none);
    }
    // One entry's cost, already routed: on the instructions counter, or whole on the clock.
    auto measure = [&](prof::RegionStats<B>& st, auto interrupts) -> std::uint64_t {
      if constexpr (BoardClock<Board>)
        if (clocked) return clock_cost_x10<Board>(1000 * s.known_iters, quiet, interrupts);
      return interrupt_cost_x10<Board>(s, regions, st, interrupts, instr.index);
    };
    // The mean of kPeriods costs (kNoCost if any has none).
    auto mean = [](const std::uint64_t (&x10)[kPeriods]) {
      std::uint64_t sum = 0;
      for (const std::uint64_t v : x10) {
        if (v == kNoCost) return kNoCost;
        sum += v;
      }
      return (sum + kPeriods / 2) / kPeriods;
    };

    // The fast vector, at each period.
    std::uint64_t ours_k[kPeriods];
    std::uint32_t n = 0, off = 0;
    for (unsigned k = 0; k < kPeriods; ++k) {
      fast_ring.reset();
      p.count_rearms_in(cycles, fast_ring_head(), period + k);
      checks.check(sampler.arm(cycles, period + k) == pmu::Status::ok, "sampler armed (fast vector)");
      checks.check(Board::pmu_fast_start(period + k, p.fold_count_word()), "PMU interrupt routed to the fast vector");
      ours_k[k] = measure(ours_stats, [] { return fast_ring.recorded(); });
      Board::pmu_fast_stop();
      sampler.disarm();
      if constexpr (requires { Board::in_known_loop(prof::Sample{}); })
        for (prof::Sample smp; fast_ring.pop(smp); ++n) off += !Board::in_known_loop(smp) || smp.lr == 0;
    }
    const std::uint64_t ours = mean(ours_k);
    if constexpr (requires { Board::in_known_loop(prof::Sample{}); }) {
      out.put("PMU fast vector samples in the spin loop: ");
      out.dec(n - off);
      out.put(" of ");
      out.dec(n);
      out.line(" with its PC and caller's return address");
      checks.check(n > 0 && off <= kPeriods, "PMU fast vector samples carry the interrupted PC and return address");
    }

    // The sampled counter across many fast re-arms: a region on it reads the loop plus the vector's
    // instructions per interrupt taken, and one sample per period (as sampled_counter_counts).
    {
      constexpr std::uint32_t kIters = 50'000;
      constexpr std::uint64_t kHandlerBound = 64, kSetUp = 16;
      const std::uint64_t known = std::uint64_t{s.known_per_iter} * kIters + s.known_extra;
      bool all = true;
      for (const std::uint32_t per : {1'000u, 10'000u}) {
        static prof::RegionStats<B> st{"spin_on_the_fast_sampled_counter"};
        st.clear();
        fast_ring.reset();
        p.count_rearms_in(cycles, fast_ring_head(), per);
        checks.check(sampler.arm(cycles, per) == pmu::Status::ok, "sampler armed (fast vector)");
        checks.check(Board::pmu_fast_start(per, p.fold_count_word()), "PMU interrupt routed to the fast vector");
        {
          prof::Region r{regions, st};
          Board::spin_exact(kIters);
        }
        Board::pmu_fast_stop();
        sampler.disarm();
        const std::uint64_t v = st.total[cycles.index], n = fast_ring.recorded();
        put_known_region(out, "fast-vector sampled counter", per, v, known, n);
        out.line("");
        // Samples also fall before and after the region (the arm, the routing, the Region's begin
        // and end outside its window): one more than the periods inside it may be one of those.
        const std::uint64_t periods = v / per, slack = 2 + periods * 3 / 100;
        all &= v >= known && v <= known + kSetUp + n * kHandlerBound && n + slack >= periods && n <= periods + slack &&
               st.clamped + st.voided == 0;
      }
      checks.check(all, "a region on the fast-vector sampled counter reads its instructions plus the vector's");
    }
    p.count_rearms_in(cycles, nullptr, 0);
    fast_ring.reset();

    // The hand-written handler, at its own period(s) (the same as the fast vector's above).
    std::uint64_t hand_k[kPeriods];
    for (unsigned k = 0; k < kPeriods; ++k) {
      checks.check(sampler.arm(cycles, period + k) == pmu::Status::ok, "sampler armed (hand-written)");
      const std::uint32_t h0 = Board::pmu_handwritten_samples();
      checks.check(pmu_handwritten_start<Board>(k), "PMU interrupt routed to the hand-written handler");
      hand_k[k] = measure(hand_stats, [] { return Board::pmu_handwritten_samples(); });
      Board::pmu_fast_stop();
      sampler.disarm();
      p.account_rearm(cycles, std::uint64_t{period + k} * (Board::pmu_handwritten_samples() - h0));
    }
    const std::uint64_t hand = mean(hand_k);

    print_cost(out, "PMU sampling interrupt cost, fast vector", ours,
               "vector to return, PC and return address into the ring");
    print_cost(out, "PMU sampling interrupt cost, hand-written", hand, "vector to return");
    checks.check(ours != kNoCost && hand != kNoCost, "PMU fast vector and hand-written handler measured");
    if (ours == kNoCost || hand == kNoCost) return;
    out.put("PMU sampling, fast vector to hand-written: ");
    put_ratio(out, ours, hand);
    out.line(" (goal: at most 1.50)");
    checks.check(2 * ours <= 3 * hand, "PMU fast vector within 1.5x the hand-written handler");
  }
}

}  // namespace examples
