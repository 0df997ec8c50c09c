#pragma once
// Shared set-up for the DWT host tests: one MockBus per test binary (Tag), the behavioural model
// behind it, and raw MMIO access for tests that check the model itself.
#include <gtest/gtest.h>

#include "tests/host/conformance/bus_checks.hpp"

#include <cstdint>

#include "hal/core/bus/irq.hpp"
#include "hal/core/bus/mock.hpp"
#include "hal/core/reg.hpp"
#include "hal/cortex_m_dwt/driver.hpp"
#include "hal/cortex_m_dwt/model.hpp"

namespace dwttest {

using pmu::u32;

template <class Tag>
struct Fixture : ::testing::Test {
  using Bus = pmu::MockBus<Tag>;
  using R = pmu::Regs<Bus>;
  using D = pmu::cortex_m_dwt::Driver<Bus>;

  pmu::cortex_m_dwt::Model model;

  void SetUp() override {
    Bus::reset();
    pmu::field_error_hook = nullptr;
    pmu::host_irq::masked = 0;
    pmu::host_irq::deferred = nullptr;
    Bus::device = &model;
  }
  void TearDown() override {
    conformance::expect_bus_clean<Bus>();
    EXPECT_EQ(model.reserved_writes(), 0u) << "a reserved bit was written as 1";
    Bus::reset();
  }
  template <class R_>
  static u32 get() {
    return R::template read_raw<R_>();
  }
  template <class R_>
  static void put(u32 v) {
    R::template write_raw<R_>(v);
  }
  // TRCENA on, as probe() leaves it.
  static void trace_on() { R::modify(pmu::cortex_m_dwt::demcr_trcena(1)); }
};

}  // namespace dwttest
