// pmu::e500::Driver against the behavioural model on a MockBus: register effects, statuses,
// access counts, and the end-to-end behaviour the manual promises (freeze, FCECE, chaining and
// the consistent chain read, thresholds, sampling every N events, absent PMU).
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

// --- overflow, sampling, FCECE --------------------------------------------------------------

struct Irq {
  unsigned calls = 0;
  static void count(void* p) { ++static_cast<Irq*>(p)->calls; }
};

TEST_F(e500Driver, SamplingPresetInterruptsAfterExactlyNEvents) {
  constexpr std::uint32_t N = 12345;
  Irq irq;
  model.on_interrupt(&Irq::count, &irq);
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::preset_for_sampling(0, N), Status::ok);
  EXPECT_EQ(model.pmc(0), 0x80000000u - N);
  Dr::set_overflow_interrupt(1, true);
  EXPECT_EQ(model.pmlca(0) & CE, CE);
  EXPECT_EQ(model.pmgc0() & PMIE, PMIE);
  Dr::start(1);
  model.event(2, N - 1);
  EXPECT_EQ(irq.calls, 0u);
  EXPECT_EQ(Dr::overflow_status(), 0u);
  model.event(2, 1);
  EXPECT_EQ(irq.calls, 1u);
  EXPECT_EQ(Dr::overflow_status(), 1u);
}

TEST_F(e500Driver, PresetForSamplingRejectsPeriodsTheCounterCannotHold) {
  EXPECT_EQ(Dr::preset_for_sampling(0, 0), Status::bad_argument);
  EXPECT_EQ(Dr::preset_for_sampling(4, 10), Status::bad_argument);
  EXPECT_EQ(Dr::preset_for_sampling(1, 0x80000001u), Status::bad_argument);
  EXPECT_EQ(Dr::preset_for_sampling(1, 0x80000000u), Status::ok);
  EXPECT_EQ(model.pmc(1), 0u);
}

// The interrupt handler a firmware would write: freeze, re-preset, acknowledge, release.
struct Sampling {
  std::uint32_t period;
  unsigned calls = 0;
  bool acknowledge = true;
  static void handler(void* p) {
    auto* s = static_cast<Sampling*>(p);
    ++s->calls;
    Dr::stop(1);
    Dr::write(0, 0x80000000u - s->period);
    if (s->acknowledge) Dr::clear_overflow(1);
    Dr::start(1);
  }
};

TEST_F(e500Driver, SamplingEveryNEventsRepeatsBecauseClearOverflowRearmsPmie) {
  Sampling s{1000};
  model.on_interrupt(&Sampling::handler, &s);
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::preset_for_sampling(0, s.period), Status::ok);
  Dr::set_overflow_interrupt(1, true);
  Dr::start(1);
  model.event(2, 10 * 1000 + 999);
  EXPECT_EQ(s.calls, 10u);
  EXPECT_EQ(Dr::read(0), 0x80000000u - 1000 + 999);
  EXPECT_FALSE(model.interrupt_storm());
}

TEST_F(e500Driver, WithoutAcknowledgeTheE500TakesOnlyOneInterrupt) {
  // Control for the test above: PMIE is cleared by the interrupt (Table 7-3) and nothing re-arms
  // it.
  Sampling s{1000};
  s.acknowledge = false;
  model.on_interrupt(&Sampling::handler, &s);
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::preset_for_sampling(0, s.period), Status::ok);
  Dr::set_overflow_interrupt(1, true);
  Dr::start(1);
  model.event(2, 10 * 1000);
  EXPECT_EQ(s.calls, 1u);
}

TEST_F(e500Driver, ClearOverflowClearsBit31AndKeepsTheLowBits) {
  Dr::reset();
  model.set_pmc(0, 0x00000042u);
  model.set_pmc(1, 0x80001234u);
  model.set_pmc(3, 0xFFFFFFFFu);
  EXPECT_EQ(Dr::overflow_status(), 0xAu);
  Bus::clear_log();
  Dr::clear_overflow(0x3);
  EXPECT_EQ(model.pmc(0), 0x42u);
  EXPECT_EQ(model.pmc(1), 0x00001234u);
  EXPECT_EQ(model.pmc(3), 0xFFFFFFFFu) << "not in the mask";
  EXPECT_EQ(Bus::count(pmu::Pmr<16>::key, MockOp::write), 0u) << "PMC0 had no overflow to clear";
  EXPECT_EQ(Bus::count(pmu::Pmr<17>::key, MockOp::write), 1u);
  EXPECT_EQ(Dr::overflow_status(), 0x8u);
  EXPECT_EQ(model.pmgc0() & PMIE, 0u) << "no CE on these counters: PMIE stays off";
}

TEST_F(e500Driver, ClearOverflowRearmsPmieOnlyForCountersWithConditionEnable) {
  Irq irq;
  model.on_interrupt(&Irq::count, &irq);
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::preset_for_sampling(0, 1), Status::ok);
  Dr::set_overflow_interrupt(1, true);
  Dr::start(1);
  model.event(2, 1);
  ASSERT_EQ(irq.calls, 1u);
  EXPECT_EQ(model.pmgc0() & PMIE, 0u) << "taken: hardware cleared PMIE";
  Dr::stop(1);
  Dr::write(0, 0x80000000u - 5);  // re-preset first, as the sampler does: bit 31 already clear
  Dr::clear_overflow(1);
  EXPECT_EQ(model.pmgc0() & PMIE, PMIE) << "acknowledge re-arms PMIE for a CE counter";
  Dr::set_overflow_interrupt(1, false);
  Dr::enable_interrupt(false);
  Dr::clear_overflow(1);
  EXPECT_EQ(model.pmgc0() & PMIE, 0u) << "no CE: nothing to re-arm";
  EXPECT_EQ(irq.calls, 1u);
}

TEST_F(e500Driver, FceceFreezesEveryCounterWhenTheSampledOneOverflows) {
  Irq irq;
  model.on_interrupt(&Irq::count, &irq);
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::configure(1, EventConfig{2, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::configure(2, EventConfig{1, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::preset_for_sampling(0, 500), Status::ok);
  Dr::set_overflow_interrupt(1, true);
  Dr::set_freeze_on_condition(true);
  Dr::start(0x7);
  model.event(2, 2000);
  model.cycles(50);
  EXPECT_TRUE(Dr::all_frozen());
  EXPECT_EQ(Dr::read(0), 0x80000000u);
  EXPECT_EQ(Dr::read(1), 500u);
  EXPECT_EQ(Dr::read(2), 0u);
  EXPECT_EQ(irq.calls, 1u);
}

// --- chaining -----------------------------------------------------------------------------

TEST_F(e500Driver, LinkProgramsTheChainEventOnTheHighCounter) {
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::configure(1, EventConfig{76, e5::threshold_qualifier(9, 1), e5::kFreezeUser}),
            Status::ok);
  Dr::set_overflow_interrupt(0x3, true);
  ASSERT_EQ(Dr::link(0, 1), Status::ok);
  EXPECT_EQ(model.pmlca(1), FC | CE | EV(82)) << "PMC0 overflow event, freeze conditions cleared";
  EXPECT_EQ(model.pmlcb(1), 0u);
  EXPECT_EQ(model.pmlca(0), FC | EV(2)) << "CE cleared on the chained counter (Table 7-4)";
  ASSERT_EQ(Dr::link(3, 2), Status::ok);
  EXPECT_EQ(model.pmlca(2) & 0x007F0000u, EV(85));
  EXPECT_EQ(Dr::link(1, 1), Status::not_linkable);
  EXPECT_EQ(Dr::link(4, 1), Status::bad_argument);
  EXPECT_EQ(Dr::link(0, 9), Status::bad_argument);
}

// Chained reads are the profiler's (one algorithm for every PMU): these run it on the e500
// driver and model.
struct ChainSetup {
  static inline prof::Profiler<Dr> p{};
  static inline prof::Counter lo{}, hi{};
  static void make(Model& m, std::uint32_t lo_value, std::uint32_t hi_value) {
    p.clear();
    Dr::reset();
    ASSERT_EQ(p.add_on(0, EventConfig{2, 0, 0}, lo), Status::ok);
    ASSERT_EQ(p.add_on(1, EventConfig{2, 0, 0}, hi), Status::ok);
    ASSERT_EQ(p.link(lo, hi), Status::ok);
    p.start();
    Dr::write(0, lo_value);
    Dr::write(1, hi_value);
    (void)m;
  }
};

TEST_F(e500Driver, ChainCountsPast32Bits) {
  ChainSetup::make(model, 0xFFFFFFF0u, 0);
  model.event(2, 0x30 + (5ull << 32));
  EXPECT_EQ(ChainSetup::p.read(ChainSetup::hi), (6ull << 32) + 0x20);
  EXPECT_EQ(Dr::overflow_status() & 0x2u, 0u);
  EXPECT_EQ(ChainSetup::p.link(ChainSetup::hi, ChainSetup::hi), Status::bad_argument);
  EXPECT_EQ(ChainSetup::p.link(ChainSetup::lo, prof::Counter{}), Status::bad_argument);
}

// A rollover of the low counter injected after access k of the read (k = 0: before it starts).
// The read must return the chain's value either just before or just after the rollover -
// whichever its final high/low/high triple saw - never a mix.
struct Rollover {
  Model* m;
  static void inject(void* p) { static_cast<Rollover*>(p)->m->event(2, 0x20); }
};

TEST_F(e500Driver, ChainReadIsExactWithARolloverInjectedAtEveryStep) {
  constexpr std::uint64_t kBefore = (7ull << 32) | 0xFFFFFFF0u;
  constexpr std::uint64_t kAfter = kBefore + 0x20;  // (8 << 32) | 0x10
  ChainSetup::make(model, 0xFFFFFFF0u, 7);
  Bus::clear_log();
  EXPECT_EQ(ChainSetup::p.read(ChainSetup::hi), kBefore);
  const unsigned n = static_cast<unsigned>(Bus::log_size);  // accesses of one untorn read
  ASSERT_GE(n, 3u);
  unsigned after = 0;
  for (unsigned k = 0; k <= n + 1; ++k) {
    SCOPED_TRACE(k);
    model.reset_registers();
    ChainSetup::make(model, 0xFFFFFFF0u, 7);
    Rollover r{&model};
    if (k == 0)
      Rollover::inject(&r);
    else
      model.after_access(k, &Rollover::inject, &r);
    const std::uint64_t v = ChainSetup::p.read(ChainSetup::hi);
    model.after_access(1, nullptr, nullptr);
    EXPECT_TRUE(v == kBefore || v == kAfter) << std::hex << v;
    if (k == 0) { EXPECT_EQ(v, kAfter); }
    if (k >= n) { EXPECT_EQ(v, kBefore) << "the read was over"; }
    after += v == kAfter;
  }
  EXPECT_GE(after, 2u) << "an injection inside the read must be seen by it";
  EXPECT_EQ(ChainSetup::p.read_giveups(), 0u);
}

TEST_F(e500Driver, ControlANaiveLowThenHighReadIsTornByTheSameInjection) {
  // Proves the injection above really lands inside the read: low then high, no retry.
  ChainSetup::make(model, 0xFFFFFFF0u, 7);
  Rollover r{&model};
  model.after_access(1, &Rollover::inject, &r);
  const std::uint64_t lo = Dr::read(0);
  const std::uint64_t hi = Dr::read(1);
  const std::uint64_t naive = (hi << 32) | lo;
  EXPECT_EQ(naive, (8ull << 32) | 0xFFFFFFF0u);
  EXPECT_NE(naive, (7ull << 32) | 0xFFFFFFF0u);
  EXPECT_NE(naive, (8ull << 32) | 0x10u);
}

TEST_F(e500Driver, ChainReadGivesUpAndCountsItWhenTheHighCounterNeverSettles) {
  ChainSetup::make(model, 0xFFFFFFF0u, 0);
  struct Ctx {
    Model* m;
    static void roll(void* p) {  // a rollover after every access, forever
      auto* c = static_cast<Ctx*>(p);
      c->m->set_pmc(0, 0xFFFFFFFFu);
      c->m->event(2, 1);
      c->m->after_access(1, &roll, p);
    }
  } ctx{&model};
  model.after_access(1, &Ctx::roll, &ctx);
  (void)ChainSetup::p.read(ChainSetup::hi);
  model.after_access(1, nullptr, nullptr);
  EXPECT_GE(ChainSetup::p.read_giveups(), 1u) << "bounded, and counted";
}

TEST_F(e500Driver, StoppedChainReadIsExact) {
  ChainSetup::make(model, 0xFFFFFFF0u, 3);
  model.event(2, 0x11);
  ChainSetup::p.stop();
  model.event(2, 0x100);  // frozen: not counted
  EXPECT_EQ(ChainSetup::p.read(ChainSetup::hi), (4ull << 32) | 0x1u);
}

// --- thresholds --------------------------------------------------------------------------

TEST_F(e500Driver, TwoCountersSampleTwoThresholdsOfTheSameEvent) {
  // CRM 7.6.2: event 76 on PMC0 and PMC1, each with its own threshold.
  Dr::reset();
  ASSERT_EQ(Dr::configure(0, EventConfig{76, e5::threshold_qualifier(10, 0), 0}),
            Status::ok);  // > 10
  ASSERT_EQ(Dr::configure(1, EventConfig{76, e5::threshold_qualifier(10, 2), 0}),
            Status::ok);  // > 40
  Dr::start(0x3);
  for (std::uint32_t d : {5u, 10u, 11u, 40u, 41u, 100u}) model.duration_event(76, d);
  EXPECT_EQ(Dr::read(0), 4u);
  EXPECT_EQ(Dr::read(1), 2u);
  ASSERT_EQ(Dr::set_threshold(1, 63, 7), Status::ok);  // 63 x 128 = 8064
  EXPECT_EQ(model.pmlcb(1), 0x73Fu);
  model.duration_event(76, 8064);
  model.duration_event(76, 8065);
  EXPECT_EQ(Dr::read(1), 3u);
}

TEST_F(e500Driver, ThresholdsAreRejectedWhereTheHardwareHasNone) {
  EXPECT_EQ(Dr::set_threshold(2, 1, 0), Status::unsupported_event) << "CRM 7.2.5: PMC0, PMC1 only";
  EXPECT_EQ(Dr::set_threshold(3, 1, 0), Status::unsupported_event);
  EXPECT_EQ(Dr::set_threshold(0, 64, 0), Status::bad_argument);
  EXPECT_EQ(Dr::set_threshold(0, 1, 8), Status::bad_argument);
  EXPECT_EQ(Dr::set_threshold(5, 1, 0), Status::bad_argument);
  EXPECT_EQ(Dr::configure(2, EventConfig{77, e5::threshold_qualifier(3, 0), 0}),
            Status::unsupported_event);
  EXPECT_EQ(Dr::configure(0, EventConfig{2, e5::threshold_qualifier(3, 0), 0}),
            Status::bad_argument);
  for (unsigned n = 0; n < 4; ++n) EXPECT_EQ(model.pmlcb(n), 0u);
}

// --- user copies --------------------------------------------------------------------------

TEST_F(e500Driver, UserCopiesAreReadOnlyTypesThatMirrorTheCounters) {
  static_assert(e5::UPMC<0>::access == pmu::Access::RO);
  static_assert(e5::UPMLCa<3>::access == pmu::Access::RO);
  static_assert(e5::UPMLCb<1>::access == pmu::Access::RO);
  static_assert(e5::UPMGC0::access == pmu::Access::RO);
  static_assert(decltype(e5::pmlca_fc<e5::UPMLCa0>)::access == pmu::Access::RO);
  // Writing any of them does not compile: see must_fail/ and the e500_must_not_compile_* tests.
  Dr::write(2, 99);
  EXPECT_EQ(R::read_raw<e5::UPMC<2>>(), 99u);
  ASSERT_EQ(Dr::configure(1, EventConfig{15, 0, e5::kFreezeSupervisor}), Status::ok);
  EXPECT_EQ(R::read(e5::pmlca_event<e5::UPMLCa1>), 15u);
  EXPECT_EQ(R::read(e5::pmlca_fcs<e5::UPMLCa1>), 1u);
}

}  // namespace

// CRM Table 7-3: taking the interrupt clears PMGC0[PMIE]. A PMGC0 read-modify-write that the
// interrupt splits would write the stale PMIE=1 back. Here the handler deliberately does not re-arm
// (it clears the condition and stops sampling), and an overflow condition appears after every
// single access of each PMGC0-updating call: PMIE must end clear, with exactly one interrupt.
namespace {
struct NoRearm {
  unsigned calls = 0;
  static void handler(void* ctx) {
    ++static_cast<NoRearm*>(ctx)->calls;
    e500Driver::Bus::write<pmu::Pmr<e5::kPmrPmc0>, u32>(0);  // acknowledge: bit 31 clear, no re-arm
  }
  static void overflow(void*) {  // software loads an overflowed value: a condition (CRM 7.4)
    e500Driver::Bus::write<pmu::Pmr<e5::kPmrPmc0>, u32>(0x80000000u);
  }
};
}  // namespace

TEST_F(e500Driver, NoPmgc0UpdateRevivesPmieThatTheInterruptCleared) {
  struct Op {
    const char* name;
    void (*run)();
    unsigned interrupts;  // disabling the interrupt may (only) win the race: then none is taken
  } const ops[] = {
      {"freeze_all", [] { Dr::freeze_all(); }, 1},
      {"unfreeze_all", [] { Dr::unfreeze_all(); }, 1},
      {"start from frozen", [] { Dr::start(0x2); }, 1},
      {"stop all", [] { Dr::stop(0xF); }, 1},
      {"set_freeze_on_condition", [] { Dr::set_freeze_on_condition(false); }, 1},
      {"enable_interrupt(false)", [] { Dr::enable_interrupt(false); }, 0},
  };
  for (const Op& op : ops) {
    auto arm = [&] {
      Dr::reset();
      ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
      ASSERT_EQ(Dr::configure(1, EventConfig{1, 0, 0}), Status::ok);
      Dr::set_overflow_interrupt(1, true);  // PMLCa0[CE] and PMGC0[PMIE]
    };
    arm();
    const std::uint64_t t0 = model.accesses();
    op.run();
    const unsigned n = static_cast<unsigned>(model.accesses() - t0);
    ASSERT_GT(n, 0u) << op.name;
    for (unsigned k = 1; k <= n; ++k) {
      NoRearm h;
      model.on_interrupt(&NoRearm::handler, &h);
      arm();
      model.after_access(k, &NoRearm::overflow, nullptr);
      op.run();
      model.after_access(1, nullptr, nullptr);
      EXPECT_EQ(h.calls, op.interrupts) << op.name << ", condition after access " << k;
      EXPECT_EQ(model.pmgc0() & 0x40000000u, 0u) << op.name << ": PMIE set again after access " << k;
      model.on_interrupt(nullptr, nullptr);
    }
  }
}

// --- the core (PVR) ----------------------------------------------------------------------------

TEST(e500Core, PvrVersionsNameTheCores) {
  EXPECT_EQ(e5::core_of_pvr(0x80200020u), e5::Core::e500v1);
  EXPECT_EQ(e5::core_of_pvr(0x80210030u), e5::Core::e500v2);  // QEMU mpc8544ds
  EXPECT_EQ(e5::core_of_pvr(0x80230010u), e5::Core::e500mc_or_later);
  EXPECT_EQ(e5::core_of_pvr(0x80240010u), e5::Core::e500mc_or_later);  // e5500
  EXPECT_EQ(e5::core_of_pvr(0x80400020u), e5::Core::e500mc_or_later);  // e6500
  EXPECT_EQ(e5::core_of_pvr(0x80220000u), e5::Core::unknown);
  EXPECT_EQ(e5::core_of_pvr(0x00040000u), e5::Core::unknown);
  EXPECT_EQ(e5::pvr_version.extract(0x80210030u), 0x8021u);
  EXPECT_EQ(e5::pvr_revision.extract(0x80210030u), 0x0030u);
}

TEST_F(e500Driver, ProbeRefusesE500mcAndLaterWithoutTouchingAPmr) {
  for (u32 pvr : {0x80230010u, 0x80240010u, 0x80400020u}) {
    model.set_pvr(pvr);
    Dr::force_core(e5::Core::unknown);
    Bus::clear_log();
    const pmu::ProbeResult r = Dr::probe();
    EXPECT_EQ(r.status, Status::unsupported_core) << std::hex << pvr;
    EXPECT_EQ(Dr::core(), e5::Core::e500mc_or_later);
    ASSERT_EQ(Bus::log_size, 1u);
    EXPECT_EQ(Bus::log[0].key, e5::PVR::location::key);
  }
  EXPECT_STREQ(pmu::status_name(Status::unsupported_core), "unsupported core");
}

TEST_F(e500Driver, OnE500v1TimeBaseBitsAreNeverWrittenAndEvent90IsRefused) {
  model.set_pvr(0x80200020u);
  model.set_cycles_per_access(1);
  ASSERT_EQ(Dr::probe().status, Status::ok);
  EXPECT_EQ(Dr::core(), e5::Core::e500v1);
  EXPECT_EQ(Dr::configure(0, EventConfig{90, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(Dr::select_event(1, 90), Status::unsupported_event);
  EXPECT_EQ(Dr::select_timebase_bit(1), Status::unsupported_core);
  // A whole session: every PMGC0 write leaves the reserved TBSEL/TBEE bits zero.
  ASSERT_EQ(Dr::configure(0, EventConfig{2, 0, 0}), Status::ok);
  Dr::set_overflow_interrupt(1, true);
  Dr::set_freeze_on_condition(true);
  Dr::start(1);
  model.event(2, 10);
  Dr::stop(0xF);
  Dr::freeze_all();
  Dr::unfreeze_all();
  Dr::reset();
  EXPECT_EQ(model.reserved_writes(), 0u);
  model.event(90, 5);
  EXPECT_EQ(model.pmc(0), 0u);
}

TEST_F(e500Driver, OnE500v2Event90CountsTheSelectedTimeBaseBit) {
  model.set_cycles_per_access(1);  // probe() needs its cycle counters to advance
  ASSERT_EQ(Dr::probe().status, Status::ok);  // the model's default PVR: e500v2
  EXPECT_EQ(Dr::core(), e5::Core::e500v2);
  Dr::reset();
  ASSERT_EQ(Dr::configure(3, EventConfig{90, 0, 0}), Status::ok);
  EXPECT_EQ(Dr::select_timebase_bit(4), Status::bad_argument);
  ASSERT_EQ(Dr::select_timebase_bit(2), Status::ok);  // TBL[19]
  EXPECT_EQ(model.pmgc0() & 0x00001800u, 0x00001000u);  // TBSEL = 0b10, manual bits 51-52
  model.set_cycles_per_access(0);
  Dr::start(0x8);
  model.event(90, 7);
  Dr::stop(0x8);
  EXPECT_EQ(Dr::read(3), 7u);
}

TEST_F(e500Driver, AForcedCoreOutlivesProbe) {
  model.set_pvr(0x80220000u);  // a version this driver does not list
  model.set_cycles_per_access(1);
  Dr::force_core(e5::Core::e500v2);
  ASSERT_EQ(Dr::probe().status, Status::ok);
  EXPECT_EQ(Dr::core(), e5::Core::e500v2);
  EXPECT_EQ(Dr::configure(0, EventConfig{90, 0, 0}), Status::ok);
  Dr::force_core(e5::Core::unknown);
  ASSERT_EQ(Dr::probe().status, Status::ok);
  EXPECT_EQ(Dr::core(), e5::Core::unknown);
  EXPECT_EQ(Dr::configure(0, EventConfig{90, 0, 0}), Status::unsupported_event);
}
