// The NetBurst metric table against Intel SDM Vol. 3B (Tables 19-28 and 19-29, "Counting Clocks")
// and the IA-32 Optimization Reference Manual's Table B-1: each term's event row and ESCR mask.
#include <gtest/gtest.h>

#include "hal/netburst/metrics.hpp"
#include "tests/host/conformance/metric_checks.hpp"

namespace {

namespace nb = pmu::netburst;
using pmutest::is_ratio;

std::uint32_t row(const char* name) { return static_cast<std::uint32_t>(nb::event_row(name)); }

// Non-halted clockticks: global_power_events with RUNNING (mask bit 0); instructions retired:
// instr_retired NBOGUSNTAG|NBOGUSTAG (bits 0 and 1).
TEST(NetburstMetrics, NonHaltedCpiIsRunningClockticksOverNonBogusInstructionsRetired_SdmCountingClocks) {
  const pmutest::Term clocks{row("global_power_events"), 0x1}, instr{row("instr_retired"), 0x3};
  EXPECT_TRUE(is_ratio(nb::metrics, "cpi", {clocks}, {instr}, 1.0));
  EXPECT_TRUE(is_ratio(nb::metrics, "ipc", {instr}, {clocks}, 1.0));
}

// branch_retired's masks: MMNP 0, MMNM 1, MMTP 2, MMTM 3; the mispredicted ones are MMNM and MMTM.
TEST(NetburstMetrics, MispredictRatioIsBranchRetiredMmnmMmtmOverAllFour_Table19_29) {
  EXPECT_TRUE(is_ratio(nb::metrics, "branch_mispredict_ratio", {{row("branch_retired"), 0xA}},
                       {{row("branch_retired"), 0xF}}, 100.0));
}

TEST(NetburstMetrics, MispredictedBranchesPerInstructionIsMispredBranchRetiredNbogus_TableB1) {
  EXPECT_TRUE(is_ratio(nb::metrics, "branch_mispredicts_per_kinstr", {{row("mispred_branch_retired"), 0x1}},
                       {{row("instr_retired"), 0x3}}, 1000.0));
}

// ITLB_reference: HIT 0, MISS 1, HIT_UC 2; page_walk_type: DTMISS 0.
TEST(NetburstMetrics, TlbRatiosUseItlbReferenceAndPageWalkTypeMasks_Table19_28) {
  EXPECT_TRUE(is_ratio(nb::metrics, "itlb_miss_ratio", {{row("ITLB_reference"), 0x2}},
                       {{row("ITLB_reference"), 0x7}}, 100.0));
  EXPECT_TRUE(is_ratio(nb::metrics, "dtlb_walks_per_kinstr", {{row("page_walk_type"), 0x1}},
                       {{row("instr_retired"), 0x3}}, 1000.0));
}

// The Optimization Reference Manual (Appendix B, usage notes): BSQ_cache_reference "should not be
// used to calculate cache hit rates or cache miss rates"; no term is a tagging event either.
TEST(NetburstMetrics, NoCacheMissRatioFromBsqCacheReferenceAndNoTagging_TableB1Notes) {
  for (std::size_t i = 0; i < nb::metrics.count; ++i) {
    const pmu::Metric& m = nb::metrics.metrics[i];
    SCOPED_TRACE(m.name);
    EXPECT_NE(std::string(m.group), "cache");
    const std::pair<const pmu::MetricEvent*, std::size_t> sides[] = {{m.num, m.num_count}, {m.den, m.den_count}};
    for (const auto& [terms, n] : sides)
      for (std::size_t k = 0; k < n; ++k) {
        ASSERT_LT(terms[k].code, nb::kNumEvents);
        const nb::NbEvent& e = nb::kEvents[terms[k].code];
        EXPECT_STRNE(e.name, "BSQ_cache_reference");
        EXPECT_STRNE(e.name, "replay_event");
        EXPECT_STRNE(e.name, "front_end_event");
        EXPECT_STRNE(e.name, "execution_event");
        EXPECT_STRNE(e.name, "uop_type");
        EXPECT_EQ(terms[k].options, 0u);
      }
  }
}

// The terms spelled back in encode.hpp's syntax (what `pmukit events --metrics` prints).
TEST(NetburstMetrics, TermsSpellAsEventStrings) {
  char buf[64];
  ASSERT_GT(nb::term_string(nb::metric_term("branch_retired:MMNM:MMTM"), buf, sizeof buf), 0u);
  EXPECT_STREQ(buf, "branch_retired:MMNM:MMTM");
  ASSERT_GT(nb::term_string({row("instr_retired"), 0, 0}, buf, sizeof buf), 0u);
  EXPECT_STREQ(buf, "instr_retired:NBOGUSNTAG:NBOGUSTAG") << "qualifier 0: the event's zero_qualifier_mask";
  EXPECT_EQ(nb::term_string({static_cast<std::uint32_t>(nb::kNumEvents), 0, 0}, buf, sizeof buf), 0u);
  EXPECT_EQ(nb::term_string({row("instr_retired"), 0x3, 1}, buf, sizeof buf), 0u) << "options: not a plain term";
  char small[8];
  EXPECT_EQ(nb::term_string(nb::metric_term("branch_retired:MMNM"), small, sizeof small), 7u);
  EXPECT_STREQ(small, "branch_") << "cut to the buffer, NUL-terminated";
}

}  // namespace
