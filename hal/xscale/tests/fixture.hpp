#pragma once
// Shared test scaffolding: one "case" per variant (model + driver on its own mock bus), and a
// fixture that attaches a fresh model before every test and checks the mock stayed healthy.
#include <gtest/gtest.h>

#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/model.hpp"

namespace xs_test {

using pmu::MockBus;
using pmu::MockOp;
using pmu::xscale::ModelConfig;
using pmu::xscale::ModelMode;

template <class ModelT, template <class> class DriverT, unsigned Slots>
struct Case {
  using Model = ModelT;
  using Bus = MockBus<Case>;
  using Pmu = DriverT<Bus>;
  static constexpr unsigned kSlots = Slots;
};
using Xsc2Case = Case<pmu::xscale::Xsc2Model, pmu::xscale::Xsc2, 5>;
using Xsc1Case = Case<pmu::xscale::Xsc1Model, pmu::xscale::Xsc1, 3>;

template <class C>
class Fixture : public ::testing::Test {
 protected:
  using Bus = typename C::Bus;
  using Pmu = typename C::Pmu;
  using Model = typename C::Model;
  static constexpr unsigned kSlots = C::kSlots;
  static constexpr std::uint32_t kAll = (1u << C::kSlots) - 1;

  void SetUp() override {
    Bus::reset();
    Pmu::forget_probe();
    pmu::field_error_hook = nullptr;
    attach(ModelConfig{});
  }
  void TearDown() override {
    EXPECT_EQ(Bus::unexpected_traps, 0u) << "a register trapped outside a probe";
    EXPECT_FALSE(Bus::register_file_full);
    EXPECT_EQ(Bus::log_dropped, 0u);
    Bus::device = nullptr;
    pmu::field_error_hook = nullptr;
  }
  void attach(ModelConfig cfg) {
    model = Model(cfg);
    Bus::device = &model;
  }
  // Reads / writes of register R since the last clear_log().
  template <class R>
  static std::size_t reads() {
    return Bus::template count<R>(MockOp::read);
  }
  template <class R>
  static std::size_t writes() {
    return Bus::template count<R>(MockOp::write);
  }

  Model model{};
};

// Every slot's counter register, for the log assertions.
template <class C, unsigned Slot>
using CounterOf = typename C::Pmu::template CounterReg<Slot>;

// The driver suites' fixture: feeds each slot its own events.
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
    for (unsigned n = 0; n + 1 < C::kSlots; ++n) ASSERT_EQ(Pmu::select_event(n, 0x10 + n), pmu::Status::ok);
  }
};

}  // namespace xs_test
