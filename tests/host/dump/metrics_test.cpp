// Derived metrics on the host (tools/report/metrics.hpp): every registered table against its
// catalog, and evaluate_metrics on known counts (values, missing events, a zero denominator).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "hal/e500/events.hpp"
#include "hal/netburst/events.hpp"
#include "hal/xscale/events.hpp"
#include "tools/report/metrics.hpp"

namespace {

using pmukit::EventValue;
using pmukit::MetricValue;

// Every catalog hal/pmus.cmake registers today, and each has a table.
const char* const kIds[] = {"xscale-xsc1", "xscale-80200", "xscale-xsc2", "xscale-xsc3",
                            "e500",        "rm7000",       "mips-cm",     "netburst"};

const MetricValue& by_name(const std::vector<MetricValue>& all, const std::string& name) {
  for (const MetricValue& v : all)
    if (name == v.metric->name) return v;
  ADD_FAILURE() << "no metric " << name;
  static const MetricValue none;
  return none;
}

TEST(Metrics, EveryRegisteredTableIsSoundAgainstItsCatalog) {
  const std::set<std::string> groups = {"basic", "branch", "cache", "tlb", "stall", "bus"};
  for (const char* id : kIds) {
    SCOPED_TRACE(id);
    const pmu::PmuCatalog* c = pmukit::catalog_for(id);
    ASSERT_NE(c, nullptr);
    const std::span<const pmu::Metric> ms = pmukit::metrics_for(id);
    ASSERT_FALSE(ms.empty());
    EXPECT_EQ(pmu::metric_fault(*c, {ms.data(), ms.size()}), pmu::MetricFault::none);
    for (const pmu::Metric& m : ms) {
      SCOPED_TRACE(m.name);
      EXPECT_EQ(groups.count(m.group), 1u) << "group names are shared across PMUs: " << m.group;
      EXPECT_NE(std::string(m.description), "");
      EXPECT_NE(std::string(m.unit), "");
      EXPECT_NE(std::string(m.source), "") << "every metric cites its manual section";
      EXPECT_GT(m.scale, 0.0);
    }
  }
}

// A PMU with a cycles and an instructions preset has "basic": ipc = instructions / cycles and
// cpi = cycles / instructions, on the presets' events.
TEST(Metrics, EveryPmuWithCyclesAndInstructionsHasBasicIpcAndCpi) {
  for (const char* id : kIds) {
    SCOPED_TRACE(id);
    const pmu::PmuCatalog& c = *pmukit::catalog_for(id);
    const pmu::PresetBinding* cycles = pmu::find_preset(c, pmu::Preset::cycles);
    const pmu::PresetBinding* instructions = pmu::find_preset(c, pmu::Preset::instructions);
    if (!cycles || !instructions) continue;
    bool ipc = false, cpi = false;
    for (const pmu::Metric& m : pmukit::metrics_for(id)) {
      const std::string name = m.name;
      if (name != "ipc" && name != "cpi") continue;
      EXPECT_EQ(std::string(m.group), "basic");
      ASSERT_EQ(m.num_count, 1u);
      ASSERT_EQ(m.den_count, 1u);
      EXPECT_EQ(m.scale, 1.0);
      const bool is_ipc = name == "ipc";
      EXPECT_EQ(m.num[0].code, is_ipc ? instructions->code : cycles->code) << name;
      EXPECT_EQ(m.den[0].code, is_ipc ? cycles->code : instructions->code) << name;
      (is_ipc ? ipc : cpi) = true;
    }
    EXPECT_TRUE(ipc && cpi);
  }
  EXPECT_TRUE(pmukit::metric_group_events("mips-cm", "basic").empty()) << "the CM counts no instructions";
}

// The four XScale catalogs share the core events, and so one table.
TEST(Metrics, XscaleCatalogsShareOneTable) {
  const std::span<const pmu::Metric> xsc1 = pmukit::metrics_for("xscale-xsc1");
  for (const char* id : {"xscale-80200", "xscale-xsc2", "xscale-xsc3"}) {
    EXPECT_EQ(pmukit::metrics_for(id).data(), xsc1.data()) << id;
    EXPECT_EQ(pmukit::metrics_for(id).size(), xsc1.size()) << id;
  }
}

TEST(Metrics, IpcIsInstructionsOverCycles) {
  namespace xs = pmu::xscale;
  const std::vector<MetricValue> v =
      pmukit::evaluate_metrics("xscale-xsc2", {{xs::event::INSTR, 0, 100}, {xs::kCcntEvent, 0, 200}});
  ASSERT_EQ(v.size(), pmukit::metrics_for("xscale-xsc2").size()) << "every metric, in table order";
  EXPECT_EQ(v[0].metric, &pmukit::metrics_for("xscale-xsc2")[0]);
  const MetricValue& ipc = by_name(v, "ipc");
  EXPECT_TRUE(ipc.available) << ipc.why_not;
  EXPECT_DOUBLE_EQ(ipc.value, 0.5);
  EXPECT_DOUBLE_EQ(by_name(v, "cpi").value, 2.0);
}

TEST(Metrics, AMetricWithAMissingEventIsUnavailableAndNamesIt) {
  namespace xs = pmu::xscale;
  const std::vector<MetricValue> v =
      pmukit::evaluate_metrics("xscale-xsc2", {{xs::event::DC_MISS, 0, 5}, {xs::event::INSTR, 0, 100}});
  const MetricValue& dc = by_name(v, "dcache_miss_ratio");
  EXPECT_FALSE(dc.available);
  EXPECT_EQ(dc.why_not, "no count for DC_ACCESS");
  const MetricValue& ipc = by_name(v, "ipc");
  EXPECT_FALSE(ipc.available);
  EXPECT_EQ(ipc.why_not, "no count for CCNT");
  const MetricValue& stall = by_name(v, "dbuffer_stall_length");
  EXPECT_EQ(stall.why_not, "no count for DC_FULL_CYCLE, DC_FULL_CONTIG") << "every missing event is named";
}

TEST(Metrics, ADenominatorOfZeroIsUnavailable) {
  namespace xs = pmu::xscale;
  const std::vector<MetricValue> v =
      pmukit::evaluate_metrics("xscale-xsc1", {{xs::event::INSTR, 0, 100}, {xs::kCcntEvent, 0, 0}});
  const MetricValue& ipc = by_name(v, "ipc");
  EXPECT_FALSE(ipc.available);
  EXPECT_EQ(ipc.why_not, "denominator 0");
  EXPECT_TRUE(by_name(v, "cpi").available) << "0 cycles over 100 instructions is a value";
  EXPECT_DOUBLE_EQ(by_name(v, "cpi").value, 0.0);
}

// AN3636 Table 1: L1 D-cache miss rate = CE:Com:41 / (CE:Com:9 + CE:Com:10), here in percent.
TEST(Metrics, SumsOfTermsAndTheScale) {
  namespace e5 = pmu::e500;
  const std::vector<MetricValue> v = pmukit::evaluate_metrics(
      "e500", {{e5::event::DL1_RELOADS, 0, 30}, {e5::event::LOAD_UOPS_COMPLETED, 0, 100},
               {e5::event::STORE_UOPS_COMPLETED, 0, 50}, {e5::event::BRANCHES_FINISHED, 0, 40},
               {e5::event::INSTR_COMPLETED, 0, 8000}});
  EXPECT_DOUBLE_EQ(by_name(v, "dcache_miss_ratio").value, 20.0);
  EXPECT_DOUBLE_EQ(by_name(v, "branches_per_kinstr").value, 5.0);
}

// Counts are matched by code and qualifier: NetBurst's instructions are instr_retired with the
// NBOGUSNTAG|NBOGUSTAG mask, not the same event with another mask.
TEST(Metrics, TermsMatchCodeAndQualifier) {
  namespace nb = pmu::netburst;
  const std::uint32_t instr = static_cast<std::uint32_t>(nb::event_row("instr_retired"));
  const std::uint32_t clocks = static_cast<std::uint32_t>(nb::event_row("global_power_events"));
  std::vector<MetricValue> v = pmukit::evaluate_metrics("netburst", {{instr, 0x1, 100}, {clocks, 0x1, 400}});
  EXPECT_FALSE(by_name(v, "ipc").available);
  EXPECT_EQ(by_name(v, "ipc").why_not, "no count for instr_retired:NBOGUSNTAG:NBOGUSTAG");
  v = pmukit::evaluate_metrics("netburst", {{instr, 0x3, 100}, {clocks, 0x1, 400}});
  EXPECT_TRUE(by_name(v, "ipc").available) << by_name(v, "ipc").why_not;
  EXPECT_DOUBLE_EQ(by_name(v, "ipc").value, 0.25);
}

TEST(Metrics, AnUnknownPmuHasNoMetrics) {
  EXPECT_TRUE(pmukit::metrics_for("no-such-pmu").empty());
  EXPECT_TRUE(pmukit::evaluate_metrics("no-such-pmu", {{1, 0, 1}}).empty());
  EXPECT_EQ(pmukit::catalog_for("no-such-pmu"), nullptr);
  EXPECT_TRUE(pmukit::metric_group_events("no-such-pmu", "").empty());
}

// What a run must count for a group: each event once, in the order the table first reads it.
TEST(Metrics, AGroupsEventsAreDistinctInTableOrder) {
  namespace xs = pmu::xscale;
  namespace e5 = pmu::e500;
  const std::vector<pmu::MetricEvent> basic = pmukit::metric_group_events("xscale-xsc2", "basic");
  ASSERT_EQ(basic.size(), 2u);
  EXPECT_EQ(basic[0].code, xs::event::INSTR);
  EXPECT_EQ(basic[1].code, xs::kCcntEvent);
  const std::vector<pmu::MetricEvent> cache = pmukit::metric_group_events("e500", "cache");
  std::vector<std::uint32_t> codes;
  for (const pmu::MetricEvent& e : cache) codes.push_back(e.code);
  EXPECT_EQ(codes, (std::vector<std::uint32_t>{e5::event::IL1_RELOADS, e5::event::INSTR_COMPLETED,
                                               e5::event::DL1_RELOADS, e5::event::LOAD_UOPS_COMPLETED,
                                               e5::event::STORE_UOPS_COMPLETED}));
  EXPECT_TRUE(pmukit::metric_group_events("e500", "bus").empty());
  EXPECT_GT(pmukit::metric_group_events("e500", "").size(), cache.size()) << "\"\": every group";
}

TEST(Metrics, FormulasAreInTheCatalogsEventNames) {
  const pmu::PmuCatalog& e500 = *pmukit::catalog_for("e500");
  const pmu::PmuCatalog& nb = *pmukit::catalog_for("netburst");
  auto formula = [](const pmu::PmuCatalog& c, const char* name) {
    for (const pmu::Metric& m : pmukit::metrics_for(c.id))
      if (std::string(m.name) == name) return pmukit::metric_formula(c, m);
    return std::string("?");
  };
  EXPECT_EQ(formula(e500, "ipc"), "INSTR_COMPLETED / CYCLES");
  EXPECT_EQ(formula(e500, "dcache_miss_ratio"), "100 * DL1_RELOADS / (LOAD_UOPS_COMPLETED + STORE_UOPS_COMPLETED)");
  EXPECT_EQ(formula(nb, "branch_mispredict_ratio"), "100 * branch_retired:MMNM:MMTM / branch_retired:MMNP:MMNM:MMTP:MMTM");
  // A PMU without its own spelling: the name, and the qualifier and options as numbers.
  EXPECT_EQ(pmukit::metric_term_text(e500, {76, 5, 1}), "DLFB_LOAD_MISS_CYCLES[q=0x5][o=0x1]");
  EXPECT_EQ(pmukit::metric_term_text(e500, {127, 0, 0}), "0x7f") << "a code the catalog lacks";
}

}  // namespace
