// Counter regions (profiler/counter_region.hpp) on the idealised PMU: one counter chosen at run
// time, its window calibrated away, regions of any length across folds, and an interrupt (a fold,
// an overflow, a reset) injected at every register access of a region, at widths 31 (the
// acknowledge clears bit 31 of the count), 32 and 40. A value is exact or the region is voided.
#include <gtest/gtest.h>

#include "fake_backend.hpp"
#include "inject_each_access.hpp"
#include "profiler/counter_region.hpp"

namespace {

using prof::Counter;
using prof::Status;

using fake::Rig;

using P31 = fake::Pmu<31>;
using P32 = fake::Pmu<32>;
using P40 = fake::Pmu<40>;

TEST(CounterRegions, SelectRefusesCountersNotAddedLinkedOrArmedForSampling) {
  Rig<P32> r;
  prof::CounterRegions<P32> one{r.p};
  EXPECT_EQ(one.select(Counter{}), Status::bad_argument);
  EXPECT_EQ(one.select(Counter{3}), Status::bad_argument);
  r.p.set_sampled(1, true);
  EXPECT_EQ(one.select(r.ins), Status::busy);
  EXPECT_EQ(one.select(r.cyc), Status::ok);
  EXPECT_EQ(one.selected().index, r.cyc.index);
}

TEST(CounterRegions, NothingSelectedIsVoidedNotWrong) {
  Rig<P32> r;
  prof::CounterRegions<P32> one{r.p};
  prof::RegionStats<P32> s{"s"};
  { prof::CounterRegion g{one, s}; P32::event(1, 9); }
  EXPECT_EQ(s.calls, 1u);
  EXPECT_EQ(s.voided, 1u);
  EXPECT_EQ(s.total[0], 0u);
}

// Armed for sampling after select(): a re-arm between an anchor and its read would move the
// register back unseen, so every such region is voided, not reported.
TEST(CounterRegions, ACounterArmedForSamplingAfterSelectIsVoided) {
  Rig<P32> r;
  prof::CounterRegions<P32> one{r.p};
  ASSERT_EQ(one.select(r.cyc), Status::ok);
  r.p.set_sampled(0, true);  // what Sampler::arm does
  prof::RegionStats<P32> s{"s"};
  { prof::CounterRegion g{one, s}; P32::event(1, 9); }
  EXPECT_EQ(s.voided, 1u);
  EXPECT_EQ(s.total[0], 0u);
}

// The window is the second read alone here (a read is an event of the counter it reads: its own
// cost): 1, calibrated away; every counter of the PMU can be the one.
TEST(CounterRegions, CalibratedWindowAndExactCountsOnTheCounterChosenAtRunTime) {
  for (unsigned pick = 0; pick < 2; ++pick) {
    Rig<P32> r;
    P32::st.cost_event = pick == 0 ? 1 : 2;
    prof::CounterRegions<P32> one{r.p};
    ASSERT_EQ(one.select(pick == 0 ? r.cyc : r.ins), Status::ok);
    prof::RegionStats<P32> empty{"empty"}, work{"work"};
    { prof::CounterRegion g{one, empty}; }
    EXPECT_EQ(empty.total[0], 1u);
    one.calibrate();
    EXPECT_EQ(one.overhead(), 1u);
    for (int i = 1; i <= 3; ++i) {
      prof::CounterRegion g{one, work};
      P32::event(pick + 1, 100 * i);
    }
    EXPECT_EQ(work.calls, 3u);
    EXPECT_EQ(work.total[0], 600u);
    EXPECT_EQ(work.min[0], 100u);
    EXPECT_EQ(work.max[0], 300u);
    EXPECT_EQ(work.clamped + work.voided, 0u);
  }
}

// Longer than the register, folded on the way: the whole count (the anchors carry the high part).
template <class B>
void long_region(std::uint64_t span) {
  Rig<B> r;
  prof::CounterRegions<B> one{r.p};
  ASSERT_EQ(one.select(r.cyc), Status::ok);
  prof::RegionStats<B> s{"s"};
  B::set(0, span - 0x10);
  {
    prof::CounterRegion g{one, s};
    for (int i = 0; i < 3; ++i) {
      B::event(1, 0x20);  // across the overflow, then folded
      (void)r.p.fold();
      B::set(0, span - 0x10);  // span - 0x20 events more, short of the next overflow
    }
    B::event(1, 5);
  }
  EXPECT_EQ(s.voided, 0u);
  EXPECT_EQ(s.total[0], 3 * span + 5);
}
// Manual rules the step relies on: e500 Core Reference Manual, 7.2.1 (PMCn: the overflow
// condition is bit 31, and clearing it leaves bits 30:0); Intel SDM Vol. 3B, 18.15 (NetBurst
// counters are 40 bits, read by RDPMC into EDX:EAX); XScale: a 32-bit counter that wraps to 0 and
// raises its flag.
TEST(CounterRegions, LongerThanTheRegisterWidth31Bit31ConditionClearedByTheFold) { long_region<P31>(std::uint64_t{1} << 31); }
TEST(CounterRegions, LongerThanTheRegisterWidth32WrapToZero) { long_region<P32>(std::uint64_t{1} << 32); }
TEST(CounterRegions, LongerThanTheRegisterWidth40ReaderReturnsLow32) { long_region<P40>(std::uint64_t{1} << 40); }

// An interrupt before every register access of one region (inject_each_access.hpp): the counter's
// first read is the last access before the body (F), its second F + 1.
template <class B>
struct OneCounterCase {
  Rig<B> r;
  prof::CounterRegions<B> one{r.p};
  explicit OneCounterCase(unsigned) { EXPECT_EQ(one.select(r.cyc), Status::ok); }
  prof::Profiler<B>& profiler() { return r.p; }
  template <class F>
  void measure(prof::RegionStats<B>& s, F body) {
    prof::CounterRegion g{one, s};
    body();
  }
  static unsigned first(unsigned, unsigned f, unsigned) { return f; }
  static unsigned second(unsigned, unsigned f, unsigned) { return f + 1; }
};
template <class B>
void inject_everywhere(std::uint64_t near_boundary) {
  fake::inject_before_each_access<B, OneCounterCase<B>>(near_boundary, 1, 1);
}

TEST(CounterRegions, InterruptAtEveryAccessWidth31Bit31Condition) { inject_everywhere<P31>(0x7FFFFFE8u); }
TEST(CounterRegions, InterruptAtEveryAccessWidth32) { inject_everywhere<P32>(0xFFFFFFE8u); }
TEST(CounterRegions, InterruptAtEveryAccessWidth40) { inject_everywhere<P40>(0xFFFFFFFFE8ull); }

// --- Several counters chosen at run time (CounterRegions<B, N>) ---
// Three counters of one event on slots 0..2 (so an event counts on all of them), and the fourth
// slot's instructions counter.
template <class B>
struct Rig3 {
  prof::Profiler<B> p;
  prof::Counter c[3], ins;
  Rig3() {
    B::reset_state();
    for (unsigned s = 0; s < 3; ++s) EXPECT_EQ(p.add_on(s, {1, 0, 0}, c[s]), Status::ok);
    EXPECT_EQ(p.add_on(3, {2, 0, 0}, ins), Status::ok);
    p.start();
  }
};

TEST(CounterRegionsN, SelectTakesOneToNCountersAndRefusesTheWholeSetOnOneBadCounter) {
  Rig3<P32> r;
  prof::CounterRegions<P32, 3> some{r.p};
  const Counter two[] = {r.ins, r.c[1]};
  EXPECT_EQ(some.select(two, 0), Status::bad_argument);
  const Counter four[] = {r.c[0], r.c[1], r.c[2], r.ins};
  EXPECT_EQ(some.select(four, 4), Status::bad_argument);
  ASSERT_EQ(some.select(two, 2), Status::ok);
  EXPECT_EQ(some.selected_count(), 2u);
  EXPECT_EQ(some.selected(0).index, r.ins.index);
  EXPECT_EQ(some.selected(1).index, r.c[1].index);
  const Counter bad[] = {r.c[0], Counter{}};
  EXPECT_EQ(some.select(bad, 2), Status::bad_argument);
  r.p.set_sampled(2, true);
  const Counter armed[] = {r.c[0], r.c[2]};
  EXPECT_EQ(some.select(armed, 2), Status::busy);
  EXPECT_EQ(some.selected(0).index, r.ins.index);  // unchanged
}

// Every backend access is one event of the counters' event: counter k of n (reads nested: the
// k-th read first at begin and last at end) sees its own second read and the 2 reads of each
// counter nested inside it, 1 + 2 (n - 1 - k), which calibration removes; the body's events
// are then exact on every counter, in the order given.
TEST(CounterRegionsN, NestedReadsEachCounterCalibratedAndExact) {
  for (unsigned n = 1; n <= 3; ++n) {
    Rig3<P32> r;
    P32::st.cost_event = 1;
    prof::CounterRegions<P32, 3> some{r.p};
    const Counter pick[] = {r.c[2], r.c[0], r.c[1]};
    ASSERT_EQ(some.select(pick, n), Status::ok);
    prof::RegionStats<P32> empty{"empty"}, work{"work"};
    { prof::CounterRegion g{some, empty}; }
    for (unsigned k = 0; k < n; ++k) EXPECT_EQ(empty.total[k], 1u + 2u * (n - 1 - k)) << n << " " << k;
    some.calibrate();
    for (unsigned k = 0; k < n; ++k) EXPECT_EQ(some.overhead(k), 1u + 2u * (n - 1 - k));
    for (int i = 1; i <= 3; ++i) {
      prof::CounterRegion g{some, work};
      P32::event(1, 100 * i);
    }
    for (unsigned k = 0; k < n; ++k) {
      EXPECT_EQ(work.total[k], 600u) << n << " " << k;
      EXPECT_EQ(work.min[k], 100u);
    }
    EXPECT_EQ(work.clamped + work.voided, 0u);
  }
}

// n of N positions used: the selected counters take the last n, so the unused positions are read
// before every counter's first read and after every counter's second read (outside all windows),
// and they read nothing that counts: no register access, 0.
TEST(CounterRegionsN, UnusedPositionsComeFirstAndReadNoRegister) {
  Rig3<P32> r;
  prof::CounterRegions<P32, 3> some{r.p};
  const Counter pick[] = {r.c[2], r.c[0]};
  for (unsigned n = 1; n <= 3; ++n) {
    const Counter all[] = {r.c[1], r.c[2], r.c[0]};
    ASSERT_EQ(some.select(n == 2 ? pick : all, n), Status::ok);
    for (unsigned pos = 0; pos < 3; ++pos) {
      P32::st.accesses = 0;
      P32::set(0, 7);
      (void)prof::CounterRegions<P32, 3>::read_by(some.reader(pos));
      EXPECT_EQ(P32::st.accesses, pos + n >= 3 ? 1u : 0u) << "n " << n << " position " << pos;
    }
  }
}

TEST(CounterRegionsN, NothingSelectedIsVoidedNotWrong) {
  Rig3<P32> r;
  prof::CounterRegions<P32, 2> some{r.p};
  prof::RegionStats<P32> s{"s"};
  { prof::CounterRegion g{some, s}; P32::event(1, 9); }
  EXPECT_EQ(s.voided, 1u);
  EXPECT_EQ(s.total[0], 0u);
}

// Longer than the register on every counter, folded on the way: each counter's own anchors carry
// its high part (the width rules as long_region above).
template <class B>
void long_region_n(std::uint64_t span) {
  Rig3<B> r;
  prof::CounterRegions<B, 3> some{r.p};
  const Counter pick[] = {r.c[1], r.c[2], r.c[0]};
  ASSERT_EQ(some.select(pick, 3), Status::ok);
  prof::RegionStats<B> s{"s"};
  for (unsigned k = 0; k < 3; ++k) B::set(k, span - 0x10 - k);
  {
    prof::CounterRegion g{some, s};
    for (int i = 0; i < 3; ++i) {
      B::event(1, 0x20);
      (void)r.p.fold();
      for (unsigned k = 0; k < 3; ++k) B::set(k, span - 0x10 - k);
    }
    B::event(1, 5);
  }
  EXPECT_EQ(s.voided, 0u);
  for (unsigned k = 0; k < 3; ++k) EXPECT_EQ(s.total[k], 3 * span + 5) << k;
}
TEST(CounterRegionsN, ThreeCountersLongerThanTheRegisterWidth31Bit31ConditionClearedByTheFold) {
  long_region_n<P31>(std::uint64_t{1} << 31);
}
TEST(CounterRegionsN, ThreeCountersLongerThanTheRegisterWidth32WrapToZero) { long_region_n<P32>(std::uint64_t{1} << 32); }
TEST(CounterRegionsN, ThreeCountersLongerThanTheRegisterWidth40ReaderReturnsLow32) {
  long_region_n<P40>(std::uint64_t{1} << 40);
}

// An interrupt before every register access of one region on n = 2 and 3 counters (of N = 3
// positions; inject_each_access.hpp, the width rules as inject_everywhere above): reads nested,
// the k-th counter's first read at access F - n + 1 + k, its second at F + n - k, F the last
// access of begin.
template <class B>
struct NestedCase {
  Rig3<B> r;
  prof::CounterRegions<B, 3> some{r.p};
  explicit NestedCase(unsigned n) {
    const Counter pick[] = {r.c[2], r.c[0], r.c[1]};
    EXPECT_EQ(some.select(pick, n), Status::ok);
  }
  prof::Profiler<B>& profiler() { return r.p; }
  template <class F>
  void measure(prof::RegionStats<B>& s, F body) {
    prof::CounterRegion g{some, s};
    body();
  }
  static unsigned first(unsigned k, unsigned f, unsigned n) { return f - n + 1 + k; }
  static unsigned second(unsigned k, unsigned f, unsigned n) { return f + n - k; }
};
template <class B>
void inject_everywhere_n(std::uint64_t near_boundary, unsigned n) {
  fake::inject_before_each_access<B, NestedCase<B>>(near_boundary, n, 3);
}
TEST(CounterRegionsN, InterruptAtEveryAccessNestedReadsWidth31Bit31Condition) {
  inject_everywhere_n<P31>(0x7FFFFFE8u, 2);
  inject_everywhere_n<P31>(0x7FFFFFE8u, 3);
}
TEST(CounterRegionsN, InterruptAtEveryAccessNestedReadsWidth32) {
  inject_everywhere_n<P32>(0xFFFFFFE8u, 2);
  inject_everywhere_n<P32>(0xFFFFFFE8u, 3);
}
TEST(CounterRegionsN, InterruptAtEveryAccessNestedReadsWidth40) {
  inject_everywhere_n<P40>(0xFFFFFFFFE8ull, 2);
  inject_everywhere_n<P40>(0xFFFFFFFFE8ull, 3);
}

}  // namespace
