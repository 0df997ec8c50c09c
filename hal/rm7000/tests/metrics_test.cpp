// The RM7000 metric table against the datasheet's Table 10 (Performance Counter Control): each
// metric is the ratio of the two events its name says; there is no misprediction event.
#include <gtest/gtest.h>

#include "hal/rm7000/metrics.hpp"
#include "tests/host/conformance/metric_checks.hpp"

namespace {

namespace rm = pmu::rm7000;
namespace ev = pmu::rm7000::event;
using pmutest::is_ratio;

TEST(Rm7000Metrics, IpcIsInstructionsIssuedOverClockCycles_Table10) {
  EXPECT_TRUE(is_ratio(rm::metrics, "ipc", {{ev::INSTR_ISSUED}}, {{ev::CYCLES}}, 1.0));
  EXPECT_TRUE(is_ratio(rm::metrics, "cpi", {{ev::CYCLES}}, {{ev::INSTR_ISSUED}}, 1.0));
}

TEST(Rm7000Metrics, CacheRatiosUseTheCacheMissEventsOfTable10) {
  EXPECT_TRUE(is_ratio(rm::metrics, "icache_misses_per_kinstr", {{0x0B}}, {{ev::INSTR_ISSUED}}, 1000.0));
  EXPECT_TRUE(is_ratio(rm::metrics, "dcache_miss_ratio", {{0x0C}}, {{0x04}, {0x05}}, 100.0));
  EXPECT_TRUE(is_ratio(rm::metrics, "scache_misses_per_kinstr", {{0x0A}}, {{ev::INSTR_ISSUED}}, 1000.0));
}

TEST(Rm7000Metrics, TlbRatiosUseTheTlbMissEventsOfTable10) {
  EXPECT_TRUE(is_ratio(rm::metrics, "dtlb_misses_per_kinstr", {{0x0D}}, {{ev::INSTR_ISSUED}}, 1000.0));
  EXPECT_TRUE(is_ratio(rm::metrics, "itlb_misses_per_kinstr", {{0x0E}}, {{ev::INSTR_ISSUED}}, 1000.0));
  EXPECT_TRUE(is_ratio(rm::metrics, "jtlb_misses_per_kinstr", {{0x0F}, {0x10}}, {{ev::INSTR_ISSUED}}, 1000.0));
}

TEST(Rm7000Metrics, StallAndBranchRatiosUseTable10) {
  EXPECT_TRUE(is_ratio(rm::metrics, "stall_fraction", {{0x09}}, {{ev::CYCLES}}, 100.0));
  EXPECT_TRUE(is_ratio(rm::metrics, "dcache_miss_stall_fraction", {{0x15}}, {{ev::CYCLES}}, 100.0));
  EXPECT_TRUE(is_ratio(rm::metrics, "branches_per_kinstr", {{0x12}}, {{ev::INSTR_ISSUED}}, 1000.0));
  EXPECT_TRUE(is_ratio(rm::metrics, "branch_taken_ratio", {{0x11}}, {{0x12}}, 100.0));
}

// Table 10 has no misprediction event (0x07 counts branch prefetches): no ratio pretends one.
TEST(Rm7000Metrics, NoBranchMispredictRatioWithoutAMispredictionEvent_Table10) {
  for (std::size_t i = 0; i < rm::metrics.count; ++i) {
    EXPECT_NE(std::string(rm::metrics.metrics[i].name), "branch_mispredict_ratio");
    for (std::size_t k = 0; k < rm::metrics.metrics[i].num_count; ++k)
      EXPECT_NE(rm::metrics.metrics[i].num[k].code, 0x07u) << rm::metrics.metrics[i].name;
  }
}

}  // namespace
