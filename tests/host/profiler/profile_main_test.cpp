// The one entry point's orchestration (profiler/profile_main_impl.hpp) on the test PMU and a test
// board: what it does where the PMU does not count (QEMU's e500, MIPS and NetBurst models).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "fake_backend.hpp"
using pmukit_backend = fake::Pmu<32>;
#include "profiler/c_api_impl.hpp"
#include "profiler/profile_main_impl.hpp"

using ::testing::HasSubstr;
using ::testing::Not;

namespace {

struct TestBoard {
  static inline std::string out;
  static inline pmukit::IrqCallback tick = nullptr;
  static void putc(char c) { out.push_back(c); }
  static bool timer_start(pmukit::IrqCallback t) {
    tick = t;
    return true;
  }
  static void timer_stop() { tick = nullptr; }
  static bool pmu_interrupt(pmukit::IrqCallback) { return false; }
  static void irq_enable() {}
  static void irq_disable() {}
};

int run() {
  for (std::uint32_t i = 0; i < 5 && TestBoard::tick != nullptr; ++i) TestBoard::tick(0x1000 + 4 * i, 0x2000);
  return 7;
}

}  // namespace

// Never a count the PMU did not make, and never a program left unprofiled because the PMU is
// missing: the run is still the region "main", the board's timer samples it, the dump is written,
// and the console says there are no counters and why.
TEST(ProfileMain, WithoutACountingPmuTheRunIsStillRegionMainSampledByTheTimerAndSaysSo) {
  fake::Pmu<32>::reset_state();
  fake::Pmu<32>::st.absent = true;
  TestBoard::out.clear();
  const int rc = pmukit::profile_main<TestBoard>(&run, nullptr, {"test", 0, 10'000, false});
  EXPECT_EQ(rc, 7);
  const std::string& out = TestBoard::out;
  EXPECT_THAT(out, HasSubstr("pmukit: counters: none: the PMU does not count here (PMU absent)"));
  EXPECT_THAT(out, HasSubstr("pmukit: sampling: board timer"));
  EXPECT_THAT(out, HasSubstr("pmukit: region main: not counted (no PMU counter), 5 samples"));
  EXPECT_THAT(out, HasSubstr("pmukit: dump written"));
  EXPECT_THAT(out, Not(HasSubstr("unmeasured")));
  EXPECT_EQ(pmukit_c::state.stats[pmukit_c::kRunRegion].calls, 1u);
  EXPECT_EQ(pmukit_c::state.profiler.counters_added(), 0u);
}

// Every region the C API offers named by the program, and the run's own "main" besides: the dump
// holds all PMUKIT_MAX_REGIONS + 1 (the list it is written from once had room for one fewer, so
// profile_main's dump wrote past it). Run under the ASan preset, the overflow is a failure here.
namespace {
int name_every_region() {
  for (unsigned i = 0; i < PMUKIT_MAX_REGIONS; ++i) pmukit_region_name(i, "user region");
  return 0;
}
}  // namespace

TEST(ProfileMain, AllRegionsNamedAndTheRunsOwnFitTheDump) {
  fake::Pmu<32>::reset_state();
  TestBoard::out.clear();
  EXPECT_EQ(pmukit::profile_main<TestBoard>(&name_every_region, nullptr, {"test", 0, 10'000, true}), 0);
  EXPECT_THAT(TestBoard::out, HasSubstr("pmukit: dump written"));
}
