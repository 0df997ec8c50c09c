// `pmukit conformance`: the reader of the conformance images' @PMUCHECK lines (tools/conformance/,
// examples/common/silicon_check.hpp), and the command end to end (exit 0 / 1 / 2, one-line errors).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "tools/conformance/conformance.hpp"

namespace {

namespace pc = pmukit::conformance;

// What an image prints: two rows, an answer and a skip, framed by BEGIN and END.
const std::string kLog =
    "boot banner\n"
    "[12:00:01] @PMUCHECK xscale BEGIN part=PXA27x,midr=0x69054117,xsc2\r\n"
    "@PMUCHECK xscale wrap.at_2^32 PASS observed=0xffffffff+noflag expected=0xffffffff+noflag "
    "ref=\"core manual 8.3.1\"\n"
    "@PMUCHECK xscale count.repeatable FAIL observed=356,357 expected=equal ref=\"core manual 8.4\"\n"
    "@PMUCHECK xscale flag.two ANSWER observed=0x06 expected=0x06|0x04 ref=\"core manual 8.3\"\n"
    "@PMUCHECK xscale freeze SKIP observed=\"no freeze here\" expected=- ref=\"core manual 8.2.4\"\n"
    "@PMUCHECK xscale END 1 passed 1 failed 1 answers 1 skipped\n";

// `text` without the line of rule `rule` (and what follows it up to the next @PMUCHECK).
std::string without(std::string text, const std::string& rule) {
  const std::size_t at = text.find("@PMUCHECK xscale " + rule + " ");
  return text.erase(at, text.find("@PMUCHECK", at + 1) - at);
}

pc::Report parse(const std::string& text) {
  std::istringstream in(text);
  return pc::parse(in, "log");
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const pc::LogError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ConformanceLog, ReadsEveryRowWhereverTheMarkerSitsInTheLine) {
  const pc::Report r = parse(kLog);
  ASSERT_EQ(r.sections.size(), 1u);
  const pc::Section& s = r.sections[0];
  EXPECT_EQ(s.pmu, "xscale");
  EXPECT_EQ(s.part, "PXA27x,midr=0x69054117,xsc2");
  ASSERT_EQ(s.rows.size(), 4u);
  EXPECT_EQ(s.rows[0].rule, "wrap.at_2^32");
  EXPECT_EQ(s.rows[0].verdict, pc::Verdict::pass);
  EXPECT_EQ(s.rows[0].observed, "0xffffffff+noflag");
  EXPECT_EQ(s.rows[0].ref, "core manual 8.3.1");
  EXPECT_EQ(s.rows[1].verdict, pc::Verdict::fail);
  EXPECT_EQ(s.rows[1].line, 4u);
  EXPECT_EQ(s.rows[2].verdict, pc::Verdict::answer);
  EXPECT_EQ(s.rows[3].observed, "no freeze here");  // quotes dropped
  EXPECT_EQ(r.count(pc::Verdict::fail), 1u);
}

TEST(ConformanceLog, ReadsSeveralRunsInOneLog) {
  const pc::Report r = parse(kLog + "noise\n" + kLog);
  EXPECT_EQ(r.sections.size(), 2u);
  EXPECT_EQ(r.count(pc::Verdict::answer), 2u);
}

TEST(ConformanceLog, RefusesALogWithoutReport) {
  EXPECT_EQ(error_of("hello\nworld\n"), "log: no @PMUCHECK lines (not the console output of a conformance image?)");
}

TEST(ConformanceLog, RefusesARunCutShortBeforeItsEnd) {
  const std::string cut = kLog.substr(0, kLog.find("@PMUCHECK xscale END"));
  EXPECT_EQ(error_of(cut), "log: ends before '@PMUCHECK xscale END' (the run begun on line 2 was cut short)");
  EXPECT_NE(error_of(cut + kLog).find("BEGIN inside the run of 'xscale' begun on line 2"), std::string::npos);
}

TEST(ConformanceLog, RefusesAnEndWhoseCountsDisagreeWithTheRows) {
  const std::string lost = without(kLog, "count.repeatable");
  EXPECT_EQ(error_of(lost), "log:6: END says 1 failed but the log has 0 FAIL rows for 'xscale' (lines were lost)");
}

TEST(ConformanceLog, RefusesMalformedLines) {
  const std::string begin = "@PMUCHECK e500 BEGIN part=x\n";
  EXPECT_EQ(error_of(begin + "@PMUCHECK e500 r MAYBE observed=1\n"),
            "log:2: rule 'r': verdict 'MAYBE' is not PASS, FAIL, ANSWER or SKIP");
  EXPECT_EQ(error_of(begin + "@PMUCHECK e500 r PASS ref=\"open\n"),
            "log:2: a quoted value is never closed: 'e500 r PASS ref=\"open'");
  EXPECT_EQ(error_of("@PMUCHECK e500 r PASS\n"),
            "log:1: a @PMUCHECK line before its run's BEGIN: 'e500 r PASS'");
  EXPECT_EQ(error_of(begin + "@PMUCHECK e500 r PASS\n@PMUCHECK e500 r PASS\n"),
            "log:3: rule 'r' reported twice in one run (first on line 2)");
  EXPECT_EQ(error_of(begin + "@PMUCHECK e500 END 0 passed\n"),
            "log:2: an END line must be 'END <n> passed <n> failed <n> answers <n> skipped'");
  EXPECT_EQ(error_of(begin + "@PMUCHECK xscale r PASS\n"),
            "log:2: a line of 'xscale' inside the run of 'e500' begun on line 1");
}

TEST(ConformanceLog, PrintsOneTablePerRunWithTheTotals) {
  std::ostringstream text, md;
  pc::print(text, parse(kLog), false);
  EXPECT_NE(text.str().find("xscale on PXA27x,midr=0x69054117,xsc2\nrule "), std::string::npos);
  EXPECT_NE(text.str().find("count.repeatable  FAIL     356,357"), std::string::npos);
  EXPECT_NE(text.str().find("1 passed, 1 failed, 1 answers, 1 skipped\n"), std::string::npos);
  pc::print(md, parse(kLog), true);
  EXPECT_NE(md.str().find("| flag.two | ANSWER | 0x06 | 0x06\\|0x04 | core manual 8.3 |"), std::string::npos);
}

// ---- the command ----------------------------------------------------------------------------------

using Result = dumptest::CliResult;

std::string temp_path(const std::string& name) { return dumptest::cli_temp_path("pmukit_conformance_", name); }
Result pmukit(const std::string& args) { return dumptest::run_cli(PMUKIT_CLI, args, "pmukit_conformance_"); }
std::string log_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(ConformanceCommand, ExitsZeroWhenNoRuleFailed) {
  std::string pass = without(kLog, "count.repeatable");
  pass.replace(pass.find("1 passed 1 failed"), 17, "1 passed 0 failed");
  const Result r = pmukit("conformance " + log_file("pass.log", pass));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrap.at_2^32"), std::string::npos);
  EXPECT_EQ(r.err, "");
}

TEST(ConformanceCommand, ExitsOneWhenARuleFailedOnThePart) {
  const Result r = pmukit("conformance --markdown - < " + log_file("fail.log", kLog));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("| count.repeatable | FAIL |"), std::string::npos);
  EXPECT_EQ(r.err, "pmukit: 1 rule FAILED on this part\n");
}

TEST(ConformanceCommand, ExitsTwoOnAnIncompleteLogWithOneLine) {
  const std::string path = log_file("cut.log", kLog.substr(0, kLog.find("@PMUCHECK xscale END")));
  const Result r = pmukit("conformance " + path);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "pmukit: error: " + path +
                       ": ends before '@PMUCHECK xscale END' (the run begun on line 2 was cut short)\n");
  const Result missing = pmukit("conformance " + temp_path("none.log"));
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("cannot open: No such file or directory"), std::string::npos);
  EXPECT_EQ(pmukit("conformance").status, 2);
}

TEST(ConformanceCommand, HasItsHelp) {
  const Result h = pmukit("conformance --help");
  EXPECT_EQ(h.status, 0);
  EXPECT_EQ(h.out.rfind("usage: pmukit conformance LOG", 0), 0u) << h.out;
}

}  // namespace
