// The NetBurst driver's own rules against the model: probe (family, MISC_ENABLE bit 7, QEMU's
// silent MSRs), ESCR + CCCR programming, ESCR sharing and BPU counter 1, the cascade pairs and the
// consistent read of a running cascade with an event injected at every step, the halting rule,
// the PMI path (LVT masked on every PMI, OVF cleared before unmasking), and the OVF-late and
// write-twice quirks.
#include <gtest/gtest.h>

#include <vector>

#include "tests/host/conformance/bus_checks.hpp"

#include "hal/core/bus/mock.hpp"
#include "hal/netburst/driver.hpp"
#include "hal/netburst/model.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace {

using namespace pmu;
using namespace pmu::netburst;
struct Tag;
using Bus = MockBus<Tag>;
using D = netburst::Driver<Bus>;

const std::size_t kCycles = event_row("global_power_events");
const std::size_t kInstr = event_row("instr_retired");
const std::size_t kIoq = event_row("IOQ_allocation");
const std::size_t kFsbData = event_row("FSB_data_activity");

struct netburstDriver : ::testing::Test {
  Model model;
  void SetUp() override {
    Bus::reset();
    field_error_hook = nullptr;
    Bus::device = &model;
  }
  void TearDown() override {
    conformance::expect_bus_clean<Bus>();
    EXPECT_EQ(model.reserved_writes(), 0u) << "a reserved bit was written (wrmsr would #GP)";
    EXPECT_FALSE(model.interrupt_storm());
    Bus::reset();
  }
  void probed() {
    model.set_cycles_per_access(1);
    ASSERT_EQ(D::probe().status, Status::ok);
    model.set_cycles_per_access(0);
  }
  static EventConfig ev(const char* s) { return config_of(parse(s)); }
  // Counter 12 counting instructions one event from its overflow (two from its PMI, which comes on
  // the next event after it), its PMI on and the driver owning the LVT entry (vector 0xF0).
  void counter_12_at_its_top() {
    probed();
    D::set_pmi_vector(0xF0);
    ASSERT_EQ(D::configure(12, ev("instr_retired:NBOGUSNTAG")), Status::ok);
    D::set_overflow_interrupt(1u << 12, true);
    D::write(12, kCounterMask);
    D::start(1u << 12);
  }
  void count(std::size_t row, std::uint64_t n) {
    model.event(row, zero_qualifier_mask(row), n);
  }
};

// --- probe ---------------------------------------------------------------------------------

TEST_F(netburstDriver, ProbeFindsACountingPmuAndLeavesEverythingCleared) {
  model.set_cycles_per_access(1);
  const ProbeResult r = D::probe();
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.working_slots, 0x3FFFDu) << "every counter but BPU counter 1";
  EXPECT_EQ(D::identity().family, 0xFu);
  for (unsigned n = 0; n < kCounters; ++n) EXPECT_EQ(model.cccr(n), 0u) << n;
  EXPECT_EQ(model.escr(EscrId::FSB_ESCR0), 0u);
}

TEST_F(netburstDriver, ProbeOnQemuSaysAbsentFromMiscEnableAlone) {
  model.set_qemu(true);  // MISC_ENABLE = 1: bit 7 clear
  Bus::clear_log();
  EXPECT_EQ(D::probe().status, Status::pmu_absent);
  EXPECT_EQ(model.accesses(), 0u) << "no PMU MSR touched";
}

TEST_F(netburstDriver, ProbeOnSilentMsrsSaysAbsent) {
  model.set_qemu(true);
  model.set_misc_enable(0x80);  // a hypervisor that claims the PMU but keeps every MSR at 0
  EXPECT_EQ(D::probe().status, Status::pmu_absent);
}

TEST_F(netburstDriver, ProbeOnAnotherFamilyTouchesNoMsr) {
  model.set_cpuid(6, 13);  // a Pentium M
  EXPECT_EQ(D::probe().status, Status::unsupported_core);
  EXPECT_EQ(model.accesses(), 0u);
}

// --- programming ----------------------------------------------------------------------------

TEST_F(netburstDriver, ConfigureWritesTheEscrThatFeedsTheCounterAndItsCccrDisabled) {
  probed();
  ASSERT_EQ(D::configure(0, ev("global_power_events:RUNNING")), Status::ok);
  // No Hyper-Threading: the T1 bits are reserved and left clear.
  EXPECT_EQ(model.escr(EscrId::FSB_ESCR0), 0x2600020Cu);
  EXPECT_EQ(model.cccr(0), 0x3C000u);
  EXPECT_EQ(D::escr_of(0), EscrId::FSB_ESCR0);
  D::start(1u);
  EXPECT_EQ(model.cccr(0), 0x3D000u);
  ASSERT_EQ(D::configure(3, ev("global_power_events:RUNNING")), Status::ok);
  EXPECT_EQ(D::escr_of(3), EscrId::FSB_ESCR1) << "counters 2 and 3 are fed by the ESCR1 side";
}

// configure<Slot, Ev>(): the ESCR and CCCR written by number, the same values as configure().
TEST_F(netburstDriver, CompileTimeConfigureWritesWhatConfigureWrites) {
  probed();
  ASSERT_EQ(D::configure(0, ev("global_power_events:RUNNING")), Status::ok);
  const u64 escr = model.escr(EscrId::FSB_ESCR0), cccr = model.cccr(0);
  D::deconfigure(1u);
  EXPECT_EQ(model.escr(EscrId::FSB_ESCR0), 0u);
  constexpr EventConfig kRunning = config_of(parse("global_power_events:RUNNING"));
  ASSERT_EQ((D::configure<0, kRunning>()), Status::ok);
  EXPECT_EQ(model.escr(EscrId::FSB_ESCR0), escr);
  EXPECT_EQ(model.cccr(0), cccr);
  EXPECT_EQ(D::escr_of(0), EscrId::FSB_ESCR0);
  EXPECT_EQ((D::configure<0, kRunning>()), Status::busy) << "a slot with a set-up: deconfigure first";
  D::start(1u);
  EXPECT_EQ(model.cccr(0), 0x3D000u);
}

// The compile-time configure checks ESCR sharing against the counters that ESCR feeds only
// (FSB_ESCR1: counters 2 and 3): the same refusal as configure(), and the same set-up may share.
TEST_F(netburstDriver, CompileTimeConfigureRefusesAnEscrHoldingAnotherSetUp) {
  probed();
  ASSERT_EQ(D::configure(2, ev("IOQ_allocation:ALL_READ")), Status::ok);
  ASSERT_EQ(D::escr_of(2), EscrId::FSB_ESCR1);
  constexpr EventConfig kDrdy = config_of(parse("FSB_data_activity:DRDY_DRV"));
  EXPECT_EQ((D::configure<3, kDrdy>()), Status::no_free_counter) << "FSB_ESCR1 holds IOQ_allocation";
  EXPECT_EQ(D::escr_of(3), EscrId::none);
  constexpr EventConfig kIoqAll = config_of(parse("IOQ_allocation:ALL_READ"));
  EXPECT_EQ((D::configure<3, kIoqAll>()), Status::ok) << "the same set-up shares the ESCR";
  D::deconfigure(0xCu);
  EXPECT_EQ((D::configure<3, kDrdy>()), Status::ok) << "FSB_ESCR1 free again";
  D::deconfigure(0x8u);
}

TEST_F(netburstDriver, CounterOneIsNeverUsed) {
  probed();
  EXPECT_EQ(D::configure(1, ev("global_power_events")), Status::bad_argument);
  EXPECT_EQ(D::slots_for(static_cast<u32>(event_row("BSQ_allocation"))), 0x1u) << "BSU_ESCR0 feeds 0 and 1";
  EXPECT_EQ(D::slots_for(static_cast<u32>(kCycles)), 0xDu);
}

TEST_F(netburstDriver, ConfigureRefusesWhatTheEventCannotDo) {
  probed();
  EXPECT_EQ(D::configure(4, ev("global_power_events")), Status::unsupported_event) << "MS block";
  EXPECT_EQ(D::configure(0, {static_cast<u32>(kCycles), 0x2, 0}), Status::bad_argument) << "mask bit 1 unnamed";
  EXPECT_EQ(D::configure(0, {static_cast<u32>(kCycles), 0x1, 0x100}), Status::bad_argument) << "option bits";
  EXPECT_EQ(D::configure(0, {99, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(D::configure(18, ev("global_power_events")), Status::bad_argument);
  EXPECT_EQ(D::configure(12, {static_cast<u32>(event_row("uops_retired")), 0, 0}), Status::bad_argument)
      << "no default mask: one must be named";
}

TEST_F(netburstDriver, AnEscrServesOneSetUpAtATimeAndTheProfilerMovesOn) {
  probed();
  prof::Profiler<D> p;
  prof::Counter a, b, c;
  ASSERT_EQ(p.add({static_cast<u32>(kCycles), 0, 0}, a), Status::ok);
  ASSERT_EQ(p.add(ev("IOQ_allocation:ALL_READ"), b), Status::ok) << "FSB_ESCR0 busy: counter 2 (FSB_ESCR1)";
  EXPECT_EQ(p.slot_of(a), 0u);
  EXPECT_EQ(p.slot_of(b), 2u);
  EXPECT_EQ(p.add(ev("FSB_data_activity:DRDY_DRV"), c), Status::no_free_counter)
      << "counter 3 is free but its ESCR (FSB_ESCR1) holds IOQ_allocation";
  (void)kIoq;
  (void)kFsbData;
  p.clear();
}

TEST_F(netburstDriver, ConfigureWhileCountingIsBusy) {
  probed();
  ASSERT_EQ(D::configure(0, ev("global_power_events")), Status::ok);
  D::start(1u);
  EXPECT_EQ(D::configure(0, ev("global_power_events")), Status::busy);
  D::stop(1u);
  EXPECT_EQ(D::configure(0, ev("global_power_events")), Status::ok);
}

TEST_F(netburstDriver, CountersAre40BitsAndWrapSettingOvf) {
  probed();
  ASSERT_EQ(D::configure(12, ev("instr_retired:NBOGUSNTAG")), Status::ok);
  D::write(12, kCounterMask - 1);
  D::start(1u << 12);
  count(kInstr, 1);
  EXPECT_EQ(D::overflow_status(), 0u);
  count(kInstr, 2);
  EXPECT_EQ(D::read(12), 1u);
  EXPECT_EQ(D::overflow_status(), 1u << 12);
  D::stop(1u << 12);
  D::clear_overflow(1u << 12);
  EXPECT_EQ(D::overflow_status(), 0u);
}

// Reads take rdpmc by default (one instruction, the counter's index in ECX) and the counter's MSR
// with CounterRead::rdmsr; writes always go to the MSR. Both read the same 40 bits.
TEST_F(netburstDriver, ReadsTakeRdpmcUnlessTheRdmsrPathIsChosen) {
  using Msrs = netburst::Driver<Bus, CounterRead::rdmsr>;
  probed();
  ASSERT_EQ(D::configure(12, ev("instr_retired:NBOGUSNTAG")), Status::ok);
  D::write(12, kCounterMask - 4);
  D::start(1u << 12);
  count(kInstr, 9);
  Bus::clear_log();
  EXPECT_EQ(D::read(12), 4u);
  EXPECT_EQ(Bus::count<CounterPmc<12>>(MockOp::read), 1u);
  EXPECT_EQ(Bus::count<Counter<12>>(MockOp::read), 0u);
  EXPECT_EQ(Msrs::read(12), 4u);
  EXPECT_EQ(Bus::count<Counter<12>>(MockOp::read), 1u);
  EXPECT_EQ(Bus::count<CounterPmc<12>>(MockOp::read), 1u);
  D::stop(1u << 12);
  D::clear_overflow(1u << 12);
}

// A hypervisor that intercepts rdpmc but passes the MSRs: the default driver finds the PMU absent
// (its reads would fault), the rdmsr path finds it working.
TEST_F(netburstDriver, ProbeReadsTheWayTheDriverWill) {
  model.set_rdpmc_faults(true);
  model.set_cycles_per_access(1);
  EXPECT_EQ(D::probe().status, Status::pmu_absent);
  EXPECT_EQ((netburst::Driver<Bus, CounterRead::rdmsr>::probe().status), Status::ok);
  model.set_cycles_per_access(0);
}

// Execution tagging end to end: the upstream event's ESCR tags with tag bit 1, execution_event
// counts the tagged uops at retirement under NBOGUS1 only. A tag on another event is refused.
TEST_F(netburstDriver, ExecutionTaggingCountsTaggedUopsAtRetirement) {
  probed();
  const std::size_t sp = event_row("packed_SP_uop");
  ASSERT_EQ(D::configure(8, ev("packed_SP_uop:ALL:TAG1")), Status::ok);
  ASSERT_EQ(D::configure(12, ev("execution_event:NBOGUS1")), Status::ok);
  ASSERT_EQ(D::configure(14, ev("execution_event:NBOGUS0")), Status::ok);
  EXPECT_EQ(model.escr(D::escr_of(8)) & 0x1F0u, (0x2u << 5) | 0x10u) << "tag value 0010b, tag enable";
  D::start((1u << 8) | (1u << 12) | (1u << 14));
  model.event(sp, 0x8000, 7);
  EXPECT_EQ(D::read(8), 7u);
  EXPECT_EQ(D::read(12), 7u) << "tagged uops retire under NBOGUS1";
  EXPECT_EQ(D::read(14), 0u);
  D::stop((1u << 8) | (1u << 12) | (1u << 14));
  EventConfig bad = ev("instr_retired:NBOGUSNTAG");
  bad.options |= 1u << kOptTagShift;
  EXPECT_EQ(D::configure(13, bad), Status::bad_argument);
}

// Front-end tagging (Intel SDM Vol. 3B, 18.15.6.2; Table 19-29: uop_type "does not cause a counter
// to increment", front_end_event "counts the retirement of tagged uops"; Table 19-31: memory_loads
// and memory_stores set TAGLOADS/TAGSTORES in uop_type's ESCR and count front_end_event NBOGUS).
// uop_type on RAT_ESCR0 tags the load uops, its own counter stays at 0, and front_end_event on
// CRU_ESCR3 counts the tagged loads, not the untagged stores.
TEST_F(netburstDriver, UopTypeOnlyTagsAndFrontEndEventCountsTheTaggedUopsAtRetirement) {
  probed();
  const std::size_t uop = event_row("uop_type");
  ASSERT_EQ(D::configure(12, ev("uop_type:TAGLOADS")), Status::ok);
  ASSERT_EQ(D::configure(14, ev("front_end_event:NBOGUS")), Status::ok);
  ASSERT_EQ(D::configure(13, ev("front_end_event:BOGUS")), Status::ok);
  EXPECT_EQ(D::escr_of(12), EscrId::RAT_ESCR0);
  EXPECT_EQ(D::escr_of(14), EscrId::CRU_ESCR3);
  D::start((1u << 12) | (1u << 13) | (1u << 14));
  model.event(uop, 1u << 1, 7);  // 7 load uops
  model.event(uop, 1u << 2, 5);  // 5 store uops
  EXPECT_EQ(D::read(12), 0u) << "uop_type increments no counter";
  EXPECT_EQ(D::read(14), 7u) << "the tagged loads, at retirement";
  EXPECT_EQ(D::read(13), 0u) << "every uop retires non-bogus here";
  D::stop((1u << 12) | (1u << 13) | (1u << 14));
}

// What tags: the uop_type ESCR alone, for the privilege levels its OS/USR bits name (the SDM's
// front-end tagging names only that ESCR's bits; no counter, CCCR, tag enable or tag value). Its
// counter is never started here; a user-mode-only ESCR does not tag uops at CPL 0.
TEST_F(netburstDriver, FrontEndTaggingNeedsOnlyTheUopTypeEscrForTheUopsPrivilegeLevel) {
  probed();
  const std::size_t uop = event_row("uop_type");
  ASSERT_EQ(D::configure(12, ev("uop_type:TAGSTORES:u")), Status::ok);
  ASSERT_EQ(D::configure(14, ev("front_end_event:NBOGUS")), Status::ok);
  EXPECT_EQ(model.escr(EscrId::RAT_ESCR0) & 0x1F0u, 0u) << "no tag enable, no tag value";
  D::start(1u << 14);  // counter 12 stays stopped: its CCCR does not take part in tagging
  model.event(uop, 1u << 2, 3, Mode::os);
  EXPECT_EQ(D::read(14), 0u) << "CPL 0 stores: the ESCR tags at CPL > 0 only";
  model.event(uop, 1u << 2, 4, Mode::usr);
  EXPECT_EQ(D::read(14), 4u) << "user-mode stores are tagged; front_end_event counts in both modes";
  D::stop(1u << 14);
  D::deconfigure(1u << 12);
  model.event(uop, 1u << 2, 9, Mode::usr);
  D::start(1u << 14);
  model.event(uop, 1u << 2, 9, Mode::usr);
  EXPECT_EQ(D::read(14), 4u) << "the ESCR cleared: nothing tagged";
  D::stop(1u << 14);
}

// instr_retired's tag masks (Table 19-29: "whether they are tagged using the front-end tagging
// mechanism"): an instruction with a uop that front-end tagging tags retires as NBOGUSTAG, every
// other as NBOGUSNTAG.
TEST_F(netburstDriver, InstrRetiredCountsInstructionsWithFrontEndTaggedUopsAsNbogusTag) {
  probed();
  constexpr std::uint16_t kLoads = 1u << 1, kStores = 1u << 2;
  ASSERT_EQ(D::configure(12, ev("uop_type:TAGLOADS")), Status::ok);
  ASSERT_EQ(D::configure(13, ev("instr_retired:NBOGUSTAG")), Status::ok);
  ASSERT_EQ(D::configure(15, ev("instr_retired:NBOGUSNTAG")), Status::ok);
  D::start((1u << 13) | (1u << 15));
  model.instructions_retired(3, kLoads);
  model.instructions_retired(2, kLoads | kStores);
  model.instructions_retired(4, kStores);
  model.instructions_retired(5);
  EXPECT_EQ(D::read(13), 5u) << "instructions with a load: tagged";
  EXPECT_EQ(D::read(15), 9u) << "stores are not tagged by TAGLOADS";
  D::stop((1u << 13) | (1u << 15));
}

TEST_F(netburstDriver, ThresholdCompareComplementAndEdgeFilterPerClock) {
  probed();
  ASSERT_EQ(D::configure(12, ev("instr_retired:NBOGUSNTAG:thr=2")), Status::ok);
  ASSERT_EQ(D::configure(14, ev("instr_retired:NBOGUSNTAG:thr=2:cmpl")), Status::ok);
  ASSERT_EQ(D::configure(13, ev("instr_retired:NBOGUSNTAG:thr=2:e")), Status::ok) << "same ESCR set-up: shared";
  D::start((1u << 12) | (1u << 13) | (1u << 14));
  model.clocks(kInstr, 0x1, 3, 4);  // 4 clocks of 3 > 2
  model.clocks(kInstr, 0x1, 1, 2);  // 2 clocks of 1 <= 2
  model.clocks(kInstr, 0x1, 3, 1);
  EXPECT_EQ(D::read(12), 5u) << "clocks above the threshold";
  EXPECT_EQ(D::read(14), 2u) << "complement: clocks at or below";
  EXPECT_EQ(D::read(13), 2u) << "edge: rising edges of the above-threshold output";
}

TEST_F(netburstDriver, CounterWritesGoTwiceForErratumN15) {
  probed();
  model.set_write_needs_twice(true);
  D::write(0, 12345);
  EXPECT_EQ(D::read(0), 12345u);
  Regs<Bus>::write_raw<Counter<2>>(777);  // one write alone does not take
  EXPECT_EQ(D::read(2), 0u);
}

// --- cascades -------------------------------------------------------------------------------

// SDM 18.15.5.6: counters 0 and 2, 1 and 3 cascade in each block; 16 only from 14, 17 only from 15.
TEST_F(netburstDriver, CascadePairsAreTheSdmsAndNoOthers) {
  for (unsigned lo = 0; lo < kCounters; ++lo) {
    for (unsigned hi = 0; hi < kCounters; ++hi) {
      bool want = false;
      if (lo != 1 && hi != 1) {
        if (lo < 16 && hi < 16) want = (lo / 4 == hi / 4) && (lo % 4 + 2) % 4 == hi % 4;
        want = want || (lo == 14 && hi == 16) || (lo == 15 && hi == 17);
      }
      EXPECT_EQ(cascade_legal(lo, hi), want) << lo << "->" << hi;
    }
  }
  EXPECT_FALSE(cascade_legal(16, 14)) << "14 cannot be cascaded from 16";
  EXPECT_FALSE(cascade_legal(12, 16)) << "16 only from 14";
  EXPECT_FALSE(cascade_legal(3, 1)) << "counter 1 never";
}

// A cascade counting one event: the value is the low counter's 2^40 plus the high counter once the
// low one has overflowed. An event injected after every access of the read never makes it wrong.
TEST_F(netburstDriver, ARunningCascadeReadsConsistentlyWithAnEventAtEveryStep) {
  probed();
  static prof::Profiler<D> p;
  const std::uint64_t span = std::uint64_t{1} << 40;
  for (unsigned at = 1; at <= 12; ++at) {
    SCOPED_TRACE(at);
    p.clear();
    prof::Counter lo, hi;
    ASSERT_EQ(p.add_on(12, ev("instr_retired:NBOGUSNTAG"), lo), Status::ok);
    ASSERT_EQ(p.add_on(14, ev("instr_retired:NBOGUSNTAG"), hi), Status::ok);
    ASSERT_EQ(p.link(lo, hi), Status::ok);
    p.start();
    D::stop(1u << 12);
    D::write(12, span - 1);
    D::start(1u << 12);
    model.reset_access_count();
    static bool injected;
    injected = false;
    model.after_access(
        at,
        [](void* m) {
          static_cast<Model*>(m)->event(event_row("instr_retired"), 0x1, 1);
          injected = true;
        },
        &model);
    const std::uint64_t v = p.read(hi);
    EXPECT_TRUE(v == span - 1 || v == span) << v;
    model.after_access(0, nullptr, nullptr);
    if (!injected) count(kInstr, 1);
    EXPECT_EQ(p.read(hi), span);
    count(kInstr, 25);
    EXPECT_EQ(p.read(hi), span + 25) << "the high counter took over";
    EXPECT_EQ(model.counter(14), 25u);
    p.stop();
  }
  p.clear();
}

// Once the low counter has overflowed, the high one counts every event: with the event occurring on
// every access (cycles, as on a running core), no two reads of the high counter agree. A cascade
// read must still settle on its first pass, not retry until it gives up (pmusim showed the
// profiler doing that on executing firmware).
TEST_F(netburstDriver, ACascadeCountingOnEveryAccessReadsWithoutGivingUp) {
  probed();
  static prof::Profiler<D> p;
  p.clear();
  const std::uint64_t span = std::uint64_t{1} << 40;
  prof::Counter lo, hi;
  ASSERT_EQ(p.add_on(0, ev("global_power_events:RUNNING"), lo), Status::ok);
  ASSERT_EQ(p.add_on(2, ev("global_power_events:RUNNING"), hi), Status::ok);
  ASSERT_EQ(p.link(lo, hi), Status::ok);
  p.start();
  D::stop(1u << 0);
  D::write(0, span - 20);
  D::start(1u << 0);
  model.set_cycles_per_access(1);
  std::uint64_t prev = 0;
  for (int i = 0; i < 12; ++i) {
    const std::uint64_t v = p.read(hi);
    EXPECT_GT(v, prev) << i;
    EXPECT_LT(v, span + 2000) << i;
    prev = v;
  }
  model.set_cycles_per_access(0);
  EXPECT_GT(prev, span) << "the high counter took over";
  EXPECT_EQ(p.read_giveups(), 0u) << "a cascade read gave up";
  p.stop();
  p.clear();
}

TEST_F(netburstDriver, ClearingTheLowCountersOvfHaltsTheHighOne) {
  probed();
  ASSERT_EQ(D::configure(0, ev("global_power_events")), Status::ok);
  ASSERT_EQ(D::configure(2, ev("global_power_events")), Status::ok);
  ASSERT_EQ(D::link(0, 2), Status::ok);
  EXPECT_EQ(D::link(0, 3), Status::not_linkable);
  D::write(0, kCounterMask);
  D::start(0x5u);
  EXPECT_EQ(model.cccr(2) & (cccr::ENABLE | cccr::CASCADE), cccr::CASCADE) << "Y: CASCADE 1, ENABLE 0";
  model.cycles(1);
  model.cycles(10);
  EXPECT_EQ(D::read(2), 10u);
  D::clear_overflow(0x1u);
  model.cycles(10);
  EXPECT_EQ(D::read(2), 10u) << "halted with X's OVF";
  EXPECT_EQ(D::read(0), 20u) << "X counts on after its overflow";
}

// stop() is a read-modify-write of each CCCR. A counter that overflows between the read and the
// write (here one event injected after each access of the stop) must keep its OVF: writing back
// the OVF read before erased it, losing 2^40 of a counting counter and the start of a cascade's
// high counter (issue 31, item 3).
TEST_F(netburstDriver, StopKeepsAnOverflowThatLandsInItsReadModifyWrite) {
  probed();
  ASSERT_EQ(D::configure(12, ev("instr_retired:NBOGUSNTAG")), Status::ok);
  for (unsigned at = 1; at <= 8; ++at) {
    SCOPED_TRACE(at);
    D::clear_overflow(1u << 12);
    D::write(12, kCounterMask);
    D::start(1u << 12);
    model.reset_access_count();
    model.after_access(at, [](void* m) { static_cast<Model*>(m)->event(event_row("instr_retired"), 0x1, 1); }, &model);
    D::stop(1u << 12);
    model.after_access(0, nullptr, nullptr);
    const bool wrapped = model.counter(12) == 0;
    EXPECT_EQ(D::overflow_status(), wrapped ? 1u << 12 : 0u) << "counter " << model.counter(12);
    EXPECT_EQ(model.cccr(12) & cccr::ENABLE, 0u) << "stopped";
  }
  D::clear_overflow(1u << 12);
}

struct InjectingRig {
  static inline prof::Profiler<D> p{};
  static inline prof::SampleRing<64> ring{};
  static inline prof::Sampler<D, prof::SampleRing<64>> sampler{p, ring};
  static inline bool injected = false;
  static void irq(void*) { sampler.on_pmu_interrupt(0x100, 0x200); }
  static void inject(void* m) {
    static_cast<Model*>(m)->event(event_row("instr_retired"), 0x1, 1);
    injected = true;
  }
};

// The sampling interrupt's general path stops and restarts every counter in use. A counting
// counter and a cascade's low counter, one event from their overflow, with that event injected
// after each access of the handler: whenever it was counted, the counting counter reads 2^40 + what
// followed and the cascade's high counter has started (issue 31, item 3).
TEST_F(netburstDriver, TheSamplingHandlerKeepsTheOverflowsOfTheCountersItStops) {
  probed();
  D::set_pmi_vector(0xF0);
  const std::uint64_t span = std::uint64_t{1} << 40;
  unsigned handler_accesses = 0;
  for (unsigned at = 1; at <= 64; ++at) {
    SCOPED_TRACE(at);
    Bus::clear_log();  // 64 runs of four counters would fill the access log
    auto& p = InjectingRig::p;
    p.clear();
    InjectingRig::ring = {};
    prof::Counter cyc, lo, hi, plain;
    ASSERT_EQ(p.add_on(0, ev("global_power_events:RUNNING"), cyc), Status::ok);
    ASSERT_EQ(p.add_on(12, ev("instr_retired:NBOGUSNTAG"), lo), Status::ok);
    ASSERT_EQ(p.add_on(14, ev("instr_retired:NBOGUSNTAG"), hi), Status::ok);
    ASSERT_EQ(p.add_on(13, ev("instr_retired:NBOGUSNTAG"), plain), Status::ok);
    ASSERT_EQ(p.link(lo, hi), Status::ok);
    p.start();
    ASSERT_EQ(InjectingRig::sampler.arm(cyc, 100), Status::ok);
    D::stop((1u << 12) | (1u << 13));
    D::write(12, kCounterMask);
    D::write(13, kCounterMask);
    D::start((1u << 12) | (1u << 13));
    model.on_interrupt(&InjectingRig::irq, nullptr);
    InjectingRig::injected = false;
    model.reset_access_count();
    model.after_access(at, &InjectingRig::inject, &model);
    model.cycles(100);  // the sampled counter's PMI: the handler runs, the event lands inside it
    model.after_access(0, nullptr, nullptr);
    model.on_interrupt(nullptr, nullptr);
    if (!InjectingRig::injected) {
      handler_accesses = handler_accesses ? handler_accesses : at - 1;
      count(kInstr, 1);
    }
    ASSERT_EQ(InjectingRig::ring.size(), 1u);
    // The injected event counts where it found the counter running; a stopped one missed it.
    const bool lo_wrapped = model.counter(12) == 0, plain_wrapped = model.counter(13) == 0;
    count(kInstr, 25);
    EXPECT_EQ(p.read(plain), span + (plain_wrapped ? 25 : 24)) << "the counting counter lost its overflow";
    EXPECT_EQ(p.read(hi), span + (lo_wrapped ? 25 : 24)) << "the cascade's high counter did not start";
    InjectingRig::sampler.disarm();
    p.stop();
  }
  EXPECT_GT(handler_accesses, 10u) << "every access of the handler was tried";
  InjectingRig::p.clear();
  D::release_pmi_vector();
}

// --- PMI ------------------------------------------------------------------------------------

struct Rig {
  static inline prof::Profiler<D> p{};
  static inline prof::SampleRing<64> ring{};
  static inline prof::Sampler<D, prof::SampleRing<64>> sampler{p, ring};
  static void irq(void*) { sampler.on_pmu_interrupt(0x100, 0x200); }
};

TEST_F(netburstDriver, EachPmiMasksTheLvtEntryAndClearOverflowUnmasksItAfterOvf) {
  probed();
  D::set_pmi_vector(0xF0);
  EXPECT_FALSE(D::pmi_masked());
  Rig::p.clear();
  Rig::ring = {};
  model.on_interrupt(&Rig::irq, nullptr);
  prof::Counter c;
  ASSERT_EQ(Rig::p.add(ev("instr_retired:NBOGUSNTAG"), c), Status::ok);
  Rig::p.start();
  ASSERT_EQ(Rig::sampler.arm(c, 100), Status::ok);
  for (int i = 0; i < 100; ++i) count(kInstr, 10);
  EXPECT_EQ(Rig::ring.size(), 10u);
  EXPECT_EQ(model.interrupts(), 10u) << "one PMI per period, none repeated";
  EXPECT_FALSE(D::pmi_masked());
  Rig::sampler.disarm();
  Rig::p.clear();
  model.on_interrupt(nullptr, nullptr);
  D::release_pmi_vector();
}

// Why the order matters: a handler that unmasks before clearing OVF is interrupted again at once
// (an overflowed counter keeps asserting).
TEST_F(netburstDriver, UnmaskingBeforeClearingOvfTakesTheSamePmiTwice) {
  ASSERT_NO_FATAL_FAILURE(counter_12_at_its_top());
  model.on_interrupt(
      [](void*) {
        D::pmi_acknowledge();  // wrong order
        D::clear_overflow(1u << 12);
      },
      nullptr);
  count(kInstr, 2);  // the overflow, then its PMI
  EXPECT_EQ(model.interrupts(), 2u);
  model.on_interrupt([](void*) { D::clear_overflow(1u << 12); }, nullptr);  // right order
  D::write(12, kCounterMask);
  count(kInstr, 2);
  EXPECT_EQ(model.interrupts(), 3u);
  EXPECT_FALSE(D::pmi_masked());
  model.on_interrupt(nullptr, nullptr);
  D::stop(1u << 12);
  D::release_pmi_vector();
  EXPECT_TRUE(D::pmi_masked());
}

// The local APIC takes the PMI as an edge (only LINT0/1 can be level-triggered, SDM Vol. 3A
// 10.5.1) and holds it until the CPU can take it: a PMI raised while the CPU masks interrupts is
// delivered afterwards, even though OVF was cleared meanwhile, and masks the LVT entry as every
// PMI does (issue 31, item 5).
TEST_F(netburstDriver, TheApicHoldsAPmiRaisedWhileTheCpuMasksInterrupts) {
  ASSERT_NO_FATAL_FAILURE(counter_12_at_its_top());
  static unsigned calls;
  calls = 0;
  model.on_interrupt([](void*) { ++calls; }, nullptr);
  {
    IrqGuard masked;
    count(kInstr, 2);  // OVF, then its PMI with the LVT entry unmasked: the APIC accepts it
    D::stop(1u << 12);
    D::clear_overflow(1u << 12);
    EXPECT_EQ(calls, 0u);
  }
  EXPECT_EQ(calls, 1u) << "the PMI the APIC held was lost";
  EXPECT_TRUE(D::pmi_masked()) << "a delivered PMI masks the LVT entry";
  model.on_interrupt(nullptr, nullptr);
  D::set_overflow_interrupt(1u << 12, false);
  D::release_pmi_vector();
}

// Intel SDM Vol. 3B, 18.15.3 (the CCCR's OVF_PMI: "the PMI is generated on the next event count
// after the counter has overflowed") and 18.15.5.8 (preset -99: the counter "will then overflow
// after it counts 99 events and generate an interrupt on the next (100th) event counted").
TEST_F(netburstDriver, ThePmiComesOnTheNextEventAfterTheOverflowSoMinus99InterruptsOnThe100th) {
  probed();
  D::set_pmi_vector(0xF0);
  ASSERT_EQ(D::configure(12, ev("instr_retired:NBOGUSNTAG")), Status::ok);
  D::set_overflow_interrupt(1u << 12, true);
  D::write(12, (std::uint64_t{1} << 40) - 99);
  D::start(1u << 12);
  count(kInstr, 98);
  EXPECT_EQ(model.interrupts(), 0u);
  count(kInstr, 1);
  EXPECT_NE(model.cccr(12) & cccr::OVF, 0u) << "the 99th event overflows";
  EXPECT_EQ(model.interrupts(), 0u) << "no PMI at the overflow itself";
  count(kInstr, 1);
  EXPECT_EQ(model.interrupts(), 1u) << "the PMI on the 100th event";
  D::stop(1u << 12);
  D::set_overflow_interrupt(1u << 12, false);
  D::clear_overflow(1u << 12);
  D::release_pmi_vector();
}

// The driver's sampling preset is the SDM's: -(N - 1) for a PMI on the N-th event (18.15.5.8),
// and one event cannot be had from a preset.
TEST_F(netburstDriver, PresetForSamplingIsTheSdmsMinus99ForAPmiOnThe100thEvent) {
  ASSERT_NO_FATAL_FAILURE(counter_12_at_its_top());
  D::stop(1u << 12);
  ASSERT_EQ(D::preset_for_sampling(12, 100), Status::ok);
  EXPECT_EQ(D::read(12), (std::uint64_t{1} << 40) - 99);
  EXPECT_EQ(D::preset_for_sampling(12, 1), Status::bad_argument);
  D::start(1u << 12);
  count(kInstr, 99);
  EXPECT_EQ(model.interrupts(), 0u);
  count(kInstr, 1);
  EXPECT_EQ(model.interrupts(), 1u) << "exactly 100 events";
  D::stop(1u << 12);
  D::set_overflow_interrupt(1u << 12, false);
  D::clear_overflow(1u << 12);
  D::release_pmi_vector();
}

// The profiler's Sampler on NetBurst: its preset gives the PMI on exactly every N-th event (not
// N + 1, as 2^40 - N would with the PMI one event after the overflow), and the sampled counter's
// 64-bit value reads every event, also between an overflow and its PMI.
TEST_F(netburstDriver, TheSamplerInterruptsOnEveryNthEventAndItsCounterReadsEveryEvent) {
  probed();
  D::set_pmi_vector(0xF0);
  Rig::p.clear();
  Rig::ring = {};
  model.on_interrupt(&Rig::irq, nullptr);
  prof::Counter c;
  ASSERT_EQ(Rig::p.add_on(12, ev("instr_retired:NBOGUSNTAG"), c), Status::ok);
  Rig::p.start();
  count(kInstr, 30);
  ASSERT_EQ(Rig::sampler.arm(c, 100), Status::ok);
  EXPECT_EQ(Rig::sampler.arm(c, 1), Status::bad_argument) << "no preset gives one event";
  ASSERT_EQ(Rig::sampler.arm(c, 100), Status::ok);
  EXPECT_EQ(D::read(12), (std::uint64_t{1} << 40) - 99);
  std::vector<unsigned> at;
  for (unsigned i = 1; i <= 350; ++i) {
    const std::size_t before = Rig::ring.size();
    count(kInstr, 1);
    if (Rig::ring.size() != before) at.push_back(i);
    ASSERT_EQ(Rig::p.read(c), 30u + i) << "event " << i;
  }
  EXPECT_EQ(at, (std::vector<unsigned>{100, 200, 300}));
  Rig::sampler.disarm();
  Rig::p.clear();
  model.on_interrupt(nullptr, nullptr);
  D::release_pmi_vector();
}

// The board's fast vector (examples/pc/board/pmu_fast.S) in C++, the way the assembly does it: the
// profiler's fold count bumped, the driver's rearm<0> with no overflow test before it, the re-arm
// counted in its own word (its ring's head, Profiler::count_rearms_in).
struct FastVectorRig {
  static inline prof::Profiler<D> p{};
  static inline prof::SampleRing<64> ring{};
  static inline prof::Sampler<D, prof::SampleRing<64>> sampler{p, ring};
  static inline prof::Counter cyc{};
  static inline volatile std::uint32_t rearms = 0;
  static inline unsigned not_wrapped = 0;  // vectors entered with bit 39 still set: no overflow
  static inline std::uint64_t injected = 0;
  static inline Model* model = nullptr;
  static constexpr std::uint32_t kPeriod = 100;
  static void vector(void*) {
    *p.fold_count_word() = *p.fold_count_word() + 1;
    not_wrapped += (D::read(0) >> 39 & 1u) != 0;
    D::rearm<0>(kPeriod);
    rearms = rearms + 1;
  }
  // The rest of the counter's period arrives at once: its overflow, then its PMI on the next event.
  static void overflow_now(void*) {
    const std::uint64_t n = kCounterMask - model->counter(0) + 2;
    injected += n;
    model->cycles(n);
  }
};

// A PMI the local APIC accepted is held in its IRR until the CPU takes it (Intel SDM Vol. 3A,
// 10.8.4), even if OVF is cleared or the LVT entry masked meanwhile. An overflow after the board's
// pmu_fast_stop masked interrupts (cli) and before disarm cleared OVF_PMI reaches the fast vector
// only after the next arm: the counter then holds its new preset, bit 39 set, and has not wrapped.
// rearm<0> must leave OVF clear there (OVF is sticky and only software clears it, SDM Vol. 3B
// 18.15.3): set, it asserts the PMI again and each interrupt rewinds one more period, 2^40 / period
// interrupts (the examples/pc hang under pmusim). The overflow lands after each access of the
// stop/disarm/arm sequence; the stale PMI is taken once, the sampling goes on at one per period and
// the sampled counter still reads every event.
TEST_F(netburstDriver, APmiHeldInTheApicAcrossDisarmAndArmIsTakenOnce_SdmVol3A_10_8_4) {
  using R = FastVectorRig;
  R::model = &model;
  R::not_wrapped = 0;
  unsigned total = 0, disarmed = 0;
  for (unsigned at = 0; at == 0 || at <= total; ++at) {  // at 0: the dry run, no overflow
    SCOPED_TRACE(at);
    model = Model{};
    Bus::reset();
    Bus::device = &model;
    probed();
    D::set_pmi_vector(0xF0);
    R::p.clear();
    R::ring = {};
    R::rearms = 0;
    R::injected = 0;
    ASSERT_EQ(R::p.add_on(0, ev("global_power_events:RUNNING"), R::cyc), Status::ok);
    R::p.start();
    R::p.count_rearms_in(R::cyc, &R::rearms, R::kPeriod);
    ASSERT_EQ(R::sampler.arm(R::cyc, R::kPeriod), Status::ok);
    model.on_interrupt(&R::vector, nullptr);
    model.cycles(250);
    const std::uint32_t before = model.interrupts();
    EXPECT_EQ(before, 2u);
    model.reset_access_count();
    if (at) model.after_access(at, &R::overflow_now, nullptr);
    {
      IrqGuard masked;  // the board's pmu_fast_stop (cli), then the example's next region:
      R::sampler.disarm();
      if (at == 0) disarmed = static_cast<unsigned>(model.accesses());
      R::p.count_rearms_in(R::cyc, &R::rearms, R::kPeriod);  // the re-arms so far folded in, then armed again
      ASSERT_EQ(R::sampler.arm(R::cyc, R::kPeriod), Status::ok);
      D::set_pmi_vector(0xF0);  // the board's pmu_fast_start, then sti
    }
    if (at == 0) total = static_cast<unsigned>(model.accesses());
    model.after_access(0, nullptr, nullptr);
    EXPECT_LE(model.interrupts() - before, 1u) << "one PMI held, taken once";
    const std::uint32_t held = model.interrupts();
    model.cycles(350);
    // 350 events of a period of 100: three PMIs (two after a spurious rewind, a period later; four
    // where the injected overflow's own PMI comes on the first of them). More would be PMIs for
    // periods no event filled.
    EXPECT_LE(model.interrupts() - held, 4u);
    EXPECT_EQ(model.cccr(0) & cccr::OVF, 0u);
    const std::uint64_t all = 250u + R::injected + 350u, v = R::p.read(R::cyc);
    if (at <= disarmed) {  // the overflow before the arm: its PMI held, or lost with OVF_PMI cleared
      EXPECT_GE(model.interrupts() - held, 2u) << "sampling goes on";
      EXPECT_EQ(v, all) << "the sampled counter reads every event, the spurious rewind counted";
    } else {  // inside arm: events between its read of the running counter and its preset write are
              // overwritten by the preset (arm's own window, not this race)
      EXPECT_TRUE(v == all || v == all - R::injected) << v << " of " << all;
    }
    R::sampler.disarm();
    R::p.count_rearms_in(R::cyc, nullptr, 0);
    R::p.clear();
    model.on_interrupt(nullptr, nullptr);
    D::release_pmi_vector();
    if (HasFailure()) break;  // one injection point's failures are enough
  }
  EXPECT_GT(total, 4u);
  EXPECT_GT(R::not_wrapped, 0u) << "no injection point held a PMI across the arm: the race was not reached";
}

// A cascade's high counter (SDM 18.15.5.6) starts at the low counter's overflow; its own PMI comes
// on its own next event after its overflow, like any counter's.
TEST_F(netburstDriver, ACascadesHighCounterInterruptsOnItsNextEventAfterItsOverflow) {
  probed();
  D::set_pmi_vector(0xF0);
  ASSERT_EQ(D::configure(12, ev("instr_retired:NBOGUSNTAG")), Status::ok);
  ASSERT_EQ(D::configure(14, ev("instr_retired:NBOGUSNTAG")), Status::ok);
  ASSERT_EQ(D::link(12, 14), Status::ok);
  D::set_overflow_interrupt(1u << 14, true);
  D::write(12, kCounterMask);
  D::write(14, kCounterMask);
  D::start((1u << 12) | (1u << 14));
  count(kInstr, 1);  // 12 overflows: 14 starts
  count(kInstr, 1);  // 14 overflows
  EXPECT_NE(model.cccr(14) & cccr::OVF, 0u);
  EXPECT_EQ(model.interrupts(), 0u);
  count(kInstr, 1);
  EXPECT_EQ(model.interrupts(), 1u) << "the high counter's next event";
  D::stop((1u << 12) | (1u << 14));
  D::set_overflow_interrupt(1u << 14, false);
  D::clear_overflow(1u << 14);
  D::release_pmi_vector();
}

TEST_F(netburstDriver, ALatePmiWithoutOvfIsSeenFromBit39) {
  probed();
  model.set_ovf_late(true);
  ASSERT_EQ(D::configure(12, ev("instr_retired:NBOGUSNTAG")), Status::ok);
  ASSERT_EQ(D::preset_for_sampling(12, 5), Status::ok);
  D::set_overflow_interrupt(1u << 12, true);
  D::start(1u << 12);
  count(kInstr, 5);
  EXPECT_EQ(model.cccr(12) & cccr::OVF, 0u) << "OVF not set yet";
  EXPECT_EQ(D::overflow_status(), 1u << 12) << "bit 39 went clear: overflowed";
  EXPECT_EQ(D::preset_for_sampling(12, (std::uint64_t{1} << 39) + 1), Status::bad_argument);
  D::stop(1u << 12);
  D::set_overflow_interrupt(1u << 12, false);
}

TEST_F(netburstDriver, ForcedOverflowRaisesOvfOnTheNextIncrement) {
  probed();
  ASSERT_EQ(D::configure(0, ev("global_power_events")), Status::ok);
  D::force_overflow(0, true);
  D::start(1u);
  model.cycles(1);
  EXPECT_EQ(D::overflow_status(), 1u);
  D::force_overflow(0, false);
  D::stop(1u);
  D::clear_overflow(1u);
}

}  // namespace

namespace {

TEST_F(netburstDriver, AnAmdFamily0FhPartIsNotThisPmu) {
  model.set_vendor_ebx(0x68747541u);  // "Auth"(enticAMD): K8 reports base family 0Fh
  EXPECT_EQ(D::probe().status, Status::unsupported_core);
  EXPECT_EQ(model.accesses(), 0u);
}

TEST_F(netburstDriver, InstrCompletedOnlyFromModel3) {
  probed();  // model 2
  EXPECT_EQ(D::configure(12, ev("instr_completed:NBOGUS")), Status::unsupported_event);
  model.set_cpuid(0xF, 3);
  probed();
  EXPECT_EQ(D::configure(12, ev("instr_completed:NBOGUS")), Status::ok);
}

TEST_F(netburstDriver, TheLvtEntryIsTheDefaultApicsUnlessTheBoardSaysOtherwise) {
  ApicBase::value = 0;
  D::set_pmi_vector(0xF0);
  EXPECT_EQ(ApicBase::value, kDefaultApicBase);
  D::set_apic_base(0xFEC00000u);
  D::set_pmi_vector(0xF0);
  EXPECT_EQ(ApicBase::value, 0xFEC00000u);
  D::release_pmi_vector();
  ApicBase::value = 0;
}

TEST_F(netburstDriver, ProfilerClearFreesTheEscrs) {
  probed();
  prof::Profiler<D> p;
  prof::Counter a;
  ASSERT_EQ(p.add_on(2, ev("IOQ_allocation:ALL_READ"), a), Status::ok);
  p.clear();
  EXPECT_EQ(D::escr_of(2), EscrId::none);
  EXPECT_EQ(model.escr(EscrId::FSB_ESCR1), 0u);
  ASSERT_EQ(p.add_on(3, ev("FSB_data_activity:DRDY_DRV"), a), Status::ok) << "FSB_ESCR1 is free again";
  p.clear();
}

TEST_F(netburstDriver, SamplingPeriodsKeepBit39SoTheLateOvfCheckHolds) {
  probed();
  prof::Profiler<D> p;
  prof::SampleRing<4> ring;
  prof::Sampler<D, prof::SampleRing<4>> s{p, ring};
  prof::Counter c;
  ASSERT_EQ(p.add(ev("instr_retired:NBOGUSNTAG"), c), Status::ok);
  EXPECT_EQ(s.arm(c, (std::uint64_t{1} << 39) + 1), Status::bad_argument);
  EXPECT_EQ(s.arm(c, std::uint64_t{1} << 39), Status::ok);
  EXPECT_EQ(D::read(p.slot_of(c)) >> 39 & 1u, 1u);
  s.disarm();
  p.clear();
}

}  // namespace
