#pragma once
// The end-of-test checks every PMU's host tests make: the mock bus lost nothing and saw no trap
// outside a probe, and no probe left the kit's fault catching armed.
#include <gtest/gtest.h>

#include "hal/core/bus/mock.hpp"
#include "hal/core/fault.hpp"

namespace conformance {

enum class Traps : bool { unexpected_fail, allowed };

template <class Bus>
void expect_bus_clean(Traps traps = Traps::unexpected_fail) {
  EXPECT_FALSE(Bus::register_file_full) << "the mock's register file overflowed";
  EXPECT_EQ(Bus::log_dropped, 0u) << "the access log overflowed";
  if (traps == Traps::unexpected_fail) {
    EXPECT_EQ(Bus::unexpected_traps, 0u) << "a register trapped outside a probe";
  }
  EXPECT_EQ(pmu::fault::state.armed, 0u) << "a probe left fault catching armed";
}

}  // namespace conformance
