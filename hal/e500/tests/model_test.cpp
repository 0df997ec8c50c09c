// The e500 behavioural model (hal/e500/model.hpp) against the manual's rules, through raw
// mfpmr/mtpmr on a MockBus. Every expectation is a number the manual fixes; the driver is not used.
// Suite names start with "e500" (here and in the other files) so `ctest -R e500` selects them all.
#include <gtest/gtest.h>

#include <cstdint>

#include "e500_fixture.hpp"

namespace {
using namespace e500test;
using pmu::e500::Context;
using pmu::e500::Model;

struct ModelTag {};
struct e500Model : Fixture<ModelTag> {
  // PMC0..3 count `code` with no freeze condition; PMGC0 = pmgc0.
  void run_all(u32 code, u32 pmgc0 = 0) {
    mtpmr<144>(EV(code));
    mtpmr<145>(EV(code));
    mtpmr<146>(EV(code));
    mtpmr<147>(EV(code));
    mtpmr<400>(pmgc0);
  }
};

struct Counter {
  unsigned calls = 0;
  static void bump(void* p) { ++static_cast<Counter*>(p)->calls; }
};

TEST_F(e500Model, HardResetLeavesEveryRegisterZeroAndNothingCounts) {
  EXPECT_EQ(mfpmr<400>(), 0u);
  EXPECT_EQ(mfpmr<144>(), 0u);
  EXPECT_EQ(mfpmr<275>(), 0u);
  EXPECT_EQ(mfpmr<19>(), 0u);
  model.cycles(100);  // EVENT = 0 ("nothing") on every counter
  model.event(2, 100);
  for (unsigned n = 0; n < 4; ++n) EXPECT_EQ(model.pmc(n), 0u) << "PMC" << n;
}

TEST_F(e500Model, CountersAdvanceOnlyOnTheirSelectedEvent) {
  mtpmr<144>(EV(2));   // PMC0: instructions
  mtpmr<145>(EV(1));   // PMC1: cycles
  mtpmr<146>(EV(41));  // PMC2: D-L1 reloads
  model.event(2, 5);
  model.cycles(7);
  model.event(41, 3);
  model.event(60, 1000);  // nobody counts it
  EXPECT_EQ(mfpmr<16>(), 5u);
  EXPECT_EQ(mfpmr<17>(), 7u);
  EXPECT_EQ(mfpmr<18>(), 3u);
  EXPECT_EQ(mfpmr<19>(), 0u);
}

TEST_F(e500Model, GlobalFreezeFacStopsEveryCounter) {
  run_all(1, FAC);
  model.cycles(50);
  for (unsigned n = 0; n < 4; ++n) EXPECT_EQ(model.pmc(n), 0u);
  mtpmr<400>(0);
  model.cycles(50);
  for (unsigned n = 0; n < 4; ++n) EXPECT_EQ(model.pmc(n), 50u);
}

TEST_F(e500Model, PerCounterFreezeFcStopsOnlyThatCounter) {
  run_all(1);
  mtpmr<146>(FC | EV(1));
  model.cycles(9);
  EXPECT_EQ(model.pmc(0), 9u);
  EXPECT_EQ(model.pmc(1), 9u);
  EXPECT_EQ(model.pmc(2), 0u);
  EXPECT_EQ(model.pmc(3), 9u);
}

// CRM Table 7-8, row by row: which of the four processor states each FCS/FCU/FCM1/FCM0 setting
// counts in. Written from the table, not from the freeze formula.
struct StateRow {
  const char* name;
  u32 bits;
  bool sup_unmarked, sup_marked, user_unmarked, user_marked;
};
constexpr StateRow kTable7_8[] = {
    {"marked", FCM0, false, true, false, true},
    {"not marked", FCM1, true, false, true, false},
    {"supervisor", FCU, true, true, false, false},
    {"user", FCS, false, false, true, true},
    {"marked and supervisor", FCU | FCM0, false, true, false, false},
    {"marked and user", FCS | FCM0, false, false, false, true},
    {"not marked and supervisor", FCU | FCM1, true, false, false, false},
    {"not marked and user", FCS | FCM1, false, false, true, false},
    {"all", 0, true, true, true, true},
    {"none (FCM1, FCM0)", FCM1 | FCM0, false, false, false, false},
    {"none (FCS, FCU)", FCS | FCU, false, false, false, false},
    {"none (all four)", FCS | FCU | FCM1 | FCM0, false, false, false, false},
};

TEST_F(e500Model, FreezeByModeAndMarkFollowsTable7_8) {
  for (const StateRow& row : kTable7_8) {
    SCOPED_TRACE(row.name);
    mtpmr<144>(row.bits | EV(2));
    const struct {
      Context c;
      bool counts;
    } cases[] = {{kSup, row.sup_unmarked},
                 {kSupMarked, row.sup_marked},
                 {kUser, row.user_unmarked},
                 {kUserMarked, row.user_marked}};
    for (const auto& k : cases) {
      mtpmr<16>(0);
      model.event(2, 3, k.c);
      EXPECT_EQ(mfpmr<16>(), k.counts ? 3u : 0u) << "user=" << k.c.user << " mark=" << k.c.mark;
    }
  }
}

TEST_F(e500Model, OverflowInterruptAfterExactlyNEventsThenPmieIsCleared) {
  constexpr u32 N = 1000;
  Counter irq;
  model.on_interrupt(&Counter::bump, &irq);
  mtpmr<144>(CE | EV(2));
  mtpmr<16>(0x80000000u - N);
  mtpmr<400>(PMIE);
  model.event(2, N - 1);
  EXPECT_EQ(irq.calls, 0u);
  EXPECT_EQ(mfpmr<16>(), 0x7FFFFFFFu);
  model.event(2, 1);
  EXPECT_EQ(irq.calls, 1u);
  EXPECT_EQ(mfpmr<16>(), 0x80000000u);
  EXPECT_EQ(mfpmr<400>() & PMIE, 0u) << "Table 7-3: PMIE is cleared when the interrupt occurs";
  model.event(2, 10);
  EXPECT_EQ(irq.calls, 1u);
  mtpmr<400>(PMIE);  // the condition is still present: taken again at once
  EXPECT_EQ(irq.calls, 2u);
}

TEST_F(e500Model, NoInterruptWithoutConditionEnableOrPmie) {
  Counter irq;
  model.on_interrupt(&Counter::bump, &irq);
  mtpmr<144>(EV(2));  // CE = 0
  mtpmr<16>(0x7FFFFFFFu);
  mtpmr<400>(PMIE);
  model.event(2, 2);
  EXPECT_EQ(irq.calls, 0u);
  EXPECT_EQ(model.conditions(), 0u);
  mtpmr<400>(0);
  mtpmr<144>(CE | EV(2));  // condition now present, but PMIE = 0
  EXPECT_EQ(model.conditions(), 1u);
  model.event(2, 2);
  EXPECT_EQ(irq.calls, 0u);
}

TEST_F(e500Model, MsrEeHoldsTheInterruptUntilSet) {
  Counter irq;
  model.on_interrupt(&Counter::bump, &irq);
  model.set_ee(false);
  mtpmr<144>(CE | EV(2));
  mtpmr<16>(0x7FFFFFFFu);
  mtpmr<400>(PMIE);
  model.event(2, 1);
  EXPECT_EQ(irq.calls, 0u);
  model.set_ee(true);
  EXPECT_EQ(irq.calls, 1u);
}

TEST_F(e500Model, LoadingAnOverflowedValueInterruptsBeforeAnyEvent) {
  // CRM 7.2.7 NOTE: with PMIE and CE set, loading an overflowed value interrupts at once.
  Counter irq;
  model.on_interrupt(&Counter::bump, &irq);
  mtpmr<145>(CE | EV(2));
  mtpmr<400>(PMIE);
  mtpmr<17>(0x80000005u);
  EXPECT_EQ(irq.calls, 1u);
}

TEST_F(e500Model, FcecefreezesEveryCounterOnTheExactEvent) {
  mtpmr<144>(CE | EV(2));
  mtpmr<145>(EV(2));
  mtpmr<146>(EV(1));
  mtpmr<16>(0x80000000u - 16);
  mtpmr<400>(FCECE);
  model.event(2, 100);
  EXPECT_EQ(mfpmr<16>(), 0x80000000u);
  EXPECT_EQ(mfpmr<17>(), 16u) << "PMC1 must stop on the same event as PMC0";
  EXPECT_NE(mfpmr<400>() & FAC, 0u);
  model.cycles(5);
  EXPECT_EQ(mfpmr<18>(), 0u);
  // Without CE there is no enabled condition: FCECE does nothing.
  model.reset_registers();
  mtpmr<144>(EV(2));
  mtpmr<16>(0x80000000u - 16);
  mtpmr<400>(FCECE);
  model.event(2, 100);
  EXPECT_EQ(mfpmr<16>(), 0x80000000u - 16 + 100);
  EXPECT_EQ(mfpmr<400>() & FAC, 0u);
}

// Table 7-3, FCECE: the counters count "only until an enabled condition or event occurs", the
// condition being "msb = 1 in PMCx and PMLCax[CE] = 1", a state. While one exists FAC is set: a
// write that clears FAC does not release the counters, nor does FCECE set over an existing one.
TEST_F(e500Model, FceceKeepsFacSetWhileAnEnabledConditionExists) {
  mtpmr<144>(CE | EV(2));
  mtpmr<145>(EV(1));
  mtpmr<16>(0x80000000u - 1);
  mtpmr<400>(FCECE);
  model.event(2, 1);
  ASSERT_EQ(mfpmr<400>() & FAC, FAC);
  mtpmr<400>(FCECE);  // software clears FAC; PMC0 still has its condition
  EXPECT_EQ(mfpmr<400>() & FAC, FAC) << "the condition is a state: FAC is set again";
  model.cycles(10);
  model.event(2, 3);
  EXPECT_EQ(mfpmr<17>(), 0u);
  EXPECT_EQ(mfpmr<16>(), 0x80000000u);
  mtpmr<16>(7);       // the condition acknowledged
  mtpmr<400>(FCECE);  // now FAC stays clear
  model.cycles(10);
  EXPECT_EQ(mfpmr<17>(), 10u);
  // FCECE set while a condition already exists freezes at once.
  mtpmr<400>(0);
  mtpmr<16>(0x80000004u);
  model.cycles(5);
  EXPECT_EQ(mfpmr<17>(), 15u);
  mtpmr<400>(FCECE);
  EXPECT_EQ(mfpmr<400>() & FAC, FAC);
}

// Table 7-10's chaining events: event 82+n counts PMCn's most significant bit going from 1 to 0.
// Counting does that at the rollover to zero (CRM 7.6.1); so does a write that clears the bit.
TEST_F(e500Model, AWriteThatClearsTheMsbOfAChainSourceCountsOnItsChainedCounter) {
  mtpmr<144>(EV(2));
  mtpmr<145>(EV(82));  // PMC0 overflow
  mtpmr<16>(0x80000005u);
  EXPECT_EQ(mfpmr<17>(), 0u) << "the msb rising is no overflow event";
  mtpmr<16>(0x80000000u);
  EXPECT_EQ(mfpmr<17>(), 0u) << "the msb stays 1";
  mtpmr<16>(5);
  EXPECT_EQ(mfpmr<17>(), 1u) << "the msb fell: one PMC0 overflow event";
  model.event(2, 10);
  EXPECT_EQ(mfpmr<17>(), 1u);
  mtpmr<145>(FC | EV(82));  // a frozen chained counter counts nothing
  mtpmr<16>(0x80000000u);
  mtpmr<16>(0);
  EXPECT_EQ(mfpmr<17>(), 1u);
}

// CRM 9.3.2: the e500v2 counts "transitions of the TBL bit selected by PMGC0[TBSEL]. This count is
// enabled by setting PMGC0[TBEE]"; Table 7-3: TBSEL 00 TB[63], 01 TB[55], 10 TB[51], 11 TB[47],
// the event being that bit going from 0 to 1. Event 90, from the time base the caller keeps.
TEST_F(e500Model, Event90CountsZeroToOneTransitionsOfTheTbselBitWhileTbeeIsSet) {
  constexpr u32 TBEE = 0x00000100u;
  constexpr auto TBSEL = [](u32 v) { return v << 11; };  // manual bits 51-52
  mtpmr<144>(EV(90));
  mtpmr<400>(TBSEL(1));
  model.time_base(0, 5000);
  EXPECT_EQ(mfpmr<16>(), 0u) << "TBEE clear: not counted";
  mtpmr<400>(TBSEL(1) | TBEE);  // TB[55]: bit 8 rises at 256, 768, ... 4864
  model.time_base(0, 5000);
  EXPECT_EQ(mfpmr<16>(), 10u);
  model.time_base(5000, 5120);  // 5120 = 10 x 512: bit 8 fell, did not rise
  EXPECT_EQ(mfpmr<16>(), 10u);
  model.time_base(5120, 5376);  // 5376: bit 8 rises
  EXPECT_EQ(mfpmr<16>(), 11u);
  mtpmr<400>(TBSEL(0) | TBEE);  // TB[63], the least significant bit: every odd value
  model.time_base(5376, 5386);
  EXPECT_EQ(mfpmr<16>(), 16u);
  mtpmr<400>(TBSEL(3) | TBEE);  // TB[47]: bit 16
  mtpmr<16>(0);
  model.time_base(0, 0xFFFF);
  EXPECT_EQ(mfpmr<16>(), 0u);
  model.time_base(0xFFFF, 0x10000);
  EXPECT_EQ(mfpmr<16>(), 1u);
  mtpmr<400>(TBSEL(2) | TBEE);  // TB[51]: bit 12, 4096 then every 8192
  model.time_base(0x10000, 0x10000 + 3 * 8192);
  EXPECT_EQ(mfpmr<16>(), 4u);
  // e500v1 has no event 90 and no TBSEL/TBEE.
  model.set_pvr(0x80200020u);
  model.time_base(0, 1u << 20);
  EXPECT_EQ(mfpmr<16>(), 4u);
}

TEST_F(e500Model, ChainedCounterCountsRolloversToZeroOnly) {
  mtpmr<144>(EV(2));
  mtpmr<145>(EV(82));  // PMC0 overflow
  mtpmr<16>(0x7FFFFFF0u);
  model.event(2, 0x20);  // passes bit 31: not a rollover
  EXPECT_EQ(mfpmr<17>(), 0u);
  mtpmr<16>(0xFFFFFFF0u);
  model.event(2, 0x30);
  EXPECT_EQ(mfpmr<16>(), 0x20u);
  EXPECT_EQ(mfpmr<17>(), 1u);
  model.event(2, 3ull << 32);
  EXPECT_EQ(mfpmr<16>(), 0x20u);
  EXPECT_EQ(mfpmr<17>(), 4u);
}

TEST_F(e500Model, ChainsPropagateThroughThreeCounters) {
  mtpmr<144>(EV(1));
  mtpmr<145>(EV(82));  // counts PMC0 rollovers
  mtpmr<146>(EV(83));  // counts PMC1 rollovers
  mtpmr<16>(0xFFFFFFFFu);
  mtpmr<17>(0xFFFFFFFFu);
  model.cycles(1);
  EXPECT_EQ(mfpmr<16>(), 0u);
  EXPECT_EQ(mfpmr<17>(), 0u);
  EXPECT_EQ(mfpmr<18>(), 1u);
}

TEST_F(e500Model, ChainedCounterObeysItsOwnFreezeConditions) {
  mtpmr<144>(EV(2));
  mtpmr<145>(FCU | EV(82));  // chained counter frozen in user state
  mtpmr<16>(0xFFFFFFFFu);
  model.event(2, 1, kUser);  // PMC0 rolls over in user state: PMC1 frozen there
  EXPECT_EQ(mfpmr<17>(), 0u);
  mtpmr<16>(0xFFFFFFFFu);
  model.event(2, 1, kSup);
  EXPECT_EQ(mfpmr<17>(), 1u);
}

TEST_F(e500Model, ThresholdCountsOnlyDurationsAboveThresholdTimesMultiple) {
  mtpmr<144>(EV(76));
  mtpmr<272>(10 | (2u << 8));  // 10 x 4 = 40
  mtpmr<145>(EV(76));          // threshold 0: everything longer than 0
  mtpmr<146>(EV(76));          // PMC2 has no event 76 (C0:76, C1:76 only)
  mtpmr<274>(0);
  model.duration_event(76, 40);
  EXPECT_EQ(mfpmr<16>(), 0u) << "equal to the threshold is not 'exceeds'";
  model.duration_event(76, 41);
  EXPECT_EQ(mfpmr<16>(), 1u);
  model.duration_event(76, 0);
  EXPECT_EQ(mfpmr<17>(), 2u);
  EXPECT_EQ(mfpmr<18>(), 0u);
  model.event(76, 100);  // no duration: never counted
  EXPECT_EQ(mfpmr<16>(), 1u);
  EXPECT_EQ(mfpmr<17>(), 2u);
}

TEST_F(e500Model, ThresholdMultiplierIsAPowerOfTwoForEveryEncoding) {
  mtpmr<144>(EV(77));
  for (u32 mul = 0; mul < 8; ++mul) {
    SCOPED_TRACE(mul);
    mtpmr<272>(3 | (mul << 8));
    const u32 limit = 3u << mul;  // Table 7-5: 000 x1 ... 111 x128
    mtpmr<16>(0);
    model.duration_event(77, limit);
    EXPECT_EQ(mfpmr<16>(), 0u);
    model.duration_event(77, limit + 1);
    EXPECT_EQ(mfpmr<16>(), 1u);
  }
}

TEST_F(e500Model, UserCopiesMirrorTheSupervisorRegistersAndRejectWrites) {
  mtpmr<18>(123);
  mtpmr<145>(FCS | CE | EV(15));
  mtpmr<272>(0x305);
  mtpmr<400>(FCECE | PMIE);
  EXPECT_EQ(mfpmr<2>(), 123u);
  EXPECT_EQ(mfpmr<129>(), FCS | CE | EV(15));
  EXPECT_EQ(mfpmr<256>(), 0x305u);
  EXPECT_EQ(mfpmr<384>(), FCECE | PMIE);
  EXPECT_TRUE(mtpmr_traps<2>(7));
  EXPECT_TRUE(mtpmr_traps<129>(0));
  EXPECT_TRUE(mtpmr_traps<256>(0));
  EXPECT_TRUE(mtpmr_traps<384>(0));
  EXPECT_EQ(model.pmc(2), 123u);
  EXPECT_EQ(model.pmlca(1), FCS | CE | EV(15));
  EXPECT_EQ(model.pmgc0(), FCECE | PMIE);
  EXPECT_EQ(Bus::unexpected_traps, 0u);
  mtpmr<0>(1);  // not under a probe: the mock counts it as an unexpected trap
  EXPECT_EQ(Bus::unexpected_traps, 1u);
}

TEST_F(e500Model, UserModeCanReadOnlyTheCopies) {
  model.set_user_access(true);
  EXPECT_TRUE(mfpmr_traps<16>());
  EXPECT_TRUE(mfpmr_traps<400>());
  EXPECT_TRUE(mtpmr_traps<16>(1));
  EXPECT_FALSE(mfpmr_traps<0>());
  EXPECT_FALSE(mfpmr_traps<384>());
}

TEST_F(e500Model, ReservedBitsReadAsZero) {
  mtpmr<400>(0xFFFFFFFFu);
  mtpmr<400>(0xFFFFFFFFu & ~PMIE);  // avoid taking interrupts: just the layout
  EXPECT_EQ(mfpmr<400>(), 0xA0001900u);
  mtpmr<147>(0xFFFFFFFFu);
  EXPECT_EQ(mfpmr<147>(), 0xFC7F0000u);
  mtpmr<275>(0xFFFFFFFFu);
  EXPECT_EQ(mfpmr<275>(), 0x0000073Fu);
}

TEST_F(e500Model, UndefinedPmrNumbersTrap) {
  EXPECT_TRUE(mfpmr_traps<20>());
  EXPECT_TRUE(mfpmr_traps<148>());
  EXPECT_TRUE(mfpmr_traps<401>());
  EXPECT_TRUE(mtpmr_traps<276>(0));
  EXPECT_FALSE(mfpmr_traps<19>());
}

TEST_F(e500Model, AbsentModeTrapsEveryAccessLikeQemu) {
  model.set_absent(true);
  EXPECT_TRUE(mfpmr_traps<400>());
  EXPECT_TRUE(mfpmr_traps<16>());
  EXPECT_TRUE(mfpmr_traps<0>());
  EXPECT_TRUE(mtpmr_traps<16>(5));
  EXPECT_EQ(model.pmc(0), 0u);
  ASSERT_EQ(Bus::log_size, 4u);
  for (std::size_t i = 0; i < Bus::log_size; ++i) EXPECT_TRUE(Bus::log[i].trapped);
}

TEST_F(e500Model, HookRunsOnceRightAfterTheNthAccess) {
  mtpmr<144>(EV(2));
  struct Ctx {
    Model* m;
    static void inject(void* p) { static_cast<Ctx*>(p)->m->event(2, 10); }
  } ctx{&model};
  model.after_access(2, &Ctx::inject, &ctx);
  EXPECT_EQ(mfpmr<16>(), 0u);   // access 1
  EXPECT_EQ(mfpmr<16>(), 0u);   // access 2: the hook runs after it
  EXPECT_EQ(mfpmr<16>(), 10u);  // access 3
  EXPECT_EQ(mfpmr<16>(), 10u);  // one-shot
}

TEST_F(e500Model, CyclesPerAccessModelsTimePassing) {
  mtpmr<144>(EV(1));
  model.set_cycles_per_access(3);
  EXPECT_EQ(mfpmr<16>(), 0u);
  EXPECT_EQ(mfpmr<16>(), 3u);
  EXPECT_EQ(mfpmr<16>(), 6u);
}

TEST_F(e500Model, HandlerRunsWithInterruptsOffAndCanRearm) {
  // A handler that re-arms PMIE without clearing the condition is re-entered after it returns,
  // never nested inside itself; a handler that never clears it is flagged as a storm.
  struct Ctx {
    Model* m;
    unsigned depth = 0, max_depth = 0, calls = 0;
    static void handler(void* p) {
      auto* c = static_cast<Ctx*>(p);
      ++c->calls;
      if (++c->depth > c->max_depth) c->max_depth = c->depth;
      if (c->calls < 3) mtpmr<400>(PMIE);  // re-arm; condition still present
      --c->depth;
    }
  } ctx{&model};
  model.on_interrupt(&Ctx::handler, &ctx);
  mtpmr<144>(CE | EV(2));
  mtpmr<16>(0x7FFFFFFFu);
  mtpmr<400>(PMIE);
  model.event(2, 1);
  EXPECT_EQ(ctx.calls, 3u);
  EXPECT_EQ(ctx.max_depth, 1u);
  EXPECT_FALSE(model.interrupt_storm());
}

}  // namespace

namespace {
using namespace e500test;
using pmu::e500::ChainReading;
using pmu::e500::FreezeReading;
using pmu::e500::Readings;

// The model's switches: the other reading of each rule (hal/e500/README.md).
struct OtherReadingsTag {};
using e500ModelOtherReadings =
    Fixture<OtherReadingsTag, Readings{FreezeReading::when_condition_appears, ChainReading::counting_rollover}>;

TEST_F(e500ModelOtherReadings, FceceReadAsAnEdgeFreezesOnlyWhenAConditionAppears) {
  mtpmr<144>(CE | EV(2));
  mtpmr<145>(EV(1));
  mtpmr<16>(0x80000000u - 1);
  mtpmr<400>(FCECE);
  model.event(2, 1);
  ASSERT_EQ(mfpmr<400>() & FAC, FAC);
  mtpmr<400>(FCECE);  // cleared while the condition exists: the counters run on
  model.cycles(10);
  EXPECT_EQ(mfpmr<400>() & FAC, 0u);
  EXPECT_EQ(mfpmr<17>(), 10u);
}

TEST_F(e500ModelOtherReadings, ChainEventsReadAsRolloversIgnoreAWriteThatClearsTheMsb) {
  mtpmr<144>(EV(2));
  mtpmr<145>(EV(82));
  mtpmr<16>(0x80000005u);
  mtpmr<16>(5);
  EXPECT_EQ(mfpmr<17>(), 0u);
  mtpmr<16>(0xFFFFFFFFu);
  model.event(2, 1);
  EXPECT_EQ(mfpmr<17>(), 1u) << "a counting rollover still counts";
}

}  // namespace
