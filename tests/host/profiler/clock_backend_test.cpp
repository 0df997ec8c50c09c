// prof::ClockBackend (a free-running clock as the only counter) against a fake clock whose value
// the test sets and which advances by a fixed step on every read.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "profiler/clock_backend.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"

using pmu::Preset;
using prof::Counter;
using prof::Status;

namespace {

// A clock that wraps at 2^Width; each now() returns t and then advances it by `step`.
template <unsigned Width>
struct FakeClock {
  static constexpr unsigned kWidth = Width;
  static constexpr const char* kId = "fake-clock";
  static constexpr std::uint64_t kMask = Width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << Width) - 1;
  static inline std::uint64_t t = 0;
  static inline std::uint64_t step = 0;
  static inline unsigned reads = 0;
  static std::uint64_t now() {
    const std::uint64_t v = t & kMask;
    t += step;
    ++reads;
    return v;
  }
  static void advance(std::uint64_t n) { t += n; }
};

using Clock64 = FakeClock<64>;
using Clock16 = FakeClock<16>;
using B64 = prof::ClockBackend<Clock64>;
using B16 = prof::ClockBackend<Clock16>;

static_assert(prof::Backend<B64>);
static_assert(prof::Backend<B16>);
static_assert(B64::kSlots == 1 && B64::width(0) == 64 && B64::kLink == pmu::LinkKind::none);
// Profiler::add<Preset::P>() static_asserts exactly this: only cycles compiles.
static_assert(prof::supports<B64>(Preset::cycles));
static_assert(!prof::supports<B64>(Preset::instructions));
static_assert(!prof::supports<B64>(Preset::dcache_misses));
static_assert(prof::has_event<B64>(prof::kClockTicks) && !prof::has_event<B64>(2));
static_assert(B64::slots_for(prof::kClockTicks) == 1 && B64::slots_for(2) == 0);
static_assert(B16::kClockMask == 0xFFFF && B64::kClockMask == ~std::uint64_t{0});

template <class C>
void reset_clock(std::uint64_t t = 0, std::uint64_t step = 0) {
  using B = prof::ClockBackend<C>;
  B::stop(1);
  B::write(0, 0);
  C::t = t;
  C::step = step;
  C::reads = 0;
}

TEST(ClockBackend, CatalogDescribesOneTickEvent) {
  EXPECT_STREQ(B64::catalog.id, "fake-clock");
  EXPECT_EQ(B64::catalog.num_counters, 1u);
  EXPECT_EQ(B64::catalog.num_events, 1u);
  EXPECT_STREQ(B64::catalog.events[0].name, "CLOCK_TICKS");
  ASSERT_EQ(B64::catalog.num_presets, 1u);
  EXPECT_EQ(B64::catalog.presets[0].preset, Preset::cycles);
  EXPECT_NE(std::strstr(B64::catalog.description, "not core cycles"), nullptr);
  const pmu::ProbeResult r = B64::probe();
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.working_slots, 1u);
}

TEST(ClockBackend, SoftwareStartStopAccumulates) {
  reset_clock<Clock64>(1000);
  EXPECT_EQ(B64::read(0), 0u);  // never started
  B64::start(1);
  Clock64::advance(50);
  EXPECT_EQ(B64::read(0), 50u);  // running value
  EXPECT_EQ(B64::read<0>(), 50u);
  Clock64::advance(25);
  B64::stop(1);
  EXPECT_FALSE(B64::running());
  Clock64::advance(1000);
  EXPECT_EQ(B64::read(0), 75u);  // stopped: the accumulated value, however far the clock moves
  B64::start(1);
  Clock64::advance(5);
  EXPECT_EQ(B64::read(0), 80u);  // a second segment adds on
  B64::stop(1);
  EXPECT_EQ(B64::read(0), 80u);
  B64::stop(1);  // stopping twice changes nothing
  EXPECT_EQ(B64::read(0), 80u);

  B64::write(0, 7);  // write sets the count, stopped or running
  EXPECT_EQ(B64::read(0), 7u);
  B64::start(1);
  Clock64::advance(3);
  B64::start(1);  // starting twice does not restart the interval
  Clock64::advance(3);
  EXPECT_EQ(B64::read(0), 13u);
  B64::write(0, 100);
  Clock64::advance(4);
  EXPECT_EQ(B64::read(0), 104u);

  EXPECT_EQ(B64::read(1), 0u);  // no such slot
  B64::write(1, 5);             // ignored
  B64::start(0);                // mask without slot 0: nothing happens
  B64::stop(0);
  EXPECT_TRUE(B64::running());
}

TEST(ClockBackend, NoOverflowNoInterruptNoLink) {
  reset_clock<Clock64>(~std::uint64_t{0} - 10);  // a 64-bit clock about to wrap
  B64::set_overflow_interrupt(1, true);
  B64::start(1);
  Clock64::advance(20);
  EXPECT_EQ(B64::read(0), 20u);  // across the clock's 64-bit wrap
  EXPECT_EQ(B64::overflow_status(), 0u);
  B64::clear_overflow(1);
  EXPECT_EQ(B64::read(0), 20u);
  EXPECT_EQ(B64::link(0, 0), Status::not_linkable);
}

TEST(ClockBackend, ConfigureChecks) {
  reset_clock<Clock64>();
  EXPECT_EQ(B64::configure(0, {prof::kClockTicks, 0, 0}), Status::ok);
  EXPECT_EQ(B64::configure(1, {prof::kClockTicks, 0, 0}), Status::bad_argument);
  EXPECT_EQ(B64::configure(0, {prof::kClockTicks, 1, 0}), Status::bad_argument);
  EXPECT_EQ(B64::configure(0, {prof::kClockTicks, 0, 1}), Status::bad_argument);
  EXPECT_EQ(B64::configure(0, {2, 0, 0}), Status::unsupported_event);
  B64::start(1);
  EXPECT_EQ(B64::configure(0, {prof::kClockTicks, 0, 0}), Status::busy);
  B64::stop(1);
}

TEST(ClockBackend, WrapOfANarrowClockIsHandled) {
  reset_clock<Clock16>(0xFFF0);
  B16::start(1);
  Clock16::advance(0x20);  // the clock wrapped: 0xFFF0 -> 0x0010
  EXPECT_EQ(B16::read(0), 0x20u);
  B16::stop(1);
  EXPECT_EQ(B16::read(0), 0x20u);
  // Segments shorter than a wrap add up past 2^16: the count itself is 64 bits.
  for (int i = 0; i < 10; ++i) {
    B16::start(1);
    Clock16::advance(0xF000);
    B16::stop(1);
  }
  EXPECT_EQ(B16::read(0), 0x20u + 10u * 0xF000u);
}

TEST(ClockBackend, ProfilerOnlyHasCycles) {
  reset_clock<Clock64>();
  prof::Profiler<B64> p;
  EXPECT_EQ(p.probe().status, Status::ok);
  EXPECT_EQ(p.usable_slots(), 1u);
  Counter cyc, instr, second, raw;
  EXPECT_EQ(p.add<Preset::cycles>(cyc), Status::ok);
  EXPECT_EQ(p.slot_of(cyc), 0u);
  EXPECT_STREQ(p.preset_of(cyc), "cycles");
  EXPECT_STREQ(p.event_name(cyc), "CLOCK_TICKS");
  // add<Preset::instructions>() would not compile (static_assert); at run time it is a Status.
  EXPECT_EQ(p.add(Preset::instructions, instr), Status::unsupported_event);
  EXPECT_FALSE(instr.valid());
  EXPECT_EQ(p.add(Preset::branch_mispredicts, instr), Status::unsupported_event);
  EXPECT_EQ(p.add(pmu::EventConfig{2, 0, 0}, raw), Status::unsupported_event);
  EXPECT_EQ(p.add(Preset::cycles, second), Status::no_free_counter);
  EXPECT_EQ(p.link(cyc, cyc), Status::bad_argument);
  EXPECT_EQ(p.counters_added(), 1u);
}

TEST(ClockBackend, ProfilerStartReadStopLatch) {
  reset_clock<Clock64>(123456);
  prof::Profiler<B64> p;
  Counter cyc;
  ASSERT_EQ(p.add<Preset::cycles>(cyc), Status::ok);
  B64::write(0, 999);  // stale value: start() zeroes it
  p.start();
  Clock64::advance(300);
  EXPECT_EQ(p.read(cyc), 300u);
  p.fold();  // nothing to fold: no overflow condition
  EXPECT_EQ(p.read(cyc), 300u);
  Clock64::advance(200);
  p.stop();
  Clock64::advance(10000);
  EXPECT_EQ(p.read(cyc), 500u);
  std::uint64_t acc[1] = {1};
  p.accumulate(acc, 1);
  EXPECT_EQ(acc[0], 501u);
  EXPECT_EQ(p.read(cyc), 0u);
}

// The calibrated overhead is what one measurement reads; with a clock that advances a fixed step
// per read, every empty region costs exactly that step and reads 0 after calibration.
template <class C>
void calibrated_regions(std::uint64_t t0) {
  using B = prof::ClockBackend<C>;
  reset_clock<C>(t0, 7);
  prof::Profiler<B> p;
  Counter cyc;
  ASSERT_EQ(p.template add<Preset::cycles>(cyc), Status::ok);
  p.start();
  prof::Regions<B> regions{p};
  regions.calibrate();
  EXPECT_EQ(regions.overhead(0), 7u);  // one read per snapshot, one step per read

  prof::RegionStats<B> empty{"empty"}, work{"work"};
  for (int i = 0; i < 20; ++i) {
    prof::Region<B> r{regions, empty};
  }
  EXPECT_EQ(empty.calls, 20u);
  EXPECT_EQ(empty.total[0], 0u);
  EXPECT_EQ(empty.max[0], 0u);
  EXPECT_EQ(empty.clamped, 0u);

  for (std::uint64_t n : {1000u, 3000u, 2000u}) {
    prof::Region<B> r{regions, work};
    C::advance(n);
  }
  EXPECT_EQ(work.calls, 3u);
  EXPECT_EQ(work.total[0], 6000u);
  EXPECT_EQ(work.min[0], 1000u);
  EXPECT_EQ(work.max[0], 3000u);
  EXPECT_EQ(work.clamped, 0u);
  p.stop();
}

TEST(ClockBackend, RegionsCalibrateToZero) { calibrated_regions<Clock64>(5); }

// Same on a 16-bit clock started just below its wrap: calibration, the empty regions or the work
// regions straddle the wrap depending on the start point; the readings must not change.
TEST(ClockBackend, RegionsAcrossTheWrapOfANarrowClock) {
  calibrated_regions<Clock16>(0xFF00);
  calibrated_regions<Clock16>(0xFFFF - 6);
  calibrated_regions<Clock16>(0xFFFF - 1000);
}

TEST(ClockBackend, SamplerFromATimer) {
  reset_clock<Clock64>();
  prof::Profiler<B64> p;
  Counter cyc;
  ASSERT_EQ(p.add<Preset::cycles>(cyc), Status::ok);
  prof::SampleRing<8> ring;
  prof::Sampler<B64, prof::SampleRing<8>> s{p, ring};
  p.start();
  s.on_timer_tick(0x1000, 0x2000);
  s.on_timer_tick(0x1004, 0x2000);
  EXPECT_EQ(s.interrupts(), 2u);
  prof::Sample smp;
  ASSERT_TRUE(ring.pop(smp));
  EXPECT_EQ(smp.pc, 0x1000u);
  EXPECT_EQ(smp.lr, 0x2000u);
  EXPECT_EQ(ring.size(), 1u);
  p.stop();
}

}  // namespace
