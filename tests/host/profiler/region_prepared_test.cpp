// Region (profiler/region.hpp) on the idealised PMU: with at most Regions::kPositions counters,
// none linked or armed, its reads are a counter region's prepared sequence (counter 0 innermost),
// so its window is CounterRegions' and no status read or fold check is in it; otherwise it falls
// back to the sweep, calibrated separately, and stays exact. An interrupt (a fold, an overflow
// burst, a reset) injected before every register access of a region: exact or voided.
#include <gtest/gtest.h>

#include "fake_backend.hpp"
#include "inject_each_access.hpp"
#include "profiler/counter_region.hpp"
#include "profiler/region.hpp"

namespace {

using prof::Counter;
using prof::Status;

using fake::Rig;

using P31 = fake::Pmu<31>;
using P32 = fake::Pmu<32>;
using P40 = fake::Pmu<40>;

// Every access is an event of `code`: a region's window is the accesses from a counter's first
// read (exclusive) to its second (inclusive).
template <class B>
std::uint64_t region_reads(prof::Regions<B>& regions, unsigned i, std::uint32_t events) {
  prof::RegionStats<B> s{"s"};
  {
    prof::Region<B> g{regions, s};
    B::event(1, events);
  }
  EXPECT_EQ(s.voided, 0u);
  return s.total[i];
}

// Counter 0 (the first added) innermost, counter 1 around it: the windows of a CounterRegions<4>
// that selected {counter 1, counter 0}: 1 (its own second read) and 3 (counter 0's two reads too).
TEST(RegionPrepared, WindowIsACounterRegionsOnTheCountersAddedInnermostFirst) {
  Rig<P32> r;
  P32::st.cost_event = 1;
  prof::Regions<P32> regions{r.p};
  prof::CounterRegions<P32, 4> some{r.p};
  const Counter pick[] = {r.ins, r.cyc};
  ASSERT_EQ(some.select(pick, 2), Status::ok);
  prof::RegionStats<P32> cr{"cr"};
  {
    prof::CounterRegion g{some, cr};
    P32::event(1, 100);
  }
  EXPECT_EQ(cr.total[1], 101u);  // cycles: 100 + its window
  EXPECT_EQ(region_reads(regions, 0, 100), cr.total[1]);
  // Counter 1 counts instructions: the accesses are cycles, so its window reads 0 of them.
  regions.calibrate();
  EXPECT_EQ(regions.overhead(0), 1u);
  EXPECT_EQ(region_reads(regions, 0, 100), 100u);
}

// Added after calibrate() (the profiler stopped, the counter added, started again): the next
// region reads the new set, prepared again, with the window a counter region has on it.
TEST(RegionPrepared, ACounterAddedAfterCalibratePreparesTheSequenceAgain) {
  P32::reset_state();
  prof::Profiler<P32> p;
  Counter cyc, ins;
  ASSERT_EQ(p.add_on(0, {1, 0, 0}, cyc), Status::ok);
  p.start();
  prof::Regions<P32> regions{p};
  regions.calibrate();
  p.stop();
  ASSERT_EQ(p.add_on(1, {2, 0, 0}, ins), Status::ok);
  p.start();
  P32::st.cost_event = 2;  // every access an instruction
  prof::CounterRegions<P32, 4> some{p};
  const Counter pick[] = {ins, cyc};
  ASSERT_EQ(some.select(pick, 2), Status::ok);
  prof::RegionStats<P32> cr{"cr"}, rg{"rg"};
  {
    prof::CounterRegion g{some, cr};
    P32::event(2, 50);
  }
  {
    prof::Region<P32> g{regions, rg};
    P32::event(2, 50);
  }
  EXPECT_EQ(cr.total[0], 53u);  // 50, and counter 0's two reads and its own second read
  EXPECT_EQ(rg.voided, 0u);
  EXPECT_EQ(rg.total[1], cr.total[0]);
}

// Armed for sampling (what Sampler::arm does) or linked: the sweep, calibrated by calibrate()
// beforehand, and exact. The manual rule behind the linked value: e500 Core Reference Manual,
// 7.6.1 (a chained counter counts the low counter's rollovers).
TEST(RegionPrepared, ASampledCounterFallsBackToTheSweepCalibratedAndExact) {
  Rig<P32> r;
  P32::st.cost_event = 1;
  prof::Regions<P32> regions{r.p};
  regions.calibrate();
  EXPECT_EQ(regions.overhead(0), 1u);
  r.p.set_sampled(1, true);
  EXPECT_GT(regions.overhead(0), 1u);  // the sweep's
  prof::RegionStats<P32> empty{"e"}, work{"w"};
  { prof::Region<P32> g{regions, empty}; }
  EXPECT_EQ(empty.total[0], 0u);
  EXPECT_EQ(empty.clamped, 0u);
  {
    prof::Region<P32> g{regions, work};
    P32::event(1, 70);
    P32::event(2, 30);
  }
  EXPECT_EQ(work.voided, 0u);
  EXPECT_EQ(work.total[0], 70u);
  EXPECT_EQ(work.total[1], 30u);
  r.p.set_sampled(1, false);  // disarmed: prepared again, its calibration kept
  EXPECT_EQ(regions.overhead(0), 1u);
  EXPECT_EQ(region_reads(regions, 0, 40), 40u);
}

TEST(RegionPrepared, ALinkedPairFallsBackToReadAndStaysExact) {
  P32::reset_state();
  prof::Profiler<P32> p;
  Counter lo, hi, cyc;
  ASSERT_EQ(p.add_on(1, {2, 0, 0}, lo), Status::ok);
  ASSERT_EQ(p.add_on(2, {9, 0, 0}, hi), Status::ok);
  ASSERT_EQ(p.add_on(0, {1, 0, 0}, cyc), Status::ok);
  ASSERT_EQ(p.link(lo, hi), Status::ok);
  p.start();
  prof::Regions<P32> regions{p};
  regions.calibrate();
  prof::RegionStats<P32> s{"s"};
  P32::set(1, 0xFFFFFFF0u);
  {
    prof::Region<P32> g{regions, s};
    P32::event(2, 0x20);  // across the low counter's rollover into the high one
    P32::event(1, 7);
  }
  EXPECT_EQ(s.voided, 0u);
  EXPECT_EQ(s.total[lo.index], 0x20u);
  EXPECT_EQ(s.total[cyc.index], 7u);
}

// begin(Mark&)/end(), the C API's regions: the same reads out of line, calibrated as such.
TEST(RegionPrepared, OutOfLineBeginEndIsCalibratedAndExact) {
  Rig<P32> r;
  P32::st.cost_event = 1;
  prof::Regions<P32> regions{r.p};
  regions.calibrate();
  regions.calibrate_calls();  // begin(Mark&)/end()'s own (call_overhead)
  prof::RegionStats<P32> s{"s"};
  prof::Regions<P32>::Mark m;
  regions.begin(m);
  P32::event(1, 25);
  regions.end(m, s);
  EXPECT_EQ(s.voided + s.clamped, 0u);
  EXPECT_EQ(s.total[0], 25u);
}

// An interrupt before every register access of one region on n counters (inject_each_access.hpp;
// all of code 1): counter i at position kPositions-1-i, so its first read is access F - i and its
// second F + 1 + i, F the last access of the constructor. Width rules: e500 Core Reference
// Manual, 7.2.1 (bit 31 the overflow condition, cleared leaving bits 30:0); Intel SDM Vol. 3B,
// 18.15 (40-bit counters, RDPMC's low 32 bits in EAX); XScale: a 32-bit counter wraps to 0.
template <class B>
struct RegionCase {
  struct RigN {
    prof::Profiler<B> p;
    Counter c[4];
    explicit RigN(unsigned n) {
      B::reset_state();
      for (unsigned s = 0; s < n; ++s) EXPECT_EQ(p.add_on(s, {1, 0, 0}, c[s]), Status::ok);
      p.start();
    }
  };
  RigN r;
  prof::Regions<B> regions{r.p};
  explicit RegionCase(unsigned n) : r{n} { regions.calibrate(0); }  // prepared, no overhead
  prof::Profiler<B>& profiler() { return r.p; }
  template <class F>
  void measure(prof::RegionStats<B>& s, F body) {
    prof::Region<B> g{regions, s};
    body();
  }
  static unsigned first(unsigned k, unsigned f, unsigned) { return f - k; }
  static unsigned second(unsigned k, unsigned f, unsigned) { return f + 1 + k; }
};
template <class B>
void inject_everywhere(std::uint64_t near_boundary, unsigned n) {
  fake::inject_before_each_access<B, RegionCase<B>>(near_boundary, n, n);
}
TEST(RegionPrepared, InterruptAtEveryAccessNestedReadsWidth31Bit31Condition) {
  inject_everywhere<P31>(0x7FFFFFE8u, 2);
  inject_everywhere<P31>(0x7FFFFFE8u, 4);
}
TEST(RegionPrepared, InterruptAtEveryAccessNestedReadsWidth32) {
  inject_everywhere<P32>(0xFFFFFFE8u, 2);
  inject_everywhere<P32>(0xFFFFFFE8u, 4);
}
TEST(RegionPrepared, InterruptAtEveryAccessNestedReadsWidth40) {
  inject_everywhere<P40>(0xFFFFFFFFE8ull, 2);
  inject_everywhere<P40>(0xFFFFFFFFE8ull, 4);
}

}  // namespace

namespace {

// A region's state is in one of Regions' slots (claimed at begin, released at end), not in the
// Region object: a region run by an interrupt before any access of another region takes a slot of
// its own, both read exactly, and every slot is free again after.
template <class B>
void region_in_an_interrupt_at_every_access(unsigned n) {
  unsigned total = 0, last_before_body = 0;
  {
    RegionCase<B> c{n};
    prof::RegionStats<B> s{"dry"};
    B::st.accesses = 0;
    c.measure(s, [&] {
      last_before_body = B::st.accesses;
      B::event(1, 0x20);
    });
    total = B::st.accesses;
  }
  for (unsigned a = 1; a <= total; ++a) {
    RegionCase<B> c{n};
    static prof::Regions<B>* regions;
    static prof::RegionStats<B> inner{"inner"};
    static std::uint32_t busy_inside;
    regions = &c.regions;
    inner.clear();
    busy_inside = 0;
    prof::RegionStats<B> s{"outer"};
    B::st.accesses = 0;
    B::st.hook_at = a;
    B::st.hook = +[] {
      prof::Region<B> g{*regions, inner};
      busy_inside = regions->slots_busy();
      B::event(1, 7);
    };
    c.measure(s, [] { B::event(1, 0x20); });
    B::st.hook = nullptr;
    SCOPED_TRACE(testing::Message() << n << " counters, the interrupt's region before access " << a);
    EXPECT_EQ(inner.calls, 1u);
    EXPECT_EQ(inner.voided, 0u);
    for (unsigned k = 0; k < n; ++k) EXPECT_EQ(inner.total[k], 7u) << "counter " << k;
    EXPECT_EQ(__builtin_popcount(busy_inside), 2);  // the outer region's slot and its own
    EXPECT_EQ(s.voided, 0u);
    for (unsigned k = 0; k < n; ++k) {
      const bool inside = a > RegionCase<B>::first(k, last_before_body, n) &&
                          a <= RegionCase<B>::second(k, last_before_body, n);
      EXPECT_EQ(s.total[k], 0x20u + (inside ? 7u : 0u)) << "counter " << k;
    }
    EXPECT_EQ(c.regions.slots_busy(), 0u);
  }
}

}  // namespace

TEST(RegionPrepared, ARegionInAnInterruptAtEveryAccessOfAnotherTakesASlotOfItsOwn) {
  region_in_an_interrupt_at_every_access<P32>(2);
  region_in_an_interrupt_at_every_access<P32>(4);
}

// More regions open at once than slots (Regions::kNesting): the one without a slot is voided (its
// reads counted nowhere), never a wrong value; the others stay exact; every slot is free after.
TEST(RegionPrepared, RegionsNestedDeeperThanTheSlotsAreVoidedNotWrong) {
  RegionCase<P32> c{2};
  constexpr unsigned kDeep = prof::Regions<P32>::kNesting + 1;
  prof::RegionStats<P32> s[kDeep];
  auto nest = [&](auto& self, unsigned d) -> void {
    if (d == kDeep) {
      P32::event(1, 5);
      return;
    }
    prof::Region<P32> g{c.regions, s[d]};
    self(self, d + 1);
  };
  nest(nest, 0);
  for (unsigned d = 0; d < kDeep; ++d) {
    EXPECT_EQ(s[d].calls, 1u) << "depth " << d;
    EXPECT_EQ(s[d].voided, d == kDeep - 1 ? 1u : 0u) << "depth " << d;
    EXPECT_EQ(s[d].total[0], d == kDeep - 1 ? 0u : 5u) << "depth " << d;
  }
  EXPECT_EQ(c.regions.slots_busy(), 0u);
  prof::RegionStats<P32> after{"after"};
  c.measure(after, [] { P32::event(1, 3); });
  EXPECT_EQ(after.voided, 0u);
  EXPECT_EQ(after.total[0], 3u);
}

// A counter armed for sampling inside a region that began prepared: a re-arm between an anchor
// and its read would move the register unseen, so the region is voided (never a wrong value); the
// next region falls back to the sweep, calibrated, and is exact.
TEST(RegionPrepared, ACounterArmedInsideAPreparedRegionVoidsItAndTheNextOneSweeps) {
  Rig<P32> r;
  P32::st.cost_event = 1;
  prof::Regions<P32> regions{r.p};
  regions.calibrate();
  ASSERT_EQ(regions.prepared_count(), 2u);
  prof::RegionStats<P32> armed{"armed"}, next{"next"};
  {
    prof::Region<P32> g{regions, armed};
    P32::event(1, 20);
    r.p.set_sampled(1, true);
  }
  EXPECT_EQ(armed.calls, 1u);
  EXPECT_EQ(armed.voided, 1u);
  EXPECT_EQ(armed.total[0], 0u);
  EXPECT_EQ(regions.slots_busy(), 0u);
  {
    prof::Region<P32> g{regions, next};
    P32::event(1, 20);
  }
  EXPECT_EQ(regions.prepared_count(), 0u);
  EXPECT_EQ(next.voided, 0u);
  EXPECT_EQ(next.total[0], 20u);
}
