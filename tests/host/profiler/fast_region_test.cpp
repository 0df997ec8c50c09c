// Fast regions (profiler/fast_region.hpp) on the idealised PMU: exact differences with the
// window calibrated away, a register wrap inside a region, check()'s refusals, and the PMU
// interrupt (a fold) or a reset injected before every counter read of a region, at widths 31
// (the acknowledge rewrites the count: the region must be voided, never wrong) and 32.
#include <gtest/gtest.h>

#include <cstring>

#include "fake_backend.hpp"
#include "profiler/fast_region.hpp"

namespace {

using prof::Counter;
using prof::Status;

using fake::Rig;

using P32 = fake::Pmu<32>;
using P31 = fake::Pmu<31>;
using P40 = fake::Pmu<40>;

TEST(FastRegions, CalibratedWindowAndExactCounts) {
  Rig<P32> r;
  P32::st.cost_event = 1;  // every read is a cycle, as on hardware
  prof::FastRegions<P32, 0, 1> fast{r.p};
  ASSERT_EQ(fast.check(), Status::ok);
  prof::RegionStats<P32> empty{"empty"}, work{"work"};
  { prof::FastRegion f{fast, empty}; }
  // Slot 0's window holds slot 1's first read and its own second one: 2 cycles uncalibrated.
  EXPECT_EQ(empty.total[0], 2u);
  fast.calibrate();
  EXPECT_EQ(fast.overhead(0), 2u);
  EXPECT_EQ(fast.overhead(1), 0u);  // instructions: the reads cost cycles only
  for (int i = 1; i <= 3; ++i) {
    prof::FastRegion f{fast, work};
    P32::event(1, 100 * i);
    P32::event(2, 7);
  }
  EXPECT_EQ(work.calls, 3u);
  EXPECT_EQ(work.total[0], 600u);
  EXPECT_EQ(work.min[0], 100u);
  EXPECT_EQ(work.max[0], 300u);
  EXPECT_EQ(work.total[1], 21u);
  EXPECT_EQ(work.clamped, 0u);
}

TEST(FastRegions, AWrapInsideTheRegionIsExact) {
  Rig<P32> r;
  prof::FastRegions<P32, 0> fast{r.p};
  prof::RegionStats<P32> s{"s"};
  P32::set(0, 0xFFFFFFF0u);
  fast.measure(s, [] { P32::event(1, 0x30); });
  EXPECT_EQ(s.total[0], 0x30u);
  EXPECT_EQ(s.clamped, 0u);
}

TEST(FastRegions, CheckRefusesSlotsNotAddedOrArmedForSampling) {
  Rig<P32> r;
  prof::FastRegions<P32, 0, 2> missing{r.p};
  EXPECT_EQ(missing.check(), Status::bad_argument);
  r.p.set_sampled(1, true);  // what Sampler::arm does
  r.p.set_start_value(1, 0xFFFFFF00u);
  prof::FastRegions<P32, 1> armed{r.p};
  EXPECT_EQ(armed.check(), Status::busy);
  r.p.set_start_value(1, 0);  // a period of 2^32: the preset is 0, the slot still armed
  EXPECT_EQ(armed.check(), Status::busy);
  prof::FastRegions<P32, 0> fine{r.p};
  EXPECT_EQ(fine.check(), Status::ok);
}

// The interrupt before each of the region's four counter reads: a fold of slot 0's overflow (the
// region crosses it) or a reset. A value is exact or the region is clamped; never wrong.
template <class B>
void inject_everywhere(std::uint64_t near_boundary, bool fold_voids) {
  for (int what = 0; what < 2; ++what) {
    for (unsigned k = 1; k <= 4; ++k) {
      Rig<B> r;
      static prof::Profiler<B>* target;
      target = &r.p;
      prof::FastRegions<B, 0, 1> fast{r.p};
      prof::RegionStats<B> s{"s"};
      B::set(0, near_boundary);
      B::st.accesses = 0;
      B::st.hook_at = k;
      B::st.hook = what == 0 ? +[] { (void)target->fold(); } : +[] { target->reset(); };
      fast.measure(s, [] {
        B::event(1, 0x20);
        B::event(2, 5);
      });
      SCOPED_TRACE(testing::Message() << (what == 0 ? "fold" : "reset") << " before read " << k);
      EXPECT_EQ(s.calls, 1u);
      const bool after_overflow = k >= 3;  // reads 3 and 4 are the second reads
      const bool voided = what == 1 || (fold_voids && after_overflow);
      if (voided) {
        EXPECT_EQ(s.voided, 1u);
        EXPECT_EQ(s.clamped, 0u) << "voided, not clamped: the dump tells them apart";
        EXPECT_EQ(s.total[0], 0u);
        EXPECT_EQ(s.total[1], 0u);
      } else {
        EXPECT_EQ(s.clamped, 0u);
        EXPECT_EQ(s.total[0], 0x20u);
        EXPECT_EQ(s.total[1], 5u);
      }
    }
  }
}

TEST(FastRegions, InterruptBeforeEveryReadWidth32) { inject_everywhere<P32>(0xFFFFFFF0u, false); }
TEST(FastRegions, InterruptBeforeEveryReadWidth31) { inject_everywhere<P31>(0x7FFFFFF0u, true); }


// Without a Profiler: the same windows and counts, the counters the caller's own. A calibration
// reads only the smallest window, whatever else the empty regions cost.
TEST(StandaloneFastRegions, CalibratedWindowAndExactCounts) {
  P32::reset_state();
  ASSERT_EQ(P32::configure(0, {1, 0, 0}), Status::ok);
  P32::start(1u);
  P32::st.cost_event = 1;
  prof::StandaloneFastRegions<P32, 0> fast;
  ASSERT_EQ(fast.check(), Status::ok);
  fast.calibrate();
  EXPECT_EQ(fast.overhead(0), 1u);  // its own second read
  prof::RegionStats<P32> work{"work"};
  for (int i = 1; i <= 3; ++i) {
    prof::FastRegion f{fast, work};
    P32::event(1, 50 * i);
  }
  EXPECT_EQ(work.calls, 3u);
  EXPECT_EQ(work.total[0], 300u);
  EXPECT_EQ(work.min[0], 50u);
  EXPECT_EQ(work.max[0], 150u);
  EXPECT_EQ(work.clamped, 0u);
}
// calibrate() runs one try at least: calibrate(0) still measures the window. A standalone region
// is never void, so its overhead is the least window measured, with no "no try counted" case
// (which would leave the overhead at 0: every region would then keep its window).
TEST(StandaloneFastRegions, CalibrateWithNoIterationsStillMeasuresOneTry) {
  P32::reset_state();
  ASSERT_EQ(P32::configure(0, {1, 0, 0}), Status::ok);
  P32::start(1u);
  P32::st.cost_event = 1;
  prof::StandaloneFastRegions<P32, 0> fast;
  fast.calibrate(0);
  EXPECT_EQ(fast.overhead(0), 1u);
  prof::RegionStats<P32> s{"s"};
  fast.measure(s, [] { P32::event(1, 25); });
  EXPECT_EQ(s.min[0], 25u);
  EXPECT_EQ(s.clamped, 0u);
}

// The smallest firmware's state costs no flash: an unnamed RegionStats and a standalone fast
// region's object are all zero bytes when constant-initialised, so they land in .bss, not in
// .data (whose initial image a firmware stores in flash). All zero means "no measurement": the
// first region sets min and max.
template <class T>
bool all_zero_bytes(const T& x) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &x, sizeof b);
  for (unsigned char c : b)
    if (c != 0) return false;
  return true;
}
constinit prof::RegionStats<P32> zero_stats;
constinit prof::StandaloneFastRegions<P32, 0> zero_fast;

TEST(StandaloneFastRegions, UnnamedStatsAndTheRegionsAreAllZeroBytesSoTheyLandInBss) {
  EXPECT_TRUE(all_zero_bytes(zero_stats)) << "a non-zero byte puts the object into .data (flash)";
  EXPECT_EQ(zero_stats.name, nullptr);
  EXPECT_TRUE(all_zero_bytes(zero_fast));
  EXPECT_EQ(sizeof zero_fast, sizeof(std::uint32_t)) << "the overhead alone: no reference to NoProfiler";
}

TEST(StandaloneFastRegions, ZeroInitialisedStatsReportNoMeasurementAndTheFirstSetsMinAndMax) {
  P32::reset_state();
  ASSERT_EQ(P32::configure(0, {1, 0, 0}), Status::ok);
  P32::start(1u);
  prof::StandaloneFastRegions<P32, 0> fast;
  fast.calibrate();
  prof::RegionStats<P32>& s = zero_stats;
  EXPECT_EQ(s.calls, 0u);
  EXPECT_EQ(s.min[0], 0u);
  EXPECT_EQ(s.max[0], 0u);
  fast.measure(s, [] { P32::event(1, 70); });
  EXPECT_EQ(s.calls, 1u);
  EXPECT_EQ(s.min[0], 70u);
  EXPECT_EQ(s.max[0], 70u);
  fast.measure(s, [] { P32::event(1, 90); });
  fast.measure(s, [] { P32::event(1, 40); });
  EXPECT_EQ(s.min[0], 40u);
  EXPECT_EQ(s.max[0], 90u);
  EXPECT_EQ(s.total[0], 200u);
  s.name = "named at run time";  // the string in .rodata, the object still in .bss
  s.clear();
  EXPECT_STREQ(s.name, "named at run time");
  EXPECT_EQ(s.calls, 0u);
}

// A 64-bit difference (NetBurst's 40-bit counters) counts a region below the calibrated overhead
// on its own path: clamped once, 0 added, and min and max still right.
TEST(StandaloneFastRegions, Width40RegionBelowTheOverheadIsClampedOnce) {
  P40::reset_state();
  ASSERT_EQ(P40::configure(0, {1, 0, 0}), Status::ok);
  P40::start(1u);
  P40::st.cost_event = 1;  // each read one event: the overhead is 1
  prof::StandaloneFastRegions<P40, 0> fast;
  fast.calibrate();
  ASSERT_EQ(fast.overhead(0), 1u);
  P40::st.cost_event = 0;  // an empty region now reads 0, below the overhead
  prof::RegionStats<P40> s;
  fast.measure(s, [] {});
  fast.measure(s, [] { P40::set(0, P40::st.count[0] + 0x1'0000'0004ull); });  // a 64-bit difference
  EXPECT_EQ(s.calls, 2u);
  EXPECT_EQ(s.clamped, 1u);
  EXPECT_EQ(s.voided, 0u);
  EXPECT_EQ(s.min[0], 0u);
  EXPECT_EQ(s.max[0], 0x1'0000'0003ull);
  EXPECT_EQ(s.total[0], 0x1'0000'0003ull);
}
}  // namespace
