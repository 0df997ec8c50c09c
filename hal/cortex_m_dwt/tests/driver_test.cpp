// The DWT driver's own rules: probe (TRCENA first, NOCYCCNT/NOPRFCNT, the Cortex-M7 lock), what
// start and stop do to each slot, one load per CYCCNT read, no overflow condition or interrupt.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace {

using namespace pmu::cortex_m_dwt;
using pmu::Status;
struct Tag;
using DwtDriver = dwttest::Fixture<Tag>;

TEST_F(DwtDriver, C1_6_5_ProbeSetsTrcenaThenFindsEveryCounter) {
  model.set_cycles_per_access(1);  // CYCCNT advances while probe() reads it
  const pmu::ProbeResult r = D::probe();
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.working_slots, 0x3Fu);
  EXPECT_TRUE(model.trcena());
  EXPECT_EQ(model.ctrl() & (kCycCntEna | kAllEvtEna), 0u) << "probe leaves CYCCNT stopped, EVTENA clear";
}

TEST_F(DwtDriver, C1_8_7_ProbeReadsNocyccntAndNoprfcnt) {
  model.set_cycles_per_access(1);
  model.set_no_prfcnt(true);
  EXPECT_EQ(D::probe().working_slots, 0x01u) << "NOPRFCNT: CYCCNT only";
  model.set_no_prfcnt(false);
  model.set_no_cyccnt(true);
  EXPECT_EQ(D::probe().working_slots, 0x3Eu) << "NOCYCCNT: the 8-bit counters only";
  model.set_no_prfcnt(true);
  EXPECT_EQ(D::probe().status, Status::pmu_absent) << "neither";
}

// C1.6.5: TRCENA is read/write, so a DWT that is there reads it back as set. Where it reads 0 (QEMU
// 7.2's mps2-an386 maps nothing there: every DWT register reads 0, and DWT_CTRL's NOCYCCNT and
// NOPRFCNT read 0 too) the probe must not report counters that are not there.
TEST_F(DwtDriver, C1_6_5_ProbeFindsNoCounterWhereTrcenaDoesNotReadBackAsSet) {
  model.set_cycles_per_access(1);
  model.set_unmapped(true);
  const pmu::ProbeResult r = D::probe();
  EXPECT_EQ(r.status, Status::pmu_absent);
  EXPECT_EQ(r.working_slots, 0u) << "no 8-bit counter claimed from an all-zero DWT_CTRL";
}

TEST_F(DwtDriver, ProbeUnlocksTheCoreSightLockWhereDwtLsrSaysLocked) {
  model.set_cycles_per_access(1);
  model.set_locked(true);
  EXPECT_EQ(D::probe().working_slots, 0x3Fu);
  EXPECT_FALSE(model.locked());
}

TEST_F(DwtDriver, ProbeWithoutTheKeyOnALockedDwtFindsNoCycleCounter) {
  // What a driver that skipped the unlock would see: CYCCNTENA ignored, CYCCNT never advances.
  model.set_cycles_per_access(1);
  model.set_locked(true);
  trace_on();
  put<DWT_CTRL>(kCycCntEna);
  model.cycles(5);
  EXPECT_EQ(get<DWT_CYCCNT>(), 0u);
}

TEST_F(DwtDriver, C1_8_7_StartAndStopSwitchCyccntenaAndKeepTheCount) {
  trace_on();
  ASSERT_EQ(D::configure(0, {kCycCntEvent, 0, 0}), Status::ok);
  D::write(0, 100);
  D::start(0x1);
  model.cycles(50);
  D::stop(0x1);
  model.cycles(50);
  EXPECT_EQ(D::read(0), 150u);
  EXPECT_EQ(D::configure(0, {kCycCntEvent, 0, 0}), Status::ok);
  D::start(0x1);
  EXPECT_EQ(D::configure(0, {kCycCntEvent, 0, 0}), Status::busy) << "CYCCNT counting";
  D::stop(0x1);
}

TEST_F(DwtDriver, C1_8_9_ConfigureSetsEvtenaWhichZeroesTheCounterAndStopCannotStopIt) {
  trace_on();
  model.set_count8(event::SLEEPCNT, 77);
  ASSERT_EQ(D::configure(3, {event::SLEEPCNT, 0, 0}), Status::ok);
  EXPECT_EQ(model.ctrl() & kSleepEvtEna, kSleepEvtEna);
  EXPECT_EQ(D::read(3), 0u) << "SLEEPEVTENA 0 -> 1 initialized SLEEPCNT";
  model.event(event::SLEEPCNT, 5);
  D::stop(D::kAllSlots);
  model.event(event::SLEEPCNT, 5);
  EXPECT_EQ(D::read(3), 10u) << "no count enable: stop() leaves the 8-bit counters counting";
  EXPECT_EQ(model.ctrl() & kSleepEvtEna, kSleepEvtEna) << "stop() does not clear EVTENA";
  D::start(D::kAllSlots);
  EXPECT_EQ(D::read(3), 10u) << "start() does not re-initialize it";
}

TEST_F(DwtDriver, EachCounterCountsOnlyItsOwnEvent) {
  EXPECT_EQ(D::slots_for(kCycCntEvent), 0x01u);
  for (unsigned code = 1; code <= 5; ++code) EXPECT_EQ(D::slots_for(code), 1u << code) << code;
  EXPECT_EQ(D::slots_for(6), 0u);
  EXPECT_EQ(D::check_event(1, {kCycCntEvent, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(D::check_event(2, {event::CPICNT, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(D::check_event(1, {event::CPICNT, 1, 0}), Status::bad_argument);
  EXPECT_EQ(D::check_event(6, {event::CPICNT, 0, 0}), Status::bad_argument);
}

TEST_F(DwtDriver, WidthsAreTheRegisters32And8Bits) {
  EXPECT_EQ(D::width(0), 32u);
  for (unsigned s = 1; s < 6; ++s) EXPECT_EQ(D::width(s), 8u);
  EXPECT_EQ(D::width(6), 0u);
  EXPECT_EQ(pmu::register_bits(D::width(1)), 8u);
  const std::uint32_t before = pmu::field_errors;
  D::write(1, 0x100);  // too wide for DWT_CPICNT
  EXPECT_EQ(pmu::field_errors, before + 1);
}

TEST_F(DwtDriver, NoOverflowConditionNoInterruptNoLink) {
  static_assert(!D::kCapabilities.overflow && !D::kCapabilities.interrupt && !D::kCapabilities.link &&
                !D::kCapabilities.sampling);
  trace_on();
  D::write(0, 0xFFFFFFFFu);
  D::start(0x1);
  model.cycles(2);
  EXPECT_EQ(D::overflow_status(), 0u) << "a wrap raises nothing software can read";
  EXPECT_EQ(D::link(0, 1), Status::not_linkable);
  D::stop(0x1);
}

TEST_F(DwtDriver, OneInstructionPerCyccntRead) {
  static_assert(D::read_instructions<0>() == 1, "CYCCNT: one load");
  trace_on();
  Bus::clear_log();
  (void)D::read<0>();
  EXPECT_EQ(Bus::count(DWT_CYCCNT::location::key, pmu::MockOp::read), 1u);
  EXPECT_EQ(Bus::log_size, 1u);
}

}  // namespace
