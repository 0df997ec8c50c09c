// The e500 metric table against AN3636 ("PowerQUICC III Performance Monitors", Rev. 2), Table 1,
// whose CE:Ref:n and CE:Com:n are the events of the e500 Core Reference Manual's Table 7-10.
#include <gtest/gtest.h>

#include "hal/e500/metrics.hpp"
#include "tests/host/conformance/metric_checks.hpp"

namespace {

namespace e5 = pmu::e500;
namespace ev = pmu::e500::event;
using pmutest::is_ratio;

TEST(E500Metrics, IpcIsInstructionsCompletedOverProcessorCycles_AN3636_Table1) {
  EXPECT_EQ(ev::CYCLES, 1u);
  EXPECT_EQ(ev::INSTR_COMPLETED, 2u);
  EXPECT_TRUE(is_ratio(e5::metrics, "ipc", {{ev::INSTR_COMPLETED}}, {{ev::CYCLES}}, 1.0));
  EXPECT_TRUE(is_ratio(e5::metrics, "cpi", {{ev::CYCLES}}, {{ev::INSTR_COMPLETED}}, 1.0));
}

// AN3636's words: branches mispredicted / branches finished (CE:Com:12). Its printed formula,
// (CE:Com:12 - CE:Com:17) / CE:Com:12, counts BTB misses (17: BTB hits): Table 7-10's event 15
// counts the mispredictions its words name.
TEST(E500Metrics, BranchMissRatioIsMispredictedOverFinished_AN3636_Table1_CRM_Table7_10) {
  EXPECT_EQ(ev::BRANCHES_FINISHED, 12u);
  EXPECT_EQ(ev::BRANCHES_MISPREDICTED, 15u);
  EXPECT_TRUE(is_ratio(e5::metrics, "branch_mispredict_ratio", {{ev::BRANCHES_MISPREDICTED}},
                       {{ev::BRANCHES_FINISHED}}, 100.0));
}

TEST(E500Metrics, BranchesPer1000InstructionsIs1000TimesFinishedOverCompleted_AN3636_Table1) {
  EXPECT_TRUE(is_ratio(e5::metrics, "branches_per_kinstr", {{ev::BRANCHES_FINISHED}}, {{ev::INSTR_COMPLETED}}, 1000.0));
}

TEST(E500Metrics, L1ICacheMissRateIsEvent60OverInstructionsCompleted_AN3636_Table1) {
  EXPECT_EQ(ev::IL1_RELOADS, 60u);
  EXPECT_TRUE(is_ratio(e5::metrics, "icache_misses_per_kinstr", {{ev::IL1_RELOADS}}, {{ev::INSTR_COMPLETED}}, 1000.0));
}

TEST(E500Metrics, L1DCacheMissRateIsEvent41OverLoadAndStoreMicroOps_AN3636_Table1) {
  EXPECT_EQ(ev::DL1_RELOADS, 41u);
  EXPECT_EQ(ev::LOAD_UOPS_COMPLETED, 9u);
  EXPECT_EQ(ev::STORE_UOPS_COMPLETED, 10u);
  EXPECT_TRUE(is_ratio(e5::metrics, "dcache_miss_ratio", {{ev::DL1_RELOADS}},
                       {{ev::LOAD_UOPS_COMPLETED}, {ev::STORE_UOPS_COMPLETED}}, 100.0));
}

TEST(E500Metrics, TlbAndStallRatiosUseTheirTable7_10Events) {
  EXPECT_TRUE(is_ratio(e5::metrics, "itlb_reloads_per_kinstr", {{62}, {63}}, {{ev::INSTR_COMPLETED}}, 1000.0));
  EXPECT_TRUE(is_ratio(e5::metrics, "dtlb_reloads_per_kinstr", {{64}, {65}}, {{ev::INSTR_COMPLETED}}, 1000.0));
  EXPECT_TRUE(is_ratio(e5::metrics, "l2mmu_misses_per_kinstr", {{66}}, {{ev::INSTR_COMPLETED}}, 1000.0));
  EXPECT_TRUE(is_ratio(e5::metrics, "decode_stall_fraction", {{18}}, {{ev::CYCLES}}, 100.0));
  EXPECT_TRUE(is_ratio(e5::metrics, "issue_stall_fraction", {{19}}, {{ev::CYCLES}}, 100.0));
}

// The named codes are the catalog's own rows (mnemonic by mnemonic).
TEST(E500Metrics, NamedEventCodesAreTheCatalogsMnemonics_CRM_Table7_10) {
  const std::pair<std::uint32_t, const char*> named[] = {
      {ev::CYCLES, "CYCLES"}, {ev::INSTR_COMPLETED, "INSTR_COMPLETED"}, {ev::DL1_RELOADS, "DL1_RELOADS"},
      {ev::IL1_RELOADS, "IL1_RELOADS"}, {ev::L2MMU_MISSES, "L2MMU_MISSES"},
      {ev::ISSUE_STALL_CYCLES, "ISSUE_STALL_CYCLES"}, {ev::DMMU_VSP_RELOADS, "DMMU_VSP_RELOADS"}};
  for (const auto& [code, name] : named) EXPECT_STREQ(pmu::event_name(e5::catalog, code), name);
}

}  // namespace
