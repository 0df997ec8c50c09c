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

// The general entry (board glue, Sampler::on_pmu_interrupt) measured whole: it freezes every counter
// for part of its work, which no PMU counter then sees, so the board's free-running clock times a
// long spin with and without it (under pmusim one instruction is 1 ns: instructions = ticks x
// 1e9 / clock_hz; the XScale's OS timer ticks every 307.7 instructions, the e500's time base
// every 2.5, the PC's TSC every one). x10, or kNoCost.
template <class Board, prof::Backend B>
std::uint64_t entry_whole_x10(const Setup& s, prof::Counter cycles, void (*entry)(std::uint32_t, std::uint32_t),
                              Checks& checks) {
  if constexpr (!BoardClock<Board>) {
    return kNoCost;
  } else {
    if (s.per_instr_num != 1 || s.per_instr_den != 1 || s.resolution != 0) return kNoCost;
    const std::uint64_t hz = Board::clock_hz();
    // The spin long enough for 2,000 x known region at the firmware's own period (the entry's cost
    // depends on it: NetBurst's at 1,000 is not its cost at 100,000), and longer where one tick is
    // many instructions, so that the two readings' ticks are well under an instruction per interrupt.
    const std::uint32_t kTimes = 2000 * static_cast<std::uint32_t>(1 + 1'000'000'000ull / hz / 50);
    const std::uint64_t kPeriod = s.pmu_period;
    const std::uint64_t mask = Board::Clock::kWidth >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << Board::Clock::kWidth) - 1;
    auto spin_ticks = [&] {
      const std::uint64_t t0 = Board::Clock::now();
      Board::spin_exact(kTimes * s.known_iters);
      return (Board::Clock::now() - t0) & mask;
    };
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
    if (n == 0 || busy <= quiet) return kNoCost;
    // Ticks to instructions x10, rounded, per interrupt.
    return ((busy - quiet) * 10'000'000'000ull / hz + n / 2) / n;
  }
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
    if (p.slot_of(cycles) != 0 || !instr.valid() || s.per_instr_num != 1 || s.per_instr_den != 1 ||
        s.resolution != 0) {
      out.line("PMU sampling, fast vector: not measured here (the cycles counter on slot 0 and an exact instructions counter needed)");
      return;
    }
    auto& sampler = Bench<B>::sampler;
    constexpr std::uint32_t period = Board::kPmuHandwrittenPeriod;
    static prof::RegionStats<B> ours_stats{"spin_exact_pmu_fast_sampled"}, hand_stats{"spin_exact_pmu_hand_sampled"};

    // The fast vector.
    fast_ring.reset();
    p.count_rearms_in(cycles, fast_ring_head(), period);
    checks.check(sampler.arm(cycles, period) == pmu::Status::ok, "sampler armed (fast vector)");
    checks.check(Board::pmu_fast_start(period, p.fold_count_word()), "PMU interrupt routed to the fast vector");
    const std::uint64_t ours = interrupt_cost_x10<Board>(s, regions, ours_stats, [] { return fast_ring.recorded(); },
                                                         instr.index);
    Board::pmu_fast_stop();
    sampler.disarm();
    if constexpr (requires { Board::in_known_loop(prof::Sample{}); }) {
      std::uint32_t n = 0, off = 0;
      for (prof::Sample smp; fast_ring.pop(smp); ++n) off += !Board::in_known_loop(smp) || smp.lr == 0;
      out.put("PMU fast vector samples in the spin loop: ");
      out.dec(n - off);
      out.put(" of ");
      out.dec(n);
      out.line(" with its PC and caller's return address");
      checks.check(n > 0 && off <= 1, "PMU fast vector samples carry the interrupted PC and return address");
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
        out.put("fast-vector sampled counter, period ");
        out.dec(per);
        out.put(": known region ");
        out.dec(static_cast<std::uint32_t>(v));
        out.put(" = ");
        out.dec(static_cast<std::uint32_t>(known));
        out.put(" + ");
        out.dec(static_cast<std::uint32_t>(n));
        out.put(" interrupts x ");
        out.dec(static_cast<std::uint32_t>(n == 0 || v < known ? 0 : (v - known) / n));
        out.line(" instructions");
        const std::uint64_t periods = v / per, slack = 1 + periods * 3 / 100;
        all &= v >= known && v <= known + kSetUp + n * kHandlerBound && n + slack >= periods && n <= periods + slack &&
               st.clamped + st.voided == 0;
      }
      checks.check(all, "a region on the fast-vector sampled counter reads its instructions plus the vector's");
    }
    p.count_rearms_in(cycles, nullptr, 0);
    fast_ring.reset();

    // The hand-written handler, at its own period (the same as the fast vector's above).
    checks.check(sampler.arm(cycles, period) == pmu::Status::ok, "sampler armed (hand-written)");
    const std::uint32_t h0 = Board::pmu_handwritten_samples();
    checks.check(Board::pmu_handwritten_start(), "PMU interrupt routed to the hand-written handler");
    const std::uint64_t hand = interrupt_cost_x10<Board>(
        s, regions, hand_stats, [] { return Board::pmu_handwritten_samples(); }, instr.index);
    Board::pmu_fast_stop();
    sampler.disarm();
    p.account_rearm(cycles, std::uint64_t{period} * (Board::pmu_handwritten_samples() - h0));

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
