// prof::Multiplexer (profiler/multiplex.hpp) on the real drivers and behavioural models: groups
// formed by each PMU's constraints, rotation, time enabled/running, scaled estimates exact for a
// steady workload, the rotation injected as an interrupt after every register access of the
// thread-side sequences, a reserved (sampled) counter left alone.
#include <gtest/gtest.h>

#include <cstdint>

#include "hal/core/bus/irq.hpp"
#include "hal/core/bus/mock.hpp"
#include "hal/core/metric.hpp"
#include "hal/e500/driver.hpp"
#include "hal/e500/model.hpp"
#include "hal/netburst/driver.hpp"
#include "hal/netburst/encode.hpp"
#include "hal/netburst/model.hpp"
#include "hal/rm7000/driver.hpp"
#include "hal/rm7000/model.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/model.hpp"
#include "profiler/multiplex.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace {

using pmu::EventConfig;
using pmu::Status;
namespace xs = pmu::xscale;

// The multiplexer's clock: moved by the test only.
struct TestClock {
  static constexpr unsigned kWidth = 32;  // wraps: the slices' ticks are taken modulo 2^32
  static inline std::uint64_t t = 0;
  static std::uint64_t now() { return t & 0xFFFFFFFFu; }
};

// ---------------------------------------------------------------------------------------------
// XScale XSC2: CCNT (slot 0, cycles only) and PMN0-3 (slots 1-4).
struct XsTag;
using XsBus = pmu::MockBus<XsTag>;
using Xs = xs::Xsc2<XsBus>;
using XsMux = prof::Multiplexer<Xs, TestClock>;

// Per tick of the steady workload: one cycle of CCNT and these events.
struct Rate {
  std::uint32_t code;
  std::uint64_t per_tick;
};
constexpr Rate kXsRates[] = {
    {xs::event::INSTR, 8},    {xs::event::BRANCH, 2}, {xs::event::DC_ACCESS, 3},
    {xs::event::DC_MISS, 1},  {xs::event::BRANCH_MISPRED, 1}, {xs::event::DTLB_MISS, 1},
};
constexpr std::uint64_t kCyclesPerTick = 10;

struct XsRig {
  static inline xs::Xsc2Model model{};
  static inline XsMux mux{};
  static inline prof::MuxEvent cyc{}, ev[6]{};
  static inline std::uint64_t ticks = 0;

  static void fresh() {
    XsBus::reset();
    model = xs::Xsc2Model{};
    XsBus::device = &model;
    pmu::host_irq::masked = 0;
    pmu::host_irq::deferred = nullptr;
    TestClock::t = 1000;
    ticks = 0;
    mux.clear();
    (void)mux.reserve(0);
  }
  static void setup() {
    fresh();
    ASSERT_EQ(mux.add(pmu::Preset::cycles, cyc), Status::ok);
    for (unsigned i = 0; i < 6; ++i) ASSERT_EQ(mux.add(EventConfig{kXsRates[i].code, 0, 0}, ev[i]), Status::ok);
    ASSERT_EQ(mux.start(), Status::ok);
  }
  // n ticks of the workload: the clock and every event advance together.
  static void run(std::uint64_t n) {
    for (std::uint64_t k = 0; k < n; ++k) {
      model.cycles(kCyclesPerTick);
      for (const Rate& r : kXsRates) model.event(r.code, r.per_tick);
      TestClock::t += 1;
      ++ticks;
    }
  }
  static void rotate(void*) { mux.rotate(); }
  static void at_access(void*) { pmu::host_irq::run_or_defer(&rotate, nullptr); }
};

class profilerMultiplex : public ::testing::Test {
 protected:
  void TearDown() override {
    XsBus::device = nullptr;
    pmu::host_irq::masked = 0;
    pmu::host_irq::deferred = nullptr;
  }
};

TEST_F(profilerMultiplex, XscaleGroupsKeepCcntPinnedAndPackFourEventsPerGroup) {
  XsRig::setup();
  EXPECT_TRUE(XsRig::mux.pinned(XsRig::cyc)) << "CCNT counts cycles only: no event competes for it";
  EXPECT_EQ(XsRig::mux.slot_in(XsRig::cyc, 0), 0u);
  EXPECT_EQ(XsRig::mux.groups(), 2u) << "six events on four PMNs";
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(XsRig::mux.group_of(XsRig::ev[i]), 0u) << i;
  for (unsigned i = 4; i < 6; ++i) EXPECT_EQ(XsRig::mux.group_of(XsRig::ev[i]), 1u) << i;
  for (unsigned i = 0; i < 6; ++i) {
    const unsigned s = XsRig::mux.slot_in(XsRig::ev[i], XsRig::mux.group_of(XsRig::ev[i]));
    EXPECT_GE(s, 1u) << "an event on CCNT";
    EXPECT_LE(s, 4u);
  }
}

// perf's scaling: raw * enabled / running. With the groups rotated on equal slices of a steady
// workload, every estimate is the exact count; the pinned cycles are counted, not estimated.
TEST_F(profilerMultiplex, SteadyWorkloadScaledEstimatesAreExact) {
  XsRig::setup();
  for (int slice = 0; slice < 20; ++slice) {
    XsRig::run(50);
    XsRig::mux.rotate();
  }
  XsRig::mux.stop();
  EXPECT_EQ(XsRig::mux.rotations(), 20u);
  const prof::MuxValue c = XsRig::mux.value(XsRig::cyc);
  EXPECT_EQ(c.raw, XsRig::ticks * kCyclesPerTick);
  EXPECT_EQ(c.running, c.enabled);
  EXPECT_EQ(c.enabled, XsRig::ticks);
  for (unsigned i = 0; i < 6; ++i) {
    SCOPED_TRACE(i);
    const prof::MuxValue v = XsRig::mux.value(XsRig::ev[i]);
    EXPECT_EQ(v.enabled, XsRig::ticks);
    EXPECT_EQ(v.running, XsRig::ticks / 2) << "two groups, equal slices";
    EXPECT_EQ(v.raw, XsRig::ticks / 2 * kXsRates[i].per_tick);
    EXPECT_EQ(v.scaled(), XsRig::ticks * kXsRates[i].per_tick);
  }
  EXPECT_EQ(XsRig::mux.failed_rotations(), 0u);
}

// An event of the group off the counters reads what it had; one on the counters adds its live
// count; a slice of a counter wraps inside it and is still counted (2^32 added).
TEST_F(profilerMultiplex, LiveValuesAndAWrapInsideASlice) {
  XsRig::setup();
  XsRig::run(10);
  EXPECT_EQ(XsRig::mux.value(XsRig::ev[0]).raw, 80u) << "group 0 on the counters: live";
  EXPECT_EQ(XsRig::mux.value(XsRig::ev[4]).raw, 0u);
  EXPECT_EQ(XsRig::mux.value(XsRig::ev[4]).running, 0u);
  EXPECT_TRUE(XsRig::mux.value(XsRig::ev[4]).never_ran());
  XsRig::mux.rotate();
  XsRig::model.event(xs::event::BRANCH_MISPRED, 0xFFFFFFF0u);
  XsRig::model.event(xs::event::BRANCH_MISPRED, 0x20u);  // wraps: FLAG set
  XsRig::mux.rotate();
  EXPECT_EQ(XsRig::mux.value(XsRig::ev[4]).raw, 0x1'0000'0010u);
}

// The rotation is the timer's interrupt: taken after any register access of a thread-side
// value(). The value must be one slice's: raw / running is the event's rate exactly.
TEST_F(profilerMultiplex, ValueIsConsistentWithARotationAfterAnyAccess) {
  XsRig::setup();
  XsRig::run(7);
  XsRig::model.reset_access_count();
  (void)XsRig::mux.value(XsRig::ev[1]);
  const unsigned n = static_cast<unsigned>(XsRig::model.accesses());
  ASSERT_GE(n, 3u);
  unsigned rotated = 0;
  for (unsigned k = 1; k <= n + 1; ++k) {
    SCOPED_TRACE(::testing::Message() << "rotation after access " << k << " of " << n);
    XsRig::setup();
    XsRig::run(7);
    const std::uint32_t r0 = XsRig::mux.rotations();
    XsRig::model.after_access(k, &XsRig::at_access, nullptr);
    const prof::MuxValue v = XsRig::mux.value(XsRig::ev[1]);
    XsRig::model.after_access(1, nullptr, nullptr);
    rotated += XsRig::mux.rotations() != r0;
    EXPECT_EQ(v.raw, v.running * kXsRates[1].per_tick) << "a count of one slice with the time of another";
    EXPECT_EQ(v.enabled, 7u);
  }
  EXPECT_GT(rotated, 0u) << "no rotation was injected: nothing was checked";
}

// stop() and start() with the rotation injected after every access: totals stay one consistent
// set (every event's raw equals its rate times its running ticks), nothing restarts after stop.
TEST_F(profilerMultiplex, StopAndStartWithARotationAfterAnyAccess) {
  for (int which = 0; which < 2; ++which) {
    XsRig::setup();
    XsRig::run(5);
    XsRig::model.reset_access_count();
    if (which == 0) XsRig::mux.stop(); else { XsRig::mux.stop(); XsRig::model.reset_access_count(); (void)XsRig::mux.start(); }
    const unsigned n = static_cast<unsigned>(XsRig::model.accesses());
    ASSERT_GE(n, 2u);
    for (unsigned k = 1; k <= n + 1; ++k) {
      SCOPED_TRACE(::testing::Message() << (which ? "start" : "stop") << ": rotation after access " << k);
      XsRig::setup();
      XsRig::run(5);
      if (which == 1) XsRig::mux.stop();
      XsRig::model.after_access(k, &XsRig::at_access, nullptr);
      if (which == 0) XsRig::mux.stop(); else ASSERT_EQ(XsRig::mux.start(), Status::ok);
      XsRig::model.after_access(1, nullptr, nullptr);
      XsRig::run(5);
      if (which == 0) {
        EXPECT_FALSE(XsRig::mux.running());
        EXPECT_FALSE(XsRig::model.enabled()) << "restarted by the rotation";
      }
      XsRig::mux.stop();
      for (unsigned i = 0; i < 6; ++i) {
        const prof::MuxValue v = XsRig::mux.value(XsRig::ev[i]);
        EXPECT_EQ(v.raw, v.running * kXsRates[i].per_tick) << i;
        EXPECT_LE(v.running, v.enabled);
      }
    }
  }
}

// Sampling on one counter beside the multiplexer: the Profiler's slot is reserved, never
// reprogrammed or zeroed, and its sampling interrupt still comes every period.
TEST_F(profilerMultiplex, AReservedSampledCounterIsLeftAlone) {
  XsRig::fresh();
  static prof::Profiler<Xs> p;
  static prof::SampleRing<64> ring;
  static prof::Sampler<Xs, prof::SampleRing<64>> sampler{p, ring};
  p.clear();
  ring = {};
  prof::Counter ins;
  ASSERT_EQ(p.add(pmu::Preset::instructions, ins), Status::ok);
  ASSERT_EQ(sampler.arm(ins, 100), Status::ok);
  XsRig::model.on_interrupt([](void*) { sampler.on_pmu_interrupt(0x10, 0x20); }, nullptr);
  p.start();
  ASSERT_EQ(XsRig::mux.reserve(p.used_slots()), Status::ok);
  prof::MuxEvent ev[5];
  const std::uint32_t codes[5] = {xs::event::BRANCH, xs::event::DC_ACCESS, xs::event::DC_MISS,
                                  xs::event::BRANCH_MISPRED, xs::event::DTLB_MISS};
  for (unsigned i = 0; i < 5; ++i) ASSERT_EQ(XsRig::mux.add(EventConfig{codes[i], 0, 0}, ev[i]), Status::ok);
  ASSERT_EQ(XsRig::mux.start(), Status::ok);
  EXPECT_EQ(XsRig::mux.groups(), 2u) << "three PMNs left for five events";
  for (unsigned i = 0; i < 5; ++i)
    EXPECT_NE(XsRig::mux.slot_in(ev[i], XsRig::mux.group_of(ev[i])), p.slot_of(ins)) << i;
  for (int slice = 0; slice < 10; ++slice) {
    for (int k = 0; k < 10; ++k) {
      XsRig::model.event(xs::event::INSTR, 10);
      for (unsigned i = 0; i < 5; ++i) XsRig::model.event(codes[i], 1);
      TestClock::t += 1;
    }
    XsRig::mux.rotate();
  }
  XsRig::mux.stop();
  EXPECT_EQ(ring.size(), 10u) << "1000 instructions, a sample every 100";
  EXPECT_EQ(XsRig::model.selected_event(p.slot_of(ins) - 1), xs::event::INSTR);
  for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(XsRig::mux.value(ev[i]).scaled(), 100u) << i;
  sampler.disarm();
  p.clear();
}

// A region's estimate per event: its calls' raw, enabled and running, rotations inside or not.
TEST_F(profilerMultiplex, RegionsScaleTheirOwnCounts) {
  XsRig::setup();
  static prof::MuxRegionStats<XsMux> st{"steady"};
  st = prof::MuxRegionStats<XsMux>{"steady"};
  XsRig::run(13);  // outside any region
  for (int call = 0; call < 6; ++call) {
    prof::MuxRegion<XsMux> r{XsRig::mux, st};
    XsRig::run(25);
    XsRig::mux.rotate();  // at the region's boundary, or inside: the same accounting
    XsRig::run(25);
  }
  EXPECT_EQ(st.calls, 6u);
  EXPECT_EQ(st.voided, 0u);
  for (unsigned i = 0; i < 6; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(st.total[i + 1].enabled, 300u) << "the regions' ticks only";
    EXPECT_EQ(st.total[i + 1].running, 150u);
    EXPECT_EQ(st.total[i + 1].scaled(), 300u * kXsRates[i].per_tick);
  }
  EXPECT_EQ(st.total[0].raw, 300u * kCyclesPerTick) << "pinned CCNT: counted, not estimated";
  // A call across a start() is void, not a wrapped difference.
  {
    prof::MuxRegion<XsMux> r{XsRig::mux, st};
    XsRig::run(5);
    XsRig::mux.stop();
    ASSERT_EQ(XsRig::mux.start(), Status::ok);
    XsRig::run(1);
  }
  EXPECT_EQ(st.calls, 7u);
  EXPECT_EQ(st.voided, 1u);
  EXPECT_EQ(st.total[1].enabled, 300u);
}

// A rotation from thread context (at a region boundary) with the Profiler's sampling interrupt
// raised at every register access of it: the interrupt waits for the rotation's mask, one sample
// is taken, the sampled counter keeps its event, and the rotation's totals stay one set.
TEST_F(profilerMultiplex, ThreadRotationWithTheSamplingInterruptAtAnyAccess) {
  static prof::Profiler<Xs> p;
  static prof::SampleRing<64> ring;
  static prof::Sampler<Xs, prof::SampleRing<64>> sampler{p, ring};
  static unsigned sampled_slot = 0;
  struct Hook {
    static void take(void*) { sampler.on_pmu_interrupt(0x10, 0x20); }
    static void raise(void*) { XsRig::model.event(xs::event::INSTR, 1); }  // overflows if counting
  };
  const std::uint32_t codes[4] = {xs::event::BRANCH, xs::event::DC_ACCESS, xs::event::DC_MISS, xs::event::DTLB_MISS};
  prof::Counter ins;
  prof::MuxEvent ev[4];
  auto arm = [&] {
    XsRig::fresh();
    p.clear();
    ring = {};
    ASSERT_EQ(p.add(pmu::Preset::instructions, ins), Status::ok);
    ASSERT_EQ(sampler.arm(ins, 1000), Status::ok);
    sampled_slot = p.slot_of(ins);
    XsRig::model.on_interrupt(&Hook::take, nullptr);
    p.start();
    ASSERT_EQ(XsRig::mux.reserve(p.used_slots()), Status::ok);
    for (unsigned i = 0; i < 4; ++i) ASSERT_EQ(XsRig::mux.add(EventConfig{codes[i], 0, 0}, ev[i]), Status::ok);
    ASSERT_EQ(XsRig::mux.start(), Status::ok);
    for (int k = 0; k < 10; ++k) {
      XsRig::model.event(xs::event::INSTR, 10);
      for (unsigned i = 0; i < 4; ++i) XsRig::model.event(codes[i], 1);
      TestClock::t += 1;
    }
    XsRig::model.set_counter(sampled_slot, 0xFFFFFFFFu);  // one instruction from its overflow
  };
  arm();
  XsRig::model.reset_access_count();
  XsRig::mux.rotate();
  const unsigned n = static_cast<unsigned>(XsRig::model.accesses());
  ASSERT_GE(n, 5u);
  unsigned inside = 0;
  for (unsigned k = 1; k <= n; ++k) {
    SCOPED_TRACE(::testing::Message() << "sampling interrupt raised at access " << k << " of " << n);
    arm();
    XsRig::model.after_access(k, &Hook::raise, nullptr);
    XsRig::mux.rotate();
    XsRig::model.after_access(1, nullptr, nullptr);
    // XScale's stop is global (PMNC.E): between the rotation's stop and start the instruction is
    // not counted and no overflow comes; elsewhere it does, and is taken once, after the mask.
    EXPECT_LE(ring.size(), 1u) << "a sample taken twice";
    inside += ring.size() == 1;
    EXPECT_EQ(XsRig::mux.failed_rotations(), 0u) << "the handler restarted the PMU inside the rotation";
    XsRig::mux.stop();
    for (unsigned i = 0; i < 4; ++i) {
      const prof::MuxValue v = XsRig::mux.value(ev[i]);
      EXPECT_EQ(v.raw, v.running) << i << ": one event per tick, counted for exactly its ticks";
    }
    EXPECT_EQ(XsRig::model.selected_event(sampled_slot - 1), xs::event::INSTR) << "the sampled counter reprogrammed";
    sampler.disarm();
    p.clear();
  }
  EXPECT_GT(inside, 0u) << "no overflow came inside a rotation: nothing was checked";
}

TEST_F(profilerMultiplex, AddRefusesWhatNoCounterTakesAndDeduplicates) {
  XsRig::fresh();
  prof::MuxEvent a, b;
  EXPECT_EQ(XsRig::mux.add(EventConfig{0x40, 0, 0}, a), Status::unsupported_event);
  EXPECT_FALSE(a.valid());
  ASSERT_EQ(XsRig::mux.add(EventConfig{xs::event::INSTR, 0, 0}, a), Status::ok);
  ASSERT_EQ(XsRig::mux.add(EventConfig{xs::event::INSTR, 0, 0}, b), Status::ok);
  EXPECT_EQ(a.index, b.index) << "the same event twice is one event";
  EXPECT_EQ(XsRig::mux.events(), 1u);
  ASSERT_EQ(XsRig::mux.start(), Status::ok);
  EXPECT_EQ(XsRig::mux.add(EventConfig{xs::event::BRANCH, 0, 0}, b), Status::busy);
  XsRig::mux.stop();
  // Every PMN reserved: an event has nowhere to go.
  XsRig::mux.clear();
  ASSERT_EQ(XsRig::mux.reserve(0x1E), Status::ok);
  EXPECT_EQ(XsRig::mux.add(EventConfig{xs::event::INSTR, 0, 0}, a), Status::unsupported_event);
}

// A metric group adds each event its metrics read, once.
constexpr pmu::Metric kTestMetrics[] = {
    {"ipc", "basic", "instructions per cycle", "instructions/cycle", "test",
     {{xs::event::INSTR}}, 1, {{xs::kCcntEvent}}, 1, 1.0},
    {"branch_miss_ratio", "branch", "mispredicted per branch", "%", "test",
     {{xs::event::BRANCH_MISPRED}}, 1, {{xs::event::BRANCH}}, 1, 100.0},
    {"dc_miss_ratio", "branch", "not really a branch metric", "%", "test",
     {{xs::event::DC_MISS}}, 1, {{xs::event::BRANCH}}, 1, 100.0},
};
constexpr pmu::MetricTable kTestTable{kTestMetrics, 3};
static_assert(pmu::metrics_sound(Xs::catalog, kTestTable));

TEST_F(profilerMultiplex, AMetricGroupAddsTheEventsItsMetricsRead) {
  XsRig::fresh();
  ASSERT_EQ(XsRig::mux.add_metric_group(kTestTable, "branch"), Status::ok);
  EXPECT_EQ(XsRig::mux.events(), 3u) << "BRANCH_MISPRED, BRANCH, DC_MISS: BRANCH once";
  EXPECT_EQ(XsRig::mux.add_metric_group(kTestTable, "nope"), Status::unsupported_event);
  ASSERT_EQ(XsRig::mux.add_metric_group(kTestTable, "basic"), Status::ok);
  EXPECT_EQ(XsRig::mux.events(), 5u);
}

TEST(profilerMuxValue, ScaledIsRawTimesEnabledOverRunningWithoutOverflow) {
  prof::MuxValue v{std::uint64_t{1} << 60, 3 * (std::uint64_t{1} << 40), std::uint64_t{1} << 41};
  EXPECT_EQ(v.scaled(), 3 * (std::uint64_t{1} << 59));
  v = {1000, 7, 3};
  EXPECT_EQ(v.scaled(), 2333u) << "floor(7000 / 3)";
  v = {0xFFFFFFFFFFFFull, 0xFFFFFFFFFFull, 0xFFFFFFFFFEull};
  EXPECT_EQ(v.scaled(), 0xFFFFFFFFFFFFull + 0x100ull) << "raw + raw / (2^40 - 2), floored";
  v = {5, 10, 0};
  EXPECT_EQ(v.scaled(), 0u);
  EXPECT_TRUE(v.never_ran());
  v = {5, 10, 10};
  EXPECT_EQ(v.scaled(), 5u);
}

// ---------------------------------------------------------------------------------------------
// e500: threshold events count on PMC0/PMC1 only (e500 Core Reference Manual, Table 7-... the
// event table's counter column), so three of them need two groups even with PMC2/3 free.
struct E5Tag;
using E5Bus = pmu::MockBus<E5Tag>;
using E5 = pmu::e500::Driver<E5Bus>;

TEST_F(profilerMultiplex, E500ThresholdEventsOnlyEverGoOnPmc0AndPmc1) {
  E5Bus::reset();
  pmu::e500::Model model;
  E5Bus::device = &model;
  static prof::Multiplexer<E5, TestClock> mux;
  mux.clear();
  prof::MuxEvent t[3], c;
  ASSERT_EQ(mux.add(EventConfig{76, 10, 0}, t[0]), Status::ok);
  ASSERT_EQ(mux.add(EventConfig{77, 10, 0}, t[1]), Status::ok);
  ASSERT_EQ(mux.add(EventConfig{78, 10, 0}, t[2]), Status::ok);
  ASSERT_EQ(mux.add(pmu::Preset::cycles, c), Status::ok);
  ASSERT_EQ(mux.start(), Status::ok);
  EXPECT_EQ(mux.groups(), 2u);
  for (auto& e : t) EXPECT_LE(mux.slot_in(e, mux.group_of(e)), 1u);
  EXPECT_TRUE(mux.pinned(c)) << "cycles can use PMC2/PMC3, which no threshold event can: never rotated out";
  EXPECT_GE(mux.slot_in(c, 1), 2u);
  for (int slice = 0; slice < 4; ++slice) {
    model.cycles(100);
    TestClock::t += 100;
    mux.rotate();
  }
  mux.stop();
  EXPECT_EQ(mux.value(c).raw, 400u);
  EXPECT_EQ(mux.value(c).running, mux.value(c).enabled);
  EXPECT_EQ(mux.value(t[0]).running, 200u) << "group 0's two slices of 100 ticks";
  EXPECT_EQ(mux.value(t[2]).running, 200u);
  E5Bus::device = nullptr;
}

// ---------------------------------------------------------------------------------------------
// RM7000: one counter (PerfControl/PerfCount): one group per event.
struct RmTag;
using RmBus = pmu::MockBus<RmTag>;
using Rm = pmu::rm7000::Driver<RmBus>;

TEST_F(profilerMultiplex, Rm7000OneCounterMakesOneGroupPerEvent) {
  RmBus::reset();
  pmu::rm7000::Model model;
  RmBus::device = &model;
  static prof::Multiplexer<Rm, TestClock> mux;
  mux.clear();
  prof::MuxEvent e[3];
  const std::uint32_t codes[3] = {0x00, 0x01, 0x02};
  for (unsigned i = 0; i < 3; ++i) ASSERT_EQ(mux.add(EventConfig{codes[i], 0, 0}, e[i]), Status::ok);
  ASSERT_EQ(mux.start(), Status::ok);
  EXPECT_EQ(mux.groups(), 3u);
  for (int slice = 0; slice < 9; ++slice) {
    for (unsigned i = 0; i < 3; ++i) model.event(codes[i], 10 * (i + 1));
    TestClock::t += 10;
    mux.rotate();
  }
  mux.stop();
  for (unsigned i = 0; i < 3; ++i) {
    const prof::MuxValue v = mux.value(e[i]);
    EXPECT_EQ(v.running, 30u) << i;
    EXPECT_EQ(v.enabled, 90u) << i;
    EXPECT_EQ(v.scaled(), 90u * (i + 1)) << i;
  }
  RmBus::device = nullptr;
}

// ---------------------------------------------------------------------------------------------
// NetBurst: counters share ESCRs (Intel SDM Vol. 3B, 18.15.2): IOQ_allocation and
// FSB_data_activity both need an FSB ESCR, so they cannot count in one group when only one is
// left; the trial configure finds it, and rotation frees the ESCRs for the next group.
struct NbTag;
using NbBus = pmu::MockBus<NbTag>;
using Nb = pmu::netburst::Driver<NbBus>;

// A fresh model on the bus, probed (the probe checks that a counter advances).
void probed_netburst(pmu::netburst::Model& model) {
  NbBus::reset();
  NbBus::device = &model;
  model.set_cycles_per_access(1);
  ASSERT_EQ(Nb::probe().status, Status::ok);
  model.set_cycles_per_access(0);
}
pmu::EventConfig ev(const char* s) { return pmu::netburst::config_of(pmu::netburst::parse(s)); }

TEST_F(profilerMultiplex, NetburstEventsSharingAnEscrGoToSeparateGroups) {
  pmu::netburst::Model model;
  probed_netburst(model);
  namespace nb = pmu::netburst;
  static prof::Multiplexer<Nb, TestClock> mux;
  mux.clear();
  prof::MuxEvent a, b, c;
  ASSERT_EQ(mux.add(ev("IOQ_allocation:ALL_READ"), a), Status::ok);
  ASSERT_EQ(mux.add(ev("IOQ_allocation:ALL_WRITE"), b), Status::ok);
  ASSERT_EQ(mux.add(ev("FSB_data_activity:DRDY_DRV"), c), Status::ok);
  ASSERT_EQ(mux.start(), Status::ok);
  EXPECT_GE(mux.groups(), 2u) << "three set-ups on two FSB ESCRs";
  for (int r = 0; r < 6; ++r) {
    TestClock::t += 10;
    mux.rotate();
  }
  EXPECT_EQ(mux.failed_rotations(), 0u) << "every group programs after the one before it";
  mux.stop();
  EXPECT_GT(mux.value(a).running, 0u);
  EXPECT_GT(mux.value(b).running, 0u);
  EXPECT_GT(mux.value(c).running, 0u);
  NbBus::device = nullptr;
}

// A configure() refused at a rotation (a shared ESCR taken by someone else since start()): the
// event gets neither counts nor running time for that slice, the pinned counter and the events
// that did program start from 0, and the rotation is counted as failed (review of issue 38).
TEST_F(profilerMultiplex, AFailedRotationCreditsOnlyWhatWasProgrammed) {
  pmu::netburst::Model model;
  probed_netburst(model);
  namespace nb = pmu::netburst;
  static prof::Multiplexer<Nb, TestClock> mux;
  mux.clear();
  prof::MuxEvent ins, a, b, c, d;
  ASSERT_EQ(mux.add(ev("instr_retired:NBOGUSNTAG"), ins), Status::ok);
  ASSERT_EQ(mux.add(ev("IOQ_allocation:ALL_READ"), a), Status::ok);
  ASSERT_EQ(mux.add(ev("IOQ_allocation:ALL_WRITE"), b), Status::ok);
  ASSERT_EQ(mux.add(ev("FSB_data_activity:DRDY_DRV"), c), Status::ok);
  ASSERT_EQ(mux.add(ev("FSB_data_activity:DRDY_OWN"), d), Status::ok);
  ASSERT_EQ(mux.start(), Status::ok);
  ASSERT_TRUE(mux.pinned(ins));
  ASSERT_EQ(mux.group_of(d), 1u);
  ASSERT_EQ(mux.slot_in(d, 1), 2u);
  // Another user takes counter 3 with group 0's FSB_ESCR1 set-up: d cannot program in group 1.
  ASSERT_EQ(Nb::configure(3, mux.event_of(b)), Status::ok);
  model.instructions_retired(100);
  model.event(nb::event_row("IOQ_allocation"), nb::parse("IOQ_allocation:ALL_READ").mask, 50);
  TestClock::t += 10;
  mux.rotate();
  EXPECT_EQ(mux.failed_rotations(), 1u);
  model.instructions_retired(100);
  TestClock::t += 10;
  mux.rotate();
  model.instructions_retired(100);
  TestClock::t += 10;
  mux.stop();
  EXPECT_EQ(mux.value(ins).raw, 300u) << "the pinned counter counted twice";
  EXPECT_EQ(mux.value(c).raw, 0u) << "an event inherited the previous group's count";
  EXPECT_EQ(mux.value(d).running, 0u) << "an event never programmed was credited running time";
  EXPECT_EQ(mux.value(a).raw, 50u);
  Nb::deconfigure(1u << 3);
  // A start() that fails frees what it configured: the ESCRs are free again after it.
  ASSERT_EQ(Nb::configure(3, ev("FSB_data_activity:DRDY_OWN")), Status::ok);
  EXPECT_NE(mux.start(), Status::ok) << "group 0 needs FSB_ESCR1, held by counter 3";
  EXPECT_FALSE(mux.running());
  mux.clear();
  Nb::deconfigure(1u << 3);
  EXPECT_EQ(Nb::configure(13, ev("instr_retired:NBOGUSTAG")), Status::ok) << "CRU_ESCR0 still held by the failed start";
  Nb::deconfigure(1u << 13);
  NbBus::device = nullptr;
}

// XScale's PMNC.E is one switch (kGlobalEnable): the multiplexer's stop() beside a running
// Profiler leaves it on, so the Profiler goes on counting (review of issue 38).
TEST_F(profilerMultiplex, XscaleMuxStopLeavesARunningProfilerCounting) {
  XsRig::fresh();
  static prof::Profiler<Xs> p;
  p.clear();
  prof::Counter ins;
  ASSERT_EQ(p.add(pmu::Preset::instructions, ins), Status::ok);
  p.start();
  ASSERT_EQ(XsRig::mux.reserve(p.used_slots()), Status::ok);
  prof::MuxEvent e[5];
  const std::uint32_t codes[5] = {xs::event::BRANCH, xs::event::DC_ACCESS, xs::event::DC_MISS,
                                  xs::event::BRANCH_MISPRED, xs::event::DTLB_MISS};
  for (unsigned i = 0; i < 5; ++i) ASSERT_EQ(XsRig::mux.add(EventConfig{codes[i], 0, 0}, e[i]), Status::ok);
  ASSERT_EQ(XsRig::mux.start(), Status::ok);
  for (unsigned i = 0; i < 5; ++i) XsRig::model.event(codes[i], 10);
  TestClock::t += 10;
  XsRig::mux.stop();
  EXPECT_TRUE(XsRig::model.enabled()) << "the multiplexer's stop stopped the Profiler (PMNC.E)";
  const std::uint64_t before = p.read(ins);
  XsRig::model.event(xs::event::INSTR, 100);
  EXPECT_EQ(p.read(ins) - before, 100u);
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(XsRig::mux.value(e[i]).raw, 10u) << i;
  p.clear();
}

}  // namespace
