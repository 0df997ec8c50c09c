#pragma once
// Shared set-up for the RM7000 host tests: one MockBus per test binary (Tag), the behavioural model
// behind it, and raw CP0 access for tests that check the model itself.
#include <gtest/gtest.h>

#include "tests/host/conformance/bus_checks.hpp"

#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/reg.hpp"
#include "hal/rm7000/driver.hpp"
#include "hal/rm7000/model.hpp"

namespace rm7000test {

using pmu::u32;

template <class Tag>
struct Fixture : ::testing::Test {
  using Bus = pmu::MockBus<Tag>;
  using R = pmu::Regs<Bus>;
  using D = pmu::rm7000::Driver<Bus>;

  pmu::rm7000::Model model;

  void SetUp() override {
    Bus::reset();
    pmu::field_error_hook = nullptr;
    Bus::device = &model;
    D::force_core(pmu::rm7000::Core::unknown);  // each test starts undetected: probe() reads PRId
  }
  void TearDown() override {
    conformance::expect_bus_clean<Bus>();
    EXPECT_EQ(model.reserved_writes(), 0u) << "a reserved bit was written as 1";
    EXPECT_FALSE(model.interrupt_storm());
    Bus::reset();
  }

  // Raw mfc0/mtc0 and cfc0/ctc0, as an instruction would do them.
  template <class R_>
  static u32 get() {
    return R::template read_raw<R_>();
  }
  template <class R_>
  static void put(u32 v) {
    R::template write_raw<R_>(v);
  }
  // Accesses of any kind to PerfControl, PerfCount or Interrupt Control in the log.
  static std::size_t pmu_accesses() {
    std::size_t n = 0;
    for (auto key : {pmu::rm7000::PerfControl::location::key, pmu::rm7000::PerfCount::location::key,
                     pmu::rm7000::InterruptControl::location::key})
      n += Bus::count(key, pmu::MockOp::read) + Bus::count(key, pmu::MockOp::write);
    return n;
  }
};

}  // namespace rm7000test
