// probe(): what the firmware learns at run time, on a full PMU, QEMU 7.2's partial one, a core
// without the PMU, and a PMU whose counters never move.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace {

using namespace pmu;
using namespace pmu::xscale;
using xs_test::Fixture;
using xs_test::Xsc1Case;
using xs_test::Xsc2Case;

template <class C>
class xscaleProbe : public Fixture<C> {};
using Cases = ::testing::Types<Xsc2Case, Xsc1Case>;
TYPED_TEST_SUITE(xscaleProbe, Cases);

TYPED_TEST(xscaleProbe, FullModelEverySlotWorks) {
  using Pmu = typename TestFixture::Pmu;
  this->attach({.cycles_per_access = 1});
  // Start from a messy state: running, a stale flag with its interrupt enabled, odd counts. The
  // line is a level: count its rising edges, with no handler to clear the flag.
  Pmu::enable();
  Pmu::set_overflow_interrupt(this->kAll, true);
  this->model.raise_flag(0);
  ASSERT_EQ(this->model.irq_count(), 1u);
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) this->model.set_counter(s, 77);

  const ProbeResult r = Pmu::probe();
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.working_slots, this->kAll);
  const ProbeReport& rep = Pmu::probe_report();
  EXPECT_EQ(rep.trapped, 0u);
  EXPECT_EQ(rep.select_holds, this->kAll & ~1u);
  EXPECT_TRUE(rep.inten_holds);
  EXPECT_TRUE(rep.ccnt_overflow);
  EXPECT_TRUE(rep.ccnt_holds_when_stopped);
  EXPECT_EQ(this->model.irq_count(), 1u) << "probe never let an enable meet a pending flag";
  // Left stopped, counters 0, interrupts off, flags clear.
  EXPECT_FALSE(this->model.enabled());
  EXPECT_EQ(this->model.flags(), 0u);
  EXPECT_EQ(this->model.inten(), 0u);
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) EXPECT_EQ(this->model.counter(s), 0u) << s;
  EXPECT_EQ(Pmu::configure(TypeParam::kSlots - 1, {event::INSTR}), Status::ok);
}

TYPED_TEST(xscaleProbe, CountersThatNeverMoveAreNotWorking) {
  using Pmu = typename TestFixture::Pmu;
  this->attach({.cycles_per_access = 0});  // registers fine, but no time ever passes
  const ProbeResult r = Pmu::probe();
  EXPECT_EQ(r.status, Status::pmu_absent);
  EXPECT_EQ(r.working_slots, 0u);
  EXPECT_EQ(Pmu::probe_report().select_holds, this->kAll & ~1u);
  EXPECT_FALSE(Pmu::probe_report().ccnt_overflow);
  EXPECT_EQ(Pmu::configure(0, {kCcntEvent}), Status::counter_unavailable);
}

// PMNs that advance but cannot be told what to count are no use: reported as not working.
TYPED_TEST(xscaleProbe, StuckEventSelectMeansNotWorking) {
  using Pmu = typename TestFixture::Pmu;
  this->attach({.stuck_event_selects = true, .cycles_per_access = 1});
  const ProbeResult r = Pmu::probe();
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.working_slots, 0x1u) << "only CCNT";
  EXPECT_EQ(Pmu::probe_report().select_holds, 0u);
  EXPECT_EQ(Pmu::configure(1, {event::INSTR}), Status::counter_unavailable);
  // What the probe saw: the PMN counts, but a select does not take.
  EXPECT_EQ(Pmu::select_event(0, event::DC_MISS), Status::ok);
  EXPECT_EQ(Pmu::selected_event(0), event::INSTR);
  Pmu::start(0b10);
  this->model.event(event::INSTR, 5);
  EXPECT_GE(Pmu::read(1), 5u);  // plus the time of the accesses themselves
}

TYPED_TEST(xscaleProbe, AbsentPmuTrapsAndIsReported) {
  using Pmu = typename TestFixture::Pmu;
  using Bus = typename TestFixture::Bus;
  this->attach({.mode = ModelMode::absent});
  const ProbeResult r = Pmu::probe();
  EXPECT_EQ(r.status, Status::pmu_absent);
  EXPECT_EQ(r.working_slots, 0u);
  EXPECT_EQ(Pmu::probe_report().trapped & (kRegPMNC | kRegCCNT), kRegPMNC | kRegCCNT);
  // Every access was a read under fault::traps(): nothing was written to an absent PMU.
  for (std::size_t i = 0; i < Bus::log_size; ++i) EXPECT_EQ(Bus::log[i].op, MockOp::read);
  EXPECT_EQ(Pmu::configure(0, {kCcntEvent}), Status::counter_unavailable);
  Pmu::forget_probe();
}

// QEMU 7.2 -M mainstone: only CCNT counts; PMN3 traps; INTEN, FLAG, EVTSEL, PMN0-2 inert.
class xscaleProbeQemu : public Fixture<Xsc2Case> {};

TEST_F(xscaleProbeQemu, OnlyCcntWorks) {
  attach({.mode = ModelMode::qemu, .cycles_per_access = 1});
  const ProbeResult r = Pmu::probe();
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.working_slots, 0x1u);
  const ProbeReport& rep = Pmu::probe_report();
  EXPECT_EQ(rep.trapped, kRegPMN0 << 3) << "PMN3 and nothing else";
  EXPECT_EQ(rep.select_holds, 0u);
  EXPECT_FALSE(rep.inten_holds);
  EXPECT_FALSE(rep.ccnt_overflow) << "CCNT writes are ignored, FLAG reads 0";
  EXPECT_FALSE(rep.ccnt_holds_when_stopped) << "QEMU's CCNT reads 0 while E=0";

  // The firmware now knows: cycles yes, events no.
  EXPECT_EQ(Pmu::configure(0, {kCcntEvent}), Status::ok);
  for (unsigned s = 1; s < 5; ++s)
    EXPECT_EQ(Pmu::configure(s, {event::INSTR}), Status::counter_unavailable) << s;
  // The probe's own traps were all caught; after it nothing touches PMN3.
  Bus::clear_log();
  Pmu::reset_ccnt();
  Pmu::start(1);
  const auto a = Pmu::read<0>();
  model.cycles(500);
  const auto b = Pmu::read<0>();
  EXPECT_EQ(b - a, 500u + 1) << "500 cycles and the time of one access";
  Pmu::stop(1);
  EXPECT_EQ(Pmu::read<0>(), 0u) << "read before stopping on QEMU";
  EXPECT_EQ(Bus::count<xsc2::PMN3>(MockOp::read) + Bus::count<xsc2::PMN3>(MockOp::write), 0u);
}

// The XSC1 driver on an XSC2 part reaches registers that are not this PMU's: nothing counts.
TEST_F(xscaleProbeQemu, WrongVariantFindsNoCounters) {
  attach({.cycles_per_access = 1});
  using Wrong = Xsc1<Bus>;
  Wrong::forget_probe();
  const ProbeResult r = Wrong::probe();
  EXPECT_EQ(r.status, Status::pmu_absent);
  EXPECT_EQ(r.working_slots, 0u);
  Wrong::forget_probe();
}

}  // namespace

namespace {
// After probe() every PMN is parked on the power-saving event (0xFF) until configured.
TEST(xscaleProbePark, UnusedCountersAreParkedOnPowerSave) {
  using Bus = pmu::MockBus<struct ParkTag>;
  using P = pmu::xscale::Xsc2<Bus>;
  pmu::xscale::Xsc2Model m({.cycles_per_access = 3});
  Bus::reset();
  Bus::device = &m;
  ASSERT_EQ(P::probe().status, pmu::Status::ok);
  for (unsigned n = 0; n < 4; ++n) EXPECT_EQ(m.selected_event(n), pmu::xscale::event::POWER_SAVE) << n;
  EXPECT_EQ(P::configure(1, {pmu::xscale::event::INSTR}), pmu::Status::ok);
  EXPECT_EQ(m.selected_event(0), pmu::xscale::event::INSTR);
  EXPECT_EQ(m.selected_event(1), pmu::xscale::event::POWER_SAVE);
  P::forget_probe();
  Bus::device = nullptr;
}
}  // namespace
