#pragma once
// One ARMv7-A model on its own mock bus, for the PMU's own tests.
#include <gtest/gtest.h>

#include "hal/armv7a/driver.hpp"
#include "hal/armv7a/model.hpp"
#include "hal/core/bus/mock.hpp"

namespace armv7a_test {

struct Tag {};
using Bus = pmu::MockBus<Tag>;
using D = pmu::armv7a::CortexA15<Bus>;  // 6 event counters: slots 0 (PMCCNTR) .. 6
using R = pmu::Regs<Bus>;
namespace a = pmu::armv7a;

class Armv7a : public ::testing::Test {
 protected:
  void SetUp() override {
    Bus::reset();
    model = a::Model{};
    Bus::device = &model;
    D::forget_probe();
  }
  void TearDown() override {
    EXPECT_EQ(Bus::unexpected_traps, 0u);
    EXPECT_FALSE(Bus::register_file_full);
    Bus::device = nullptr;
  }
  a::Model model{};
};

}  // namespace armv7a_test
