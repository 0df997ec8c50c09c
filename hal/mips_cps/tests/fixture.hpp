#pragma once
// Shared set-up for the MIPS CM host tests: one MockBus per test binary (Tag), the behavioural model
// behind it (Reading: where Perf_Ovf_Stop stops a counter, the model's switch), the driver
// undetected and unclaimed at the start of every test.
#include <gtest/gtest.h>

#include "tests/host/conformance/bus_checks.hpp"

#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/reg.hpp"
#include "hal/mips_cps/driver.hpp"
#include "hal/mips_cps/model.hpp"

namespace mipscmtest {

using pmu::u32;

template <class Tag, pmu::mips_cps::OvfStopReading Reading = pmu::mips_cps::OvfStopReading::stops_at_max>
struct Fixture : ::testing::Test {
  using Bus = pmu::MockBus<Tag>;
  using R = pmu::Regs<Bus>;
  using D = pmu::mips_cps::Driver<Bus>;
  static constexpr pmu::mips_cps::OvfStopReading kReading = Reading;

  pmu::mips_cps::Model model{Reading};

  void SetUp() override {
    Bus::reset();
    pmu::field_error_hook = nullptr;
    Bus::device = &model;
    D::force_release();
    D::set_gcr_base(0);
    D::force_revision(pmu::mips_cps::Revision::unknown);
    D::set_pcint_source(pmu::mips_cps::kNotWired);
  }
  void TearDown() override {
    conformance::expect_bus_clean<Bus>();
    EXPECT_EQ(model.reserved_writes(), 0u) << "an undefined bit was written as 1";
    EXPECT_FALSE(model.interrupt_storm());
    EXPECT_FALSE(model.nesting_exceeded());
    Bus::reset();
  }

  // Probes and claims on VP 0, as a firmware's boot VP does; the model counts a CM cycle per access.
  void found_and_claimed() {
    model.set_cycles_per_access(1);
    ASSERT_EQ(D::probe().status, pmu::Status::ok);
    model.set_cycles_per_access(0);
    ASSERT_EQ(D::claim(), pmu::Status::ok);
  }
  // Writes of any GCR register in the log.
  static std::size_t gcr_writes() {
    std::size_t n = 0;
    for (std::size_t i = 0; i < Bus::log_size; ++i)
      if ((Bus::log[i].key >> 24) == static_cast<u32>(pmu::BusKind::mmio) && Bus::log[i].op == pmu::MockOp::write)
        ++n;
    return n;
  }
  static std::size_t gcr_accesses() {
    std::size_t n = 0;
    for (std::size_t i = 0; i < Bus::log_size; ++i)
      if ((Bus::log[i].key >> 24) == static_cast<u32>(pmu::BusKind::mmio)) ++n;
    return n;
  }
};

}  // namespace mipscmtest
