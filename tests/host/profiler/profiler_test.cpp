// The profiler's own logic against an idealised PMU at every counter width and link kind.
#include <gtest/gtest.h>

#include <cstdint>

#include "fake_backend.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"
#include "profiler/selftest.hpp"

using pmu::Preset;
using prof::Counter;
using prof::Status;

using P32 = fake::Pmu<32>;
static_assert(prof::Backend<P32>);
static_assert(prof::Backend<fake::Pmu<31>>);
static_assert(prof::Backend<fake::Pmu<40, pmu::LinkKind::cascade>>);
static_assert(prof::supports<P32>(Preset::cycles));
static_assert(!prof::supports<P32>(Preset::tlb_misses));
static_assert(prof::has_event<P32>(3) && !prof::has_event<P32>(77));

static_assert(prof::delta(0xFFFFFFF0u, 0x10u, 32) == 0x20);
static_assert(prof::delta(0xFFFFFFF0u, 0x10u, 31) == 0x20);  // bit-31 PMUs: 32-bit registers
static_assert(prof::delta(0xFFFFFFFFF0ull, 0x10u, 40) == 0x20);

namespace {

bool g_injected = false;
template <class B>
void inject_one(std::uint32_t code) {
  g_injected = true;
  B::event(code, 1);
}

template <class B>
struct Fixture : ::testing::Test {
  void SetUp() override { B::reset_state(); }
};

TEST(ProfilerAdd, PresetsRawEventsAndStatuses) {
  P32::reset_state();
  prof::Profiler<P32> p;
  Counter cyc, d1, d2, d3;
  EXPECT_EQ(p.add<Preset::cycles>(cyc), Status::ok);
  EXPECT_EQ(p.slot_of(cyc), 0u);
  EXPECT_EQ(p.add(Preset::dcache_misses, d1), Status::ok);
  EXPECT_EQ(p.slot_of(d1), 1u);  // DMISS fits counters 0 and 1 only
  EXPECT_EQ(p.add(Preset::dcache_misses, d2), Status::no_free_counter);
  EXPECT_FALSE(d2.valid());
  EXPECT_EQ(p.add(Preset::tlb_misses, d3), Status::unsupported_event);
  EXPECT_EQ(p.add(pmu::EventConfig{77, 0, 0}, d3), Status::unsupported_event);
  EXPECT_EQ(p.add_on(3, pmu::EventConfig{3, 0, 0}, d3), Status::unsupported_event);
  EXPECT_EQ(p.add_on(3, pmu::EventConfig{2, 0, 0}, d3), Status::ok);
  EXPECT_EQ(p.slot_of(d3), 3u);
  EXPECT_EQ(p.counters_added(), 3u);
  p.start();
  Counter late;
  EXPECT_EQ(p.add(Preset::instructions, late), Status::busy);
  p.stop();
}

TEST(ProfilerAdd, ProbeLimitsSlots) {
  P32::reset_state();
  fake::Pmu<32>::st.working = 0b1100;  // counters 0 and 1 exist in the manual, not on this part
  prof::Profiler<P32> p;
  EXPECT_EQ(p.probe().status, Status::ok);
  Counter d;
  EXPECT_EQ(p.add(Preset::dcache_misses, d), Status::counter_unavailable);
  Counter c;
  EXPECT_EQ(p.add(Preset::cycles, c), Status::ok);
  EXPECT_EQ(p.slot_of(c), 2u);

  P32::reset_state();
  P32::st.absent = true;
  prof::Profiler<P32> q;
  EXPECT_EQ(q.probe().status, Status::pmu_absent);
  EXPECT_EQ(q.add(Preset::cycles, c), Status::counter_unavailable);
}

TEST(ProfilerCount, StartStopResetAccumulate) {
  P32::reset_state();
  prof::Profiler<P32> p;
  Counter cyc, ins;
  ASSERT_EQ(p.add(Preset::cycles, cyc), Status::ok);
  ASSERT_EQ(p.add(Preset::instructions, ins), Status::ok);
  P32::event(1, 50);  // before start: not counted
  p.start();
  P32::event(1, 1000);
  P32::event(2, 700);
  p.stop();
  P32::event(1, 5);  // after stop: not counted
  EXPECT_EQ(p.read(cyc), 1000u);
  EXPECT_EQ(p.read(ins), 700u);
  std::uint64_t acc[2] = {1, 2};
  p.accumulate(acc, 2);
  EXPECT_EQ(acc[0], 1001u);
  EXPECT_EQ(acc[1], 702u);
  EXPECT_EQ(p.read(cyc), 0u);  // accumulate zeroes
}

TEST(ProfilerCount, StopLatchesValuesWhereStoppedCountersReadZero) {
  P32::reset_state();
  P32::st.zero_when_stopped = true;
  prof::Profiler<P32> p;
  Counter cyc;
  ASSERT_EQ(p.add(Preset::cycles, cyc), Status::ok);
  p.start();
  P32::event(1, 321);
  p.stop();
  EXPECT_EQ(P32::read(0), 0u);  // the hardware forgot
  EXPECT_EQ(p.read(cyc), 321u);  // the profiler did not
  p.reset();
  EXPECT_EQ(p.read(cyc), 0u);
}

// --- 64-bit extension at every width ---
template <class B>
struct Extension : Fixture<B> {};
using Widths = ::testing::Types<fake::Pmu<31>, fake::Pmu<32>, fake::Pmu<40>>;
TYPED_TEST_SUITE(Extension, Widths);

prof::Profiler<fake::Pmu<31>>* g31;
prof::Profiler<fake::Pmu<32>>* g32;
prof::Profiler<fake::Pmu<40>>* g40;
template <class B>
prof::Profiler<B>*& global();
template <>
prof::Profiler<fake::Pmu<31>>*& global<fake::Pmu<31>>() { return g31; }
template <>
prof::Profiler<fake::Pmu<32>>*& global<fake::Pmu<32>>() { return g32; }
template <>
prof::Profiler<fake::Pmu<40>>*& global<fake::Pmu<40>>() { return g40; }

TYPED_TEST(Extension, ManyWrapsFoldedByTheInterrupt) {
  using B = TypeParam;
  prof::Profiler<B> p;
  global<B>() = &p;
  B::st.irq = [] { global<B>()->fold(); };
  Counter c;
  ASSERT_EQ(p.add(Preset::cycles, c), Status::ok);
  p.start();
  B::set_overflow_interrupt(1, true);
  const std::uint64_t span = std::uint64_t{1} << B::width(0);
  std::uint64_t expected = 0;
  for (int wrap = 0; wrap < 5; ++wrap) {
    const std::uint64_t now = B::read(0) & (span - 1);
    B::set(0, B::read(0) + (span - now - 3));  // jump to 3 events before the condition
    expected += span - now - 3;
    B::event(1, 10);
    expected += 10;
    EXPECT_EQ(p.read(c), expected) << "wrap " << wrap;
  }
  EXPECT_GT(expected, 4 * span);
}

TYPED_TEST(Extension, PolledWithoutInterrupt) {
  using B = TypeParam;
  prof::Profiler<B> p;
  Counter c;
  ASSERT_EQ(p.add(Preset::cycles, c), Status::ok);
  p.start();
  const std::uint64_t span = std::uint64_t{1} << B::width(0);
  B::set(0, span - 2);
  B::event(1, 5);
  EXPECT_EQ(p.read(c), span + 3);  // the pending condition counts before any fold
  p.fold();
  EXPECT_EQ(p.read(c), span + 3);  // and folding does not change the value
  B::event(1, 1);
  EXPECT_EQ(p.read(c), span + 4);
}

TYPED_TEST(Extension, OverflowAtEveryPointOfTheRead) {
  using B = TypeParam;
  const std::uint64_t span = std::uint64_t{1} << B::width(0);
  for (unsigned k = 1; k <= 8; ++k) {
    B::reset_state();
    prof::Profiler<B> p;
    Counter c;
    ASSERT_EQ(p.add(Preset::cycles, c), Status::ok);
    p.start();
    B::set(0, span - 1);
    B::st.accesses = 0;
    B::st.hook_at = k;  // one event lands just before the k-th PMU access of the read
    B::st.hook = [] { inject_one<B>(1); };
    g_injected = false;
    const std::uint64_t v = p.read(c);
    EXPECT_TRUE(v == span - 1 || v == span) << "k=" << k << " v=" << v;
    B::st.hook = nullptr;
    if (!g_injected) inject_one<B>(1);  // k past the read's last access: the event comes after
    EXPECT_EQ(p.read(c), span) << "k=" << k;
  }
}

// --- linked pairs ---
TEST(Linked, ChainHighLowHighWithRolloverAtEveryStep) {
  using B = fake::Pmu<31, pmu::LinkKind::chain>;
  for (unsigned k = 1; k <= 10; ++k) {
    B::reset_state();
    prof::Profiler<B> p;
    Counter lo, hi;
    ASSERT_EQ(p.add_on(0, {1, 0, 0}, lo), Status::ok);
    ASSERT_EQ(p.add_on(1, {9, 0, 0}, hi), Status::ok);
    ASSERT_EQ(p.link(lo, hi), Status::ok);
    p.start();
    B::set(1, 7);           // 7 rollovers so far
    B::set(0, 0xFFFFFFFF);  // one event from the 8th
    const std::uint64_t before = (std::uint64_t{7} << 32) + 0xFFFFFFFF;
    B::st.accesses = 0;
    B::st.hook_at = k;
    B::st.hook = [] { inject_one<B>(1); };
    g_injected = false;
    const std::uint64_t v = p.read(hi);
    EXPECT_TRUE(v == before || v == before + 1) << "k=" << k << " v=" << std::hex << v;
    B::st.hook = nullptr;
    if (!g_injected) inject_one<B>(1);
    EXPECT_EQ(p.read(hi), before + 1) << "k=" << k;
    EXPECT_EQ(B::read(0), 0u);
    EXPECT_EQ(B::read(1), 8u);
  }
}

TEST(Linked, LowOfAChainIsNeverFolded) {
  using B = fake::Pmu<31, pmu::LinkKind::chain>;
  B::reset_state();
  prof::Profiler<B> p;
  Counter lo, hi;
  ASSERT_EQ(p.add_on(0, {1, 0, 0}, lo), Status::ok);
  ASSERT_EQ(p.add_on(1, {9, 0, 0}, hi), Status::ok);
  ASSERT_EQ(p.link(lo, hi), Status::ok);
  p.start();
  B::set(0, 0x7FFFFFFF);
  B::event(1, 1);  // low's bit-31 condition: must not be cleared, or the chain loses 2^31
  p.fold();
  EXPECT_EQ(p.read(hi), 0x80000000u);
  B::set(0, 0xFFFFFFFF);
  B::event(1, 1);  // low rolls over to zero: high counts it
  EXPECT_EQ(p.read(hi), std::uint64_t{1} << 32);
}

TEST(Linked, CascadeAddsLowAndHighWithHandoverAtEveryStep) {
  using B = fake::Pmu<40, pmu::LinkKind::cascade>;
  const std::uint64_t span = std::uint64_t{1} << 40;
  for (unsigned k = 1; k <= 10; ++k) {
    B::reset_state();
    prof::Profiler<B> p;
    Counter lo, hi;
    ASSERT_EQ(p.add_on(0, {1, 0, 0}, lo), Status::ok);
    ASSERT_EQ(p.add_on(1, {1, 0, 0}, hi), Status::ok);
    ASSERT_EQ(p.link(lo, hi), Status::ok);
    p.start();
    EXPECT_FALSE(B::st.running[1]);  // the high counter waits for the low one's overflow
    B::set(0, span - 1);
    B::st.accesses = 0;
    B::st.hook_at = k;
    B::st.hook = [] { inject_one<B>(1); };
    g_injected = false;
    const std::uint64_t v = p.read(hi);
    EXPECT_TRUE(v == span - 1 || v == span) << "k=" << k << " v=" << v;
    B::st.hook = nullptr;
    if (!g_injected) inject_one<B>(1);
    EXPECT_EQ(p.read(hi), span) << "k=" << k;
    B::event(1, 25);
    EXPECT_EQ(p.read(hi), span + 25) << "k=" << k;
  }
}

TEST(Linked, RefusedWhereThePmuCannot) {
  using B = fake::Pmu<32, pmu::LinkKind::chain>;
  B::reset_state();
  prof::Profiler<B> p;
  Counter a, b;
  ASSERT_EQ(p.add_on(0, {1, 0, 0}, a), Status::ok);
  ASSERT_EQ(p.add_on(2, {9, 0, 0}, b), Status::ok);
  EXPECT_EQ(p.link(a, b), Status::not_linkable);  // fake: only n -> n+1
  EXPECT_EQ(p.link(a, a), Status::bad_argument);
}

// --- regions ---
TEST(Regions, CalibrationMakesAnEmptyRegionZero) {
  P32::reset_state();
  prof::Profiler<P32> p;
  Counter cyc, ins;
  ASSERT_EQ(p.add(Preset::cycles, cyc), Status::ok);
  ASSERT_EQ(p.add(Preset::instructions, ins), Status::ok);
  P32::st.cost_event = 1;  // every PMU access costs one cycle, as on hardware
  p.start();
  prof::Regions<P32> regions{p};
  prof::RegionStats<P32> empty{"empty"}, work{"work"};
  { prof::Region r{regions, empty}; }
  EXPECT_GT(empty.total[0], 0u);  // uncalibrated: the measurement's own cost shows
  regions.calibrate();
  EXPECT_GT(regions.overhead(0), 0u);
  empty.clear();
  for (int i = 0; i < 3; ++i) {
    prof::Region r{regions, empty};
  }
  EXPECT_EQ(empty.calls, 3u);
  EXPECT_EQ(empty.total[0], 0u);
  EXPECT_EQ(empty.max[0], 0u);
  EXPECT_EQ(empty.clamped, 0u);
  for (int i = 1; i <= 2; ++i) {
    prof::Region r{regions, work};
    P32::event(1, 500 * i);
    P32::event(2, 7);
  }
  EXPECT_EQ(work.calls, 2u);
  EXPECT_EQ(work.total[0], 1500u);
  EXPECT_EQ(work.min[0], 500u);
  EXPECT_EQ(work.max[0], 1000u);
  EXPECT_EQ(work.total[1], 14u);
  EXPECT_EQ(std::string(work.name), "work");
}

TEST(Regions, BelowOverheadIsClampedAndCounted) {
  P32::reset_state();
  prof::Profiler<P32> p;
  Counter cyc;
  ASSERT_EQ(p.add(Preset::cycles, cyc), Status::ok);
  P32::st.cost_event = 1;
  p.start();
  prof::Regions<P32> regions{p};
  regions.calibrate();
  P32::st.cost_event = 0;  // the next measurement is cheaper than calibrated (jitter)
  prof::RegionStats<P32> s{"s"};
  { prof::Region r{regions, s}; }
  EXPECT_EQ(s.total[0], 0u);
  EXPECT_EQ(s.clamped, 1u);
  EXPECT_EQ(s.voided, 0u);
}

// --- sampling ---
using S31 = fake::Pmu<31>;
prof::Sampler<S31, prof::SampleRing<4>>* g_sampler;
std::uint32_t g_pc = 0x1000;

TEST(Sampling, EveryNEventsWithDropsCounted) {
  S31::reset_state();
  prof::Profiler<S31> p;
  Counter cyc, ins;
  ASSERT_EQ(p.add(Preset::cycles, cyc), Status::ok);
  ASSERT_EQ(p.add(Preset::instructions, ins), Status::ok);
  prof::SampleRing<4> ring;
  prof::Sampler<S31, prof::SampleRing<4>> s{p, ring};
  g_sampler = &s;
  S31::st.irq = [] { g_sampler->on_pmu_interrupt(g_pc, 0x2000); };
  p.start();
  EXPECT_EQ(s.arm(cyc, 0), Status::bad_argument);
  EXPECT_EQ(s.arm(cyc, (std::uint64_t{1} << 31) + 1), Status::bad_argument);
  ASSERT_EQ(s.arm(cyc, 100), Status::ok);
  EXPECT_EQ(S31::read(0), 0x80000000u - 100);  // preset 2^31 - N
  for (int i = 0; i < 10; ++i) {
    g_pc = 0x1000 + 4 * i;
    S31::event(1, 100);
  }
  S31::event(1, 99);  // one short of the 11th sample
  EXPECT_EQ(s.interrupts(), 10u);
  EXPECT_EQ(ring.recorded(), 4u);
  EXPECT_EQ(ring.dropped(), 6u);
  prof::Sample smp;
  ASSERT_TRUE(ring.pop(smp));
  EXPECT_EQ(smp.pc, 0x1000u);
  EXPECT_EQ(smp.lr, 0x2000u);
  ASSERT_TRUE(ring.pop(smp));
  EXPECT_EQ(smp.pc, 0x1004u);
  EXPECT_TRUE(ring.record(1, 2));  // space again after pops
}

TEST(Sampling, CountingCountersKeepExtendingThroughSampleInterrupts) {
  S31::reset_state();
  prof::Profiler<S31> p;
  Counter cyc, ins;
  ASSERT_EQ(p.add(Preset::cycles, cyc), Status::ok);
  ASSERT_EQ(p.add(Preset::instructions, ins), Status::ok);
  prof::SampleRing<64> ring;
  static prof::Sampler<S31, prof::SampleRing<64>>* sp;
  prof::Sampler<S31, prof::SampleRing<64>> s{p, ring};
  sp = &s;
  S31::st.irq = [] { sp->on_pmu_interrupt(0x40, 0); };
  p.start();
  S31::set_overflow_interrupt(2, true);  // the counting-only counter interrupts too
  ASSERT_EQ(s.arm(cyc, 1000), Status::ok);
  S31::set(1, 0x7FFFFFF0);
  S31::event(2, 0x20);  // instructions cross bit 31: folded inside the sample interrupt
  S31::event(1, 3000);
  EXPECT_EQ(ring.recorded(), 3u);
  EXPECT_EQ(p.read(ins), 0x7FFFFFF0u + 0x20u);
}

TEST(Sampling, HistogramAndTimerPath) {
  P32::reset_state();
  prof::Profiler<P32> p;
  prof::PcHistogram<16> h;
  h.set_range(0x8000, 4);  // 16-byte buckets
  prof::Sampler<P32, prof::PcHistogram<16>> s{p, h};
  s.on_timer_tick(0x8000, 0);
  s.on_timer_tick(0x800F, 0);
  s.on_timer_tick(0x8010, 0);
  s.on_timer_tick(0x7FFF, 0);          // below the range
  s.on_timer_tick(0x8000 + 16 * 16, 0);  // above
  EXPECT_EQ(h.count(0), 2u);
  EXPECT_EQ(h.count(1), 1u);
  EXPECT_EQ(h.recorded(), 3u);
  EXPECT_EQ(h.dropped(), 2u);
  EXPECT_EQ(s.interrupts(), 5u);
}

// --- self-test ---
prof::Sampler<P32, prof::SampleRing<8>>* g_self;
TEST(SelfTest, SeesDeadCountersAndMissingInterrupt) {
  P32::reset_state();
  prof::Profiler<P32> p;
  Counter cyc, ins;
  ASSERT_EQ(p.add(Preset::cycles, cyc), Status::ok);
  ASSERT_EQ(p.add(Preset::instructions, ins), Status::ok);
  // Only cycles happen in this workload: the instructions counter looks dead.
  EXPECT_EQ(prof::counters_advance(p, [] { P32::event(1, 10); }), 0b01u);

  prof::SampleRing<8> ring;
  prof::Sampler<P32, prof::SampleRing<8>> s{p, ring};
  g_self = &s;
  // Interrupt not wired: the forced overflow never arrives.
  EXPECT_FALSE(prof::overflow_interrupt_fires(p, s, cyc, [] { P32::event(1, 16); }));
  // Wired.
  P32::st.irq = [] { g_self->on_pmu_interrupt(0, 0); };
  EXPECT_TRUE(prof::overflow_interrupt_fires(p, s, cyc, [] { P32::event(1, 16); }));
  EXPECT_EQ(s.armed_slots(), 0u);  // disarmed afterwards
}

}  // namespace
