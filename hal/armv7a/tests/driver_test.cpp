// The ARMv7-A driver: slots, start/stop by set/clear registers, probe, the reads' cost per
// counter, and the interrupt contract for the shared PMSELR.
#include "hal/armv7a/tests/fixture.hpp"

#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace armv7a_test {
namespace {

using namespace pmu::armv7a;

TEST_F(Armv7a, SlotsAreTheCycleCounterThenEventCountersInOrder) {
  static_assert(D::kSlots == 7);
  model.set_pmn(0, 100);
  model.set_pmn(5, 105);
  R::write_raw<PMCCNTR>(42);
  EXPECT_EQ(D::read(0), 42u);
  EXPECT_EQ(D::read(1), 100u);
  EXPECT_EQ(D::read(6), 105u);
  EXPECT_EQ(D::slots_for(event::CPU_CYCLES), 0x7Fu) << "PMCCNTR and every event counter";
  EXPECT_EQ(D::slots_for(event::INST_RETIRED), 0x7Eu) << "PMCCNTR counts cycles only";
  EXPECT_EQ(D::slots_for(0x100), 0u);
}

// The "one instruction per read" promise, per counter: PMCCNTR is one MRC; an event counter is
// MCR PMSELR, ISB, MRC PMXEVCNTR (tests/zero_cost_probe.cpp checks the compiled code).
TEST_F(Armv7a, ReadInstructionsPerCounter) {
  static_assert(D::read_instructions<0>() == 1);
  static_assert(D::read_instructions<1>() == 3 && D::read_instructions<6>() == 3);
  EXPECT_EQ(D::read_instructions(0), 1u);
  EXPECT_EQ(D::read_instructions(3), 3u);
  EXPECT_EQ(D::read_instructions(7), 0u);
  Bus::clear_log();
  (void)D::read<0>();
  EXPECT_EQ(Bus::log_size, 1u);
  Bus::clear_log();
  (void)D::read<3>();
  EXPECT_EQ(Bus::log_size, 3u);  // select, barrier, access
}

// C12 counter enables: start and stop are one PMCNTENSET / PMCNTENCLR write for the named slots;
// stopping one counter leaves the others counting (no global enable).
TEST_F(Armv7a, C12_StopOneCounterKeepsTheOthersCounting) {
  ASSERT_EQ(D::configure(1, {event::INST_RETIRED}), pmu::Status::ok);
  ASSERT_EQ(D::configure(2, {event::INST_RETIRED}), pmu::Status::ok);
  D::start(0b111);
  EXPECT_TRUE(model.enabled_e());
  EXPECT_EQ(model.pmcntenset(), 0x80000003u);
  Bus::clear_log();
  D::stop(0b010);
  EXPECT_EQ(Bus::log_size, 1u) << "one PMCNTENCLR write";
  model.event(event::INST_RETIRED, 4);
  model.cycles(3);
  EXPECT_EQ(D::read(1), 0u);
  EXPECT_EQ(D::read(2), 4u);
  EXPECT_EQ(D::read(0), 3u);
  EXPECT_EQ(D::counter_enables(), 0b101u);
}

// B4.1 PMXEVTYPER: configure writes evtCount through the select; an event outside the 8-bit field
// or not in the catalog is refused.
TEST_F(Armv7a, B4_1_PMXEVTYPER_ConfigureSelectsTheEvent) {
  ASSERT_EQ(D::configure(4, {event::L1D_CACHE_REFILL}), pmu::Status::ok);
  EXPECT_EQ(model.evtype(3), event::L1D_CACHE_REFILL);
  EXPECT_EQ(D::selected_event(3), event::L1D_CACHE_REFILL);
  EXPECT_EQ(D::configure(4, {0x108}), pmu::Status::unsupported_event);
  EXPECT_EQ(D::configure(0, {event::INST_RETIRED}), pmu::Status::unsupported_event);
  EXPECT_EQ(D::configure(0, {event::CPU_CYCLES}), pmu::Status::ok);
  EXPECT_EQ(D::configure(7, {event::CPU_CYCLES}), pmu::Status::bad_argument);
}

// B4.1 PMCR.N: probe learns how many event counters the part has; slots past them are unavailable.
TEST_F(Armv7a, B4_1_PMCR_N_ProbeMarksSlotsPastNUnavailable) {
  model = Model{ModelConfig{.counters = 4, .cycles_per_access = 1}};
  const pmu::ProbeResult r = D::probe();
  EXPECT_EQ(r.status, pmu::Status::ok);
  EXPECT_EQ(D::probe_report().counters, 4u);
  EXPECT_EQ(r.working_slots, 0b11111u);
  EXPECT_EQ(D::configure(5, {event::INST_RETIRED}), pmu::Status::counter_unavailable);
  EXPECT_EQ(model.pmcntenset(), 0u) << "probe leaves every counter disabled";
  EXPECT_EQ(model.pmovsr(), 0u);
}

// B4.1 PMCEID0/PMCEID1 exist only from PMUv2: on a part without them (QEMU 7.2's cortex-a15,
// measured) the probe reads them under fault::traps, reports 0 and still finds the PMU.
TEST_F(Armv7a, B4_1_PMCEID_ProbeSurvivesAPartWhosePmceidTraps) {
  model = Model{ModelConfig{.pmceid_traps = true, .cycles_per_access = 1}};
  const pmu::ProbeResult r = D::probe();
  EXPECT_EQ(r.status, pmu::Status::ok);
  EXPECT_EQ(r.working_slots, 0x7Fu);
  EXPECT_EQ(D::probe_report().pmceid0, 0u);
  EXPECT_EQ(Bus::unexpected_traps, 0u) << "PMCEID read outside fault::traps";
}

TEST_F(Armv7a, ProbeOnACoreWithoutTheExtensionSaysAbsent) {
  model = Model{ModelConfig{.absent = true}};
  EXPECT_EQ(D::probe().status, pmu::Status::pmu_absent);
}

// ---- The interrupt contract (hal/core/driver.hpp) for PMSELR, the state the event counters'
// accesses share (B4.1 PMSELR: PMXEVCNTR reaches the counter PMSELR.SEL selects).

// An interrupt lands between the thread's PMSELR write and its PMXEVCNTR read, and its handler
// reads another event counter (selecting it). Holding the driver's InterruptScope, the handler
// writes the thread's select back, and the thread reads the counter it selected.
void handler_reads_counter0(void*) {
  [[maybe_unused]] const pmu::InterruptScope<D> scope{};
  (void)D::read(1);  // event counter 0: PMSELR = 0
}
TEST_F(Armv7a, B4_1_PMSELR_AnInterruptBetweenSelectAndAccessGetsTheSelectRestored) {
  model.set_pmn(0, 1000);
  model.set_pmn(2, 3333);
  model.reset_access_count();
  model.after_access(1, &handler_reads_counter0, nullptr);  // right after the thread's select
  EXPECT_EQ(D::read(3), 3333u) << "read event counter 0's value: the select was not restored";
  EXPECT_EQ(model.pmselr(), 2u);
}

// The same through the profiler: event counter 0's sampling interrupt lands between the thread's
// select of event counter 2 and its access, and the Sampler re-arms event counter 0 (selecting
// it), by either entry. The Sampler's entries hold the InterruptScope; without it the thread
// reads event counter 0.
struct SamplerRig {
  static inline prof::Profiler<D> p{};
  static inline prof::SampleRing<16> ring{};
  static inline prof::Sampler<D, prof::SampleRing<16>> sampler{p, ring};
  static inline Model* m = nullptr;
  static void irq(void*) { sampler.on_pmu_interrupt(0x100, 0x200); }
  static void fast_irq(void*) { sampler.on_pmu_interrupt<1>(0x100, 0x200); }
  static void overflow_now(void*) { m->event(event::INST_RETIRED, 1000); }  // counter 0's sample
};
TEST_F(Armv7a, B4_1_PMSELR_SamplerInterruptBetweenSelectAndAccessKeepsTheThreadsCounter) {
  for (const bool fast : {false, true}) {
    SCOPED_TRACE(fast ? "on_pmu_interrupt<1>" : "on_pmu_interrupt");
    SamplerRig::m = &model;
    SamplerRig::p.clear();
    SamplerRig::ring = {};
    prof::Counter a, b;
    ASSERT_EQ(SamplerRig::p.add_on(1, {event::INST_RETIRED}, a), pmu::Status::ok);
    ASSERT_EQ(SamplerRig::p.add_on(3, {event::L1D_CACHE}, b), pmu::Status::ok);
    SamplerRig::p.start();
    ASSERT_EQ(SamplerRig::sampler.arm(a, 1000), pmu::Status::ok);
    model.on_interrupt(fast ? &SamplerRig::fast_irq : &SamplerRig::irq, nullptr);
    model.event(event::L1D_CACHE, 6);
    model.reset_access_count();
    model.after_access(1, &SamplerRig::overflow_now, nullptr);  // right after the thread's select
    EXPECT_EQ(D::read(3), 6u) << "the thread's PMXEVCNTR read reached another counter";
    EXPECT_EQ(SamplerRig::ring.size(), 1u) << "the interrupt came between the select and the access";
    EXPECT_EQ(SamplerRig::p.read(a), 1000u);
    SamplerRig::sampler.disarm();
    SamplerRig::p.clear();
    model.on_interrupt(nullptr, nullptr);
  }
}

}  // namespace
}  // namespace armv7a_test
