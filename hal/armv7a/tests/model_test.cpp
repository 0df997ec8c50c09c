// The behavioural model against the ARMv7 ARM's rules (C12; B4.1 register entries), through the
// register descriptors.
#include "hal/armv7a/tests/fixture.hpp"

namespace armv7a_test {
namespace {

using namespace pmu::armv7a;

// C12, counter enables: a counter counts only with PMCR.E and its PMCNTENSET bit both set.
TEST_F(Armv7a, C12_CounterCountsOnlyWithPmcrEAndItsEnable) {
  R::write_raw<PMXEVCNTR::reg<0>>(0);
  R::write(EvtCount<0>{}(event::INST_RETIRED));
  model.event(event::INST_RETIRED, 5);
  EXPECT_EQ(model.pmn(0), 0u) << "PMCR.E = 0";
  R::write(pmcr::E(1));
  model.event(event::INST_RETIRED, 5);
  EXPECT_EQ(model.pmn(0), 0u) << "PMCNTENSET.P0 = 0";
  R::write_raw<PMCNTENSET>(1u);
  model.event(event::INST_RETIRED, 5);
  EXPECT_EQ(model.pmn(0), 5u);
}

// B4.1 PMCNTENSET/PMCNTENCLR: writing 1 sets (clears) an enable, writing 0 changes nothing.
TEST_F(Armv7a, B4_1_PMCNTENSET_PMCNTENCLR_WriteOneSetsOrClearsZeroKeeps) {
  R::write_raw<PMCNTENSET>(0x80000003u);
  R::write_raw<PMCNTENSET>(0x00000004u);
  EXPECT_EQ(R::read_raw<PMCNTENSET>(), 0x80000007u);
  R::write_raw<PMCNTENCLR>(0x00000002u);
  EXPECT_EQ(R::read_raw<PMCNTENCLR>(), 0x80000005u) << "both read the enables";
}

// B4.1 PMOVSR: 1 = overflowed; writing 1 clears that flag, 0 leaves it.
TEST_F(Armv7a, B4_1_PMOVSR_IsWriteOneToClear) {
  R::write(pmcr::E(1));
  R::write_raw<PMCNTENSET>(0x80000001u);
  R::write(EvtCount<0>{}(event::INST_RETIRED));
  R::write_raw<PMCCNTR>(0xFFFFFFFFu);
  R::write_raw<PMXEVCNTR::reg<0>>(0xFFFFFFFFu);
  model.cycles(1);
  model.event(event::INST_RETIRED, 1);
  EXPECT_EQ(R::read_raw<PMOVSR>(), 0x80000001u) << "both wrapped at 32 bits";
  EXPECT_EQ(model.ccnt(), 0u);
  R::write_raw<PMOVSR>(0x00000001u);
  EXPECT_EQ(R::read_raw<PMOVSR>(), 0x80000000u);
}

// B4.1 PMCR: P resets every event counter, not PMCCNTR; C resets PMCCNTR; both read as zero.
TEST_F(Armv7a, B4_1_PMCR_P_ResetsEventCountersC_ResetsTheCycleCounter) {
  model.set_pmn(0, 7);
  model.set_pmn(5, 9);
  R::write_raw<PMCCNTR>(11);
  R::write(pmcr::P(1));
  EXPECT_EQ(model.pmn(0), 0u);
  EXPECT_EQ(model.pmn(5), 0u);
  EXPECT_EQ(model.ccnt(), 11u);
  R::write(pmcr::C(1));
  EXPECT_EQ(model.ccnt(), 0u);
  EXPECT_EQ(R::read_raw<PMCR>() & 0x6u, 0u);
}

// B4.1 PMCR.D: PMCCNTR counts every 64th cycle; event counters counting CPU_CYCLES are not divided.
TEST_F(Armv7a, B4_1_PMCR_D_CycleCounterEvery64thCycle) {
  R::write(pmcr::E(1), pmcr::D(1));
  R::write_raw<PMCNTENSET>(0x80000001u);
  R::write(EvtCount<0>{}(event::CPU_CYCLES));
  model.cycles(100);
  EXPECT_EQ(model.ccnt(), 1u);
  model.cycles(28);
  EXPECT_EQ(model.ccnt(), 2u) << "the remainder carries";
  EXPECT_EQ(model.pmn(0), 128u);
}

// B4.1 PMCR.N: the number of event counters; IMP 0x41 for ARM.
TEST_F(Armv7a, B4_1_PMCR_N_IsTheNumberOfEventCounters) {
  EXPECT_EQ(R::read(pmcr::N), 6u);
  EXPECT_EQ(R::read(pmcr::IMP), 0x41u);
}

// B4.1 PMSWINC: a write of 1 to bit n adds one to event counter n counting SW_INCR.
TEST_F(Armv7a, B4_1_PMSWINC_IncrementsCountersCountingSwIncr) {
  R::write(pmcr::E(1));
  R::write_raw<PMCNTENSET>(0x3u);
  R::write(EvtCount<0>{}(event::SW_INCR));
  R::write(EvtCount<1>{}(event::INST_RETIRED));
  R::write_raw<PMSWINC>(0x3u);
  EXPECT_EQ(model.pmn(0), 1u);
  EXPECT_EQ(model.pmn(1), 0u) << "counter 1 counts another event";
}

// C12 overflow interrupt: requested while a PMOVSR bit and its PMINTENSET bit are both set.
TEST_F(Armv7a, C12_OverflowInterruptWhenFlagAndPmintensetBothSet) {
  R::write(pmcr::E(1));
  R::write_raw<PMCNTENSET>(0x80000000u);
  R::write_raw<PMCCNTR>(0xFFFFFFFFu);
  model.cycles(1);
  EXPECT_EQ(model.interrupts(), 0u) << "PMINTENSET.C clear";
  R::write_raw<PMINTENSET>(0x80000000u);
  EXPECT_EQ(model.interrupts(), 1u) << "enabled with the flag set: a level";
  R::write_raw<PMOVSR>(0x80000000u);
  R::write_raw<PMINTENCLR>(0x80000000u);
  EXPECT_EQ(R::read_raw<PMINTENSET>(), 0u);
}

// B4.1 PMSELR: PMXEVCNTR and PMXEVTYPER reach the counter PMSELR.SEL selects: each access is the
// select, an ISB (the bus's barrier), then the access, in that order.
TEST_F(Armv7a, B4_1_PMSELR_EventCounterAccessIsSelectBarrierAccess) {
  model.set_pmn(2, 0x2222);
  Bus::clear_log();
  EXPECT_EQ(R::read_raw<PMXEVCNTR::reg<2>>(), 0x2222u);
  ASSERT_EQ(Bus::log_size, 3u);
  EXPECT_EQ(Bus::log[0].key, PMSELR::location::key);
  EXPECT_EQ(Bus::log[0].op, pmu::MockOp::write);
  EXPECT_EQ(Bus::log[0].value, 2u);
  EXPECT_EQ(Bus::log[1].op, pmu::MockOp::barrier);
  EXPECT_EQ(Bus::log[2].key, PmxevcntrAccess::key);
  EXPECT_EQ(Bus::log[2].op, pmu::MockOp::read);
}

TEST_F(Armv7a, AbsentPmuTraps) {
  model = Model{ModelConfig{.absent = true}};
  EXPECT_TRUE(pmu::fault::traps([] { (void)R::read_raw<PMCR>(); }));
}

}  // namespace
}  // namespace armv7a_test
