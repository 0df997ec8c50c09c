// The MIPS CM driver's own rules against the model: discovery (present, absent, moved, unknown and
// unpublished revisions, a board's base, QEMU's silent block), the ownership contract, event and
// qualifier programming, the one-write reset-and-start, W1C acknowledge, Perf_Ovf_Stop, and the
// profiler and sampler on the shared interrupt with events and interrupts injected after every
// register access of their sequences.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "profiler/counter_region.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace {

using namespace pmu;
using namespace pmu::mips_cps;
struct Tag;
using mips_cmDriver = mipscmtest::Fixture<Tag>;

// --- discovery -----------------------------------------------------------------------------

TEST_F(mips_cmDriver, ProbeFindsTheBlockThroughCp0AndLeavesItResetStoppedAndUnclaimed) {
  model.set_cycles_per_access(1);
  const ProbeResult r = D::probe();
  EXPECT_EQ(r.status, pmu::Status::ok);
  EXPECT_EQ(r.working_slots, 0x7u);
  const Discovery& d = D::discovery();
  EXPECT_EQ(d.finding, Finding::found);
  EXPECT_EQ(d.gcr_phys, 0x1FBF8000u);
  EXPECT_EQ(d.revision, Revision::cm2_5);
  EXPECT_FALSE(d.base_from_board);
  EXPECT_EQ(GcrBase::value, 0xBFBF8000u) << "uncached KSEG1 view of the GCR";
  EXPECT_EQ(model.pc_ctl(), 0u) << "stopped, interrupt off";
  EXPECT_EQ(model.counter(0), 0u);
  EXPECT_EQ(model.pc_ov(), 0u);
  EXPECT_EQ(D::owner(), -1) << "the probe's claim was given back";
}

TEST_F(mips_cmDriver, ProbeOnQemusSilentBlockSaysCountersAbsent) {
  // QEMU 7.2: GCR at 0x1FBF8000, GCR_REV CM3, the debug block reads 0. Forced past the revision
  // check, Perf_Num_Cnt reads 0.
  model.set_inert(true);
  model.set_gcr_rev(0x0800u);
  ProbeResult r = D::probe();
  EXPECT_EQ(r.status, pmu::Status::unsupported_core);
  EXPECT_EQ(D::discovery().finding, Finding::layout_unpublished);
  EXPECT_EQ(D::discovery().revision, Revision::cm3);
  EXPECT_EQ(gcr_writes(), 0u);
  D::force_revision(Revision::cm3);
  r = D::probe();
  EXPECT_EQ(r.status, pmu::Status::pmu_absent);
  EXPECT_EQ(r.working_slots, 0u);
  EXPECT_EQ(D::discovery().finding, Finding::counters_absent);
  EXPECT_EQ(gcr_writes(), 0u) << "an absent block is never written";
}

TEST_F(mips_cmDriver, ProbeReportsEachWayTheCmCanBeMissing) {
  struct Case {
    const char* what;
    void (*setup)(Model&);
    Finding want;
  };
  const Case cases[] = {
      {"Config.M chain ends", [](Model& m) { m.set_config_chain(true, true, false); }, Finding::no_config3},
      {"no CMGCR", [](Model& m) { m.set_cmgcr(false); }, Finding::no_cmgcr},
      // QEMU P5600 without -smp 2: CMGCRBase set, nothing mapped, the empty slot reads 0.
      {"nothing at the address", [](Model& m) { m.set_gcr_base_readback(0); }, Finding::gcr_moved},
      {"moved", [](Model& m) { m.set_gcr_base_readback(0x1FB00000u); }, Finding::gcr_moved},
      {"above KSEG1", [](Model& m) { m.set_cmgcrbase(0x02000000u); }, Finding::base_unreachable},
      {"unknown revision", [](Model& m) { m.set_gcr_rev(0x0500u); }, Finding::unknown_revision},
      {"CM3.5", [](Model& m) { m.set_gcr_rev(0x0900u); }, Finding::layout_unpublished},
      {"Perf_Num_Cnt 1", [](Model& m) { m.set_perf_num_cnt(1); }, Finding::counters_absent},
      {"bus error", [](Model& m) { m.set_absent(true); }, Finding::gcr_silent},
      {"not counting", [](Model& m) { m.set_cycles_per_access(0); }, Finding::not_counting},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    model = Model{};
    Bus::device = &model;
    model.set_cycles_per_access(1);
    c.setup(model);
    const ProbeResult r = D::probe();
    EXPECT_EQ(D::discovery().finding, c.want) << finding_text(D::discovery().finding);
    EXPECT_EQ(r.status, status_of(c.want));
    EXPECT_NE(r.status, pmu::Status::ok);
    EXPECT_EQ(r.working_slots, 0u);
    EXPECT_EQ(D::owner(), -1);
  }
  EXPECT_EQ(status_of(Finding::unknown_revision), pmu::Status::unsupported_core);
  EXPECT_EQ(status_of(Finding::no_cmgcr), pmu::Status::pmu_absent);
}

TEST_F(mips_cmDriver, ProbeOnACoreWhoseCp0SelectsTrapSaysAbsent) {
  struct TrapCp0 final : MockDevice {
    MockResult read(std::uint32_t key, std::uint64_t&) override {
      return (key >> 24) == static_cast<u32>(BusKind::cp0) ? MockResult::trap : MockResult::unhandled;
    }
    MockResult write(std::uint32_t, std::uint64_t) override { return MockResult::unhandled; }
  } trap;
  Bus::device = &trap;
  EXPECT_EQ(D::probe().status, pmu::Status::pmu_absent);
  EXPECT_EQ(D::discovery().finding, Finding::cp0_trapped);
  EXPECT_EQ(gcr_accesses(), 0u);
  Bus::device = &model;
}

TEST_F(mips_cmDriver, ABoardBaseReplacesCmgcrBaseButMustStillReadBack) {
  model.set_cycles_per_access(1);
  model.set_cmgcrbase(0);  // a SoC whose CMGCRBase is wrong
  model.set_gcr_base_readback(0x1FBF8000u);
  D::set_gcr_base(0x1FBF8000u);
  EXPECT_EQ(D::probe().status, pmu::Status::ok);
  EXPECT_TRUE(D::discovery().base_from_board);
  D::set_gcr_base(0x1C000000u);
  EXPECT_EQ(D::probe().status, pmu::Status::pmu_absent);
  EXPECT_EQ(D::discovery().finding, Finding::gcr_moved);
}

TEST_F(mips_cmDriver, AForcedRevisionIsKeptAndUnforcingReturnsToDetection) {
  model.set_cycles_per_access(1);
  model.set_gcr_rev(0x0800u);
  D::force_revision(Revision::cm3);
  EXPECT_EQ(D::probe().status, pmu::Status::ok) << "the firmware vouches for the layout";
  D::force_revision(Revision::unknown);
  EXPECT_EQ(D::probe().status, pmu::Status::unsupported_core);
}

// --- ownership ------------------------------------------------------------------------------

TEST_F(mips_cmDriver, OneOwnerAtATimeOtherVpsGetBusy) {
  found_and_claimed();
  EXPECT_EQ(D::owner(), 0);
  EXPECT_EQ(D::claim(), pmu::Status::ok) << "claiming again on the owner is fine";
  model.set_cpu(1);
  EXPECT_FALSE(D::owned_here());
  EXPECT_EQ(D::claim(), pmu::Status::busy);
  EXPECT_EQ(D::release(), pmu::Status::busy) << "only the owner releases";
  EXPECT_EQ(D::configure(1, {event::REQUEST_COUNT, 0, 0}), pmu::Status::busy);
  Bus::clear_log();
  EXPECT_EQ(D::probe().status, pmu::Status::busy);
  EXPECT_EQ(D::discovery().finding, Finding::owned_elsewhere);
  EXPECT_EQ(gcr_writes(), 0u) << "a probe on another VP leaves the owner's counters alone";
  model.set_cpu(0);
  EXPECT_EQ(D::release(), pmu::Status::ok);
  model.set_cpu(1);
  EXPECT_EQ(D::claim(), pmu::Status::ok);
  EXPECT_EQ(D::owner(), 1);
}

TEST_F(mips_cmDriver, ConfigureNeedsTheClaim) {
  model.set_cycles_per_access(1);
  ASSERT_EQ(D::probe().status, pmu::Status::ok);
  EXPECT_EQ(D::configure(0, {kCycleEvent, 0, 0}), pmu::Status::busy) << "nobody claimed";
  ASSERT_EQ(D::claim(), pmu::Status::ok);
  EXPECT_EQ(D::configure(0, {kCycleEvent, 0, 0}), pmu::Status::ok);
}

TEST_F(mips_cmDriver, ReleaseStopsEverythingAndTheInterrupt) {
  found_and_claimed();
  ASSERT_EQ(D::configure(1, {event::REQUEST_COUNT, 0, 0}), pmu::Status::ok);
  D::start(0x7);
  D::set_overflow_interrupt(0x2, true);
  ASSERT_EQ(D::release(), pmu::Status::ok);
  EXPECT_EQ(model.pc_ctl() & 0x400001F0u, 0u);
  EXPECT_EQ(D::owner(), -1);
}

// --- programming ----------------------------------------------------------------------------

TEST_F(mips_cmDriver, ConfigureWritesTheRawQualifierAndTheEventOfItsCounterOnly) {
  found_and_claimed();
  ASSERT_EQ(D::configure(1, {event::REQUEST_COUNT, 0xFF47C001u, 0}), pmu::Status::ok);
  ASSERT_EQ(D::configure(2, {event::IOCU2_REQUESTS, 0x12345678u, 0}), pmu::Status::ok);
  EXPECT_EQ(model.qualifier(0), 0xFF47C001u);
  EXPECT_EQ(model.qualifier(1), 0x12345678u);
  EXPECT_EQ(model.pc_event(), (17u << 8) | 0u);
  ASSERT_EQ(D::configure(1, {event::L2_HIT_MISS, 0, 0}), pmu::Status::ok);
  EXPECT_EQ(model.pc_event(), (17u << 8) | 9u) << "P1_Event kept";
  EXPECT_EQ(model.pc_ctl() & 0x1F0u, 0u) << "configure does not start";
}

TEST_F(mips_cmDriver, ConfigureRefusesWhatTheCounterCannotDo) {
  found_and_claimed();
  EXPECT_EQ(D::configure(0, {event::REQUEST_COUNT, 0, 0}), pmu::Status::unsupported_event)
      << "the cycle counter counts CM cycles only";
  EXPECT_EQ(D::configure(1, {kCycleEvent, 0, 0}), pmu::Status::unsupported_event);
  for (u32 code : {7u, 10u, 15u, 18u, 255u})
    EXPECT_EQ(D::configure(1, {code, 0, 0}), pmu::Status::unsupported_event) << code;
  EXPECT_EQ(D::configure(0, {kCycleEvent, 1, 0}), pmu::Status::bad_argument) << "no qualifier";
  EXPECT_EQ(D::configure(1, {event::REQUEST_COUNT, 0, 1}), pmu::Status::bad_argument) << "no options";
  EXPECT_EQ(D::configure(3, {event::REQUEST_COUNT, 0, 0}), pmu::Status::bad_argument);
  EXPECT_EQ(D::slots_for(kCycleEvent), 0x1u);
  EXPECT_EQ(D::slots_for(event::SHARING_MISS), 0x6u);
  EXPECT_EQ(D::slots_for(7), 0u);
}

TEST_F(mips_cmDriver, ConfigureWhileItsCounterCountsIsBusyOthersAreFine) {
  found_and_claimed();
  ASSERT_EQ(D::configure(1, {event::REQUEST_COUNT, 0, 0}), pmu::Status::ok);
  D::start(0x2);
  EXPECT_EQ(D::configure(1, {event::SHARING_MISS, 0, 0}), pmu::Status::busy);
  EXPECT_EQ(D::configure(2, {event::SHARING_MISS, 0, 0}), pmu::Status::ok);
  EXPECT_EQ(model.pc_event() & 0xFFu, 0u) << "P0_Event unchanged";
  D::stop(0x2);
  EXPECT_EQ(D::configure(1, {event::SHARING_MISS, 0, 0}), pmu::Status::ok);
}

TEST_F(mips_cmDriver, ResetAndStartIsOneWrite) {
  found_and_claimed();
  model.cycles(0);
  D::write(0, 500);
  D::write(1, 600);
  D::write(2, 700);
  Bus::clear_log();
  D::reset_and_start(0x7);
  EXPECT_EQ(Bus::template count<PC_CTL>(MockOp::write), 1u);
  EXPECT_EQ(model.pc_ctl() & 0x1F0u, 0x150u) << "all three CountOn";
  EXPECT_EQ(model.counter(0) + model.counter(1) + model.counter(2), 0u);
}

TEST_F(mips_cmDriver, StartAndStopKeepTheCountsAndTheOtherControls) {
  found_and_claimed();
  D::set_overflow_stop(true);
  D::set_overflow_interrupt(0x1, true);
  D::write(0, 41);
  D::start(0x1);
  model.cycles(1);
  D::stop(0x1);
  model.cycles(5);
  EXPECT_EQ(D::read(0), 42u) << "no Reset bit written back";
  EXPECT_EQ(model.pc_ctl() & 0x60000000u, 0x60000000u) << "Perf_Int_En and Perf_Ovf_Stop kept";
  D::start(0x6);
  EXPECT_EQ(model.pc_ctl() & 0x1F0u, 0x140u);
}

TEST_F(mips_cmDriver, ClearOverflowIsOneW1CWriteOfTheNamedSlots) {
  found_and_claimed();
  for (unsigned s = 0; s < 3; ++s) D::write(s, 0xFFFFFFFFu);
  ASSERT_EQ(D::configure(1, {event::REQUEST_COUNT, 0, 0}), pmu::Status::ok);
  ASSERT_EQ(D::configure(2, {event::REQUEST_COUNT, 0, 0}), pmu::Status::ok);
  D::start(0x7);
  model.cycles(1);
  model.event(event::REQUEST_COUNT);
  ASSERT_EQ(D::overflow_status(), 0x7u);
  Bus::clear_log();
  D::clear_overflow(0x4);
  EXPECT_EQ(Bus::template count<PC_OV>(MockOp::write), 1u);
  EXPECT_EQ(Bus::template count<PC_OV>(MockOp::read), 0u) << "W1C needs no read";
  EXPECT_EQ(D::overflow_status(), 0x3u);
}

TEST_F(mips_cmDriver, OverflowStopFreezesTheOthersAtTheOverflow) {
  found_and_claimed();
  D::set_overflow_stop(true);
  ASSERT_EQ(D::configure(1, {event::REQUEST_COUNT, 0, 0}), pmu::Status::ok);
  D::write(1, 0xFFFFFFFFu);
  D::start(0x3);
  model.cycles(10);
  model.event(event::REQUEST_COUNT);
  model.cycles(10);
  EXPECT_EQ(D::read(0), 10u) << "the cycle counter stopped with counter 0's overflow";
  D::clear_overflow(0x2);
  model.cycles(1);
  EXPECT_EQ(D::read(0), 11u);
}

TEST_F(mips_cmDriver, PresetForSamplingOverflowsAfterExactlyPeriodEvents) {
  found_and_claimed();
  ASSERT_EQ(D::preset_for_sampling(0, 100), pmu::Status::ok);
  D::start(0x1);
  model.cycles(99);
  EXPECT_EQ(D::overflow_status(), 0u);
  model.cycles(1);
  EXPECT_EQ(D::overflow_status(), 0x1u);
  EXPECT_EQ(D::preset_for_sampling(0, 0), pmu::Status::bad_argument);
  EXPECT_EQ(D::preset_for_sampling(0, (1ull << 32) + 1), pmu::Status::bad_argument);
  EXPECT_EQ(D::preset_for_sampling(3, 1), pmu::Status::bad_argument);
}

TEST_F(mips_cmDriver, InterruptPendingFollowsEnableAndOverflowBitsAndTheWiringIsTheBoards) {
  found_and_claimed();
  EXPECT_FALSE(D::pcint_wired());
  D::set_pcint_source(1);  // EcoNet's 1004K SoCs: GIC shared source 1
  EXPECT_TRUE(D::pcint_wired());
  EXPECT_EQ(D::pcint_source(), 1);
  D::write(0, 0xFFFFFFFFu);
  D::start(0x1);
  model.cycles(1);
  EXPECT_FALSE(D::interrupt_pending()) << "Perf_Int_En clear";
  D::set_overflow_interrupt(0x4, true);  // any slot: one enable for all
  EXPECT_TRUE(D::interrupt_enabled());
  EXPECT_TRUE(D::interrupt_pending());
  D::clear_overflow(0x1);
  EXPECT_FALSE(D::interrupt_pending());
  D::set_overflow_interrupt(0x1, false);
  EXPECT_FALSE(D::interrupt_enabled());
  D::set_overflow_interrupt(0, true);
  EXPECT_FALSE(D::interrupt_enabled()) << "an empty mask changes nothing";
}

// --- profiler and sampler --------------------------------------------------------------------

// A cycle injected after every register access of a read of the running cycle counter one short of
// its roll-over: the value is the one before or after the cycle, never off by 2^32.
TEST_F(mips_cmDriver, ACycleLandingInsideARunningReadIsNeverLostOrDoubled) {
  found_and_claimed();
  static prof::Profiler<D> p;
  for (unsigned at = 1; at <= 8; ++at) {
    SCOPED_TRACE(at);
    p.clear();
    prof::Counter c;
    ASSERT_EQ(p.add<Preset::cycles>(c), pmu::Status::ok);
    p.start();
    model.cycles(0xFFFFFFFFu);
    model.reset_access_count();
    static bool injected;
    injected = false;
    model.after_access(
        at,
        [](void* m) {
          static_cast<Model*>(m)->cycles(1);
          injected = true;
        },
        &model);
    const std::uint64_t v = p.read(c);
    EXPECT_TRUE(v == 0xFFFFFFFFu || v == 0x100000000u) << v;
    model.after_access(0, nullptr, nullptr);
    if (!injected) model.cycles(1);
    EXPECT_EQ(p.read(c), 0x100000000u);
    p.fold();
    EXPECT_EQ(p.read(c), 0x100000000u);
    p.stop();
  }
  p.clear();
}

// Sampling counter 0 every 100 events while the cycle counter, counting for the profiler, rolls
// over: Perf_Int_En is one enable for both, so the handler samples the armed counter and folds the
// cycle counter, with an extra cycle and event injected after every access of its sequence.
TEST_F(mips_cmDriver, SharedInterruptSamplesTheArmedCounterAndFoldsTheCycleCounter) {
  found_and_claimed();
  static prof::Profiler<D> p;
  static prof::SampleRing<64> ring;
  static prof::Sampler<D, prof::SampleRing<64>> s{p, ring};
  static Model* m;
  m = &model;
  for (unsigned at = 0; at <= 12; ++at) {
    SCOPED_TRACE(at);
    static unsigned inject_at;
    static unsigned injected;
    inject_at = at;
    injected = 0;
    p.clear();
    ring = {};
    prof::Counter cyc, ev;
    ASSERT_EQ(p.add<Preset::cycles>(cyc), pmu::Status::ok);
    ASSERT_EQ(p.add_on(1, {event::L2_HIT_MISS, 0x000C79FFu, 0}, ev), pmu::Status::ok);
    model.on_interrupt(
        [](void*) {
          m->reset_access_count();
          if (inject_at)
            m->after_access(
                inject_at,
                [](void*) {
                  ++injected;
                  m->event(event::L2_HIT_MISS, 1);
                },
                nullptr);
          s.on_pmu_interrupt(0x1000, 0x2000);
          m->after_access(0, nullptr, nullptr);
        },
        nullptr);
    p.start();
    ASSERT_EQ(s.arm(ev, 100), pmu::Status::ok);
    D::write(0, 0xFFFFFF00u);  // the cycle counter rolls over during the run
    std::uint64_t cycles = 0;
    for (int i = 0; i < 100; ++i) {
      model.event(event::L2_HIT_MISS, 10);
      model.cycles(10);
      cycles += 10;
    }
    EXPECT_GE(ring.size(), 10u);
    EXPECT_LE(ring.size(), 10u + (injected + 99) / 100);
    EXPECT_EQ(ring.dropped(), 0u);
    EXPECT_EQ(p.read(cyc), 0xFFFFFF00u + cycles) << "the cycle counter's roll-over was folded";
    s.disarm();
    p.clear();
    model.on_interrupt(nullptr, nullptr);
  }
}

}  // namespace

namespace {

struct Tag2;
using mips_cmDriverReview = mipscmtest::Fixture<Tag2>;

// One enable for all three counters: a stale overflow bit on a counter nobody uses would keep
// CM_PCInt asserted, so enabling acknowledges the idle counters' bits first.
TEST_F(mips_cmDriverReview, EnablingTheInterruptAcknowledgesIdleCountersOverflows) {
  found_and_claimed();
  D::write(0, 0xFFFFFFFFu);
  D::start(0x1);
  model.cycles(1);  // the cycle counter overflows...
  D::stop(0x1);     // ...and is then left alone
  ASSERT_EQ(D::overflow_status(), 0x1u);
  D::set_overflow_interrupt(0x2, true);
  EXPECT_EQ(D::overflow_status(), 0u);
  EXPECT_FALSE(D::interrupt_pending());
  EXPECT_EQ(model.interrupts(), 0u);
  D::set_overflow_interrupt(0x2, false);
}

TEST_F(mips_cmDriverReview, ReleaseAfterAFailedDiscoveryWritesNothing) {
  model.set_cmgcr(false);
  EXPECT_EQ(D::probe().status, pmu::Status::pmu_absent);
  ASSERT_EQ(D::claim(), pmu::Status::ok);
  Bus::clear_log();
  EXPECT_EQ(D::release(), pmu::Status::ok);
  EXPECT_EQ(gcr_accesses(), 0u);
}

}  // namespace

namespace {

using namespace pmu;
using namespace pmu::mips_cps;

// GCR_DB_PC_CTL's Perf_Ovf_Stop (MIPS CPS Training, "Performance Registers (GCR)") under both of
// its readings (hal/mips_cps/README.md): all three counters stop when one "reaches its maximum
// value of 0xFFFFFFFF" (it holds 0xFFFFFFFF, its overflow bit set), or after it rolled over to 0.
// The profiler's 64-bit values are the events counted, exactly, under either: a reader adding
// 2^32 for the bit of a counter holding 0xFFFFFFFF would report about 2^33.
template <class F>
void profiler_counts_exactly_across_perf_ovf_stop(F& f) {
  using D = typename F::D;
  f.found_and_claimed();
  static prof::Profiler<D> p;
  p.clear();
  prof::Counter cyc, req;
  ASSERT_EQ(p.template add<Preset::cycles>(cyc), Status::ok);
  ASSERT_EQ(p.add_on(1, {event::REQUEST_COUNT, 0, 0}, req), Status::ok);
  D::set_overflow_stop(true);
  p.start();
  // Cycles counted up to the first stop: 0xFFFFFFFF held, or 2^32 (rolled over to 0).
  const std::uint64_t lap = F::kReading == OvfStopReading::stops_at_max ? 0xFFFFFFFFull : 0x100000000ull;
  f.model.event(event::REQUEST_COUNT, 5);
  f.model.cycles(lap - 1);
  EXPECT_EQ(D::overflow_status(), 0u);
  EXPECT_EQ(p.read(cyc), lap - 1);
  f.model.cycles(1 + 40);                   // the stop, then 40 cycles nothing counts
  f.model.event(event::REQUEST_COUNT, 3);  // nor these
  ASSERT_EQ(D::overflow_status(), 0x1u);
  EXPECT_EQ(p.read(cyc), lap) << "a stop is not 2^32 more";
  EXPECT_EQ(p.read(req), 5u);
  typename prof::Profiler<D>::Snapshot snap;
  p.template take<true>(snap);
  EXPECT_EQ(p.value(snap, cyc), lap) << "a region's reading too";
  p.fold();
  EXPECT_EQ(D::overflow_status(), 0u);
  EXPECT_EQ(p.read(cyc), lap) << "the fold moves the count and adds nothing";
  f.model.cycles(7);
  f.model.event(event::REQUEST_COUNT, 2);
  EXPECT_EQ(p.read(cyc), lap + 7) << "counting goes on after the fold";
  EXPECT_EQ(p.read(req), 7u);
  f.model.cycles(lap - 7 + 100);  // a second stop, a whole register's lap after the fold
  EXPECT_EQ(p.read(cyc), 2 * lap);
  p.fold();
  f.model.cycles(1);
  p.stop();
  EXPECT_EQ(p.read(cyc), 2 * lap + 1);
  EXPECT_EQ(p.read(req), 7u);
  p.clear();
}

// Sampling every 100 events of counter 0 with Perf_Ovf_Stop, through the general entry (rearm<Slot>
// is not for Perf_Ovf_Stop): each sample's rewind and acknowledge let all three go on, and the
// armed and the counting-only counters read exactly what was counted, under either reading. With
// the counter held at 0xFFFFFFFF the first sample comes one event early (its preset 2^32 - 100
// reaches 0xFFFFFFFF after 99), every later one 100 apart.
template <class F>
void sampler_counts_exactly_across_perf_ovf_stop(F& f) {
  using D = typename F::D;
  f.found_and_claimed();
  static prof::Profiler<D> p;
  static prof::SampleRing<64> ring;
  static prof::Sampler<D, prof::SampleRing<64>> s{p, ring};
  p.clear();
  ring = {};
  prof::Counter cyc, ev;
  ASSERT_EQ(p.template add<Preset::cycles>(cyc), Status::ok);
  ASSERT_EQ(p.add_on(1, {event::SHARING_MISS, 0, 0}, ev), Status::ok);
  f.model.on_interrupt([](void*) { s.on_pmu_interrupt(0x1000, 0x2000); }, nullptr);
  D::set_overflow_stop(true);
  p.start();
  ASSERT_EQ(s.arm(ev, 100), Status::ok);
  for (int i = 0; i < 1000; ++i) {
    f.model.event(event::SHARING_MISS, 1);
    f.model.cycles(3);
  }
  EXPECT_EQ(ring.size(), 10u);
  EXPECT_EQ(p.read(ev), 1000u);
  EXPECT_EQ(p.read(cyc), 3000u) << "the cycle counter stopped only inside each interrupt";
  EXPECT_FALSE(f.model.interrupt_storm());
  s.disarm();
  p.clear();
  f.model.on_interrupt(nullptr, nullptr);
}

// A CounterRegion (profiler/counter_region.hpp) on the counter Perf_Ovf_Stop stopped, under both
// readings, with the interrupt's acknowledge (a fold: it writes a held counter back to 0 and lets all
// three go on) and 3 cycles injected after every register access of the region. The region counts
// what its two window reads saw: 0 or 3 of the injected cycles, plus the body's 5 if the fold came
// before them; never one more (a held 0xFFFFFFFF read as a wrap) and never voided.
template <class F>
void counter_region_exact_across_perf_ovf_stop(F& f) {
  using D = typename F::D;
  f.found_and_claimed();
  static prof::Profiler<D> p;
  static F* fx;
  fx = &f;
  const std::uint64_t lap = F::kReading == OvfStopReading::stops_at_max ? 0xFFFFFFFFull : 0x100000000ull;
  unsigned folded_inside = 0;
  for (unsigned at = 1; at <= 24; ++at) {
    SCOPED_TRACE(at);
    p.clear();
    prof::Counter cyc;
    ASSERT_EQ(p.template add<Preset::cycles>(cyc), Status::ok);
    D::set_overflow_stop(true);
    p.start();
    prof::CounterRegions<D> one{p};
    ASSERT_EQ(one.select(cyc), Status::ok);
    f.model.cycles(lap + 40);  // up to the stop, then 40 that nothing counts
    ASSERT_EQ(D::overflow_status(), 0x1u);
    ASSERT_EQ(p.read(cyc), lap);
    static bool injected;
    injected = false;
    prof::RegionStats<D> s{"s"};
    f.model.reset_access_count();
    f.model.after_access(
        at,
        [](void*) {
          injected = true;
          p.fold();
          fx->model.cycles(3);
        },
        nullptr);
    {
      prof::CounterRegion r{one, s};
      f.model.cycles(5);
    }
    f.model.after_access(0, nullptr, nullptr);
    if (!injected) break;
    const std::uint64_t v = s.total[0];
    EXPECT_EQ(s.voided, 0u);
    EXPECT_TRUE(v == 0 || v == 3 || v == 5 || v == 8) << v;
    folded_inside += v >= 5;
    // The body's cycles counted only after the fold, and then inside the window.
    EXPECT_EQ(p.read(cyc), lap + 3 + (v >= 5 ? 5 : 0)) << "the profiler's own reading";
    p.stop();
  }
  EXPECT_GT(folded_inside, 0u) << "no injection landed between the window's reads";
  p.clear();
}

struct TagHeld;
struct TagRolled;
using mips_cmOvfStopHeld = mipscmtest::Fixture<TagHeld, OvfStopReading::stops_at_max>;
using mips_cmOvfStopRolled = mipscmtest::Fixture<TagRolled, OvfStopReading::stops_after_roll_over>;

TEST_F(mips_cmOvfStopHeld, ProfilerCountsExactlyWhenPerfOvfStopHoldsTheCounterAtItsMaximum) {
  profiler_counts_exactly_across_perf_ovf_stop(*this);
}
TEST_F(mips_cmOvfStopRolled, ProfilerCountsExactlyWhenPerfOvfStopStopsAfterTheRollOver) {
  profiler_counts_exactly_across_perf_ovf_stop(*this);
}
TEST_F(mips_cmOvfStopHeld, SamplerCountsExactlyWhenPerfOvfStopHoldsTheCounterAtItsMaximum) {
  sampler_counts_exactly_across_perf_ovf_stop(*this);
}
TEST_F(mips_cmOvfStopRolled, SamplerCountsExactlyWhenPerfOvfStopStopsAfterTheRollOver) {
  sampler_counts_exactly_across_perf_ovf_stop(*this);
}

TEST_F(mips_cmOvfStopHeld, CounterRegionCountsExactlyWhenPerfOvfStopHoldsTheCounterAtItsMaximum) {
  counter_region_exact_across_perf_ovf_stop(*this);
}
TEST_F(mips_cmOvfStopRolled, CounterRegionCountsExactlyWhenPerfOvfStopStopsAfterTheRollOver) {
  counter_region_exact_across_perf_ovf_stop(*this);
}

}  // namespace
