// `pmukit stat` (tools/report/stat.hpp) on crafted dumps: the scaled estimate of a multiplexed
// event, the event that never ran, repeated runs' mean and perf's "+-", runs that are not repeats
// refused, csv and json a script can read; `pmukit diff` on multiplexed regions. The StatMetrics
// tests need the PMU's metric table (tools/report/metrics.cpp, hal/xscale/metrics.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "mini_json.hpp"
#include "profiler/multiplex.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/report/diff.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/stat.hpp"

namespace {

namespace pd = pmu::dump;
using dumptest::Bytes;

pmukit::Dump decode(const Bytes& b) { return pmukit::decode_dump(b.data(), b.size()); }

// A run of a firmware multiplexing CCNT (pinned) and INSTR on xscale-xsc2 at 1 MHz, with a whole-run
// region 'main' and, where given, a region 'loop' of 10 calls.
struct MuxRun {
  std::vector<pd::MuxValue> main = {{1000, 1000, 1000}, {500, 1000, 500}};
  std::vector<pd::MuxValue> loop;
  std::vector<pd::MuxEventInfo> events = {{0x100, 0, 0, "CCNT", "cycles", pd::kMuxPinned},
                                          {0x07, 0, 0, "INSTR", "instructions", 0}};
  const char* pmu = "xscale-xsc2";
};

Bytes run_dump(const MuxRun& r, pd::ByteOrder order = pd::ByteOrder::little) {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), order);
  w.begin({"xscale", r.pmu, 1000000u, 32, 4});
  w.counters(nullptr, 0);
  w.mux_events({1000000u, 7, r.events.data(), r.events.size()});
  w.mux_region({"main", pd::kMuxWholeRun, 1, r.main.data(), r.main.size()});
  if (!r.loop.empty()) w.mux_region({"loop", 0, 10, r.loop.data(), r.loop.size()});
  EXPECT_EQ(w.finish(), pd::Status::ok);
  return out.bytes;
}

std::string write(const pmukit::StatReport& r, const std::string& format) {
  std::ostringstream os;
  EXPECT_TRUE(pmukit::write_stat(os, r, format));
  return os.str();
}

// The line of `text` that matches `pattern` (ECMAScript), or "" when none does.
std::string line_matching(const std::string& text, const std::string& pattern) {
  std::istringstream in(text);
  const std::regex re(pattern);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, re)) return line;
  return "";
}

std::string refusal(const std::vector<pmukit::StatRun>& runs, const pmukit::StatOptions& options = {}) {
  try {
    pmukit::build_stat(runs, options);
  } catch (const pmukit::StatRefused& e) {
    return e.what();
  }
  return "(not refused)";
}

// perf stat's scaling, count * enabled / running, without the 64-bit overflow a plain product has
// and without the rounding a double has: the exact quotient, rounded down as perf's u64 cast does.
TEST(StatScale, RawTimesEnabledOverRunningExactly) {
  const std::uint64_t max = UINT64_MAX;
  auto exact = [](std::uint64_t raw, std::uint64_t enabled, std::uint64_t running) {
    const std::optional<pmukit::ScaledCount> s = pmukit::scale_count(raw, enabled, running);
    return s ? s->exact : std::optional<std::uint64_t>(12345);
  };
  EXPECT_EQ(exact(1000000, 4000000, 2500000), 1600000u);
  EXPECT_EQ(exact(7, 1000000, 250000), 28u);
  EXPECT_EQ(exact(42, 99, 99), 42u) << "on a counter all the time: the raw count";
  EXPECT_EQ(exact(1, 3, 2), 1u) << "1.5: down";
  EXPECT_EQ(exact(3, 5, 4), 3u) << "3.75: down";
  // (2^40 + 1) * 3000001 / 7 = 471219426120375396.57...: a double would be off by tens.
  EXPECT_EQ(exact((std::uint64_t{1} << 40) + 1, 3000001, 7), 471219426120375396u);
  EXPECT_EQ(exact(max, 3, 5), 11068046444225730969u) << "a product past 2^64";
  EXPECT_EQ(exact(max, max, max), max);
  EXPECT_EQ(exact(max, (std::uint64_t{1} << 32) + 3, (std::uint64_t{1} << 32) + 5), 18446744065119617032u);
  const std::optional<pmukit::ScaledCount> huge = pmukit::scale_count(std::uint64_t{1} << 63, 4, 2);
  ASSERT_TRUE(huge.has_value());
  EXPECT_FALSE(huge->exact.has_value()) << "2^64 does not fit: no exact count";
  EXPECT_DOUBLE_EQ(huge->value, 18446744073709551616.0);
  EXPECT_FALSE(pmukit::scale_count(5, 100, 0).has_value()) << "never on a counter: no estimate";
}

// The host's estimate is the firmware's (prof::MuxValue::scaled(), profiler/multiplex.hpp) digit for
// digit, wherever the firmware's fits 64 bits: a dump's reader and the target's own printout agree.
TEST(StatScale, TheSameAsTheFirmwaresScaledValue) {
  std::mt19937_64 rng(38);
  // Never running > enabled: the decoder refuses such a dump.
  std::vector<prof::MuxValue> cases = {{1000000, 4000000, 2500000}, {1, 3, 2}, {7, 10, 10}, {0, 5, 3},
                                       {std::uint64_t{1} << 62, 3, 2}, {0xFFFFFFFFFFFFull, 0xFFFFFFFFu, 0xFFFFFFF0u},
                                       {UINT64_MAX, UINT64_MAX, UINT64_MAX}};
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t enabled = rng() >> (rng() % 64), running = enabled == 0 ? 0 : 1 + rng() % enabled;
    cases.push_back({rng() >> (rng() % 64), enabled, running});
  }
  unsigned compared = 0;
  for (const prof::MuxValue& v : cases) {
    if (v.running == 0) continue;
    const std::optional<pmukit::ScaledCount> host = pmukit::scale_count(v.raw, v.enabled, v.running);
    ASSERT_TRUE(host.has_value());
    if (!host->exact) continue;  // past 2^64: the firmware's wraps
    EXPECT_EQ(*host->exact, v.scaled()) << v.raw << " * " << v.enabled << " / " << v.running;
    ++compared;
  }
  EXPECT_GT(compared, 1000u);
}

// One dump: each multiplexed event scaled from the time it was on a counter, with its raw count and
// share; the event that never ran is "<not counted>" with a warning; the whole run comes first,
// then the other multiplexed region, then the REGION chunk's exact counters.
TEST(Stat, OneDumpScalesEachEventAndSaysWhichNeverRan) {
  const pmukit::Dump d = decode(dumptest::mux_dump(pd::ByteOrder::big));
  const pmukit::StatReport r = pmukit::build_stat({{"mux.bin", &d}});
  ASSERT_EQ(r.regions.size(), 3u);
  EXPECT_EQ(r.regions[0].name, "main");
  EXPECT_TRUE(r.regions[0].whole_run);
  EXPECT_EQ(r.regions[1].name, "dma_copy");
  EXPECT_EQ(r.regions[2].name, "init");
  EXPECT_FALSE(r.regions[2].multiplexed);

  const pmukit::StatRegion& main = r.regions[0];
  ASSERT_EQ(main.events.size(), 4u);
  EXPECT_EQ(main.events[0].count.exact, std::optional<std::uint64_t>(4000000));
  EXPECT_EQ(main.events[1].count.exact, std::optional<std::uint64_t>(1600000)) << "1,000,000 * 4,000,000 / 2,500,000";
  EXPECT_EQ(main.events[1].raw.exact, std::optional<std::uint64_t>(1000000));
  EXPECT_DOUBLE_EQ(main.events[1].running_percent.value_or(0), 62.5);
  EXPECT_EQ(main.events[2].count.exact, std::optional<std::uint64_t>(8000)) << "3,000 * 4,000,000 / 1,500,000";
  EXPECT_FALSE(main.events[3].counted);
  EXPECT_EQ(main.not_counted, std::vector<std::string>{"PC_CHANGE"});
  ASSERT_TRUE(main.seconds.has_value());
  EXPECT_DOUBLE_EQ(*main.seconds, 0.01) << "4,000,000 ticks at 400 MHz";
  EXPECT_DOUBLE_EQ(main.events[1].rate.value_or(0), 160e6);
  EXPECT_EQ(r.regions[1].events[3].count.exact, std::optional<std::uint64_t>(28));

  const pmukit::StatRegion& init = r.regions[2];  // exact: 100%, its time from the cycles counter
  EXPECT_EQ(init.events[1].count.exact, std::optional<std::uint64_t>(200000));
  EXPECT_DOUBLE_EQ(init.events[1].running_percent.value_or(0), 100.0);
  EXPECT_DOUBLE_EQ(init.seconds.value_or(0), 0.001) << "400,000 cycles at 400 MHz";
  EXPECT_DOUBLE_EQ(init.events[1].rate.value_or(0), 200e6);

  const std::string table = write(r, "table");
  EXPECT_NE(line_matching(table, R"(^  +1,600,000  INSTR +# 160\.000 M/sec +\(62\.50%\)  raw 1,000,000$)"), "") << table;
  EXPECT_NE(line_matching(table, R"(^  +4,000,000  CCNT +# 400\.000 M/sec$)"), "") << "pinned: no share, no raw\n" << table;
  EXPECT_NE(line_matching(table, R"(^  <not counted>  PC_CHANGE$)"), "") << table;
  EXPECT_NE(table.find("  warning: not counted (never on a counter while the region ran): PC_CHANGE\n"), std::string::npos)
      << table;
  EXPECT_NE(line_matching(table, R"(^  +200,000  INSTR +# 200\.000 M/sec$)"), "") << "exact: no share\n" << table;
  EXPECT_LT(table.find("region 'main' (the whole run)"), table.find("region 'dma_copy'"));
  EXPECT_LT(table.find("region 'dma_copy'"), table.find("region 'init', counted exactly"));
  EXPECT_EQ(pmukit::stat_warnings(r),
            std::vector<std::string>{"region 'main': not counted (never on a counter while the region ran): PC_CHANGE"});
}

// perf stat -r: each value the mean of the runs, and "( +- x% )" the standard deviation of that
// mean, 100 * (s / sqrt(n)) / mean with s the sample standard deviation. Three runs whose INSTR
// scales to 900, 1000 and 1100: mean 1000; s^2 = (100^2 + 0 + 100^2) / 2, s = 100;
// 100 / sqrt(3) = 57.735; 5.7735% of 1000.
TEST(Stat, RepeatedRunsGiveTheMeanAndTheStandardDeviationOfTheMean) {
  MuxRun a, b, c;
  a.main[1] = {450, 1000, 500};
  b.main[1] = {500, 1000, 500};
  c.main[1] = {550, 1000, 500};
  const pmukit::Dump da = decode(run_dump(a)), db = decode(run_dump(b, pd::ByteOrder::big)), dc = decode(run_dump(c));
  const pmukit::StatReport r = pmukit::build_stat({{"a", &da}, {"b", &db}, {"c", &dc}});
  ASSERT_EQ(r.regions.size(), 1u);
  const pmukit::StatEventRow& instr = r.regions[0].events[1];
  EXPECT_DOUBLE_EQ(instr.count.mean, 1000.0);
  EXPECT_FALSE(instr.count.exact.has_value()) << "a mean, not one run's count";
  ASSERT_TRUE(instr.count.noise.has_value());
  EXPECT_NEAR(*instr.count.noise, 5.773502691896258, 1e-9);
  EXPECT_DOUBLE_EQ(instr.raw.mean, 500.0);
  EXPECT_DOUBLE_EQ(instr.running_percent.value_or(0), 50.0);
  EXPECT_DOUBLE_EQ(instr.rate.value_or(0), 1e6) << "1000 events in 1000 ticks of 1 MHz";
  const pmukit::StatEventRow& ccnt = r.regions[0].events[0];
  EXPECT_DOUBLE_EQ(ccnt.count.noise.value_or(-1), 0.0) << "the same in every run";
  EXPECT_DOUBLE_EQ(r.rotations.mean, 7.0);
  const std::string table = write(r, "table");
  EXPECT_NE(table.find("pmukit stat: a (3 runs)\n"), std::string::npos) << table;
  EXPECT_NE(line_matching(table, R"(^  +1,000  INSTR +# 1\.000 M/sec  \( \+-  5\.77% \)  \(50\.00%\)  raw 500$)"), "")
      << table;
  EXPECT_NE(line_matching(table, R"(^  +1,000  CCNT +# 1\.000 M/sec  \( \+-  0\.00% \)$)"), "") << table;
  const dumptest::Json j = dumptest::parse_json(write(r, "json"));
  EXPECT_EQ(j["runs"].n, 3);
  const dumptest::Json& e = j["regions"][0]["events"][1];
  EXPECT_EQ(e["count"].s, "1000");
  EXPECT_NEAR(e["noise_percent"].n, 5.773503, 1e-6);
  ASSERT_EQ(e["runs"].items.size(), 3u);
  EXPECT_EQ(e["runs"][2]["raw"].s, "550");

  // An event that never ran in one run has no mean: not counted, naming that run.
  MuxRun off = b;
  off.main[1] = {0, 1000, 0};
  const pmukit::Dump doff = decode(run_dump(off));
  const pmukit::StatReport partly = pmukit::build_stat({{"a", &da}, {"off", &doff}, {"c", &dc}});
  EXPECT_FALSE(partly.regions[0].events[1].counted);
  EXPECT_EQ(partly.regions[0].not_counted, std::vector<std::string>{"INSTR (in run 2)"});
}

TEST(Stat, RefusesRunsThatAreNotRepeatsOfOneProgram) {
  const MuxRun base;
  const pmukit::Dump d = decode(run_dump(base));
  MuxRun other_pmu = base;
  other_pmu.pmu = "xscale-xsc3";
  const pmukit::Dump dp = decode(run_dump(other_pmu));
  EXPECT_EQ(refusal({{"a.bin", &d}, {"b.bin", &dp}}),
            "run 2 (b.bin) ran on PMU xscale-xsc3, run 1 (a.bin) on PMU xscale-xsc2: repeated runs are of one PMU");
  MuxRun other_event = base;
  other_event.events[1] = {0x0B, 0, 0, "DC_MISS", "dcache_misses", 0};
  const pmukit::Dump de = decode(run_dump(other_event));
  EXPECT_EQ(refusal({{"a.bin", &d}, {"b.bin", &de}}),
            "multiplexed event 2 is 'INSTR' (code 0x07, qualifier 0x0, options 0x0, preset instructions) in run 1 "
            "(a.bin), 'DC_MISS' (code 0x0b, qualifier 0x0, options 0x0, preset dcache_misses) in run 2 (b.bin): "
            "repeated runs count the same events");
  MuxRun other_qualifier = base;
  other_qualifier.events[1].qualifier = 4;
  const pmukit::Dump dq = decode(run_dump(other_qualifier));
  EXPECT_NE(refusal({{"a.bin", &d}, {"b.bin", &dq}}).find("qualifier 0x4"), std::string::npos);
  MuxRun more = base;
  more.events.push_back({0x0B, 0, 0, "DC_MISS", "dcache_misses", 0});
  more.main.push_back({1, 1000, 10});
  const pmukit::Dump dm = decode(run_dump(more));
  EXPECT_EQ(refusal({{"a.bin", &d}, {"b.bin", &dm}}),
            "run 1 (a.bin) multiplexes 2 events, run 2 (b.bin) 3: repeated runs count the same events");
  MuxRun with_loop = base;
  with_loop.loop = {{10, 10, 10}, {5, 10, 5}};
  const pmukit::Dump dl = decode(run_dump(with_loop));
  EXPECT_EQ(refusal({{"a.bin", &d}, {"b.bin", &dl}}),
            "multiplexed region 'loop' is in run 2 (b.bin) but not in run 1 (a.bin): repeated runs measure the same "
            "regions");
  const pmukit::Dump plain = decode(dumptest::profile_dump(pd::ByteOrder::little));  // xscale-xsc2, no mux
  EXPECT_EQ(refusal({{"a.bin", &d}, {"p.bin", &plain}}),
            "run 1 (a.bin) multiplexes events, run 2 (p.bin) does not: repeated runs count the same events");
  EXPECT_EQ(refusal({}), "no dump to report");
}

TEST(Stat, RegionOptionAndNothingToReport) {
  const pmukit::Dump d = decode(dumptest::mux_dump(pd::ByteOrder::little));
  pmukit::StatOptions only;
  only.region = "dma_copy";
  const pmukit::StatReport r = pmukit::build_stat({{"mux.bin", &d}}, only);
  ASSERT_EQ(r.regions.size(), 1u);
  EXPECT_EQ(r.regions[0].name, "dma_copy");
  only.region = "nope";
  EXPECT_EQ(refusal({{"mux.bin", &d}}, only),
            "no region named 'nope' in mux.bin (its regions: 'main', 'dma_copy', 'init')");
  const pmukit::Dump h = decode(dumptest::histogram_dump(pd::ByteOrder::little));
  EXPECT_EQ(refusal({{"h.bin", &h}}),
            "h.bin has no MUX_REGION or REGION chunk: no region was measured, nothing to report");
}

// What CI reads: every csv row has the header's fields, the json parses, and both carry the counts.
TEST(Stat, CsvAndJsonAreWellFormed) {
  const pmukit::Dump d = decode(dumptest::mux_dump(pd::ByteOrder::little));
  const pmukit::StatReport r = pmukit::build_stat({{"mux.bin", &d}});
  const std::vector<std::vector<std::string>> rows = dumptest::parse_csv(write(r, "csv"));
  ASSERT_GE(rows.size(), 11u);
  const std::vector<std::string>& head = rows[0];
  auto col = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
  };
  ASSERT_LT(col("status"), head.size());
  auto find = [&](const std::string& region, const std::string& name) -> const std::vector<std::string>* {
    for (const auto& row : rows)
      if (row[col("region")] == region && row[col("name")] == name) return &row;
    return nullptr;
  };
  for (const auto& row : rows) EXPECT_EQ(row.size(), head.size());
  const auto* instr = find("main", "INSTR");
  ASSERT_NE(instr, nullptr);
  EXPECT_EQ((*instr)[col("count")], "1600000");
  EXPECT_EQ((*instr)[col("raw")], "1000000");
  EXPECT_EQ((*instr)[col("enabled")], "4000000");
  EXPECT_EQ((*instr)[col("running")], "2500000");
  EXPECT_EQ((*instr)[col("running_percent")], "62.5");
  EXPECT_EQ((*instr)[col("rate_per_second")], "160000000");
  EXPECT_EQ((*instr)[col("code")], "0x07");
  const auto* never = find("main", "PC_CHANGE");
  ASSERT_NE(never, nullptr);
  EXPECT_EQ((*never)[col("count")], "");
  EXPECT_EQ((*never)[col("status")], "not counted");
  const auto* exact = find("init", "INSTR");
  ASSERT_NE(exact, nullptr);
  EXPECT_EQ((*exact)[col("multiplexed")], "false");
  EXPECT_EQ((*exact)[col("running_percent")], "100");

  const dumptest::Json j = dumptest::parse_json(write(r, "json"));
  EXPECT_EQ(j["target"]["pmu"].s, "xscale-xsc2");
  EXPECT_EQ(j["multiplexing"]["rotations"].s, "40");
  const dumptest::Json& main = j["regions"][0];
  EXPECT_EQ(main["name"].s, "main");
  EXPECT_TRUE(main["whole_run"].b);
  EXPECT_EQ(main["seconds"].s, "0.01");
  EXPECT_EQ(main["events"][1]["count"].s, "1600000");
  EXPECT_EQ(main["events"][1]["running_percent"].s, "62.5");
  EXPECT_EQ(main["events"][1]["noise_percent"].kind, dumptest::Json::null) << "one run";
  EXPECT_FALSE(main["events"][3]["counted"].b);
  EXPECT_EQ(main["events"][3]["count"].kind, dumptest::Json::null);
  EXPECT_EQ(main["not_counted"][0].s, "PC_CHANGE");
  EXPECT_EQ(j["regions"][2]["events"][0]["enabled"].kind, dumptest::Json::null) << "exact counters have no times";
}

const pmukit::StatMetricRow* metric(const pmukit::StatRegion& g, const std::string& name) {
  for (const pmukit::StatMetricRow& m : g.metrics)
    if (m.metric != nullptr && name == m.metric->name) return &m;
  return nullptr;
}

// Needs xscale-xsc2's metric table: ipc = INSTR (0x07) / CCNT (0x100), from the scaled counts of a
// multiplexed region and from a REGION's exact counters alike. Metrics that cannot be computed are
// in the json only, with why_not.
TEST(StatMetrics, IpcFromScaledAndExactCounts) {
  const pmukit::Dump d = decode(dumptest::mux_dump(pd::ByteOrder::big));
  const pmukit::StatReport r = pmukit::build_stat({{"mux.bin", &d}});
  const pmukit::StatMetricRow* main = metric(r.regions[0], "ipc");
  ASSERT_NE(main, nullptr) << "xscale-xsc2 has no metric 'ipc'";
  ASSERT_TRUE(main->available) << main->why_not;
  EXPECT_DOUBLE_EQ(main->value.mean, 0.4) << "1,600,000 scaled instructions in 4,000,000 cycles";
  const pmukit::StatMetricRow* init = metric(r.regions[2], "ipc");
  ASSERT_NE(init, nullptr);
  EXPECT_DOUBLE_EQ(init->value.mean, 0.5) << "200,000 / 400,000, exact";
  const std::string table = write(r, "table");
  EXPECT_NE(line_matching(table, R"(^  +0\.40  .+  # ipc$)"), "") << table;
  // 'init' counted cycles and instructions only: every other metric is unavailable, said in json.
  const dumptest::Json j = dumptest::parse_json(write(r, "json"));
  unsigned unavailable = 0;
  const std::string init_block = table.substr(table.find("region 'init'"));
  for (const dumptest::Json& m : j["regions"][2]["metrics"].items) {
    if (m["available"].b) continue;
    ++unavailable;
    EXPECT_FALSE(m["why_not"].s.empty()) << m["name"].s;
    EXPECT_EQ(init_block.find("# " + m["name"].s + "\n"), std::string::npos) << "the table shows available ones only";
  }
  EXPECT_GT(unavailable, 0u) << "xscale-xsc2's table has no metric beyond cycles and instructions?";
}

// Needs xscale-xsc2's metric table: with runs, a metric is the mean of the runs' values, with its
// "+-": ipc 0.9, 1.0 and 1.1 give 1.0 ( +- 5.77% ).
TEST(StatMetrics, RepeatedRunsAverageTheMetric) {
  MuxRun a, b, c;
  a.main[1] = {450, 1000, 500};
  b.main[1] = {500, 1000, 500};
  c.main[1] = {550, 1000, 500};
  const pmukit::Dump da = decode(run_dump(a)), db = decode(run_dump(b)), dc = decode(run_dump(c));
  const pmukit::StatReport r = pmukit::build_stat({{"a", &da}, {"b", &db}, {"c", &dc}});
  const pmukit::StatMetricRow* ipc = metric(r.regions[0], "ipc");
  ASSERT_NE(ipc, nullptr);
  ASSERT_TRUE(ipc->available) << ipc->why_not;
  EXPECT_NEAR(ipc->value.mean, 1.0, 1e-12);
  EXPECT_NEAR(ipc->value.noise.value_or(0), 5.773502691896258, 1e-9);
  EXPECT_NE(line_matching(write(r, "table"), R"(^  +1\.00  .+  # ipc +\( \+-  5\.77% \)$)"), "") << write(r, "table");
}

// pmukit report's table does not scale: it says the dump has multiplexed counts and where to see them.
TEST(Stat, ReportTableNamesTheMultiplexedCounts) {
  const pmukit::Dump d = decode(dumptest::mux_dump(pd::ByteOrder::little));
  const pmukit::Profile p = pmukit::build_profile(d, pmukit::SymbolTable());
  const pmukit::ReportOptions options;
  std::ostringstream os;
  pmukit::write_table(os, {d, p, options});
  EXPECT_NE(os.str().find("\nMultiplexed: 4 events in 2 regions (pmukit stat reports them)\n"), std::string::npos)
      << os.str();
}

// pmukit diff: a multiplexed region's events compared by code and qualifier (not by position), each
// as its scaled estimate per call; the share of the time on a counter is said where it is below
// 100% in either dump; the threshold applies as to regions.
TEST(MuxDiff, ScaledEstimatePerCallWithTheShareOnACounter) {
  MuxRun base;
  base.loop = {{10000, 1000, 1000}, {500, 1000, 500}};  // INSTR: 1000 scaled, 100 per call, 50%
  MuxRun next;
  next.events = {next.events[1], next.events[0]};  // INSTR listed first
  next.main = {next.main[1], next.main[0]};
  next.loop = {{1200, 1000, 1000}, {10000, 1000, 1000}};  // INSTR: 120 per call, always on
  const pmukit::Dump db = decode(run_dump(base)), dn = decode(run_dump(next, pd::ByteOrder::big));
  const pmukit::DiffResult r = pmukit::diff_dumps(db, nullptr, dn, nullptr, 10.0);
  EXPECT_TRUE(r.regions.empty());
  const pmukit::DiffRow* instr = nullptr;
  for (const pmukit::DiffRow& row : r.mux_regions)
    if (row.name == "loop" && row.counter == "INSTR (instructions)") instr = &row;
  ASSERT_NE(instr, nullptr);
  EXPECT_DOUBLE_EQ(instr->base.value_or(0), 100.0);
  EXPECT_DOUBLE_EQ(instr->next.value_or(0), 120.0);
  EXPECT_DOUBLE_EQ(instr->base_running.value_or(0), 50.0);
  EXPECT_TRUE(instr->past) << "+20% past 10%";
  EXPECT_EQ(r.past(), 1u);
  std::ostringstream os;
  pmukit::write_diff(os, r, "base.bin", "new.bin");
  const std::string text = os.str();
  EXPECT_NE(text.find("Multiplexed regions (scaled estimate per call)"), std::string::npos) << text;
  EXPECT_NE(line_matching(text, R"(^  loop +INSTR \(instructions\) +100\.0 +120\.0 +\+20\.0% +base 50\.00%, new 100\.00% +<-- past the threshold$)"), "")
      << text;
  EXPECT_NE(line_matching(text, R"(^  loop +CCNT \(cycles\) +1000\.0 +1000\.0 +\+0\.0%$)"), "") << "always on: no share\n"
                                                                                                  << text;

  // An event that never ran in one dump: no estimate, said, not judged.
  MuxRun off = base;
  off.loop[1] = {0, 1000, 0};
  const pmukit::Dump doff = decode(run_dump(off));
  const pmukit::DiffResult o = pmukit::diff_dumps(db, nullptr, doff, nullptr, 10.0);
  std::ostringstream oo;
  pmukit::write_diff(oo, o, "base.bin", "off.bin");
  EXPECT_NE(line_matching(oo.str(), R"(^  loop +INSTR \(instructions\) +100\.0 +<not counted> +- +base 50\.00%, new 0\.00%$)"),
            "")
      << oo.str();
  EXPECT_EQ(o.past(), 0u);

  // No event in common: refused, as regions whose counters share none are.
  MuxRun other;
  other.events = {{0x0B, 0, 0, "DC_MISS", "dcache_misses", 0}, {0x0D, 0, 0, "PC_CHANGE", "", 0}};
  const pmukit::Dump dother = decode(run_dump(other));
  EXPECT_THROW(pmukit::diff_dumps(db, nullptr, dother, nullptr, std::nullopt), pmukit::DiffRefused);
}

}  // namespace

namespace {

// A dump with TASK_COUNTS only (no region): tasks 1 and 2 on one cycles counter.
pmukit::Dump task_counts_dump(std::uint64_t one, std::uint64_t two, bool third_task = false) {
  dumptest::VectorSink out;
  pmu::dump::Writer w(out.sink(), pmu::dump::ByteOrder::little);
  w.begin({"xscale", "xscale-xsc2", 1000, 32, 4});
  const pmu::dump::CounterInfo c[] = {{0, 32, 0xFF, "cycles", "cycles"}};
  w.counters(c, 1);
  const std::uint64_t a[] = {one}, b[] = {two};
  w.task_counts(1, 2, a, 1);
  w.task_counts(third_task ? 3 : 2, 1, b, 1);
  EXPECT_EQ(w.finish(), pmu::dump::Status::ok);
  return pmukit::decode_dump(out.bytes.data(), out.bytes.size());
}

}  // namespace

// TASK_COUNTS (format 1.5): each task's count, its share of the sum of every task's (the whole) and
// its rate over its own cycles; the last row is that sum. Repeated runs: the mean and perf's "+-";
// runs of other tasks are refused.
TEST(StatTasks, SharesOfTheWholeAndTheSumRowIsTheWhole) {
  const pmukit::Dump d = task_counts_dump(3000, 1000);
  const pmukit::StatReport r = pmukit::build_stat({{"tasks.bin", &d}});
  ASSERT_TRUE(r.tasks.has_value());
  ASSERT_EQ(r.tasks->rows.size(), 3u);
  EXPECT_EQ(r.tasks->rows[0].counts[0].exact, std::optional<std::uint64_t>(3000));
  EXPECT_DOUBLE_EQ(r.tasks->rows[0].share[0], 75.0);
  EXPECT_DOUBLE_EQ(*r.tasks->rows[0].seconds, 3.0);  // 3000 cycles at 1000 Hz
  EXPECT_DOUBLE_EQ(*r.tasks->rows[0].rate[0], 1000.0);
  const pmukit::StatTaskRow& whole = r.tasks->rows[2];
  EXPECT_TRUE(whole.whole);
  EXPECT_EQ(whole.counts[0].exact, std::optional<std::uint64_t>(4000));
  EXPECT_EQ(whole.switches_in.exact, std::optional<std::uint64_t>(3));
  EXPECT_DOUBLE_EQ(whole.share[0], 100.0);

  const pmukit::Dump again = task_counts_dump(5000, 1000);
  const pmukit::StatReport two = pmukit::build_stat({{"a.bin", &d}, {"b.bin", &again}});
  EXPECT_DOUBLE_EQ(two.tasks->rows[0].counts[0].mean, 4000.0);
  EXPECT_DOUBLE_EQ(*two.tasks->rows[0].counts[0].noise, 25.0);  // s = 1414.2, / sqrt(2) = 1000: 25% of 4000
  EXPECT_DOUBLE_EQ(two.tasks->rows[2].counts[0].mean, 5000.0);

  const pmukit::Dump other = task_counts_dump(3000, 1000, true);
  EXPECT_EQ(refusal({{"a.bin", &d}, {"c.bin", &other}}),
            "run 2 (c.bin) has other tasks' TASK_COUNTS than run 1 (a.bin): repeated runs run the same tasks");
}
