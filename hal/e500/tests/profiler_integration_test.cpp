// The e500 driver under the portable profiler (profiler/profiler.hpp, profiler/sampler.hpp), on
// the behavioural model: presets, 64-bit extension across bit-31 overflows, a chained pair, and
// overflow-interrupt sampling every N events with the e500's self-clearing PMIE.
#include <gtest/gtest.h>

#include <cstdint>

#include "e500_fixture.hpp"
#include "hal/e500/events.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace {
using namespace e500test;
using pmu::EventConfig;
using pmu::Status;
using pmu::e500::Model;

struct ProfTag {};
struct e500Profiler : Fixture<ProfTag> {};
using Dr = e500Profiler::D;

TEST_F(e500Profiler, ProbeAndPresetsCountExactly) {
  prof::Profiler<Dr> p;
  model.set_cycles_per_access(1);
  ASSERT_EQ(p.probe().status, Status::ok);
  EXPECT_EQ(p.usable_slots(), 0xFu);
  model.set_cycles_per_access(0);
  prof::Counter dmiss, br, mis;
  ASSERT_EQ(p.add<pmu::Preset::dcache_misses>(dmiss), Status::ok);
  ASSERT_EQ(p.add<pmu::Preset::branches>(br), Status::ok);
  ASSERT_EQ(p.add<pmu::Preset::branch_mispredicts>(mis), Status::ok);
  p.start();
  model.event(41, 1234);
  model.event(12, 500);
  model.event(15, 7);
  model.event(60, 99);  // icache misses: not added
  p.stop();
  EXPECT_EQ(p.read(dmiss), 1234u);
  EXPECT_EQ(p.read(br), 500u);
  EXPECT_EQ(p.read(mis), 7u);
}

TEST_F(e500Profiler, ProbeOfAnAbsentPmuLeavesNoUsableSlot) {
  prof::Profiler<Dr> p;
  model.set_absent(true);
  EXPECT_EQ(p.probe().status, Status::pmu_absent);
  prof::Counter c;
  EXPECT_EQ(p.add<pmu::Preset::cycles>(c), Status::counter_unavailable);
  EXPECT_EQ(Bus::unexpected_traps, 0u);
}

TEST_F(e500Profiler, SixtyFourBitValueAcrossManyBit31Overflows) {
  prof::Profiler<Dr> p;
  Dr::reset();
  prof::Counter c;
  ASSERT_EQ(p.add<pmu::Preset::instructions>(c), Status::ok);
  p.start();
  std::uint64_t total = 0;
  for (int i = 0; i < 7; ++i) {  // fold at least once per 2^31 events
    model.event(2, 0x7FFFFFF0u);
    total += 0x7FFFFFF0u;
    p.fold();
  }
  model.event(2, 12345);
  total += 12345;
  EXPECT_EQ(p.read(c), total);
}

TEST_F(e500Profiler, ChainedPairReadsPast32Bits) {
  prof::Profiler<Dr> p;
  Dr::reset();
  prof::Counter lo, hi;
  ASSERT_EQ(p.add_on(0, EventConfig{2, 0, 0}, lo), Status::ok);
  ASSERT_EQ(p.add_on(1, EventConfig{pmu::e500::chain_event(0), 0, 0}, hi), Status::ok);
  ASSERT_EQ(p.link(lo, hi), Status::ok);
  p.start();
  const std::uint64_t n = (3ull << 32) + 0x1234;
  model.event(2, n);
  EXPECT_EQ(p.read(hi), n);
}

TEST_F(e500Profiler, SamplerTakesOneSampleEveryNEvents) {
  static prof::Profiler<Dr> p;
  static prof::SampleRing<64> ring;
  static prof::Sampler<Dr, prof::SampleRing<64>> sampler{p, ring};
  p.clear();
  Dr::reset();
  prof::Counter instr, cyc;
  ASSERT_EQ(p.add<pmu::Preset::instructions>(instr), Status::ok);
  ASSERT_EQ(p.add<pmu::Preset::cycles>(cyc), Status::ok);
  p.start();
  ASSERT_EQ(sampler.arm(instr, 1000), Status::ok);
  model.on_interrupt([](void*) { sampler.on_pmu_interrupt(0x1000, 0x2000); }, nullptr);
  model.event(2, 25 * 1000 + 10);
  model.cycles(777);
  EXPECT_EQ(sampler.interrupts(), 25u);
  EXPECT_EQ(ring.size(), 25u);
  EXPECT_EQ(ring.dropped(), 0u);
  EXPECT_EQ(p.read(cyc), 777u);
  EXPECT_FALSE(model.interrupt_storm());
  sampler.disarm();
  p.stop();
}

}  // namespace

// The 31-bit condition (driver.hpp): without the interrupt or FCECE, a counter folded below 2^31
// is exact as long as it does not reach 2^32 before the next fold; once it does, 2^32 counts are
// gone without a trace. Folding once per 2^31 events is the bound that holds from any value.
TEST_F(e500Profiler, FoldingOncePer2To31EventsIsTheBoundWithoutInterrupts) {
  EXPECT_EQ(pmu::e500::kMaxEventsBetweenFolds, 0x80000000ull);
  EXPECT_EQ(pmu::e500::max_fold_interval_ns(1000000000u, 1), 2147483648ull);  // 2.15 s at 1 GHz
  EXPECT_EQ(pmu::e500::max_fold_interval_ns(1500000000u, 2), 715827882ull);   // 0.72 s
  EXPECT_EQ(pmu::e500::max_fold_interval_ns(0, 2), 0u);
  struct Case {
    std::uint64_t between, lost;
  } const cases[] = {
      {pmu::e500::kMaxEventsBetweenFolds, 0},  // the bound: exact from any folded value
      {0x100000000ull - 101, 0},              // from 100: reaches 0xFFFFFFFF, still exact
      {0x100000000ull - 100, 0x100000000ull},  // from 100: wraps to 0, bit 31 clear: 2^32 lost
      {0x100000000ull + 5, 0x100000000ull},
  };
  for (const Case& k : cases) {
    prof::Profiler<Dr> p;
    Dr::reset();
    prof::Counter c;
    ASSERT_EQ(p.add<pmu::Preset::instructions>(c), Status::ok);
    p.start();
    model.event(2, 100);
    p.fold();
    model.event(2, k.between);
    p.fold();
    EXPECT_EQ(p.read(c), 100 + k.between - k.lost) << k.between << " events between folds";
  }
}
