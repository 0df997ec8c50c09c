// The driver against the behavioural models, both variants (typed tests) plus variant specifics.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace {

using namespace pmu;
using namespace pmu::xscale;
using xs_test::CounterOf;
using xs_test::Fixture;
using xs_test::Xsc1Case;
using xs_test::Xsc2Case;

static_assert(prof::Backend<Xsc2<MockBus<Xsc2Case>>>);
static_assert(prof::Backend<Xsc1<MockBus<Xsc1Case>>>);
static_assert(prof::Backend<Xsc2<Cp14Bus>>);  // the silicon instantiation satisfies it too
static_assert(Xsc2<Cp14Bus>::kSlots == 5 && Xsc1<Cp14Bus>::kSlots == 3);
static_assert(Xsc2<Cp14Bus>::kLink == LinkKind::none);
static_assert(Xsc2<Cp14Bus>::width(0) == 32 && Xsc2<Cp14Bus>::width(4) == 32 &&
              Xsc2<Cp14Bus>::width(5) == 0);
static_assert(&Xsc2<Cp14Bus>::catalog == &kXsc2Catalog && &Xsc1<Cp14Bus>::catalog == &kXsc1Catalog);

template <class C>
class xscaleDriver : public Fixture<C> {
 protected:
  using typename Fixture<C>::Pmu;
  using typename Fixture<C>::Bus;

  // Makes slot `s` count `n` events of kind `code` (CCNT: cycles).
  void feed(unsigned s, std::uint64_t n) {
    if (s == 0)
      this->model.cycles(n);
    else
      this->model.event(this->model.selected_event(s - 1), n);
  }
  // PMN n counts event 0x10 + n, so each PMN can be fed alone.
  void select_distinct() {
    for (unsigned n = 0; n + 1 < C::kSlots; ++n) ASSERT_EQ(Pmu::select_event(n, 0x10 + n), Status::ok);
  }
};
using Cases = ::testing::Types<Xsc2Case, Xsc1Case>;
TYPED_TEST_SUITE(xscaleDriver, Cases);

// ---- reads: exactly one register access, the right one ----
template <class C, unsigned S>
void check_one_read(typename C::Model& model) {
  using Bus = typename C::Bus;
  model.set_counter(S, 0xA0 + S);
  Bus::clear_log();
  EXPECT_EQ(C::Pmu::template read<S>(), 0xA0u + S);
  ASSERT_EQ(Bus::log_size, 1u) << "read<" << S << ">() must be exactly one register read";
  EXPECT_EQ(Bus::log[0].key, (CounterOf<C, S>::location::key));
  EXPECT_EQ(Bus::log[0].op, MockOp::read);
}
template <class C, unsigned... S>
void check_all_reads(typename C::Model& m, std::integer_sequence<unsigned, S...>) {
  (check_one_read<C, S>(m), ...);
}

TYPED_TEST(xscaleDriver, ReadSlotIsOneRegisterRead) {
  check_all_reads<TypeParam>(this->model, std::make_integer_sequence<unsigned, TypeParam::kSlots>{});
}

TYPED_TEST(xscaleDriver, RuntimeReadAndWriteReachTheRightCounter) {
  using Pmu = typename TestFixture::Pmu;
  using Bus = typename TestFixture::Bus;
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) Pmu::write(s, 0x1000u * (s + 1));
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) {
    EXPECT_EQ(this->model.counter(s), 0x1000u * (s + 1));
    Bus::clear_log();
    EXPECT_EQ(Pmu::read(s), 0x1000u * (s + 1));
    EXPECT_EQ(Bus::log_size, 1u);
  }
  EXPECT_EQ(Pmu::ccnt(), 0x1000u);
  EXPECT_EQ(Pmu::pmn(0), 0x2000u);
  Bus::clear_log();
  EXPECT_EQ(Pmu::read(TypeParam::kSlots), 0u) << "out of range: no access, 0";
  Pmu::write(TypeParam::kSlots, 5);
  EXPECT_EQ(Bus::log_size, 0u);
}

struct HookCapture {
  static inline int calls = 0;
  static inline u64 value = 0;
  static void on(const char*, const char*, u64 v) {
    ++calls;
    value = v;
  }
};

TYPED_TEST(xscaleDriver, WriteTooWideIsMaskedAndReported) {
  using Pmu = typename TestFixture::Pmu;
  HookCapture::calls = 0;
  field_error_hook = &HookCapture::on;
  Pmu::write(1, 0x1'2345'6789ull);
  EXPECT_EQ(this->model.counter(1), 0x23456789u);
  EXPECT_EQ(HookCapture::calls, 1);
  EXPECT_EQ(HookCapture::value, 0x1'2345'6789ull);
  Pmu::write(1, 0xFFFFFFFFull);
  EXPECT_EQ(HookCapture::calls, 1);
}

// ---- PMNC: enable, reset, divider ----
TYPED_TEST(xscaleDriver, EnableDisableAndBackendStartStop) {
  using Pmu = typename TestFixture::Pmu;
  using Bus = typename TestFixture::Bus;
  Pmu::enable();
  EXPECT_TRUE(this->model.enabled());
  EXPECT_TRUE(Pmu::enabled());
  Pmu::disable();
  EXPECT_FALSE(this->model.enabled());
  Bus::clear_log();
  Pmu::start(0);
  Pmu::start(1u << TypeParam::kSlots);  // no such slot
  EXPECT_EQ(Bus::log_size, 0u);
  EXPECT_FALSE(this->model.enabled());
  Pmu::start(0b10);  // E is global: any slot starts all
  EXPECT_TRUE(this->model.enabled());
  EXPECT_EQ(Bus::log_size, 2u) << "one PMNC read, one write";
  this->model.cycles(10);
  Pmu::stop(0b1);
  EXPECT_FALSE(this->model.enabled());
  this->model.cycles(10);
  EXPECT_EQ(this->model.ccnt(), 10u);
}

TYPED_TEST(xscaleDriver, ResetBitsResetOnlyWhatTheyName) {
  using Pmu = typename TestFixture::Pmu;
  auto preset = [&] {
    for (unsigned s = 0; s < TypeParam::kSlots; ++s) this->model.set_counter(s, 100 + s);
  };
  Pmu::enable();
  Pmu::set_ccnt_divider(true);
  preset();
  Pmu::reset_pmns();
  EXPECT_EQ(this->model.ccnt(), 100u);
  for (unsigned s = 1; s < TypeParam::kSlots; ++s) EXPECT_EQ(this->model.counter(s), 0u);
  preset();
  Pmu::reset_ccnt();
  EXPECT_EQ(this->model.ccnt(), 0u);
  EXPECT_EQ(this->model.counter(1), 101u);
  preset();
  Pmu::reset_counters();
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) EXPECT_EQ(this->model.counter(s), 0u);
  EXPECT_TRUE(this->model.enabled()) << "E kept";
  EXPECT_TRUE(this->model.divider()) << "D kept";
}

// P and C read back unpredictable: an update of PMNC must never write back a 1 read from them.
TYPED_TEST(xscaleDriver, ActionBitsReadAsOneNeverResetByAccident) {
  using Pmu = typename TestFixture::Pmu;
  this->attach({.actions_read_as_one = true});
  prof::Profiler<Pmu> p;  // the profiler's fold: flags read, stop, clear, restart
  prof::Counter c;
  ASSERT_EQ(p.add(pmu::Preset::cycles, c), Status::ok);
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) this->model.set_counter(s, 500);
  Pmu::enable();
  Pmu::set_ccnt_divider(true);
  Pmu::set_ccnt_divider(false);
  Pmu::set_overflow_interrupt(0b1, true);
  Pmu::clear_overflow(0b1);
  Pmu::disable();
  (void)Pmu::select_event(0, event::INSTR);
  Pmu::enable();
  this->model.raise_flag(0);
  EXPECT_EQ(p.fold_mask(1), 1u);
  Pmu::disable();
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) EXPECT_EQ(this->model.counter(s), 500u) << s;
}

TYPED_TEST(xscaleDriver, CcntDividerCountsEvery64thCycle) {
  using Pmu = typename TestFixture::Pmu;
  Pmu::set_ccnt_divider(true);
  EXPECT_TRUE(Pmu::ccnt_divider());
  Pmu::reset_ccnt();
  Pmu::start(1);
  this->model.cycles(64 * 5 + 63);
  EXPECT_EQ(Pmu::template read<0>(), 5u);
  this->model.cycles(1);
  EXPECT_EQ(Pmu::template read<0>(), 6u);
  Pmu::set_ccnt_divider(false);
  EXPECT_FALSE(Pmu::ccnt_divider());
  this->model.cycles(7);
  EXPECT_EQ(Pmu::template read<0>(), 13u);
}

// ---- events ----
TYPED_TEST(xscaleDriver, SelectEvent) {
  using Pmu = typename TestFixture::Pmu;
  constexpr unsigned pmns = TypeParam::kSlots - 1;
  for (unsigned n = 0; n < pmns; ++n) EXPECT_EQ(Pmu::select_event(n, 0x0A + n), Status::ok);
  for (unsigned n = 0; n < pmns; ++n) {
    EXPECT_EQ(Pmu::selected_event(n), 0x0Au + n);
    EXPECT_EQ(this->model.selected_event(n), 0x0Au + n) << "each PMN keeps its own select";
  }
  EXPECT_EQ(Pmu::select_event(pmns, 0x07), Status::bad_argument);
  EXPECT_EQ(Pmu::select_event(0, kCcntEvent), Status::unsupported_event);
  EXPECT_EQ(Pmu::selected_event(pmns), 0u);
}

TYPED_TEST(xscaleDriver, Configure) {
  using Pmu = typename TestFixture::Pmu;
  constexpr unsigned last = TypeParam::kSlots - 1;
  EXPECT_EQ(Pmu::configure(0, {kCcntEvent}), Status::ok);
  EXPECT_EQ(Pmu::configure(0, {event::INSTR}), Status::unsupported_event);
  EXPECT_EQ(Pmu::configure(1, {kCcntEvent}), Status::unsupported_event);
  EXPECT_EQ(Pmu::configure(1, {0x0E}), Status::unsupported_event) << "not in Table 8-12";
  EXPECT_EQ(Pmu::configure(last + 1, {event::INSTR}), Status::bad_argument);
  EXPECT_EQ(Pmu::configure(1, {event::INSTR, 1, 0}), Status::bad_argument);
  EXPECT_EQ(Pmu::configure(1, {event::INSTR, 0, 1}), Status::bad_argument);
  EXPECT_EQ(Pmu::configure(last, {event::DC_MISS}), Status::ok);
  EXPECT_EQ(this->model.selected_event(last - 1), event::DC_MISS);
  EXPECT_EQ(Pmu::configure(1, {event::BRANCH}), Status::ok);
  EXPECT_EQ(this->model.selected_event(0), event::BRANCH);
  EXPECT_EQ(this->model.selected_event(last - 1), event::DC_MISS) << "other selects untouched";
  Pmu::start(1);
  EXPECT_EQ(Pmu::configure(1, {event::INSTR}), Status::busy);
  EXPECT_EQ(this->model.selected_event(0), event::BRANCH);
  EXPECT_EQ(Pmu::link(0, 1), Status::not_linkable);
  EXPECT_EQ(Pmu::link(0, last + 1), Status::bad_argument);
}

// ---- overflow: every counter, interrupt on and off ----
struct Irq {
  static inline int calls = 0;
  static void on(void*) { ++calls; }
};

TYPED_TEST(xscaleDriver, EveryCounterOverflowsIntoItsOwnFlag) {
  using Pmu = typename TestFixture::Pmu;
  this->select_distinct();
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) {
    for (bool irq_on : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "slot " << s << " interrupt " << irq_on);
      Irq::calls = 0;
      this->model.on_interrupt(&Irq::on, nullptr);
      Pmu::set_overflow_interrupt(this->kAll, false);
      Pmu::set_overflow_interrupt(1u << s, irq_on);
      EXPECT_EQ(Pmu::interrupt_enables(), irq_on ? 1u << s : 0u);
      Pmu::write(s, 0xFFFFFFFF - 2);
      Pmu::start(1u << s);
      this->feed(s, 2);
      EXPECT_EQ(Pmu::overflow_status(), 0u);
      this->feed(s, 1);
      EXPECT_EQ(Pmu::read(s), 0u);
      EXPECT_EQ(Pmu::overflow_status(), 1u << s) << "exactly its own flag";
      EXPECT_EQ(Irq::calls, irq_on ? 1 : 0);
      this->feed(s, 5);  // counting continues after the overflow
      EXPECT_EQ(Pmu::read(s), 5u);
      Pmu::stop(1u << s);
      Pmu::clear_overflow(1u << s);
      EXPECT_EQ(Pmu::overflow_status(), 0u);
      EXPECT_FALSE(this->model.irq_line());
    }
  }
}

TYPED_TEST(xscaleDriver, ClearOverflowClearsExactlyTheNamedFlags) {
  using Pmu = typename TestFixture::Pmu;
  for (unsigned s = 0; s < TypeParam::kSlots; ++s) {
    for (unsigned t = 0; t < TypeParam::kSlots; ++t) this->model.raise_flag(t);
    ASSERT_EQ(Pmu::overflow_status(), this->kAll);
    Pmu::clear_overflow(1u << s);
    EXPECT_EQ(Pmu::overflow_status(), this->kAll & ~(1u << s)) << "slot " << s;
  }
  Pmu::clear_overflow(this->kAll);
  EXPECT_EQ(Pmu::overflow_status(), 0u);
  this->model.raise_flag(0);
  Pmu::clear_overflow(0);
  Pmu::clear_overflow(1u << TypeParam::kSlots);
  EXPECT_EQ(Pmu::overflow_status(), 1u);
}

TYPED_TEST(xscaleDriver, PerCounterInterruptEnables) {
  using Pmu = typename TestFixture::Pmu;
  Pmu::set_overflow_interrupt(0b101, true);
  EXPECT_EQ(this->model.inten(), 0b101u);
  Pmu::set_overflow_interrupt(0b010, true);
  EXPECT_EQ(this->model.inten(), 0b111u);
  Pmu::set_overflow_interrupt(0b001, false);
  EXPECT_EQ(this->model.inten(), 0b110u);
  EXPECT_EQ(Pmu::interrupt_enables(), 0b110u);
  Irq::calls = 0;
  this->model.on_interrupt(&Irq::on, nullptr);
  this->model.raise_flag(0);  // CCNT: enable off
  EXPECT_EQ(Irq::calls, 0);
  this->model.raise_flag(1);
  EXPECT_EQ(Irq::calls, 1);
}

// The enables live next to the flags (XSC1: same register; XSC2: separate). No update of one may
// clear the other, and clearing one flag leaves every other PMNC field as it was.
TYPED_TEST(xscaleDriver, FlagsSurviveEveryUpdate) {
  using Pmu = typename TestFixture::Pmu;
  ASSERT_EQ(Pmu::select_event(0, event::DC_MISS), Status::ok);
  ASSERT_EQ(Pmu::select_event(1, event::INSTR), Status::ok);
  Pmu::set_overflow_interrupt(0b010, true);
  Pmu::set_ccnt_divider(true);
  Pmu::enable();
  this->model.raise_flag(0);
  this->model.raise_flag(2);
  const std::uint32_t flags = 0b101;

  Pmu::set_overflow_interrupt(0b100, true);
  EXPECT_EQ(Pmu::overflow_status(), flags);
  EXPECT_EQ(Pmu::select_event(0, event::DC_ACCESS), Status::busy) << "E is set";
  Pmu::disable();
  EXPECT_EQ(Pmu::select_event(0, event::DC_ACCESS), Status::ok);
  Pmu::enable();
  EXPECT_EQ(Pmu::overflow_status(), flags);
  Pmu::set_ccnt_divider(false);
  Pmu::set_ccnt_divider(true);
  Pmu::disable();
  Pmu::enable();
  Pmu::reset_counters();
  Pmu::set_overflow_interrupt(0b001, false);
  EXPECT_EQ(Pmu::overflow_status(), flags) << "no update may clear a flag it did not name";

  Pmu::clear_overflow(0b001);
  EXPECT_EQ(Pmu::overflow_status(), 0b100u);
  EXPECT_EQ(this->model.inten(), 0b110u);
  EXPECT_EQ(this->model.selected_event(0), event::DC_ACCESS);
  EXPECT_EQ(this->model.selected_event(1), event::INSTR);
  EXPECT_TRUE(this->model.enabled());
  EXPECT_TRUE(this->model.divider());
}

// ---- the stop-read-clear-restart sequence ----
// The profiler's fold over this driver: flags read, counters stopped, exactly those flags
// cleared, restarted only if running, interrupt enables kept.
TYPED_TEST(xscaleDriver, ProfilerFoldStopsClearsAndRestarts) {
  using Pmu = typename TestFixture::Pmu;
  prof::Profiler<Pmu> p;
  prof::Counter cyc, ins;
  ASSERT_EQ(p.add(pmu::Preset::cycles, cyc), Status::ok);
  ASSERT_EQ(p.add(pmu::Preset::instructions, ins), Status::ok);
  Pmu::set_overflow_interrupt(this->kAll, true);
  p.start();
  this->model.raise_flag(0);
  this->model.raise_flag(1);
  EXPECT_EQ(p.fold(), 0b11u);
  EXPECT_EQ(p.read(cyc), 0x1'0000'0000ull);
  EXPECT_EQ(p.read(ins), 0x1'0000'0000ull);
  EXPECT_EQ(Pmu::overflow_status(), 0u);
  EXPECT_FALSE(this->model.irq_line());
  EXPECT_TRUE(this->model.enabled()) << "restarted";
  EXPECT_EQ(this->model.inten(), this->kAll) << "enables kept";

  // Nothing pending: nothing folded and FLAG is not written.
  TestFixture::Bus::clear_log();
  EXPECT_EQ(p.fold(), 0u);
  EXPECT_EQ(this->template writes<typename Pmu::FlagReg>(), 0u);
  EXPECT_TRUE(this->model.enabled());

  // Not running: not started by the fold.
  p.stop();
  this->model.raise_flag(0);
  (void)p.fold();
  EXPECT_FALSE(this->model.enabled());
}

// Sampling every N events through the profiler's Sampler: the conformance suite (conformance_test.cpp).

// ---- XSC1: the A-stepping erratum is beyond any sequence; document what the driver reports ----
class xscaleXsc1 : public Fixture<Xsc1Case> {};

TEST_F(xscaleXsc1, AStepErratumLosesTheEarlierFlag) {
  attach({.a_step_erratum = true});
  using P = Pmu;
  ASSERT_EQ(P::configure(1, {event::INSTR}), Status::ok);
  P::write(0, 0xFFFFFFFF);
  P::write(1, 0xFFFFFFFF);
  P::start(0b11);
  model.cycles(1);
  model.event(event::INSTR, 1);
  EXPECT_EQ(model.overflows(0), 1u);
  EXPECT_EQ(P::overflow_status(), 0b10u) << "CCNT's flag was lost";
}

TEST_F(xscaleXsc1, UpdatesAreOneReadAndOneWriteOfPmnc) {
  using P = Pmu;
  Bus::clear_log();
  P::set_overflow_interrupt(0b1, true);
  (void)P::select_event(1, event::DC_MISS);
  P::clear_overflow(0b100);
  EXPECT_EQ(reads<xsc1::PMNC>(), 3u);
  EXPECT_EQ(writes<xsc1::PMNC>(), 3u);
  EXPECT_EQ(Bus::log_size, 6u);
}

class xscaleXsc2 : public Fixture<Xsc2Case> {};

TEST_F(xscaleXsc2, FlagClearIsOneWriteAndTouchesNothingElse) {
  using P = Pmu;
  model.raise_flag(3);
  Bus::clear_log();
  P::clear_overflow(0b01000);
  ASSERT_EQ(Bus::log_size, 1u) << "W1C needs no read";
  EXPECT_EQ(Bus::log[0].key, xsc2::FLAG::location::key);
  EXPECT_EQ(Bus::log[0].value, 0b01000u);
}


}  // namespace

// ---- product and generation catalogs on the same registers ----
namespace {
using Xsc3Case = xs_test::Case<pmu::xscale::Xsc2Model, pmu::xscale::Xsc3, 5>;
using X80200Case = xs_test::Case<pmu::xscale::Xsc1Model, pmu::xscale::X80200, 3>;
struct xscaleXsc3 : xs_test::Fixture<Xsc3Case> {};
struct xscale80200 : xs_test::Fixture<X80200Case> {};
}  // namespace

TEST_F(xscaleXsc3, CountsAnL2EventTheXsc2CatalogRefuses) {
  attach(ModelConfig{.midr = 0x69056881});  // PXA30x
  EXPECT_EQ(pmu::xscale::read_variant<Bus>(), pmu::xscale::Variant::xsc3);
  EXPECT_EQ(Xsc2<Bus>::configure(1, pmu::EventConfig{0x20, 0, 0}), Status::unsupported_event);
  ASSERT_EQ(Pmu::configure(1, pmu::EventConfig{0x20, 0, 0}), Status::ok);  // L2_REQUEST on PMN0
  Pmu::start(0x2);
  model.event(0x20, 41);
  model.event(0x23, 5);  // L2_MISS: not selected
  Pmu::stop(0x2);
  EXPECT_EQ(Pmu::read(1), 41u);
}

TEST_F(xscale80200, BusEventsCountAndTheUndefinedCodesAreRefused) {
  EXPECT_EQ(Xsc1<Bus>::configure(1, pmu::EventConfig{0x10, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(Pmu::configure(2, pmu::EventConfig{0x13, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(Pmu::configure(2, pmu::EventConfig{0x17, 0, 0}), Status::unsupported_event);
  ASSERT_EQ(Pmu::configure(2, pmu::EventConfig{0x15, 0, 0}), Status::ok);  // BCU 1-bit error, PMN1
  Pmu::start(0x4);
  model.event(0x15, 3);
  Pmu::stop(0x4);
  EXPECT_EQ(Pmu::read(2), 3u);
}
