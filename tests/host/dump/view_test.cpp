// perf report's habits (tools/report/view.hpp): --sort keys, --top, --percent-limit, --symbols in
// every tabular format, the call trees of -g caller|callee, and text tables that pad by display
// width and shorten long names.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "fixtures.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"
#include "tools/report/view.hpp"

namespace {

namespace pd = pmu::dump;
using pmukit::ProfileRows;
using pmukit::SortKey;
using pmukit::ViewOptions;

struct Fixture {
  pmukit::SymbolTable symbols = dumptest::synthetic_symbols();
  dumptest::Bytes bytes = dumptest::profile_dump(pd::ByteOrder::little);
  pmukit::Dump dump = pmukit::decode_dump(bytes.data(), bytes.size());
  pmukit::Profile profile = pmukit::build_profile(dump, symbols, true);

  std::string report(const std::string& format, const pmukit::ReportOptions& o) const {
    std::ostringstream os;
    EXPECT_TRUE(pmukit::write_report(os, format, {dump, profile, o}));
    return os.str();
  }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream s(text);
  for (std::string l; std::getline(s, l);) v.push_back(l);
  return v;
}

// Before: TextTable padded by bytes, so a row with "é" (2 bytes, 1 column) or "関数" (6 bytes, 4
// columns) put its next column 1 or 2 columns left of the others.
TEST(TextTable, PadsByDisplayWidthNotBytes) {
  EXPECT_EQ(pmukit::display_width("abc"), 3u);
  EXPECT_EQ(pmukit::display_width("caf\xC3\xA9"), 4u);          // é: one column
  EXPECT_EQ(pmukit::display_width("\xE9\x96\xA2\xE6\x95\xB0"), 4u);  // 関数: two wide characters
  EXPECT_EQ(pmukit::display_width("e\xCC\x81"), 1u);            // e + combining acute
  pmukit::TextTable t({pmukit::TextTable::left, pmukit::TextTable::left});
  t.row({"name", "next"});
  t.row({"caf\xC3\xA9", "x"});
  t.row({"\xE9\x96\xA2\xE6\x95\xB0", "y"});
  std::ostringstream os;
  t.print(os);
  const std::vector<std::string> l = lines_of(os.str());
  ASSERT_EQ(l.size(), 3u);
  // The second column starts at display column 6 on every row.
  for (const std::string& line : l) {
    const std::size_t cut = line.size() - 1 - (line == l[0] ? 3 : 0);
    EXPECT_EQ(pmukit::display_width(line.substr(0, cut)), 6u) << line;
  }
}

TEST(TextTable, LongNamesAreShortenedInTheMiddleOnlyInTextColumns) {
  const std::string longer = "ns::detail::" + std::string(200, 'x') + "::function(int)";
  EXPECT_EQ(pmukit::shorten("short", 120), "short");
  EXPECT_EQ(pmukit::shorten(longer, 0), longer) << "0: never";
  const std::string s = pmukit::shorten(longer, 40);
  EXPECT_EQ(pmukit::display_width(s), 40u);
  EXPECT_EQ(s.rfind("ns::detail::", 0), 0u) << s;
  EXPECT_TRUE(s.ends_with("::function(int)")) << s;
  EXPECT_NE(s.find("..."), std::string::npos);
  // Wide characters are never cut in half.
  const std::string wide = pmukit::shorten("\xE9\x96\xA2\xE6\x95\xB0\xE9\x96\xA2\xE6\x95\xB0\xE9\x96\xA2", 8);
  EXPECT_LE(pmukit::display_width(wide), 8u);
  for (std::size_t i = 0; i < wide.size();) {
    const std::size_t n = pmukit::utf8_sequence(wide, i);
    ASSERT_NE(n, 0u) << "valid UTF-8 after shortening";
    i += n;
  }
  pmukit::TextTable t({pmukit::TextTable::right, pmukit::TextTable::left});
  t.max_width(20);
  t.row({std::string(30, '9'), longer});
  std::ostringstream os;
  t.print(os);
  EXPECT_NE(os.str().find(std::string(30, '9')), std::string::npos) << "numbers are never shortened";
  EXPECT_EQ(pmukit::display_width(lines_of(os.str())[0]), 30u + 2 + 20);
}

TEST(View, SortKeysAndPercentagesAsPerfNamesThem) {
  EXPECT_EQ(pmukit::parse_sort_key("sym"), SortKey::function);
  EXPECT_EQ(pmukit::parse_sort_key("srcline"), SortKey::line);
  EXPECT_EQ(pmukit::parse_sort_key("symoff"), SortKey::address);
  EXPECT_EQ(pmukit::parse_sort_key("caller"), SortKey::caller);
  EXPECT_FALSE(pmukit::parse_sort_key("dso"));
  EXPECT_EQ(pmukit::parse_percent("0.5"), 50u);
  EXPECT_EQ(pmukit::parse_percent("5%"), 500u);
  EXPECT_EQ(pmukit::parse_percent("100"), 10000u);
  EXPECT_EQ(pmukit::parse_percent("12.25"), 1225u);
  for (const char* bad : {"", "-1", "100.01", "0.125", "1.", ".5", "x", "1e3"})
    EXPECT_FALSE(pmukit::parse_percent(bad)) << bad;
}

// Every key's rows hold every sample: shown plus left out is the total, per function too.
TEST(View, EveryKeyAccountsForEverySample) {
  const Fixture f;
  for (SortKey key : {SortKey::function, SortKey::line, SortKey::address, SortKey::caller}) {
    SCOPED_TRACE(pmukit::sort_key_name(key));
    for (std::uint32_t limit : {0u, 1000u, 3000u}) {
      ViewOptions v;
      v.sort = key;
      v.percent_limit = limit;
      const ProfileRows rows = pmukit::profile_rows(f.profile, v, 0);
      std::uint64_t sum = rows.left_samples;
      std::map<std::uint32_t, std::uint64_t> self;
      for (const pmukit::ProfileRow& r : rows.rows) {
        sum += r.samples;
        self[r.function] += r.samples;
        EXPECT_GE(r.samples * 10000, std::uint64_t{limit} * f.profile.total) << "a row under the limit was shown";
      }
      EXPECT_EQ(sum, f.profile.total);
      if (limit == 0) {
        EXPECT_EQ(rows.left_rows, 0u);
        for (std::uint32_t id : f.profile.by_self()) EXPECT_EQ(self[id], f.profile.functions[id].self);
      }
    }
  }
}

// docs/capture.md runs `--format flat --top 5`: before, flat listed every function. Each tabular
// format shows N rows and a closing line (json: functions_not_shown) with what it left out.
TEST(View, TopAndPercentLimitInEveryTabularFormatSayWhatTheyLeftOut) {
  const Fixture f;
  pmukit::ReportOptions o;
  o.view.top = 2;
  std::vector<std::string> warnings;
  o.warnings = &warnings;
  const std::string flat = f.report("flat", o);
  EXPECT_NE(flat.find("memcpy"), std::string::npos);
  EXPECT_EQ(flat.find("crc32"), std::string::npos) << flat;
  EXPECT_NE(flat.find("# 3 functions with 5 samples (31.25%) not shown: past the first 2 (--top)"), std::string::npos) << flat;
  EXPECT_NE(f.report("table", o).find("  ... 3 functions with 5 samples (31.25%) not shown: past the first 2 (--top)"),
            std::string::npos);
  o.csv_table = "profile";
  const std::string csv = f.report("csv", o);
  EXPECT_EQ(lines_of(csv).size(), 3u) << csv;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("csv: ", 0), 0u) << warnings[0];
  const std::string json = f.report("json", o);
  EXPECT_NE(json.find("\"functions_not_shown\": {\n    \"functions\": 3,\n    \"samples\": 5,"), std::string::npos) << json;

  pmukit::ReportOptions limit;
  limit.view.percent_limit = 2000;  // 20%: memcpy 43.75 and dma_copy 25.00 stay
  const std::string t = f.report("flat", limit);
  EXPECT_EQ(t.find("crc32"), std::string::npos);
  EXPECT_NE(t.find("dma_copy"), std::string::npos);
  EXPECT_NE(t.find("not shown: under 20.00% (--percent-limit)"), std::string::npos) << t;
}

// perf report --symbols / --symbol-filter: only those functions' rows; percentages stay shares of
// all samples and the rest is said.
TEST(View, SymbolFiltersKeepTheirRowsAndSayTheRest) {
  const Fixture f;
  pmukit::ReportOptions o;
  o.view.symbols = {"crc32", "main"};
  const std::string flat = f.report("flat", o);
  EXPECT_NE(flat.find("18.75"), std::string::npos) << "crc32's share of all 16 samples: " << flat;
  EXPECT_EQ(flat.find("memcpy"), std::string::npos);
  EXPECT_NE(flat.find("not shown: not in --symbols"), std::string::npos) << flat;
  pmukit::ReportOptions g;
  g.view.symbol_filter = "m";  // main, memcpy, dma_copy; not crc32
  const std::string only = f.report("flat", g);
  EXPECT_NE(only.find("memcpy"), std::string::npos);
  EXPECT_NE(only.find("dma_copy"), std::string::npos);
  EXPECT_EQ(only.find("crc32"), std::string::npos) << only;
}

TEST(View, SortByLineAddressAndCallerInTableAndFlat) {
  const Fixture f;
  pmukit::ReportOptions o;
  o.view.sort = SortKey::line;
  EXPECT_NE(f.report("table", o).find("samples  percent  cumul%  location"), std::string::npos);
  o.view.sort = SortKey::address;
  const std::string by_pc = f.report("flat", o);
  EXPECT_NE(by_pc.find("memcpy+0x"), std::string::npos) << by_pc;
  o.view.sort = SortKey::caller;
  const std::string callers = f.report("flat", o);
  EXPECT_NE(callers.find("dma_copy     memcpy"), std::string::npos) << callers;
}

}  // namespace
