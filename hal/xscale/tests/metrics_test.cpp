// The XScale metric table against the Intel XScale Core Developer's Manual, 8.4.1-8.4.7: each mode's
// derived statistics, PMN0/PMN1 being the mode's events and CCNT the clock counter.
#include <gtest/gtest.h>

#include "hal/xscale/metrics.hpp"
#include "tests/host/conformance/metric_checks.hpp"

namespace {

namespace xs = pmu::xscale;
namespace ev = pmu::xscale::event;
using pmutest::is_ratio;
constexpr std::uint32_t kCcnt = xs::kCcntEvent;

TEST(XscaleMetrics, CpiIsCcntOverInstructionsExecutedAndIpcItsInverse_8_4_1) {
  EXPECT_TRUE(is_ratio(xs::metrics, "cpi", {{kCcnt}}, {{ev::INSTR}}, 1.0));
  EXPECT_TRUE(is_ratio(xs::metrics, "ipc", {{ev::INSTR}}, {{kCcnt}}, 1.0));
}

TEST(XscaleMetrics, InstructionCacheMissRateIsFetchRequestsOverInstructions_8_4_1) {
  EXPECT_TRUE(is_ratio(xs::metrics, "icache_misses_per_kinstr", {{ev::IC_MISS}}, {{ev::INSTR}}, 1000.0));
}

TEST(XscaleMetrics, DataCacheMissRateIsMissesOverAccesses_8_4_2) {
  EXPECT_TRUE(is_ratio(xs::metrics, "dcache_miss_ratio", {{ev::DC_MISS}}, {{ev::DC_ACCESS}}, 100.0));
}

TEST(XscaleMetrics, FetchLatencyIsCannotDeliverCyclesOverMissesAndOverCcnt_8_4_3) {
  EXPECT_TRUE(is_ratio(xs::metrics, "ifetch_stall_per_miss", {{ev::IC_NO_DELIVER}}, {{ev::IC_MISS}}, 1.0));
  EXPECT_TRUE(is_ratio(xs::metrics, "ifetch_stall_fraction", {{ev::IC_NO_DELIVER}}, {{kCcnt}}, 100.0));
}

TEST(XscaleMetrics, BufferFullStallIsCyclesOverOccurrencesAndOverCcnt_8_4_4) {
  EXPECT_TRUE(is_ratio(xs::metrics, "dbuffer_stall_length", {{ev::DC_FULL_CYCLE}}, {{ev::DC_FULL_CONTIG}}, 1.0));
  EXPECT_TRUE(is_ratio(xs::metrics, "dbuffer_stall_fraction", {{ev::DC_FULL_CYCLE}}, {{kCcnt}}, 100.0));
}

TEST(XscaleMetrics, DataDependencyStallIsStallCyclesOverCcnt_8_4_5) {
  EXPECT_TRUE(is_ratio(xs::metrics, "data_stall_fraction", {{ev::DATA_STALL}}, {{kCcnt}}, 100.0));
}

TEST(XscaleMetrics, TlbMissRatesAreTableWalksOverInstructionsAndOverDataAccesses_8_4_6_8_4_7) {
  EXPECT_TRUE(is_ratio(xs::metrics, "itlb_misses_per_kinstr", {{ev::ITLB_MISS}}, {{ev::INSTR}}, 1000.0));
  EXPECT_TRUE(is_ratio(xs::metrics, "dtlb_miss_ratio", {{ev::DTLB_MISS}}, {{ev::DC_ACCESS}}, 100.0));
}

// Table 8-12: 0x05 and 0x06 both count B and BL only, so their ratio is a misprediction rate.
TEST(XscaleMetrics, BranchMispredictRatioIsEvent0x06OverEvent0x05_Table8_12) {
  EXPECT_TRUE(is_ratio(xs::metrics, "branch_mispredict_ratio", {{ev::BRANCH_MISPRED}}, {{ev::BRANCH}}, 100.0));
}

// One table for the four catalogs: it names only core events and CCNT, which each has.
TEST(XscaleMetrics, TheTableFitsEveryXscaleCatalog_Table8_12) {
  for (const pmu::PmuCatalog* c : {&xs::kXsc1Catalog, &xs::k80200Catalog, &xs::kXsc2Catalog, &xs::kXsc3Catalog})
    EXPECT_EQ(pmu::metric_fault(*c, xs::metrics), pmu::MetricFault::none) << c->id;
}

}  // namespace
