// pmu::e500::Driver against the behavioural model, second half (split for build parallelism):
// overflow and sampling (PMIE, FCECE, the interrupt), chaining and its consistent read,
// thresholds, user-mode copies, and the core-version rules.
#include <gtest/gtest.h>

#include <cstdint>

#include "e500_fixture.hpp"
#include "hal/e500/events.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

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

// CRM 9.3.2: the e500v2 counts "transitions of the TBL bit selected by PMGC0[TBSEL]. This count is
// enabled by setting PMGC0[TBEE]". With the model's time base moving, event 90 counts TB[55]'s
// 0-to-1 transitions (TBSEL 01, Table 7-3) once enable_timebase_event has set TBEE, not before.
TEST_F(e500Driver, OnE500v2Event90CountsTbselTransitionsOnlyOnceTbeeIsSet) {
  model.set_cycles_per_access(1);
  ASSERT_EQ(Dr::probe().status, Status::ok);
  model.set_cycles_per_access(0);
  ASSERT_EQ(Dr::configure(3, EventConfig{90, 0, 0}), Status::ok);
  ASSERT_EQ(Dr::select_timebase_bit(1), Status::ok);
  Dr::start(0x8);
  model.time_base(0, 5000);
  EXPECT_EQ(Dr::read(3), 0u) << "TBEE clear: nothing is signalled";
  ASSERT_EQ(Dr::enable_timebase_event(true), Status::ok);
  EXPECT_EQ(model.pmgc0() & 0x00000100u, 0x00000100u) << "TBEE, manual bit 55";
  model.time_base(5000, 10000);  // TB[55] rises at 5376, 5888, ... 9984
  EXPECT_EQ(Dr::read(3), 10u);
  ASSERT_EQ(Dr::enable_timebase_event(false), Status::ok);
  model.time_base(10000, 20000);
  EXPECT_EQ(Dr::read(3), 10u);
  Dr::force_core(e5::Core::e500v1);
  EXPECT_EQ(Dr::enable_timebase_event(true), Status::unsupported_core);
  EXPECT_EQ(model.reserved_writes(), 0u);
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

// --- the manual's readings and the other ones (hal/e500/README.md) ---------------------------

namespace {
using namespace e500test;
using pmu::EventConfig;
using pmu::Status;
using pmu::e500::ChainReading;
using pmu::e500::FreezeReading;
using pmu::e500::Readings;

// Table 7-3: under FCECE the counters count "only until an enabled condition or event occurs", the
// condition being "msb = 1 in PMCx and PMLCax[CE] = 1". Silicon may re-freeze while it exists (the
// manual's state) or freeze only when it appears; the freeze must hold until the condition is
// acknowledged under both. Here a Sampler's counter reaches its condition with the interrupt held
// off (MSR[EE] clear); a fold of another counter in the meantime (its stop and start) and an
// unfreeze_all() must not let the counters run past the sample; the interrupt then takes the sample
// and every counter goes on, exactly.
template <class F>
void fcece_freeze_holds_until_the_condition_is_acknowledged(F& f) {
  using D = typename F::D;
  static prof::Profiler<D> p;
  static prof::SampleRing<16> ring;
  static prof::Sampler<D, prof::SampleRing<16>> s{p, ring};
  p.clear();
  ring = {};
  D::reset();
  prof::Counter ev, other, cyc;
  ASSERT_EQ(p.add_on(0, EventConfig{2, 0, 0}, ev), Status::ok);
  ASSERT_EQ(p.add_on(1, EventConfig{2, 0, 0}, other), Status::ok);
  ASSERT_EQ(p.add_on(2, EventConfig{1, 0, 0}, cyc), Status::ok);
  f.model.on_interrupt([](void*) { s.on_pmu_interrupt(0x1000, 0x2000); }, nullptr);
  D::set_freeze_on_condition(true);
  f.model.set_ee(false);
  p.start();
  ASSERT_EQ(s.arm(ev, 500), Status::ok);
  D::write(1, 0x80000000u - 300);  // passes bit 31 (no CE: nothing but a fold to do) before the freeze
  f.model.event(2, 600);            // the 500th freezes everything
  ASSERT_TRUE(D::all_frozen());
  D::unfreeze_all();
  f.model.cycles(20);
  EXPECT_TRUE(D::all_frozen()) << "FCECE holds while the condition exists";
  EXPECT_EQ(p.fold(), 0x2u) << "the other counter's bit 31";
  f.model.cycles(50);
  f.model.event(2, 10);
  EXPECT_TRUE(D::all_frozen()) << "the fold's start does not release FAC under the condition";
  EXPECT_EQ(p.read(ev), 500u);
  EXPECT_EQ(p.read(other), 0x80000000u - 300 + 500);
  EXPECT_EQ(p.read(cyc), 0u);
  f.model.set_ee(true);  // the interrupt: the sample, the rewind and acknowledge, the release
  EXPECT_EQ(ring.size(), 1u);
  EXPECT_FALSE(D::all_frozen());
  f.model.cycles(20);
  f.model.event(2, 100);
  EXPECT_EQ(p.read(ev), 600u);
  EXPECT_EQ(p.read(other), 0x80000000u - 300 + 600);
  EXPECT_EQ(p.read(cyc), 20u);
  f.model.set_ee(false);
  s.disarm();
  p.clear();
  f.model.on_interrupt(nullptr, nullptr);
  f.model.set_ee(true);
}

// Table 7-10's chaining events count the chain source's msb going from 1 to 0, which a write that
// clears it does too (the manual's reading), or only its counting rollovers. The profiler writes a
// chain's low counter only with its high one frozen (reset, start), so a linked pair reads exactly
// under both: here with the low counter past bit 31 at every write, and the high one on the lower
// slot, written first.
template <class F>
void chained_pair_is_exact_across_writes_of_its_low_counter(F& f) {
  using D = typename F::D;
  static prof::Profiler<D> p;
  p.clear();
  D::reset();
  prof::Counter lo, hi;
  ASSERT_EQ(p.add_on(1, EventConfig{2, 0, 0}, lo), Status::ok);
  ASSERT_EQ(p.add_on(0, EventConfig{2, 0, 0}, hi), Status::ok);
  ASSERT_EQ(p.link(lo, hi), Status::ok);
  p.start();
  f.model.event(2, 0x80000010u);
  EXPECT_EQ(p.read(hi), 0x80000010u);
  p.reset();  // running: low counter 0x80000010 -> 0
  EXPECT_EQ(p.read(hi), 0u);
  f.model.event(2, 0x80000000u + 5);
  p.stop();
  EXPECT_EQ(p.read(hi), 0x80000005u);
  p.start();  // stopped: low counter 0x80000005 -> 0
  EXPECT_EQ(p.read(hi), 0u);
  f.model.event(2, (3ull << 32) + 7);
  EXPECT_EQ(p.read(hi), (3ull << 32) + 7);
  EXPECT_EQ(p.fold(), 0u) << "a chain's low counter is never acknowledged";
  EXPECT_EQ(p.read(hi), (3ull << 32) + 7);
  p.clear();
}

struct ManualTag {};
struct OtherTag {};
using e500DriverManualReadings = Fixture<ManualTag>;
using e500DriverOtherReadings =
    Fixture<OtherTag, Readings{FreezeReading::when_condition_appears, ChainReading::counting_rollover}>;

TEST_F(e500DriverManualReadings, FceceFreezeHoldsUntilTheConditionIsAcknowledgedWhenTheConditionIsAState) {
  fcece_freeze_holds_until_the_condition_is_acknowledged(*this);
}
TEST_F(e500DriverOtherReadings, FceceFreezeHoldsUntilTheConditionIsAcknowledgedWhenOnlyItsAppearanceFreezes) {
  fcece_freeze_holds_until_the_condition_is_acknowledged(*this);
}
TEST_F(e500DriverManualReadings, ChainedPairIsExactWhenAWriteClearingTheLowMsbCountsAsItsOverflow) {
  chained_pair_is_exact_across_writes_of_its_low_counter(*this);
}
TEST_F(e500DriverOtherReadings, ChainedPairIsExactWhenOnlyCountingRolloversCount) {
  chained_pair_is_exact_across_writes_of_its_low_counter(*this);
}

}  // namespace
