#pragma once
// The conformance suite every PMU backend instantiates with its driver and its behavioural model:
// what the pmu::Driver contract promises, checked the same way for every PMU.
//
//   struct MyTraits {
//     using Bus = pmu::MockBus<MyTraits>;
//     using Driver = mypmu::Driver<Bus>;
//     using Model = mypmu::Model;
//     static pmu::EventConfig event_for(unsigned slot);      // an event this slot can count
//     static void count(Model&, unsigned slot, std::uint64_t n);  // n such events happen
//     static void prepare(Model&);  // optional: what a firmware does before configure() (e.g. a
//                                   // claim on a PMU shared by several cores)
//     static bool usable(unsigned slot);  // optional: false for a slot the driver never uses
//     static constexpr unsigned kLinkLo = 0, kLinkHi = 1;  // optional: a linkable pair
//   };
//   INSTANTIATE_TYPED_TEST_SUITE_P(MyPmu, Conformance, ::testing::Types<MyTraits>);
//
// Checked: slots and widths; every slot reads back what was written; a counter preset to
// 2^width - 1 raises its overflow condition on the next event and wraps at its register width;
// the condition is cleared by clear_overflow for exactly the named slots; the interrupt fires
// only when enabled (with the overflow, or as many events after it as the driver's
// kPmiEventsAfterOverflow says); the profiler's Sampler takes exactly one sample per period, and
// its compile-time-slot path (the driver's rearm<Slot>) keeps the events since each overflow and
// catches up after interrupts were masked for periods; fold() leaves a pending sample to the
// interrupt; linked counters (where the PMU links) count past 32 bits; a value too wide for a
// counter is counted as a narrowing error; configure<Slot, Ev>() is the program step of
// configure() after a compile-time check; probe() on an absent PMU says so without an unexpected
// trap.
// Each PMU is checked for what it declares (D::kCapabilities): overflow, interrupt, link and sampling
// parts are skipped (GTEST_SKIP, named in the output) for a PMU that declares it has none; the
// rest (slots, read-back, wrap, narrowing, probe) holds for every PMU.
#include <gtest/gtest.h>

#include "tests/host/conformance/bus_checks.hpp"

#include <bit>
#include <cstdint>
#include <vector>

#include "hal/core/bus/irq.hpp"
#include "hal/core/bus/mock.hpp"
#include "hal/core/driver.hpp"
#include "hal/core/fault.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace conformance {

template <class T>
class Conformance : public ::testing::Test {
 protected:
  using Bus = typename T::Bus;
  using D = typename T::Driver;
  using Model = typename T::Model;
  static constexpr unsigned kSlots = D::kSlots;

  void SetUp() override {
    Bus::reset();
    pmu::field_error_hook = nullptr;
    model = Model{};
    Bus::device = &model;
    if constexpr (requires { T::prepare(model); }) T::prepare(model);
  }
  void TearDown() override {
    expect_bus_clean<Bus>();
    Bus::device = nullptr;
  }
  // Configures and starts one slot alone, at `value`.
  static void arm(unsigned slot, std::uint64_t value) {
    // The suite checks no access counts, and an 18-counter PMU fills the log; a log that already
    // overflowed is kept, so TearDown still reports it.
    if (Bus::log_dropped == 0) Bus::clear_log();
    D::stop(D::kAllSlots);
    ASSERT_EQ(D::configure(slot, T::event_for(slot)), pmu::Status::ok) << "slot " << slot;
    D::clear_overflow(D::kAllSlots);
    D::write(slot, value);
    D::start(1u << slot);
  }
  static std::uint64_t top(unsigned slot) {  // 2^width - 1: one event before the condition
    return prof::low_mask(D::width(slot));
  }
  // Events from the overflow to its interrupt (NetBurst: the PMI on the next event).
  static constexpr unsigned kLag = pmu::pmi_events_after_overflow<D>();
  // A sampled counter's register `into` events after its last sample (the Sampler's preset).
  static std::uint64_t sampled_at(unsigned slot, std::uint64_t period, std::uint64_t into) {
    return prof::sampling_preset<D>(D::width(slot), period) + into;
  }
  static bool usable(unsigned slot) {
    if constexpr (requires { T::usable(slot); })
      return T::usable(slot);
    else
      return true;
  }
  // The n-th usable slot.
  static unsigned nth_usable(unsigned n) {
    for (unsigned s = 0; s < kSlots; ++s)
      if (usable(s) && n-- == 0) return s;
    return kSlots;
  }
  static constexpr unsigned link_lo() {
    if constexpr (requires { T::kLinkLo; }) return T::kLinkLo; else return 0;
  }
  static constexpr unsigned link_hi() {
    if constexpr (requires { T::kLinkHi; }) return T::kLinkHi; else return 1;
  }

  // The parts of the suite a PMU declares (kCapabilities, hal/core/driver.hpp).
  static constexpr pmu::Capabilities kCaps = D::kCapabilities;

  Model model{};
};

// Skips the rest of a test whose capability the PMU does not declare.
#define CONFORMANCE_NEEDS(cap) \
  if (!TestFixture::kCaps.cap) GTEST_SKIP() << "the PMU does not declare " #cap

TYPED_TEST_SUITE_P(Conformance);

TYPED_TEST_P(Conformance, SlotsAndWidths) {
  using D = typename TestFixture::D;
  static_assert(pmu::Driver<D>, "the driver keeps the pmu::Driver contract");
  static_assert(pmu::capabilities_sound<D>(),
                "kCapabilities agrees with the hooks: link with kLink, sampling with rearm<Slot>");
  ASSERT_GT(D::kSlots, 0u);
  ASSERT_LE(D::kSlots, 32u);
  for (unsigned s = 0; s < D::kSlots; ++s) {
    // A counter without an overflow condition may be narrow (the Cortex-M DWT's 8-bit counters):
    // the profiler polls it (Capabilities::overflow).
    EXPECT_GE(D::width(s), TestFixture::kCaps.overflow ? 31u : 8u) << s;
    EXPECT_LE(D::width(s), 64u) << s;
    if (this->usable(s)) {
      EXPECT_NE(D::slots_for(TypeParam::event_for(s).code) & (1u << s), 0u) << s;
    }
  }
  EXPECT_EQ(D::width(D::kSlots), 0u) << "no width past the last slot";
  EXPECT_TRUE(pmu::catalog_sound(D::catalog));
}

TYPED_TEST_P(Conformance, EverySlotReadsBackWhatWasWritten) {
  using D = typename TestFixture::D;
  for (unsigned s = 0; s < D::kSlots; ++s) {
    const std::uint64_t v = (0x12345678u + s) & prof::low_mask(pmu::register_bits(D::width(s)));
    D::write(s, v);
    EXPECT_EQ(D::read(s), v) << "slot " << s;
  }
  D::write(0, 0x55);
  EXPECT_EQ(D::template read<0>(), 0x55u);
}

TYPED_TEST_P(Conformance, OverflowConditionOnTheNextEventAfterTheTop) {
  using D = typename TestFixture::D;
  CONFORMANCE_NEEDS(overflow);
  for (unsigned s = 0; s < D::kSlots; ++s) {
    if (!this->usable(s)) continue;
    SCOPED_TRACE(s);
    this->arm(s, this->top(s) - 1);
    TypeParam::count(this->model, s, 1);
    EXPECT_EQ(D::overflow_status() & (1u << s), 0u) << "too early";
    TypeParam::count(this->model, s, 1);
    EXPECT_NE(D::overflow_status() & (1u << s), 0u) << "at 2^width";
    D::stop(D::kAllSlots);
    D::clear_overflow(1u << s);
    EXPECT_EQ(D::overflow_status() & (1u << s), 0u) << "cleared";
    EXPECT_EQ(D::read(s) & prof::low_mask(D::width(s)), 0u) << "low bits wrapped to 0";
  }
}

TYPED_TEST_P(Conformance, CounterWrapsAtItsRegisterWidth) {
  using D = typename TestFixture::D;
  for (unsigned s = 0; s < D::kSlots; ++s) {
    if (!this->usable(s)) continue;
    SCOPED_TRACE(s);
    const std::uint64_t reg_max = prof::low_mask(pmu::register_bits(D::width(s)));
    this->arm(s, reg_max);
    TypeParam::count(this->model, s, 3);
    D::stop(D::kAllSlots);
    EXPECT_EQ(D::read(s), 2u) << "wrapped through zero";
  }
}

TYPED_TEST_P(Conformance, ClearingOneConditionKeepsTheOthers) {
  using D = typename TestFixture::D;
  CONFORMANCE_NEEDS(overflow);
  if (D::kSlots < 2) GTEST_SKIP() << "one slot";
  const unsigned a = this->nth_usable(0), b = this->nth_usable(1);
  const std::uint32_t ma = 1u << a, mb = 1u << b;
  this->arm(a, this->top(a));
  TypeParam::count(this->model, a, 1);
  this->arm(b, this->top(b));  // stops everything, then starts slot b only
  TypeParam::count(this->model, b, 1);
  D::stop(D::kAllSlots);
  ASSERT_EQ(D::overflow_status() & (ma | mb), mb) << "arm() cleared slot a's condition";
  // Raise slot a again and clear only slot b.
  this->arm(a, this->top(a));
  TypeParam::count(this->model, a, 1);
  D::stop(D::kAllSlots);
  ASSERT_NE(D::overflow_status() & ma, 0u);
  D::clear_overflow(mb);
  EXPECT_NE(D::overflow_status() & ma, 0u) << "slot a's condition survives clearing slot b";
}

TYPED_TEST_P(Conformance, InterruptOnlyWhenEnabled) {
  using D = typename TestFixture::D;
  CONFORMANCE_NEEDS(interrupt);
  for (unsigned s = 0; s < D::kSlots; ++s) {
    if (!this->usable(s)) continue;
    SCOPED_TRACE(s);
    const auto before = this->model.interrupts();
    this->arm(s, this->top(s));
    TypeParam::count(this->model, s, 1 + this->kLag);
    EXPECT_EQ(this->model.interrupts(), before) << "disabled: no interrupt";
    D::stop(D::kAllSlots);
    this->arm(s, this->top(s));
    D::set_overflow_interrupt(1u << s, true);
    TypeParam::count(this->model, s, 1);
    if (this->kLag) {
      EXPECT_EQ(this->model.interrupts(), before)
          << "the overflow: the interrupt comes " << this->kLag << " event(s) later";
      TypeParam::count(this->model, s, this->kLag);
    }
    EXPECT_EQ(this->model.interrupts(), before + 1) << "enabled: one interrupt";
    D::stop(D::kAllSlots);
    D::set_overflow_interrupt(1u << s, false);
    D::clear_overflow(D::kAllSlots);
  }
}

template <class T>
struct SamplerRig {
  static inline prof::Profiler<typename T::Driver> p{};
  static inline prof::SampleRing<64> ring{};
  static inline prof::Sampler<typename T::Driver, prof::SampleRing<64>> sampler{p, ring};
  static void irq(void*) { sampler.on_pmu_interrupt(0x100, 0x200); }
};

TYPED_TEST_P(Conformance, SamplerTakesOneSamplePerPeriod) {
  using D = typename TestFixture::D;
  CONFORMANCE_NEEDS(sampling);
  using Rig = SamplerRig<TypeParam>;
  constexpr std::uint64_t kPeriod = 1000;
  for (unsigned s = 0; s < D::kSlots; ++s) {
    if (!this->usable(s)) continue;
    SCOPED_TRACE(s);
    Rig::p.clear();
    Rig::ring = {};
    this->model.on_interrupt(&Rig::irq, nullptr);
    prof::Counter c;
    ASSERT_EQ(Rig::p.add_on(s, TypeParam::event_for(s), c), pmu::Status::ok);
    Rig::p.start();
    ASSERT_EQ(Rig::sampler.arm(c, kPeriod), pmu::Status::ok);
    for (int i = 0; i < 45; ++i) TypeParam::count(this->model, s, 100);  // 4500 events
    EXPECT_EQ(Rig::ring.size(), 4u);
    EXPECT_EQ(Rig::ring.dropped(), 0u);
    Rig::sampler.disarm();
    Rig::p.clear();
    this->model.on_interrupt(nullptr, nullptr);
  }
}

template <class T>
struct FastSamplerRig {
  static inline prof::Profiler<typename T::Driver> p{};
  static inline prof::SampleRing<64> ring{};
  static inline prof::Sampler<typename T::Driver, prof::SampleRing<64>> sampler{p, ring};
  // Compiled for every PMU; a PMU without rearm<Slot> skips these tests (it declares no sampling).
  static void irq(void*) {
    if constexpr (requires { T::Driver::template rearm<0>(std::uint64_t{}); })
      sampler.template on_pmu_interrupt<0>(0x100, 0x200);
    else
      sampler.on_pmu_interrupt(0x100, 0x200);
  }
  static void general_irq(void*) { sampler.on_pmu_interrupt(0x100, 0x200); }
  // A fresh profiler with c on slot 0, started and armed every `period` events, the model's
  // interrupt going to on_pmu_interrupt<0>.
  template <class Model>
  static bool start_sampling(Model& model, prof::Counter& c, std::uint64_t period) {
    p.clear();
    ring = {};
    model.on_interrupt(&irq, nullptr);
    if (p.add_on(0, T::event_for(0), c) != pmu::Status::ok) return false;
    p.start();
    return sampler.arm(c, period) == pmu::Status::ok;
  }
};

// on_pmu_interrupt<Slot>: one sample per period, and the events that came between the overflow and
// the re-arm (here up to 6, the rest of a batch of 7) count towards the next period: after 4,500
// events of a period of 1,000 the counter is exactly 500 into its fifth period. A re-arm that loads
// the preset (the general path's) loses them and fails here.
TYPED_TEST_P(Conformance, CompileTimeSlotSamplerKeepsTheEventsSinceTheOverflow) {
  using D = typename TestFixture::D;
  CONFORMANCE_NEEDS(sampling);
  using Rig = FastSamplerRig<TypeParam>;
  constexpr std::uint64_t kPeriod = 1000;
  ASSERT_TRUE(this->usable(0));
  prof::Counter c;
  ASSERT_TRUE(Rig::start_sampling(this->model, c, kPeriod));
  const auto before = Rig::sampler.interrupts();
  for (int i = 0; i < 642; ++i) TypeParam::count(this->model, 0, 7);
  TypeParam::count(this->model, 0, 6);  // 4,500 events
  EXPECT_EQ(Rig::ring.size(), 4u);
  EXPECT_EQ(Rig::ring.dropped(), 0u);
  EXPECT_EQ(Rig::sampler.interrupts() - before, 4u);
  D::stop(D::kAllSlots);
  EXPECT_EQ(D::read(0), this->sampled_at(0, kPeriod, 500)) << "events lost at a re-arm";
  EXPECT_EQ(D::overflow_status() & 1u, 0u) << "the last overflow was not acknowledged";
  Rig::sampler.disarm();
  Rig::p.clear();
  this->model.on_interrupt(nullptr, nullptr);
}

// on_pmu_interrupt<Slot> with another counter's overflow set as well: the general path folds that
// one (its condition gone, its 64-bit value exact) and still takes the sample. A fast path that
// looked at its own slot only would leave the other condition set.
TYPED_TEST_P(Conformance, CompileTimeSlotSamplerFoldsAnotherOverflow) {
  using D = typename TestFixture::D;
  CONFORMANCE_NEEDS(sampling);
  using Rig = FastSamplerRig<TypeParam>;
  if (D::kSlots < 2) GTEST_SKIP() << "one slot";
  constexpr std::uint64_t kPeriod = 1000;
  const unsigned b = this->nth_usable(1);
  ASSERT_TRUE(this->usable(0));
  ASSERT_NE(b, 0u);
  Rig::p.clear();
  Rig::ring = {};
  prof::Counter c, other;
  ASSERT_EQ(Rig::p.add_on(0, TypeParam::event_for(0), c), pmu::Status::ok);
  ASSERT_EQ(Rig::p.add_on(b, TypeParam::event_for(b), other), pmu::Status::ok);
  Rig::p.start();
  const std::uint64_t past_top = this->top(b) + 1 + 3;  // b overflows (no interrupt: not armed)
  TypeParam::count(this->model, b, past_top);
  ASSERT_NE(D::overflow_status() & (1u << b), 0u);
  ASSERT_EQ(Rig::sampler.arm(c, kPeriod), pmu::Status::ok);  // after: slot 0 may count b's event
  this->model.on_interrupt(&Rig::irq, nullptr);
  TypeParam::count(this->model, 0, kPeriod);  // slot 0's overflow: the interrupt
  EXPECT_EQ(Rig::ring.size(), 1u);
  EXPECT_EQ(D::overflow_status() & ((1u << b) | 1u), 0u) << "a condition left set";
  // Where both slots count the same event (e500, NetBurst here), b also saw slot 0's period.
  const bool shared = TypeParam::event_for(0).code == TypeParam::event_for(b).code;
  EXPECT_EQ(Rig::p.read(other), past_top + (shared ? kPeriod : 0));
  Rig::sampler.disarm();
  Rig::p.clear();
  this->model.on_interrupt(nullptr, nullptr);
}

// on_pmu_interrupt<Slot> after interrupts were masked for more than a period (2,500 events of a
// period of 1,000 before the handler can run): a sample for each period that passed, and the
// counter again less than a period from its next sample. The condition stays set while a whole
// period is left to sample, so the interrupt comes back until the count is ahead of its overflow
// again (each re-arm moves it back by exactly one period). A re-arm that rewinds once and
// acknowledges leaves a counter that wraps to 0 (XScale, the CM, NetBurst) 2^width events from
// its next sample (issue 31, item 5).
TYPED_TEST_P(Conformance, CompileTimeSlotSamplerCatchesUpAfterInterruptsWereMasked) {
  using D = typename TestFixture::D;
  CONFORMANCE_NEEDS(sampling);
  using Rig = FastSamplerRig<TypeParam>;
  constexpr std::uint64_t kPeriod = 1000;
  ASSERT_TRUE(this->usable(0));
  prof::Counter c;
  ASSERT_TRUE(Rig::start_sampling(this->model, c, kPeriod));
  {
    pmu::IrqGuard masked;
    TypeParam::count(this->model, 0, 2500);  // two overflows' worth; the interrupt waits
    EXPECT_EQ(Rig::ring.size(), 0u);
  }
  EXPECT_EQ(Rig::ring.size(), 2u) << "one sample per period that passed while masked";
  TypeParam::count(this->model, 0, 2000);  // 4,500 events
  EXPECT_EQ(Rig::ring.size(), 4u) << "sampling stopped after the masked stretch";
  D::stop(D::kAllSlots);
  EXPECT_EQ(D::read(0), this->sampled_at(0, kPeriod, 500));
  EXPECT_EQ(D::overflow_status() & 1u, 0u);
  EXPECT_FALSE(this->model.interrupt_storm());
  Rig::sampler.disarm();
  Rig::p.clear();
  this->model.on_interrupt(nullptr, nullptr);
}

// Profiler::fold() while the sampled counter's overflow waits for its interrupt (masked): the
// fold leaves that condition to the interrupt, which takes the sample and re-arms, and sampling
// goes on one sample per period. Folding it acknowledged the sample away and left the counter
// 2^width events from the next one (e500 and RM7000: bit 31 cleared, the request gone).
TYPED_TEST_P(Conformance, FoldLeavesAPendingSampleToTheInterrupt) {
  using D = typename TestFixture::D;
  CONFORMANCE_NEEDS(sampling);
  using Rig = FastSamplerRig<TypeParam>;
  constexpr std::uint64_t kPeriod = 1000;
  ASSERT_TRUE(this->usable(0));
  prof::Counter c;
  ASSERT_TRUE(Rig::start_sampling(this->model, c, kPeriod));
  {
    pmu::IrqGuard masked;
    TypeParam::count(this->model, 0, 1200);  // overflowed; the interrupt waits
    EXPECT_EQ(Rig::p.fold() & 1u, 0u) << "fold() took the sampled counter's overflow";
  }
  EXPECT_EQ(Rig::ring.size(), 1u) << "the pending sample was lost";
  TypeParam::count(this->model, 0, 3300);  // 4,500 events
  EXPECT_EQ(Rig::ring.size(), 4u) << "sampling stopped after the fold";
  D::stop(D::kAllSlots);
  EXPECT_EQ(D::read(0), this->sampled_at(0, kPeriod, 500));
  Rig::sampler.disarm();
  Rig::p.clear();
  this->model.on_interrupt(nullptr, nullptr);
}

// A counter that is sampled is still a counter (issue 32 item 1): through both entries, read()
// gives every event since start, the re-arms' rewinds added back, and start() reads 0 again.
TYPED_TEST_P(Conformance, ASampledCounterReadsEveryEvent) {
  CONFORMANCE_NEEDS(sampling);
  using Rig = FastSamplerRig<TypeParam>;
  ASSERT_TRUE(this->usable(0));
  for (const bool fast : {true, false}) {
    SCOPED_TRACE(fast ? "on_pmu_interrupt<0>" : "on_pmu_interrupt");
    Rig::p.clear();
    Rig::ring = {};
    this->model.on_interrupt(fast ? &Rig::irq : &Rig::general_irq, nullptr);
    prof::Counter c;
    ASSERT_EQ(Rig::p.add_on(0, TypeParam::event_for(0), c), pmu::Status::ok);
    Rig::p.start();
    TypeParam::count(this->model, 0, 300);
    ASSERT_EQ(Rig::sampler.arm(c, 1000), pmu::Status::ok);
    EXPECT_EQ(Rig::p.read(c), 300u) << "arming keeps the count";
    for (int i = 0; i < 1000; ++i) TypeParam::count(this->model, 0, 7);
    EXPECT_EQ(Rig::ring.size(), 7u);
    EXPECT_EQ(Rig::p.read(c), 7300u);
    Rig::p.start();
    TypeParam::count(this->model, 0, 50);
    EXPECT_EQ(Rig::p.read(c), 50u) << "a sampled counter starts from 0 too";
    Rig::sampler.disarm();
    Rig::p.clear();
  }
  this->model.on_interrupt(nullptr, nullptr);
}

TYPED_TEST_P(Conformance, LinkedCountersCountPast32Bits) {
  using D = typename TestFixture::D;
  if constexpr (!TestFixture::kCaps.link) {
    EXPECT_EQ(D::link(0, 1), pmu::Status::not_linkable);
  } else {
    prof::Profiler<D> p;
    prof::Counter lo, hi;
    const unsigned l = this->link_lo(), h = this->link_hi();
    ASSERT_EQ(p.add_on(l, TypeParam::event_for(l), lo), pmu::Status::ok);
    ASSERT_EQ(p.add_on(h, TypeParam::event_for(l), hi), pmu::Status::ok);
    ASSERT_EQ(p.link(lo, hi), pmu::Status::ok);
    p.start();
    // A cascade's high counter starts only at the low one's overflow: count past it.
    const std::uint64_t n = (D::kLink == pmu::LinkKind::cascade ? std::uint64_t{1} << D::width(l) : 0) + (3ull << 32) + 7;
    TypeParam::count(this->model, l, n);
    EXPECT_EQ(p.read(hi), n);
  }
}

TYPED_TEST_P(Conformance, TooWideAValueIsCountedNotSilent) {
  using D = typename TestFixture::D;
  const std::uint32_t narrow = pmu::register_bits(D::width(0)) < 64 ? 1u : 0u;
  const std::uint32_t before = pmu::field_errors;
  D::write(0, ~std::uint64_t{0});
  EXPECT_EQ(pmu::field_errors, before + narrow);
  D::write(D::kSlots, 1);  // no such slot
  EXPECT_EQ(pmu::field_errors, before + narrow + 1);
}

// The contract's rule for configure<Slot, Ev>() (configure_fixed, hal/core/driver.hpp): the event
// checked at compile time, then the driver's program step, configure()'s work after its event
// check. So the same status and the same accesses to the PMU as configure(slot, ev), here on the
// first slot that counts the catalog's cycles.
TYPED_TEST_P(Conformance, CompileTimeConfigureIsTheProgramStepAfterACompileTimeCheck) {
  using D = typename TestFixture::D;
  using Bus = typename TestFixture::Bus;
  // By index, not by pointer: GCC's -fsanitize=undefined makes a pointer's compare with null no
  // constant expression (host-asan).
  constexpr std::size_t cycles = pmu::preset_index(D::catalog, pmu::Preset::cycles);
  if constexpr (cycles >= D::catalog.num_presets) {
    GTEST_SKIP() << "the catalog has no cycles preset";
  } else {
    constexpr pmu::EventConfig ev{D::catalog.presets[cycles].code, 0, 0};
    constexpr unsigned slot = static_cast<unsigned>(std::countr_zero(D::slots_for(ev.code)));
    static_assert(D::check_event(slot, ev) == pmu::Status::ok);
    static_assert(requires { D::template program<slot, ev>(); } || requires { D::program(slot, ev); },
                  "configure<Slot, Ev>() takes the driver's program step (configure_fixed)");
    Bus::clear_log();
    const pmu::Status at_run_time = D::configure(slot, ev);
    const std::vector<pmu::MockAccess> expected(Bus::log, Bus::log + Bus::log_size);
    ASSERT_EQ(at_run_time, pmu::Status::ok);
    ASSERT_EQ(Bus::log_dropped, 0u);
    if constexpr (requires { D::deconfigure(1u); }) D::deconfigure(1u << slot);
    this->SetUp();  // the PMU as before configure()
    Bus::clear_log();
    EXPECT_EQ((D::template configure<slot, ev>()), at_run_time);
    ASSERT_EQ(Bus::log_size, expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(Bus::log[i].key, expected[i].key) << "access " << i;
      EXPECT_EQ(Bus::log[i].op, expected[i].op) << "access " << i;
      EXPECT_EQ(Bus::log[i].value, expected[i].value) << "access " << i;
    }
  }
}

TYPED_TEST_P(Conformance, ProbeOnAnAbsentPmuSaysSo) {
  using D = typename TestFixture::D;
  this->model.set_absent(true);
  const pmu::ProbeResult r = D::probe();
  EXPECT_EQ(r.status, pmu::Status::pmu_absent);
  EXPECT_EQ(r.working_slots, 0u);
  EXPECT_EQ(pmu::fault::state.armed, 0u);
}

REGISTER_TYPED_TEST_SUITE_P(Conformance, SlotsAndWidths, EverySlotReadsBackWhatWasWritten,
                            OverflowConditionOnTheNextEventAfterTheTop,
                            CounterWrapsAtItsRegisterWidth, ClearingOneConditionKeepsTheOthers,
                            InterruptOnlyWhenEnabled, SamplerTakesOneSamplePerPeriod,
                            CompileTimeSlotSamplerKeepsTheEventsSinceTheOverflow,
                            CompileTimeSlotSamplerFoldsAnotherOverflow,
                            CompileTimeSlotSamplerCatchesUpAfterInterruptsWereMasked,
                            FoldLeavesAPendingSampleToTheInterrupt, ASampledCounterReadsEveryEvent,
                            LinkedCountersCountPast32Bits, TooWideAValueIsCountedNotSilent,
                            CompileTimeConfigureIsTheProgramStepAfterACompileTimeCheck,
                            ProbeOnAnAbsentPmuSaysSo);

}  // namespace conformance
