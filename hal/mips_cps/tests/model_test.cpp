// The MIPS CM model against the CPS text's rules, through raw register accesses (no driver): the
// rules the driver's tests then rely on.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace {

using namespace pmu;
using namespace pmu::mips_cps;
struct Tag;
using mips_cmModel = mipscmtest::Fixture<Tag>;
using Bus = pmu::MockBus<Tag>;
using Rg = pmu::Regs<Bus>;

TEST_F(mips_cmModel, PerfNumCntReadsTwoAndCannotBeWritten) {
  EXPECT_EQ(Rg::read(pc_ctl_num_cnt), 2u);
  Rg::write_raw<PC_CTL>(0xFFFFFFFFu & kPcCtlWritable);
  EXPECT_EQ(Rg::read(pc_ctl_num_cnt), 2u);
}

TEST_F(mips_cmModel, ResetAndCountOnInOneWriteResetsThenCounts) {
  model.set_perf_num_cnt(2);
  Rg::write_raw<PC_CNT0>(1234);
  Rg::write_raw<PC_CYCLE>(99);
  model.set_cycles_per_access(0);
  // Stopped counters do not count.
  model.cycles(5);
  EXPECT_EQ(model.counter(0), 99u);
  Rg::write(pc_ctl_cycl_reset(1), pc_ctl_cycl_counton(1), pc_ctl_p0_reset(1), pc_ctl_p0_counton(1));
  EXPECT_EQ(model.counter(0), 0u);
  EXPECT_EQ(model.counter(1), 0u);
  // The model's choice (the CPS text does not say what a Reset bit reads back); the driver never
  // depends on it: a read-modify-write writes the Reset bits as 0.
  EXPECT_EQ(Rg::read(pc_ctl_cycl_reset), 0u) << "the model's Reset bit acts once and reads back 0";
  EXPECT_EQ(Rg::read(pc_ctl_cycl_counton), 1u);
  model.cycles(7);
  EXPECT_EQ(Rg::read_raw<PC_CYCLE>(), 7u);
}

TEST_F(mips_cmModel, ResetClearsOnlyItsOwnOverflowBit) {
  Rg::write_raw<PC_CYCLE>(0xFFFFFFFFu);
  Rg::write_raw<PC_CNT1>(0xFFFFFFFFu);
  Rg::write_raw<PC_EVENT>(event::SHARING_MISS << 8);
  Rg::write(pc_ctl_cycl_counton(1), pc_ctl_p1_counton(1));
  model.cycles(1);
  model.event(event::SHARING_MISS);
  ASSERT_EQ(Rg::read_raw<PC_OV>(), 0x5u);
  Rg::write(pc_ctl_p1_reset(1), pc_ctl_p1_counton(1));
  EXPECT_EQ(Rg::read_raw<PC_OV>(), 0x1u) << "P1_Reset clears P1_Overflow, not Cycl_Cnt_Overflow";
}

TEST_F(mips_cmModel, OverflowBitsAreWriteOneToClear) {
  Rg::write_raw<PC_CYCLE>(0xFFFFFFFEu);
  Rg::write(pc_ctl_cycl_counton(1));
  model.cycles(1);
  EXPECT_EQ(Rg::read_raw<PC_OV>(), 0u) << "0xFFFFFFFF is not an overflow yet";
  model.cycles(1);
  EXPECT_EQ(Rg::read_raw<PC_OV>(), 1u);
  EXPECT_EQ(Rg::read_raw<PC_CYCLE>(), 0u) << "rolls over to 0";
  Rg::write_raw<PC_OV>(0x6u);  // 1s for the other two, 0 for this one
  EXPECT_EQ(Rg::read_raw<PC_OV>(), 1u) << "writing 0 leaves a bit alone";
  Rg::write(pc_ov_cycl(1));
  EXPECT_EQ(Rg::read_raw<PC_OV>(), 0u);
}

TEST_F(mips_cmModel, PerfOvfStopFreezesAllThreeUntilTheBitIsCleared) {
  Rg::write_raw<PC_CNT0>(0xFFFFFFFFu);
  Rg::write_raw<PC_EVENT>(event::REQUEST_COUNT);
  Rg::write(pc_ctl_ovf_stop(1), pc_ctl_cycl_counton(1), pc_ctl_p0_counton(1), pc_ctl_p1_counton(1));
  model.cycles(10);
  model.event(event::REQUEST_COUNT, 1);  // P0 (and P1, event 0 too) count; P0 overflows
  ASSERT_EQ(Rg::read_raw<PC_OV>(), 0x2u);
  const u32 cyc = model.counter(0), p1 = model.counter(2);
  model.cycles(100);
  model.event(event::REQUEST_COUNT, 5);
  EXPECT_EQ(model.counter(0), cyc) << "the cycle counter stopped too";
  EXPECT_EQ(model.counter(2), p1);
  EXPECT_EQ(model.counter(1), 0u);
  Rg::write(pc_ov_p0(1));
  model.cycles(3);
  EXPECT_EQ(model.counter(0), cyc + 3);
}

// MIPS CPS Training, "Performance Registers (GCR)", GCR_DB_PC_CTL: with Perf_Ovf_Stop "all CM
// Performance counters will stop counting when any counter, including the Cycle Counter, reaches
// its maximum value of 0xFFFFFFFF". The model's default reading: the count that brings a counter to
// 0xFFFFFFFF sets its overflow bit and stops all three, and that counter holds 0xFFFFFFFF.
TEST_F(mips_cmModel, PerfOvfStopStopsAllThreeWhenACounterReachesItsMaximumWhichItHolds) {
  ASSERT_EQ(model.reading(), OvfStopReading::stops_at_max) << "the text's words are the default";
  Rg::write_raw<PC_CNT0>(0xFFFFFFF0u);
  Rg::write_raw<PC_EVENT>(event::REQUEST_COUNT);
  Rg::write(pc_ctl_ovf_stop(1), pc_ctl_cycl_counton(1), pc_ctl_p0_counton(1));
  model.event(event::REQUEST_COUNT, 0xE);
  EXPECT_EQ(Rg::read_raw<PC_OV>(), 0u) << "0xFFFFFFFE: not there yet";
  model.cycles(3);
  model.event(event::REQUEST_COUNT, 1);
  EXPECT_EQ(Rg::read_raw<PC_CNT0>(), 0xFFFFFFFFu) << "it holds its maximum";
  EXPECT_EQ(Rg::read_raw<PC_OV>(), 0x2u) << "its overflow bit marks the stop";
  model.event(event::REQUEST_COUNT, 5);
  model.cycles(100);
  EXPECT_EQ(Rg::read_raw<PC_CNT0>(), 0xFFFFFFFFu);
  EXPECT_EQ(Rg::read_raw<PC_CYCLE>(), 3u) << "the cycle counter stopped with it";
  // Let go without moving it: a counter at 0xFFFFFFFF that counts rolls over to 0 and sets its bit
  // (the model's choice; the driver's fold writes it to 0 first, so nothing relies on it).
  Rg::write(pc_ov_p0(1));
  model.cycles(2);
  EXPECT_EQ(Rg::read_raw<PC_CYCLE>(), 5u);
  model.event(event::REQUEST_COUNT, 1);
  EXPECT_EQ(Rg::read_raw<PC_CNT0>(), 0u);
  EXPECT_EQ(Rg::read_raw<PC_OV>(), 0x2u);
}

TEST_F(mips_cmModel, WithoutOvfStopTheOthersKeepCounting) {
  Rg::write_raw<PC_CNT0>(0xFFFFFFFFu);
  Rg::write(pc_ctl_cycl_counton(1), pc_ctl_p0_counton(1));
  model.event(event::REQUEST_COUNT, 1);
  model.cycles(4);
  EXPECT_EQ(model.counter(0), 4u);
  model.event(event::REQUEST_COUNT, 2);
  EXPECT_EQ(model.counter(1), 2u);
}

struct Attr {
  static bool port3_only(std::uint32_t, std::uint32_t qualifier, std::uint32_t attributes, void*) {
    return (qualifier & (1u << attributes)) != 0;  // a test's own layout: bit n = source port n
  }
};

TEST_F(mips_cmModel, EventCountsOnlyWhenSelectedAndTheQualifierMatches) {
  model.set_qualifier_match(&Attr::port3_only, nullptr);
  Rg::write_raw<PC_EVENT>(event::L2_HIT_MISS | (event::SHARING_MISS << 8));
  Rg::write_raw<PC_QUAL0>(1u << 3);
  Rg::write_raw<PC_QUAL1>(~0u);
  Rg::write(pc_ctl_p0_counton(1), pc_ctl_p1_counton(1));
  model.event(event::L2_HIT_MISS, 5, 3);
  model.event(event::L2_HIT_MISS, 7, 2);  // port 2: filtered out
  model.event(event::SHARING_MISS, 4, 2);
  model.event(event::REQUEST_COUNT, 9, 3);  // selected nowhere
  EXPECT_EQ(Rg::read_raw<PC_CNT0>(), 5u);
  EXPECT_EQ(Rg::read_raw<PC_CNT1>(), 4u);
}

TEST_F(mips_cmModel, PcIntIsALevelWhileEnabledAndAnOverflowBitIsSet) {
  Rg::write_raw<PC_CYCLE>(0xFFFFFFFFu);
  Rg::write(pc_ctl_cycl_counton(1));
  model.cycles(1);
  EXPECT_FALSE(model.pcint()) << "Perf_Int_En clear";
  EXPECT_EQ(model.interrupts(), 0u);
  Rg::modify(pc_ctl_int_en(1));
  EXPECT_TRUE(model.pcint());
  EXPECT_GE(model.interrupts(), 1u);
  Rg::write(pc_ov_cycl(1));
  EXPECT_FALSE(model.pcint());
}

TEST_F(mips_cmModel, UndefinedBitsReadZeroAndWritingThemIsCounted) {
  Rg::write_raw<PC_CTL>(0);
  EXPECT_EQ(Rg::read_raw<PC_CTL>(), 2u);
  Bus::write<PC_EVENT::location, u32>(0x10000u);  // bypasses the engine's write mask
  EXPECT_EQ(model.reserved_writes(), 1u);
  EXPECT_EQ(Rg::read_raw<PC_EVENT>(), 0u);
  Bus::write<PC_EVENT::location, u32>(0);
  model = pmu::mips_cps::Model{};  // the count above was the point; start TearDown clean
  Bus::device = &model;
}

TEST_F(mips_cmModel, InertIsQemuTheWholeBlockReadsZeroAndIgnoresWrites) {
  model.set_inert(true);
  EXPECT_EQ(Rg::read_raw<PC_CTL>(), 0u) << "Perf_Num_Cnt reads 0 on QEMU";
  Rg::write_raw<PC_CNT0>(0x1234u);
  Rg::write(pc_ctl_cycl_counton(1));
  model.cycles(10);
  EXPECT_EQ(Rg::read_raw<PC_CNT0>(), 0u);
  EXPECT_EQ(Rg::read_raw<PC_CYCLE>(), 0u);
  EXPECT_EQ(Rg::read(gcr_rev_major), 7u) << "the global registers still answer";
}

TEST_F(mips_cmModel, DiscoveryRegistersAreNotCountedAsPmuAccesses) {
  EXPECT_EQ(Rg::read(config3_cmgcr), 1u);
  EXPECT_EQ(gcr_phys_of_cmgcrbase(Rg::read_raw<CMGCRBase>()), 0x1FBF8000u);
  EXPECT_EQ(Rg::read_raw<GCR_BASE>(), 0x1FBF8000u);
  model.set_cpu(3);
  EXPECT_EQ(Rg::read(ebase_cpunum), 3u);
  EXPECT_EQ(model.accesses(), 0u);
  Rg::read_raw<PC_CTL>();
  EXPECT_EQ(model.accesses(), 1u);
}

TEST_F(mips_cmModel, AbsentMeansEveryGcrAccessTraps) {
  model.set_absent(true);
  u32 v = 0;
  EXPECT_TRUE(pmu::fault::traps([&] { v = Rg::read_raw<GCR_BASE>(); }));
  EXPECT_TRUE(pmu::fault::traps([&] { v = Rg::read_raw<PC_CTL>(); }));
  EXPECT_EQ(Rg::read(config3_cmgcr), 1u) << "CP0 still answers";
  (void)v;
}

}  // namespace

namespace {

using namespace pmu;
using namespace pmu::mips_cps;
struct TagRollOver;
using mips_cmModelRollOver = mipscmtest::Fixture<TagRollOver, OvfStopReading::stops_after_roll_over>;
using BusR = pmu::MockBus<TagRollOver>;
using RgR = pmu::Regs<BusR>;

// The other reading of GCR_DB_PC_CTL's Perf_Ovf_Stop (MIPS CPS Training, "Performance Registers
// (GCR)"): the counter "overflows" as without it, rolling over to 0 and setting its bit, and then
// all three stop there.
TEST_F(mips_cmModelRollOver, PerfOvfStopReadAsRollOverStopsAllThreeAtZeroAfterTheRollOver) {
  RgR::write_raw<PC_CYCLE>(0xFFFFFFF0u);
  RgR::write_raw<PC_EVENT>(event::REQUEST_COUNT);
  RgR::write(pc_ctl_ovf_stop(1), pc_ctl_cycl_counton(1), pc_ctl_p0_counton(1));
  model.cycles(0xF);
  model.event(event::REQUEST_COUNT, 4);
  EXPECT_EQ(RgR::read_raw<PC_OV>(), 0u) << "0xFFFFFFFF is not the stop under this reading";
  model.cycles(1);
  EXPECT_EQ(RgR::read_raw<PC_CYCLE>(), 0u);
  EXPECT_EQ(RgR::read_raw<PC_OV>(), 0x1u);
  model.cycles(50);
  model.event(event::REQUEST_COUNT, 3);
  EXPECT_EQ(RgR::read_raw<PC_CYCLE>(), 0u);
  EXPECT_EQ(RgR::read_raw<PC_CNT0>(), 4u);
}

}  // namespace
