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
// the return and whatever the interrupt makes the interrupted code do again. A MIPS interrupt taken
// on a branch's delay slot returns to the branch (EPC is the branch, Cause.BD set: MIPS32 PRA,
// "Exception Processing"), which then runs once more; the clock sees that re-run, and this line
// says how many of the samples fell where it can happen. pmusim takes interrupts at the start of a
// translation block, never in a delay slot (tools/sim/mips.cpp), so there it is 0 by construction.
// The general entry freezes the counters for part of its work, which no counter sees: the clock
// does, so its figure is whole too.
//
// The 64-bit software part: the fast vector rewinds the register by one period per interrupt and
// adds one to the ring's head, and nothing else; stop() adds (head delta) x period to the software
// part (Profiler::account_rearm), so the counter reads what it counted once sampling stops. The
// check below compares the sampled counter's reading over a sampled run with the quiet run's plus
// the vectors' own counted events: a rewind lost or counted twice is 10,000 events off.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "fast_sampling.h"
#include "malta_profile.hpp"

extern "C" {
extern const std::uint32_t handwritten_pmu_vector_cm[], handwritten_pmu_vector_cm_end[];
extern const std::uint32_t handwritten_pmu_vector_rm7000[], handwritten_pmu_vector_rm7000_end[];
extern std::uint32_t handwritten_ring[];
}

namespace malta {

// The events each fast vector's rewind does not count: its own, between the counter's read and
// its write (start.S).
inline constexpr std::uint32_t kFastPmuRewindWindow = 4;

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

// Instructions x10 per interrupt over the quiet run's, from Count; kNoCost without interrupts.
template <class Board>
std::uint64_t whole_cost_x10(const PmuRun& on, const PmuRun& quiet) {
  if (on.interrupts == 0 || on.ticks <= quiet.ticks) return examples::kNoCost;
  const std::uint64_t ns = std::uint64_t{on.ticks - quiet.ticks} * 1'000'000'000u / Board::clock_hz();
  return (ns * 10 + on.interrupts / 2) / on.interrupts;  // pmusim: one instruction per ns; rounded
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
  p.start();
  examples::FastRing& ring = examples::fast_ring;
  std::uint32_t period = kPeriod, head0 = 0;
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
  // Quiet: the same arm, vector and stop, with a period the loop never reaches.
  period = 0x80000000u;
  const PmuRun quiet = pmu_run<Board, B>(cycles, kIters, fast_start, fast_stop, head);
  checks.check(quiet.interrupts == 0, "quiet run: no PMU interrupt");
  ring.reset();
  period = kPeriod;
  const PmuRun fast = pmu_run<Board, B>(cycles, kIters, fast_start, fast_stop, head);
  // Every sample interrupted the spin loop: PC a loop instruction, $ra the return from its call.
  std::uint32_t n = 0, off = 0, on_branch = 0;
  const auto fn = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&malta::spin_exact));
  for (prof::Sample smp; ring.pop(smp); ++n) {
    off += !Board::in_known_loop(smp);
    on_branch += smp.pc == fn;
  }
  out.put("PMU fast vector samples in the spin loop: ");
  out.dec(n - off);
  out.put(" of ");
  out.dec(n);
  out.put(" with their PC and return address (");
  out.dec(on_branch);
  out.line(" on the loop's branch: where an interrupt on its delay slot returns too)");
  checks.check(n > 0 && off == 0, "PMU fast vector samples carry the interrupted PC and return address");
  ring.reset();

  // Hand-written: the same job with link-time constants, PC only.
  const std::uint32_t hand_head0 = handwritten_head;
  auto hand_start = [&] {
    checks.check(sampler.arm(cycles, kPeriod) == pmu::Status::ok, "sampler armed (hand-written)");
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
    checks.check(board::pmu_vector_start(handwritten_pmu_vector_cm, handwritten_pmu_vector_cm_end),
                 "hand-written PMU handler installed");
#else
    checks.check(board::pmu_vector_start(handwritten_pmu_vector_rm7000, handwritten_pmu_vector_rm7000_end),
                 "hand-written PMU handler installed");
#endif
  };
  auto hand_stop = [&] {
    sampler.disarm();
    board::pmu_vector_stop();
  };
  const PmuRun hand = pmu_run<Board, B>(cycles, kIters, hand_start, hand_stop, [] { return handwritten_head; });
  std::uint32_t hand_off = 0;
  for (std::uint32_t i = hand_head0; i != handwritten_head && i - hand_head0 < 256; ++i)
    hand_off += handwritten_ring[i % 256] != fn && handwritten_ring[i % 256] != fn + 4;
  checks.check(hand.interrupts > 0 && hand_off == 0, "hand-written PMU handler samples in the spin loop");

  // The profiler's entries through the board's interrupt glue.
  auto entry_run = [&](void (*irq)(std::uint32_t, std::uint32_t)) {
    return pmu_run<Board, B>(
        cycles, kIters,
        [&] {
          checks.check(Board::pmu_interrupt(irq), "PMU interrupt routed");
          checks.check(sampler.arm(cycles, kPeriod) == pmu::Status::ok, "sampler armed");
        },
        [&] {
          sampler.disarm();
          Board::pmu_interrupt(nullptr);
        },
        [&] { return sampler.interrupts(); });
  };
  const PmuRun general = entry_run(&Bench<B>::on_pmu);
  const PmuRun slot0 = entry_run(&Bench<B>::on_pmu_slot0);
  for (prof::Sample drop; examples::profile_ring.pop(drop);) {
  }
  p.stop();

  const std::uint64_t fast_x10 = whole_cost_x10<Board>(fast, quiet), hand_x10 = whole_cost_x10<Board>(hand, quiet);
  examples::print_cost(out, "PMU sampling interrupt cost, fast vector", fast_x10,
                       "vector to return, PC and return address into the ring");
  examples::print_cost(out, "PMU sampling interrupt cost, hand-written", hand_x10, "vector to return");
  if (fast_x10 != examples::kNoCost && hand_x10 != examples::kNoCost) {
    const std::uint32_t pct = static_cast<std::uint32_t>(fast_x10 * 100 / hand_x10);
    out.put("PMU sampling, fast vector to hand-written: ");
    out.dec(pct / 100);
    out.put('.');
    if (pct % 100 < 10) out.put('0');
    out.dec(pct % 100);
    out.line(" (goal: at most 1.50)");
  }
  checks.check(fast_x10 != examples::kNoCost && hand_x10 != examples::kNoCost && 2 * fast_x10 <= 3 * hand_x10,
               "PMU fast vector within 1.5x the hand-written handler");
  examples::print_cost(out, "PMU sampling interrupt cost, general entry", whole_cost_x10<Board>(general, quiet),
                       "vector to return, whole");
  examples::print_cost(out, "PMU sampling interrupt cost, compile-time slot", whole_cost_x10<Board>(slot0, quiet),
                       "vector to return, whole");

  // The sampled counter still counts: over the sampled run it read the quiet run's events plus the
  // vectors' own, less each rewind's window, within Count's granularity (a tick each end of each
  // run: 8 instructions), whatever the number of rewinds.
  const std::uint64_t handler_events =
      fast.counted >= quiet.counted ? fast.counted - quiet.counted : ~std::uint64_t{0};
  const std::uint64_t by_clock = std::uint64_t{fast.ticks - quiet.ticks} * 1'000'000'000u / Board::clock_hz();
  const std::uint64_t expect = by_clock - std::uint64_t{fast.interrupts} * kFastPmuRewindWindow;
  out.put("PMU fast vector: the sampled counter read ");
  out.dec(static_cast<std::uint32_t>(quiet.counted));
  out.put(" quiet and ");
  out.dec(static_cast<std::uint32_t>(fast.counted));
  out.put(" sampled over ");
  out.dec(fast.interrupts);
  out.put(" rewinds by ");
  out.dec(kPeriod);
  out.put(" (");
  out.dec(static_cast<std::uint32_t>(expect));
  out.line(" events of the vectors expected, +-8)");
  checks.check(handler_events + 8 >= expect && handler_events <= expect + 8 && fast.interrupts >= 100 &&
                   fast.counted / kPeriod + 1 >= fast.interrupts && fast.counted / kPeriod <= fast.interrupts + 1,
               "sampled counter counts every event after many fast-vector rewinds (Profiler::account_rearm)");
  return checks.failures;
}

}  // namespace malta
