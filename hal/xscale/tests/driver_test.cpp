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

using xs_test::xscaleDriver;
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

// Overflow, flags, interrupt enables, the fold sequence and the variant specifics:
// driver_overflow_test.cpp.

}  // namespace
