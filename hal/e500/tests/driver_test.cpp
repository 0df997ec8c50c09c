// pmu::e500::Driver against the behavioural model on a MockBus: register effects, statuses,
// access counts, and the end-to-end behaviour the manual promises: this half reads, writes, the
// probe (absent PMU), configuration, freeze and events; driver_overflow_test.cpp the rest.
#include <gtest/gtest.h>

#include <cstdint>

#include "e500_fixture.hpp"
#include "hal/e500/events.hpp"
#include "profiler/profiler.hpp"

namespace {
using namespace e500test;
using pmu::EventConfig;
using pmu::MockOp;
using pmu::Status;
using pmu::e500::Model;
namespace e5 = pmu::e500;

struct DriverTag {};
struct e500Driver : Fixture<DriverTag> {};
using Dr = e500Driver::D;

static_assert(prof::Backend<Dr>, "the e500 driver must satisfy the profiler's Backend contract");
static_assert(prof::Backend<e5::Driver<pmu::MockBus<struct OtherTag>>>);

TEST(e500DriverStatic, DescribesTheHardware) {
  EXPECT_EQ(Dr::kSlots, 4u);
  for (unsigned s = 0; s < 4; ++s) EXPECT_EQ(Dr::width(s), 31u);
  EXPECT_EQ(Dr::kLink, pmu::LinkKind::chain);
  EXPECT_STREQ(Dr::catalog.id, "e500");
  EXPECT_EQ(Dr::slots_for(1), 0xFu);
  EXPECT_EQ(Dr::slots_for(76), 0x3u);
  EXPECT_EQ(Dr::slots_for(81), 0x3u);
  EXPECT_EQ(Dr::slots_for(82), 0xFu);
  EXPECT_EQ(Dr::slots_for(90), 0xFu);  // e500v2 only: configure() checks the core
  EXPECT_EQ(Dr::slots_for(91), 0u);
  EXPECT_EQ(Dr::slots_for(128), 0u);
}

// --- read<Slot>() and read(slot): one mfpmr each ---------------------------------------------

template <unsigned S>
void expect_one_mfpmr(e500Driver&, Model& m) {
  using Bus = e500Driver::Bus;
  m.set_pmc(S, 0x1234500u + S);
  Bus::clear_log();
  const std::uint64_t v = Dr::read<S>();
  EXPECT_EQ(v, 0x1234500u + S);
  ASSERT_EQ(Bus::log_size, 1u);
  EXPECT_EQ(Bus::log[0].key, pmu::Pmr<16 + S>::key);
  EXPECT_EQ(Bus::log[0].op, MockOp::read);
  Bus::clear_log();
  EXPECT_EQ(Dr::read(S), 0x1234500u + S);
  ASSERT_EQ(Bus::log_size, 1u);
  EXPECT_EQ(Bus::log[0].key, pmu::Pmr<16 + S>::key);
}

TEST_F(e500Driver, ReadOfOneSlotIsExactlyOneMfpmrOfItsPmc) {
  expect_one_mfpmr<0>(*this, model);
  expect_one_mfpmr<1>(*this, model);
  expect_one_mfpmr<2>(*this, model);
  expect_one_mfpmr<3>(*this, model);
  Bus::clear_log();
  EXPECT_EQ(Dr::read(4), 0u);
  EXPECT_EQ(Bus::log_size, 0u) << "an invalid slot touches nothing";
}

TEST_F(e500Driver, WriteIsExactlyOneMtpmrAndKeepsAll32Bits) {
  Bus::clear_log();
  Dr::write(2, 0x1FFFFFFFFull);
  ASSERT_EQ(Bus::log_size, 1u);
  EXPECT_EQ(Bus::log[0].key, pmu::Pmr<18>::key);
  EXPECT_EQ(Bus::log[0].op, MockOp::write);
  EXPECT_EQ(model.pmc(2), 0xFFFFFFFFu);
}

// --- probe -----------------------------------------------------------------------------------

TEST_F(e500Driver, ProbeReportsAbsentWhenEveryMfpmrTrapsAsOnQemu) {
  model.set_absent(true);
  const pmu::ProbeResult r = Dr::probe();
  EXPECT_EQ(r.status, Status::pmu_absent);
  EXPECT_EQ(r.working_slots, 0u);
  EXPECT_EQ(Bus::unexpected_traps, 0u) << "every trap happened inside fault::traps()";
  ASSERT_EQ(Bus::log_size, 2u) << "PVR, then stop after the first trapping mfpmr";
  EXPECT_EQ(Bus::log[0].key, e5::PVR::location::key);
  EXPECT_TRUE(Bus::log[1].trapped);
  EXPECT_EQ(Bus::log[1].key, pmu::Pmr<400>::key);
}

TEST_F(e500Driver, ProbeFindsFourAdvancingCountersAndLeavesThePmuResetAndFrozen) {
  model.set_cycles_per_access(1);
  model.set_pmc(2, 77);
  const pmu::ProbeResult r = Dr::probe();
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.working_slots, 0xFu);
  EXPECT_EQ(Bus::unexpected_traps, 0u);
  EXPECT_EQ(model.pmgc0(), FAC);
  for (unsigned n = 0; n < 4; ++n) {
    EXPECT_EQ(model.pmlca(n), FC) << n;
    EXPECT_EQ(model.pmlcb(n), 0u) << n;
    EXPECT_EQ(model.pmc(n), 0u) << n;
  }
}

TEST_F(e500Driver, ProbeOfAnInertPmuThatNeverCountsReportsAbsent) {
  const pmu::ProbeResult r = Dr::probe();  // registers exist, nothing ever advances
  EXPECT_EQ(r.status, Status::pmu_absent);
  EXPECT_EQ(r.working_slots, 0u);
}

TEST_F(e500Driver, ProbeReportsOnlyTheCountersThatAdvanced) {
  // A part where PMC3 never counts: the test's hook keeps forcing it back to zero.
  model.set_cycles_per_access(1);
  struct Ctx {
    Model* m;
    static void zero3(void* p) {
      auto* c = static_cast<Ctx*>(p);
      c->m->set_pmc(3, 0);
      c->m->after_access(1, &zero3, p);
    }
  } ctx{&model};
  model.after_access(1, &Ctx::zero3, &ctx);
  const pmu::ProbeResult r = Dr::probe();
  model.after_access(1, nullptr, nullptr);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.working_slots, 0x7u);
}

// --- configure -----------------------------------------------------------------------------

TEST_F(e500Driver, ConfigureProgramsPmlcaAndPmlcbAndLeavesTheCounterFrozen) {
  model.set_pmc(1, 55);
  ASSERT_EQ(Dr::configure(1, EventConfig{15, 0, e5::kFreezeUser | e5::kFreezeMarked}), Status::ok);
  EXPECT_EQ(model.pmlca(1), FC | FCU | FCM1 | EV(15));
  EXPECT_EQ(model.pmlcb(1), 0u);
  EXPECT_EQ(model.pmc(1), 55u) << "configure does not touch the counter";
  ASSERT_EQ(Dr::configure(0, EventConfig{76, e5::threshold_qualifier(5, 3), 0}), Status::ok);
  EXPECT_EQ(model.pmlca(0), FC | EV(76));
  EXPECT_EQ(model.pmlcb(0), 0x305u);
  Bus::clear_log();
  ASSERT_EQ(Dr::configure(3, EventConfig{2, 0, 0}), Status::ok);
  EXPECT_EQ(Bus::count(pmu::Pmr<147>::key, MockOp::write), 1u);
  EXPECT_EQ(Bus::count(pmu::Pmr<275>::key, MockOp::write), 1u);
  EXPECT_EQ(count_ops(MockOp::write), 2u);
}

// configure<Slot, Ev>(): the same registers as configure(), without the run-time event check.
TEST_F(e500Driver, CompileTimeConfigureProgramsWhatConfigureProgramsAndRefusesWhenCounting) {
  constexpr EventConfig kCfg{76, e5::threshold_qualifier(5, 3), e5::kFreezeUser};
  Bus::clear_log();
  ASSERT_EQ((Dr::configure<0, kCfg>()), Status::ok);
  EXPECT_EQ(model.pmlca(0), FC | FCU | EV(76));
  EXPECT_EQ(model.pmlcb(0), 0x305u);
  EXPECT_EQ(count_ops(MockOp::write), 2u);
  Dr::start(1u);
  model.cycles(1);  // counting a real event now
  EXPECT_EQ((Dr::configure<0, kCfg>()), Status::busy);
}

TEST_F(e500Driver, ConfigureRejectsWhatTheHardwareCannotDoAndTouchesNothing) {
  const struct {
    unsigned slot;
    EventConfig ev;
    Status want;
    const char* why;
  } cases[] = {
      {4, {1, 0, 0}, Status::bad_argument, "slot out of range"},
      {0, {200, 0, 0}, Status::unsupported_event, "no such event (EVENT is 7 bits)"},
      {0, {91, 0, 0}, Status::unsupported_event, "not in the e500 table"},
      {2, {76, 0, 0}, Status::unsupported_event, "threshold event on PMC2 (C0/C1 only)"},
      {3,
       {81, e5::threshold_qualifier(1, 0), 0},
       Status::unsupported_event,
       "threshold event on PMC3"},
      {0,
       {1, e5::threshold_qualifier(5, 0), 0},
       Status::bad_argument,
       "threshold on a non-threshold event"},
      {2, {41, 1, 0}, Status::bad_argument, "threshold on PMC2's non-threshold event"},
      {0, {76, 0x800, 0}, Status::bad_argument, "qualifier bits outside THRESHOLD|THRESHMUL"},
      {0, {76, 0x40, 0}, Status::bad_argument, "THRESHOLD is 6 bits"},
      {0, {1, 0, 0x1}, Status::bad_argument, "options outside the freeze conditions"},
      {0, {1, 0, 0x80000000u}, Status::bad_argument, "FC is not a freeze condition option"},
      {0, {1, 0, 0x04000000u}, Status::bad_argument, "CE is not an option"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.why);
    Bus::clear_log();
    EXPECT_EQ(Dr::configure(c.slot, c.ev), c.want);
    EXPECT_EQ(count_ops(MockOp::write), 0u);
    EXPECT_EQ(Dr::check_event(c.slot, c.ev), c.want);
  }
  for (unsigned n = 0; n < 4; ++n) EXPECT_EQ(model.pmlca(n), 0u);
}

TEST_F(e500Driver, ConfigureOfACountingSlotIsBusyUntilStopped) {
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{1, 0, 0}), Status::ok);
  Dr::start(1);
  EXPECT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::busy);
  EXPECT_EQ(model.pmlca(0), EV(1));
  Dr::stop(1);
  EXPECT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  // Straight out of hard reset every counter has FC=0 but EVENT=0 ("nothing"): not busy.
  model.reset_registers();
  EXPECT_EQ(Dr::configure(1, EventConfig{2, 0, 0}), Status::ok);
}

// --- start / stop / freeze ------------------------------------------------------------------

TEST_F(e500Driver, CountsOnlyBetweenStartAndStop) {
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  model.event(2, 10);
  EXPECT_EQ(Dr::read(0), 0u);
  Dr::start(1);
  model.event(2, 10);
  EXPECT_EQ(Dr::read(0), 10u);
  Dr::stop(1);
  model.event(2, 10);
  EXPECT_EQ(Dr::read(0), 10u);
}

TEST_F(e500Driver, StartFromGlobalFreezeReleasesAllSlotsOnTheSameEvent) {
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::configure(1, EventConfig{2, 0, 0}), Status::ok);
  // An event lands right after PMC0's FC is cleared: FAC still holds both counters.
  struct Ctx {
    Model* m;
    static void inject(void* p) { static_cast<Ctx*>(p)->m->event(2, 1); }
  } ctx{&model};
  Bus::clear_log();
  model.after_access(3, &Ctx::inject, &ctx);  // PMGC0 read, PMLCa0 read, PMLCa0 write
  Dr::start(0x3);
  EXPECT_EQ(model.pmc(0), 0u);
  EXPECT_EQ(model.pmc(1), 0u);
  EXPECT_EQ(model.pmgc0() & FAC, 0u);
  const std::size_t last_write = Bus::log_size - 1;
  EXPECT_EQ(Bus::log[last_write].key, pmu::Pmr<400>::key) << "FAC is released last";
  model.event(2, 4);
  EXPECT_EQ(model.pmc(0), 4u);
  EXPECT_EQ(model.pmc(1), 4u);
}

TEST_F(e500Driver, StopOfAllSlotsFreezesThemTogetherWithFac) {
  Dr::reset();
  for (unsigned s = 0; s < 4; ++s) ASSERT_EQ(Dr::configure(s, EventConfig{1, 0, 0}), Status::ok);
  Dr::start(0xF);
  Bus::clear_log();
  Dr::stop(0xF);
  ASSERT_GE(Bus::log_size, 2u);
  EXPECT_EQ(find_in_log(400, MockOp::write), 1u) << "PMGC0 read, then FAC set before any FC";
  EXPECT_NE(model.pmgc0() & FAC, 0u);
  for (unsigned n = 0; n < 4; ++n) EXPECT_NE(model.pmlca(n) & FC, 0u);
  model.cycles(5);
  for (unsigned n = 0; n < 4; ++n) EXPECT_EQ(model.pmc(n), 0u);
}

TEST_F(e500Driver, GlobalFreezeAndUnfreezeUseFac) {
  Dr::reset();
  ASSERT_EQ(Dr::configure(2, EventConfig{1, 0, 0}), Status::ok);
  Dr::start(4);
  EXPECT_FALSE(Dr::all_frozen());
  model.cycles(3);
  Dr::freeze_all();
  EXPECT_TRUE(Dr::all_frozen());
  model.cycles(3);
  EXPECT_EQ(Dr::read(2), 3u);
  Dr::unfreeze_all();
  model.cycles(3);
  EXPECT_EQ(Dr::read(2), 6u);
  EXPECT_EQ(Dr::freeze_counter(2, true), Status::ok);
  model.cycles(3);
  EXPECT_EQ(Dr::read(2), 6u);
  EXPECT_EQ(Dr::freeze_counter(4, true), Status::bad_argument);
}

TEST_F(e500Driver, FreezeConditionsSelectProcessorStateAndMark) {
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, e5::kFreezeSupervisor}), Status::ok);  // user only
  ASSERT_EQ(Dr::configure(1, EventConfig{2, 0, e5::kFreezeUnmarked}), Status::ok);    // marked only
  ASSERT_EQ(Dr::configure(2, EventConfig{2, 0, e5::kFreezeUser | e5::kFreezeMarked}), Status::ok);
  Dr::start(0x7);
  model.event(2, 1, kSup);
  model.event(2, 10, kSupMarked);
  model.event(2, 100, kUser);
  model.event(2, 1000, kUserMarked);
  EXPECT_EQ(Dr::read(0), 1100u);
  EXPECT_EQ(Dr::read(1), 1010u);
  EXPECT_EQ(Dr::read(2), 1u) << "supervisor, not marked";
  ASSERT_EQ(Dr::set_freeze_conditions(2, 0), Status::ok);
  model.event(2, 5, kUserMarked);
  EXPECT_EQ(Dr::read(2), 6u);
  EXPECT_EQ(Dr::set_freeze_conditions(2, FC), Status::bad_argument);
  EXPECT_EQ(model.pmlca(2) & FC, 0u);
}

TEST_F(e500Driver, SelectEventKeepsTheOtherControlBits) {
  Dr::reset();
  ASSERT_EQ(Dr::configure(1, EventConfig{2, 0, e5::kFreezeUser}), Status::ok);
  Dr::set_overflow_interrupt(2, true);
  ASSERT_EQ(Dr::select_event(1, 41), Status::ok);
  EXPECT_EQ(model.pmlca(1), FC | FCU | CE | EV(41));
  EXPECT_EQ(Dr::select_event(2, 77), Status::unsupported_event);
  EXPECT_EQ(Dr::select_event(1, 127), Status::unsupported_event);
}

// Overflow, sampling, FCECE, chaining, thresholds: driver_overflow_test.cpp.

}  // namespace

