// Every output format against a checked-in golden file (tests/host/dump/golden/).
// Regenerate after an intended change: PMUKIT_UPDATE_GOLDEN=1 ./pmukit_dump_tests
// --gtest_filter='Golden*' (see README.md), then review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "fixtures.hpp"
#include "test_catalog.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/events/events_listing.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/stat.hpp"
#include "tools/report/tasks.hpp"

namespace {

namespace pd = pmu::dump;

void check_file(const std::string& path, const std::string& actual) {
  const char* update = std::getenv("PMUKIT_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << path << " (PMUKIT_UPDATE_GOLDEN=1 creates it)";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(actual, expected.str()) << "output differs from " << path;
}

void check_golden(const std::string& name, const std::string& actual) {
  check_file(std::string(PMUKIT_DUMP_TEST_DIR) + "/golden/" + name, actual);
}

std::string text(const dumptest::Bytes& b) { return std::string(b.begin(), b.end()); }

class GoldenReport : public ::testing::TestWithParam<std::string> {};

std::string report(const dumptest::Bytes& bytes, const pmukit::SymbolTable& symbols,
                   const std::string& format, const std::string& elf,
                   const std::string& csv_table = "regions") {
  const pmukit::Dump dump = pmukit::decode_dump(bytes.data(), bytes.size());
  const pmukit::Profile profile = pmukit::build_profile(dump, symbols);
  pmukit::ReportOptions options;
  options.carrier = "binary";
  options.elf = elf;
  options.csv_table = csv_table;
  std::ostringstream os;
  EXPECT_TRUE(pmukit::write_report(os, format, {dump, profile, options}));
  return os.str();
}

std::string extension(const std::string& format) {
  if (format == "json" || format == "csv" || format == "html" || format == "svg") return format;
  if (format == "callgrind") return "out";
  if (format == "gmon") return "gmon";  // binary
  if (format == "trace") return "trace.json";
  return "txt";
}

// The profile fixture, or for the timeline the trace fixture (the profile has no TRACE chunk).
dumptest::Bytes fixture_for(const std::string& format, pd::ByteOrder order) {
  return format == "trace" ? dumptest::trace_dump(order) : dumptest::profile_dump(order);
}

TEST_P(GoldenReport, ProfileWithSymbols) {
  const std::string format = GetParam();
  check_golden("report_" + format + "." + extension(format),
               report(fixture_for(format, pd::ByteOrder::big), dumptest::synthetic_symbols(), format, "firmware.elf"));
}

TEST_P(GoldenReport, HistogramWithoutSymbols) {
  const std::string format = GetParam();
  if (format == "trace") {  // no regions, no timeline: an error, not an empty trace
    const pmukit::Dump dump = pmukit::decode_dump(dumptest::histogram_dump(pd::ByteOrder::little).data(),
                                                  dumptest::histogram_dump(pd::ByteOrder::little).size());
    const pmukit::Profile profile = pmukit::build_profile(dump, pmukit::SymbolTable());
    pmukit::ReportOptions options;
    std::ostringstream os;
    EXPECT_THROW(pmukit::write_report(os, format, {dump, profile, options}), pmukit::ReportRefused);
    return;
  }
  check_golden("histogram_" + format + "." + extension(format),
               report(dumptest::histogram_dump(pd::ByteOrder::little), pmukit::SymbolTable(),
                      format, ""));
}

INSTANTIATE_TEST_SUITE_P(Formats, GoldenReport, ::testing::ValuesIn(pmukit::report_formats()),
                         [](const auto& info) { return info.param; });

TEST(GoldenReport, EveryFormatIsCovered) {
  EXPECT_EQ(pmukit::report_formats().size(), 11u);
}

TEST(GoldenReport, CsvProfileTable) {
  check_golden("report_profile.csv",
               report(dumptest::profile_dump(pd::ByteOrder::little), dumptest::synthetic_symbols(),
                      "csv", "firmware.elf", "profile"));
}

// perf report's habits (tools/report/view.hpp) on the profile fixture: each --sort key, --top with
// --percent-limit and their closing line, the call trees of -g caller and -g callee.
TEST(GoldenReport, PerfReportHabits) {
  const dumptest::Bytes bytes = dumptest::profile_dump(pd::ByteOrder::big);
  const pmukit::Dump dump = pmukit::decode_dump(bytes.data(), bytes.size());
  const pmukit::SymbolTable symbols = dumptest::synthetic_symbols();
  const pmukit::Profile profile = pmukit::build_profile(dump, symbols);
  const auto one = [&](const std::string& name, const std::string& format, auto set) {
    pmukit::ReportOptions options;
    options.carrier = "binary";
    options.elf = "firmware.elf";
    set(options);
    std::ostringstream os;
    EXPECT_TRUE(pmukit::write_report(os, format, {dump, profile, options}));
    check_golden(name, os.str());
  };
  one("habits_flat_sort_line.txt", "flat", [](auto& o) { o.view.sort = pmukit::SortKey::line; });
  one("habits_flat_sort_address.txt", "flat", [](auto& o) { o.view.sort = pmukit::SortKey::address; });
  one("habits_table_sort_caller.txt", "table", [](auto& o) { o.view.sort = pmukit::SortKey::caller; });
  one("habits_flat_top_limit.txt", "flat", [](auto& o) {
    o.view.top = 2;
    o.view.percent_limit = 1000;
  });
  one("habits_callgraph_caller.txt", "callgraph", [](auto& o) { o.call_graph = "caller"; });
  one("habits_callgraph_callee.txt", "callgraph", [](auto& o) {
    o.call_graph = "callee";
    o.view.percent_limit = 1500;
  });
}

// The report lines that name the byte order or the CRC (which differs with it), removed.
std::string without_byte_order(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line))
    if (line.find("endian") == std::string::npos && line.find("byte_order") == std::string::npos &&
        line.find("crc32") == std::string::npos)
      out += line + "\n";
  return out;
}

TEST(GoldenReport, SameOutputFromBothByteOrders) {
  const pmukit::SymbolTable symbols = dumptest::synthetic_symbols();
  for (const std::string& format : pmukit::report_formats()) {
    if (format == "gmon") continue;  // gprof's file is in the target's byte order: see GmonByteOrder
    const std::string big = report(fixture_for(format, pd::ByteOrder::big), symbols, format, "e");
    const std::string little = report(fixture_for(format, pd::ByteOrder::little), symbols, format, "e");
    EXPECT_EQ(without_byte_order(big), without_byte_order(little)) << format;
    EXPECT_NE(big.find("dma_copy"), std::string::npos) << format;
  }
}

// gmon.out follows the target: the same samples from a big- and a little-endian dump give the same
// file with every multi-byte field reversed (the version word shows it).
TEST(GoldenReport, GmonByteOrder) {
  const pmukit::SymbolTable symbols = dumptest::synthetic_symbols();
  const std::string big = report(dumptest::profile_dump(pd::ByteOrder::big), symbols, "gmon", "e");
  const std::string little = report(dumptest::profile_dump(pd::ByteOrder::little), symbols, "gmon", "e");
  ASSERT_EQ(big.size(), little.size());
  EXPECT_EQ(big.substr(0, 8), std::string("gmon\0\0\0\1", 8));
  EXPECT_EQ(little.substr(0, 8), std::string("gmon\1\0\0\0", 8));
}

TEST(GoldenDecode, Json) {
  const dumptest::Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  std::ostringstream os;
  pmukit::write_dump_json(os, pmukit::decode_dump(b.data(), b.size()), "binary");
  check_golden("decode.json", os.str());
}

// Multiplexing (1.4): MUX_EVENTS and MUX_REGION as decode shows them.
TEST(GoldenDecode, MultiplexedJson) {
  const dumptest::Bytes b = dumptest::mux_dump(pd::ByteOrder::little);
  std::ostringstream os;
  pmukit::write_dump_json(os, pmukit::decode_dump(b.data(), b.size()), "binary");
  check_golden("decode_mux.json", os.str());
}

// Tasks and cores (1.5): TASKS, SAMPLE_TAGS, TASK_COUNTS and CORE as decode shows them.
TEST(GoldenDecode, TasksJson) {
  const dumptest::Bytes b = dumptest::tasks_dump(pd::ByteOrder::big);
  std::ostringstream os;
  pmukit::write_dump_json(os, pmukit::decode_dump(b.data(), b.size()), "binary");
  check_golden("decode_tasks.json", os.str());
}

// The tasks fixture as `pmukit report` makes it: --task/--core keep those samples (filter_samples),
// --root puts the task or core above each stack (build_rooted_profile).
std::string tasks_report(const std::string& format, const pmukit::SampleFilter& filter, const std::string& filter_text,
                         const std::vector<pmukit::RootKey>& roots = {}) {
  const dumptest::Bytes b = dumptest::tasks_dump(pd::ByteOrder::little);
  pmukit::Dump dump = pmukit::decode_dump(b.data(), b.size());
  const std::uint64_t all = dump.total_samples();
  pmukit::ReportOptions options;
  options.carrier = "binary";
  options.elf = "firmware.elf";
  if (filter.active()) {
    dump = pmukit::filter_samples(dump, filter);
    options.filter = filter_text + ": " + std::to_string(dump.total_samples()) + " of " + std::to_string(all) + " samples";
  }
  const pmukit::SymbolTable symbols = dumptest::synthetic_symbols();
  const pmukit::Profile profile = roots.empty() ? pmukit::build_profile(dump, symbols)
                                                : pmukit::build_rooted_profile(dump, symbols, roots, true, nullptr, false, false);
  std::ostringstream os;
  EXPECT_TRUE(pmukit::write_report(os, format, {dump, profile, options}));
  return os.str();
}

TEST(GoldenTasks, TableSaysWhoRanTheSamples) {
  check_golden("tasks_table.txt", tasks_report("table", {}, ""));
}

TEST(GoldenTasks, TaskFilterByNameAndId) {
  const dumptest::Bytes b = dumptest::tasks_dump(pd::ByteOrder::little);
  const pmukit::Dump dump = pmukit::decode_dump(b.data(), b.size());
  pmukit::SampleFilter net;
  net.tasks = pmukit::resolve_tasks(dump, {"net"});
  EXPECT_EQ(*net.tasks, (std::set<std::uint16_t>{1}));
  EXPECT_EQ(pmukit::resolve_tasks(dump, {"1", "65535"}), (std::set<std::uint16_t>{1, pmukit::kNoTask}));
  check_golden("tasks_flat_task_net.txt", tasks_report("flat", net, "--task net"));
  check_golden("tasks_folded_task_net.txt", tasks_report("folded", net, "--task net"));
}

TEST(GoldenTasks, CoreFilter) {
  pmukit::SampleFilter core1;
  core1.cores = std::set<unsigned>{1};
  check_golden("tasks_table_core_1.txt", tasks_report("table", core1, "--core 1"));
}

TEST(GoldenTasks, TaskAsTheRootFrame) {
  check_golden("tasks_folded_root_task.txt", tasks_report("folded", {}, "", {pmukit::RootKey::task}));
  check_golden("tasks_callgraph_root_task.txt", tasks_report("callgraph", {}, "", {pmukit::RootKey::task}));
}

TEST(GoldenTasks, SplitByCoreThenTask) {
  check_golden("tasks_folded_root_core_task.txt",
               tasks_report("folded", {}, "", {pmukit::RootKey::core, pmukit::RootKey::task}));
}

// pmukit stat's per-task table from TASK_COUNTS: counts, share of the whole, rate; the sum row is
// the whole.
TEST(GoldenTasks, StatPerTaskTable) {
  const dumptest::Bytes b = dumptest::tasks_dump(pd::ByteOrder::big);
  const pmukit::Dump dump = pmukit::decode_dump(b.data(), b.size());
  const pmukit::StatReport r = pmukit::build_stat({{"tasks.bin", &dump}});
  for (const std::string format : {"table", "csv", "json"}) {
    std::ostringstream os;
    ASSERT_TRUE(pmukit::write_stat(os, r, format));
    check_golden("tasks_stat." + std::string(format == "table" ? "txt" : format), os.str());
  }
  pmukit::StatOptions crc;
  crc.tasks = {"crc"};
  std::ostringstream os;
  ASSERT_TRUE(pmukit::write_stat(os, pmukit::build_stat({{"tasks.bin", &dump}}, crc), "table"));
  check_golden("tasks_stat_task_crc.txt", os.str());
}

// The fuzzer's seed corpus is the fixtures, so it follows format changes the same way.
TEST(GoldenCorpus, FuzzSeeds) {
  const std::string dir = std::string(PMUKIT_DUMP_TEST_DIR) + "/corpus/";
  check_file(dir + "profile_be.bin", text(dumptest::profile_dump(pd::ByteOrder::big)));
  check_file(dir + "profile_le.bin", text(dumptest::profile_dump(pd::ByteOrder::little)));
  check_file(dir + "histogram_le.bin", text(dumptest::histogram_dump(pd::ByteOrder::little)));
  check_file(dir + "histogram_be.bin", text(dumptest::histogram_dump(pd::ByteOrder::big)));
  check_file(dir + "trace_be.bin", text(dumptest::trace_dump(pd::ByteOrder::big)));
  check_file(dir + "stacks_le.bin", text(dumptest::stacks_dump(pd::ByteOrder::little)));
  check_file(dir + "frames_be.bin", text(dumptest::frames_dump(pd::ByteOrder::big)));
  check_file(dir + "wide_stacks_be.bin", text(dumptest::wide_stacks_dump(pd::ByteOrder::big)));
  check_file(dir + "mux_be.bin", text(dumptest::mux_dump(pd::ByteOrder::big)));
  check_file(dir + "tasks_le.bin", text(dumptest::tasks_dump(pd::ByteOrder::little)));
  check_file(dir + "console_log.txt", dumptest::profile_log(pd::ByteOrder::big));
  dumptest::VectorSink wide;
  pd::Writer w(wide.sink(), pd::ByteOrder::little);
  w.begin({"host", "none", 1000, 64, 8});
  w.begin_samples(2);
  w.sample(0x1010, 0x2010);
  w.sample(0xFFFF800000001000ull, 0);
  w.finish();
  check_file(dir + "eight_byte_addresses.bin", text(wide.bytes));
}

TEST(GoldenEvents, Text) {
  std::ostringstream os;
  pmukit::write_events_text(os, dumptest::kTestCatalogs);
  check_golden("events.txt", os.str());
}

TEST(GoldenEvents, Json) {
  std::ostringstream os;
  pmukit::write_events_json(os, dumptest::kTestCatalogs);
  check_golden("events.json", os.str());
}

}  // namespace
