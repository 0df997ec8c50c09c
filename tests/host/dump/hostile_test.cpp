// Hostile strings and values in every output (issue 31, output hygiene): names from a dump or an
// ELF holding terminal escapes, newlines, C1 controls, XML non-characters and invalid UTF-8, and
// trace events no target can record. Each format escapes them its own way; none passes them raw.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "fixtures.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/report/annotate.hpp"
#include "tools/report/diff.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/stat.hpp"
#include "tools/report/text_util.hpp"

namespace {

namespace pd = pmu::dump;

// CSI and OSC escapes, BEL, a newline and a carriage return, the frame separator, a C1 CSI
// (U+009B), U+FFFE and U+FFFF (not XML characters), valid UTF-8 (ü) and an invalid byte.
const char kHostile[] = "\x1b[2J\x1b]0;title\x07red\nline\r;x\xc2\x9b" "31m\xef\xbf\xbe\xef\xbf\xbf\xc3\xbc\xff<&>";

pmukit::SymbolTable hostile_symbols() {
  pmukit::SymbolTable t;
  t.add_function(0x1000, 0x100, std::string("caller") + kHostile);
  t.add_function(0x2000, 0x100, std::string("leaf") + kHostile);
  t.add_line(0x1000, 0x1100, std::string("src/") + kHostile + ".c", 7);
  t.add_line(0x2000, 0x2100, "src/leaf.c", 3);
  t.finalize();
  return t;
}

pmukit::Dump hostile_dump() {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({kHostile, kHostile, 1000000u, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 0xFF, kHostile, kHostile}};
  w.counters(counters, 1);
  const pd::CounterStats st[] = {{10, 1, 2, 0}};
  w.region({kHostile, 1, st, 1, 1, 0});  // a clamped call: the table names the region again
  const pd::MuxEventInfo mux[] = {{0x07, 0, 0, kHostile, kHostile, 0}, {0x0B, 0, 0, kHostile, nullptr, 0}};
  w.mux_events({1000000u, 3, mux, 2});
  const pd::MuxValue values[] = {{10, 100, 50}, {0, 100, 0}};  // scaled, and never counted: a warning
  w.mux_region({kHostile, pd::kMuxWholeRun, 1, values, 2});
  w.sample_source({pd::SampleSourceKind::pmu_overflow, 0, 1000, 0});
  w.begin_samples(3);
  w.sample(0x2010, 0x1024);  // leaf called from caller: a two-frame stack
  w.sample(0x2010, 0x1024);
  w.sample(0x1010, 0);
  w.begin_trace(1, 0);
  w.trace_event(0, 100, 200);
  EXPECT_EQ(w.finish(), pd::Status::ok);
  return pmukit::decode_dump(out.bytes.data(), out.bytes.size());
}

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = pmukit::utf8_sequence(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// Safe to print on a terminal and to read line by line: valid UTF-8 whose only control
// character is the newline ending each line, and no line that a name's newline started.
void expect_clean_text(const std::string& out) {
  ASSERT_TRUE(valid_utf8(out));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(out[i]);
    ASSERT_FALSE((c < 0x20 && c != '\n') || c == 0x7F) << "raw control byte " << unsigned{c} << " at " << i;
    ASSERT_FALSE(c == 0xC2 && static_cast<unsigned char>(out[i + 1]) < 0xA0) << "raw C1 control at " << i;
  }
  EXPECT_EQ(out.find("\nline"), std::string::npos) << "a name's newline split the output";
}

// XML 1.0's Char production: the SVG (and the HTML around it) must parse.
void expect_xml_characters(const std::string& out) {
  ASSERT_TRUE(valid_utf8(out));
  for (std::size_t i = 0; i < out.size();) {
    const std::size_t n = pmukit::utf8_sequence(out, i);
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(out[i + k]); };
    std::uint32_t cp = n == 1 ? b(0) : n == 2 ? (b(0) & 0x1Fu) << 6 | (b(1) & 0x3Fu)
                     : n == 3 ? (b(0) & 0x0Fu) << 12 | (b(1) & 0x3Fu) << 6 | (b(2) & 0x3Fu)
                              : (b(0) & 0x07u) << 18 | (b(1) & 0x3Fu) << 12 | (b(2) & 0x3Fu) << 6 | (b(3) & 0x3Fu);
    ASSERT_TRUE(cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
                (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000)
        << "U+" << std::hex << cp << " is not an XML character (at byte " << std::dec << i << ")";
    i += n;
  }
  EXPECT_EQ(out.find("<&>"), std::string::npos) << "markup not escaped";
}

std::string report(const std::string& format, const pmukit::Dump& d, const pmukit::SymbolTable& symbols,
                   const std::string& csv_table = "regions") {
  const pmukit::Profile profile = pmukit::build_profile(d, symbols);
  pmukit::ReportOptions options;
  options.carrier = "binary";
  options.elf = std::string("fw") + kHostile + ".elf";
  options.csv_table = csv_table;
  std::ostringstream os;
  EXPECT_TRUE(pmukit::write_report(os, format, {d, profile, options}));
  return os.str();
}

TEST(HostileOutput, TextFormatsEscapeEveryControlCharacter) {
  const pmukit::Dump d = hostile_dump();
  const pmukit::SymbolTable symbols = hostile_symbols();
  for (const char* format : {"table", "flat", "folded", "callgrind", "callgraph", "csv"}) {
    SCOPED_TRACE(format);
    expect_clean_text(report(format, d, symbols));
  }
  expect_clean_text(report("csv", d, symbols, "profile"));
  // The frame separator stays a separator: one line per stack, two frames in the deeper one.
  const std::string folded = report("folded", d, symbols);
  EXPECT_EQ(std::count(folded.begin(), folded.end(), '\n'), 2);
  EXPECT_EQ(std::count(folded.begin(), folded.end(), ';'), 1) << folded;
}

TEST(HostileOutput, JsonFormatsEscapeEveryControlCharacter) {
  const pmukit::Dump d = hostile_dump();
  const pmukit::SymbolTable symbols = hostile_symbols();
  expect_clean_text(report("json", d, symbols));
  expect_clean_text(report("trace", d, symbols));
  std::ostringstream os;
  pmukit::write_dump_json(os, d, "binary");
  expect_clean_text(os.str());
  EXPECT_NE(os.str().find("\\u001b[2J\\u001b]0;title\\u0007red\\nline\\r;x\\u009b31m"), std::string::npos) << os.str();
}

TEST(HostileOutput, SvgAndHtmlAreWellFormed) {
  const pmukit::Dump d = hostile_dump();
  const pmukit::SymbolTable symbols = hostile_symbols();
  for (const char* format : {"svg", "html"}) {
    SCOPED_TRACE(format);
    expect_xml_characters(report(format, d, symbols));
  }
  EXPECT_EQ(pmukit::html_escape("a\xef\xbf\xbe" "b\xef\xbf\xbf" "c"), "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c");
}

TEST(HostileOutput, DiffEscapesNamesAndCounter) {
  const pmukit::Dump d = hostile_dump();
  const pmukit::SymbolTable symbols = hostile_symbols();
  const pmukit::Profile p = pmukit::build_profile(d, symbols, false);
  std::ostringstream os;
  pmukit::write_diff(os, pmukit::diff_dumps(d, &p, d, &p, 1.0), std::string("base") + kHostile, "new");
  expect_clean_text(os.str());
}

// stat: region and event names, in its table, csv and json, and in the warnings it says.
TEST(HostileOutput, StatEscapesEveryName) {
  const pmukit::Dump d = hostile_dump();
  const pmukit::StatReport r = pmukit::build_stat({{std::string("run") + kHostile + ".bin", &d}});
  ASSERT_EQ(r.regions.size(), 2u);
  for (const std::string& format : pmukit::stat_formats()) {
    SCOPED_TRACE(format);
    std::ostringstream os;
    ASSERT_TRUE(pmukit::write_stat(os, r, format));
    expect_clean_text(os.str());
    if (format == "json") {
      EXPECT_NE(os.str().find("\\u001b[2J\\u001b]0;title\\u0007red\\nline\\r;x\\u009b31m"), std::string::npos) << os.str();
    }
  }
  std::string warnings;
  for (const std::string& w : pmukit::stat_warnings(r)) warnings += pmukit::printable(w) + "\n";
  expect_clean_text(warnings);
}

// annotate: the function's name, the source file's name and text, objdump's lines.
TEST(HostileOutput, AnnotateEscapesSourceAndDisassembly) {
  const std::string source = ::testing::TempDir() + "pmukit_hostile_source.c";
  std::ofstream(source) << "int x;\nint y; /* \x1b]0;title\x07 \x1b[2J */\n";
  pmukit::SymbolTable symbols;
  symbols.add_function(0x1000, 0x10, std::string("f") + kHostile);
  symbols.add_line(0x1000, 0x1008, source, 2);
  symbols.add_line(0x1008, 0x1010, std::string("src/") + kHostile + ".c", 3);
  symbols.finalize();
  pmukit::Dump d;
  d.sample_counts = {{0x1004, 0, 2}, {0x100c, 0, 1}};
  d.sample_records = 3;
  const pmukit::Profile p = pmukit::build_profile(d, symbols);
  const std::vector<pmukit::DisassembledInstruction> code = {
      {0x1000, "nop"}, {0x1004, std::string("jal 2000 <g") + kHostile + ">"}, {0x1008, "nop"}, {0x100c, "jr ra"}};
  std::ostringstream os;
  pmukit::write_annotation(os, p, symbols, symbols.function(0), code);
  std::remove(source.c_str());
  expect_clean_text(os.str());
  EXPECT_NE(os.str().find("int y; /* \\x1b]0;title\\x07 \\x1b[2J */"), std::string::npos) << os.str();
}

// A trace event ending before it begins cannot come from a target (RegionTrace drops those): the
// timeline refuses the dump rather than show a 1.8e19-tick slice.
TEST(HostileOutput, TraceRefusesAnEventEndingBeforeItBegins) {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"xscale", "xscale-xsc2", 0, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 0xFF, "CCNT", "cycles"}};
  w.counters(counters, 1);
  const pd::CounterStats st[] = {{10, 1, 2, 0}};
  w.region({"dma_copy", 1, st, 1});
  w.begin_trace(2, 0);
  w.trace_event(0, 100, 200);
  w.trace_event(0, 300, 250);
  ASSERT_EQ(w.finish(), pd::Status::ok);
  const pmukit::Dump d = pmukit::decode_dump(out.bytes.data(), out.bytes.size());
  const pmukit::SymbolTable none;
  const pmukit::Profile p = pmukit::build_profile(d, none);
  const pmukit::ReportOptions options;
  std::ostringstream os;
  try {
    pmukit::write_trace(os, {d, p, options});
    FAIL() << "a trace was written: " << os.str();
  } catch (const pmukit::ReportRefused& e) {
    EXPECT_STREQ(e.what(), "trace event 1 (region 'dma_copy') ends at 250, before it begins at 300: no target "
                           "records that (the dump is corrupted)");
  }
}

}  // namespace
