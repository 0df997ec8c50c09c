// Every report format tells the same story (issue 32 item 4): one dump, read back from table,
// flat, csv, callgraph, folded, svg, html, callgrind, pprof and gmon by pmukit_format_consistency,
// gives one total and, per function, one self and one inclusive count; and the stacks are the
// ones the docs promise: a sample without a stack of its own is placed where complete walks saw
// its function (no twins), a cut walk's marker sits under the outermost frame it reached, and no
// sample count is written as a call count.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "elf/nm_listing.hpp"
#include "fixtures.hpp"
#include "temp_folder.hpp"

namespace {

namespace pd = pmu::dump;

struct Shell {
  int status;
  std::string out;
};
Shell shell(const std::string& cmd, const std::string& out) {
  const int raw = std::system((cmd + " >" + out + " 2>&1").c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, dumptest::read_file(out)};
}

// The test ELF's functions, sampled in every way the profile distinguishes: walked stacks (FRAMES)
// complete, recursive and cut short; raw samples of a leaf with its LR caller, of a function with
// no LR, of a function no walk ever saw (its LR caller was seen), of one whose caller was not
// seen either; and the image's last function. tagged (format 1.5): tasks a (1) and b (2) and two
// cores (SAMPLE_TAGS): the walks a on core 0, b on core 1, a on core 1, b on core 0 (the cut ones);
// the raw samples' task j % 3 (a, b, none) and core j % 2 for the j-th of them.
std::string deep_dump(const std::string& elf, const dumptest::TempFolder& dir, bool big, bool tagged = false) {
  const auto nm = dumptest::nm_functions(elf);
  const std::uint64_t entry = nm.at("entry"), middle = nm.at("fw::middle(int)"), leaf = nm.at("fw::leaf_add(int, int)"),
                      fill = nm.at("fw::fill(int*, int)"), two_exits = nm.at("fw::two_exits(int)"),
                      scale = nm.at("thumb_scale(int)");
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), big ? pd::ByteOrder::big : pd::ByteOrder::little);
  w.begin({"test", "none", 0, 32, 4});
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000, 0});
  const pd::TaskInfo tasks[] = {{1, "a"}, {2, "b"}};
  if (tagged) w.tasks(tasks, 2);
  const std::uint32_t complete[] = {static_cast<std::uint32_t>(leaf + 4), static_cast<std::uint32_t>(middle + 9),
                                    static_cast<std::uint32_t>(entry + 9)};
  const std::uint32_t filled[] = {static_cast<std::uint32_t>(fill + 4), static_cast<std::uint32_t>(entry + 17)};
  const std::uint32_t recursive[] = {static_cast<std::uint32_t>(leaf + 8), static_cast<std::uint32_t>(middle + 9),
                                     static_cast<std::uint32_t>(middle + 9), static_cast<std::uint32_t>(entry + 9)};
  const std::uint32_t cut[] = {static_cast<std::uint32_t>(leaf + 8), static_cast<std::uint32_t>(middle + 9)};
  w.begin_frames(300 + 100 + 20 + 50, 300 * 3 + 100 * 2 + 20 * 4 + 50 * 2, 0);  // samples, addresses in all
  for (int i = 0; i < 300; ++i) w.frame_sample(complete, 3, true);
  for (int i = 0; i < 100; ++i) w.frame_sample(filled, 2, true);
  for (int i = 0; i < 20; ++i) w.frame_sample(recursive, 4, true);
  for (int i = 0; i < 50; ++i) w.frame_sample(cut, 2, false);
  if (tagged) {
    w.begin_sample_tags(470, pd::kTagTask | pd::kTagCore);
    for (int i = 0; i < 470; ++i) w.sample_tag(i < 300 || (i >= 400 && i < 420) ? 1 : 2, i >= 300 && i < 420 ? 1 : 0);
  }
  w.begin_samples(160 + 80 + 30 + 40 + 25);
  for (int i = 0; i < 160; ++i) w.sample(leaf + 4 * (i % 3), middle + 9);
  for (int i = 0; i < 80; ++i) w.sample(middle + 4, 0);
  for (int i = 0; i < 30; ++i) w.sample(scale + 4, entry + 25);
  for (int i = 0; i < 40; ++i) w.sample(two_exits + 4, 0);
  for (int i = 0; i < 25; ++i) w.sample(entry + 4, 0);
  if (tagged) {
    w.begin_sample_tags(335, pd::kTagTask | pd::kTagCore);
    for (int j = 0; j < 335; ++j)
      w.sample_tag(j % 3 == 2 ? pd::kNoTask : static_cast<std::uint16_t>(j % 3 + 1), static_cast<std::uint8_t>(j % 2));
  }
  EXPECT_EQ(w.finish(), pd::Status::ok);
  const std::string path = dir / (tagged ? "deep_tagged.bin" : "deep.bin");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(out.bytes.data()),
                                               static_cast<std::streamsize>(out.bytes.size()));
  return path;
}

class EveryFormat : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryFormat, TellsTheSameStory) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/" + GetParam() + ".elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no cross compiler for " << GetParam();
  dumptest::TempFolder dir("pmukit_consistency");
  ASSERT_FALSE(dir.path.empty());
  const bool big = std::string(GetParam()) == "mips" || std::string(GetParam()) == "ppc";
  const std::string dump = deep_dump(elf, dir, big);
  const Shell r = shell(std::string(PMUKIT_FORMAT_CONSISTENCY) + " " + PMUKIT_CLI + " " + elf + " " + dump + " " + dir.path,
                      dir / "check.txt");
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* format : {"table", "flat", "csv", "callgraph", "folded", "svg", "html", "callgrind", "pprof", "gmon",
                             "flat --sort line", "flat --sort address", "flat --sort caller", "callgraph -g caller",
                             "callgraph -g callee"})
    EXPECT_NE(r.out.find(std::string("ok       ") + format + " (805 samples"), std::string::npos) << format << ":\n" << r.out;

  const Shell folded = shell(std::string(PMUKIT_CLI) + " report --format folded --elf " + elf + " " + dump, dir / "folded.txt");
  ASSERT_EQ(folded.status, 0) << folded.out;
  // No twins: every leaf_add sample, with a stack of its own or not, is under entry;middle; the
  // 160 without one split 15:1 as the 300 and 20 complete walks through it.
  EXPECT_EQ(folded.out.find("\nfw::leaf_add"), std::string::npos) << folded.out;
  EXPECT_EQ(folded.out.find("\nfw::middle(int);fw::leaf_add"), std::string::npos) << folded.out;
  EXPECT_NE(folded.out.find("entry;fw::middle(int);fw::leaf_add(int, int) 450\n"), std::string::npos) << folded.out;
  EXPECT_NE(folded.out.find("entry;fw::middle(int);fw::middle(int);fw::leaf_add(int, int) 30\n"), std::string::npos)
      << folded.out;
  // The cut walk: its marker under the outermost frame it reached, that frame where walks saw it.
  EXPECT_NE(folded.out.find("entry;[unwind stopped: the target's frame walk stopped];fw::middle(int);fw::leaf_add(int, int) 50\n"),
            std::string::npos) << folded.out;
  EXPECT_EQ(folded.out.find("\n[unwind stopped"), std::string::npos) << "a marker as a root:\n" << folded.out;
  // No walk saw two_exits nor an LR caller: it stays a root of its own. thumb_scale's LR caller
  // (entry) was seen: under it.
  EXPECT_NE(folded.out.find("\nfw::two_exits(int) 40\n"), std::string::npos) << folded.out;
  EXPECT_NE(folded.out.find("\nentry;thumb_scale(int) 30\n"), std::string::npos) << folded.out;

  const Shell table = shell(std::string(PMUKIT_CLI) + " report --elf " + elf + " " + dump, dir / "table.txt");
  EXPECT_NE(table.out.find("Stacks: 470 of 805 samples have a stack of their own; 290 (without a stack, or cut short) "
                           "placed in the stacks the walks saw their function in"),
            std::string::npos) << table.out;
  // 290: leaf_add's 160, middle's 80 and the 50 cut walks. thumb_scale's 30 keep their LR frame
  // (entry), outermost in every walk: nothing was added above it.
}

// Tasks and cores (format 1.5): every format agrees with the task as the root frame of each stack
// (--root task) and with the samples of some tasks or cores only (--task, --core).
TEST_P(EveryFormat, TellsTheSameStoryPerTaskAndCore) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/" + GetParam() + ".elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no cross compiler for " << GetParam();
  dumptest::TempFolder dir("pmukit_consistency");
  ASSERT_FALSE(dir.path.empty());
  const bool big = std::string(GetParam()) == "mips" || std::string(GetParam()) == "ppc";
  const std::string dump = deep_dump(elf, dir, big, true);
  // task a: the walks' 300 + 20 and 112 raw; core 1: the walks' 100 + 20 and the odd raw samples'
  // 167; task b: 100 + 50 walks, 112 raw.
  for (const auto& [options, total] : {std::pair<std::string, std::string>{"--root task", "805"},
                                       {"--root core --task a", "432"}, {"--root task --core 1", "287"},
                                       {"--task b", "262"}}) {
    SCOPED_TRACE(options);
    const Shell r = shell(std::string(PMUKIT_FORMAT_CONSISTENCY) + " " + PMUKIT_CLI + " " + elf + " " + dump + " " +
                              dir.path + " " + options,
                          dir / "check.txt");
    EXPECT_EQ(r.status, 0) << r.out;
    for (const char* format : {"table", "flat", "csv", "callgraph", "folded", "svg", "html", "callgrind", "pprof", "gmon",
                               "callgraph -g caller", "callgraph -g callee"})
      EXPECT_NE(r.out.find(std::string("ok       ") + format + " (" + total + " samples"), std::string::npos)
          << format << ":\n" << r.out;
  }
  // The task is the outermost frame of every stack, and a sample without a stack is placed within
  // its task: a's leaf_add samples under a's walks.
  const Shell folded =
      shell("(" + std::string(PMUKIT_CLI) + " report --root task --format folded --elf " + elf + " " + dump + " 2>/dev/null)",
            dir / "folded.txt");
  ASSERT_EQ(folded.status, 0) << folded.out;
  std::istringstream lines(folded.out);
  for (std::string line; std::getline(lines, line);)
    EXPECT_TRUE(line.rfind("[task a];", 0) == 0 || line.rfind("[task b];", 0) == 0 || line.rfind("[no task];", 0) == 0)
        << line;
  EXPECT_NE(folded.out.find("[task a];entry;fw::middle(int);fw::leaf_add(int, int) "), std::string::npos) << folded.out;
}

INSTANTIATE_TEST_SUITE_P(Elfs, EveryFormat, ::testing::Values("mips", "arm", "ppc", "i386"));

// binutils' reading of DWARF's inlined subroutines, the independent source: addr2line -a -i prints
// for each address the innermost function's line, then the line of each inlined call around it,
// so the count of lines is how deep in inlined calls the address is (1: not inlined).
std::map<std::uint64_t, std::size_t> inline_depths(const std::string& elf, const char* target, std::uint64_t lo,
                                                   std::uint64_t hi, const dumptest::TempFolder& dir) {
  const std::map<std::string, std::string> triple = {
      {"arm", "arm-none-eabi"}, {"mips", "mips-linux-gnu"}, {"ppc", "powerpc-linux-gnu"}, {"i386", "i686-linux-gnu"}};
  const std::uint64_t step = std::string(target) == "i386" ? 1 : 4;
  std::ostringstream addresses;
  for (std::uint64_t a = lo; a < hi; a += step) addresses << " 0x" << std::hex << a;
  const Shell r = shell(triple.at(target) + "-addr2line -a -i -e " + elf + addresses.str(), dir / "addr2line.txt");
  std::map<std::uint64_t, std::size_t> depth;
  std::uint64_t at = 0;
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);) {
    if (l.rfind("0x", 0) == 0) at = std::stoull(l, nullptr, 16);
    else if (l.find(':') != std::string::npos) ++depth[at];
  }
  return depth;
}

// perf report --inline's rule (issue 34 item 6): a sample in inlined code is self of the innermost
// inlined function and inclusive of each function it was inlined into, in every format; without
// --inline, all of it is the function whose symbol holds the code. sample.cpp's scaled_sum has
// square_add inlined, and square_add twice; both are static and have no out-of-line copy, so they
// are named as DWARF names them, in their namespace.
class Inlined : public ::testing::TestWithParam<const char*> {};

TEST_P(Inlined, SamplesInInlinedCodeBelongToTheInlinedFunctionWithInline) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/" + GetParam() + ".elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no cross compiler for " << GetParam();
  dumptest::TempFolder dir("pmukit_inline");
  ASSERT_FALSE(dir.path.empty());
  const auto nm = dumptest::nm_functions(elf);
  const std::uint64_t lo = nm.at("fw::scaled_sum(int)"), entry = nm.at("entry");
  std::uint64_t hi = ~std::uint64_t{0};
  for (const auto& [name, a] : nm)
    if (a > lo) hi = std::min(hi, a);
  const auto depths = inline_depths(elf, GetParam(), lo, hi, dir);
  std::uint64_t in_twice = 0, in_square_add = 0, own = 0;  // depth 3, 2, 1: the first of each
  for (const auto& [a, d] : depths) {
    std::uint64_t& pick = d == 3 ? in_twice : d == 2 ? in_square_add : d == 1 ? own : in_twice;
    if (pick == 0 && d <= 3) pick = a;
  }
  ASSERT_NE(in_twice, 0u) << "addr2line -i finds no address of twice inlined in square_add in scaled_sum";
  ASSERT_NE(own, 0u) << "addr2line -i finds no address of scaled_sum's own code";

  dumptest::VectorSink out;
  const bool big = std::string(GetParam()) == "mips" || std::string(GetParam()) == "ppc";
  pd::Writer w(out.sink(), big ? pd::ByteOrder::big : pd::ByteOrder::little);
  w.begin({"test", "none", 0, 32, 4});
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000, 0});
  // Walked stacks in twice's code, and samples without a stack (placed where the walks saw
  // scaled_sum: under entry) in square_add's own code and in scaled_sum's.
  const std::uint32_t walked[] = {static_cast<std::uint32_t>(in_twice), static_cast<std::uint32_t>(entry + 9)};
  w.begin_frames(60, 120, 0);
  for (int i = 0; i < 60; ++i) w.frame_sample(walked, 2, true);
  const int mid = in_square_add != 0 ? 25 : 0;
  w.begin_samples(mid + 15);
  for (int i = 0; i < mid; ++i) w.sample(in_square_add, 0);
  for (int i = 0; i < 15; ++i) w.sample(own, 0);
  w.finish();
  const std::string dump = dir / "inlined.bin";
  std::ofstream(dump, std::ios::binary).write(reinterpret_cast<const char*>(out.bytes.data()),
                                               static_cast<std::streamsize>(out.bytes.size()));
  const std::string total = std::to_string(75 + mid);

  // (The dump has no build-id: the warning on stderr is not the report.)
  const Shell plain =
      shell("(" + std::string(PMUKIT_CLI) + " report --format folded --elf " + elf + " " + dump + " 2>/dev/null)", dir / "plain.txt");
  ASSERT_EQ(plain.status, 0) << plain.out;
  EXPECT_EQ(plain.out, "entry;fw::scaled_sum(int) " + total + "\n");
  const Shell inlined =
      shell("(" + std::string(PMUKIT_CLI) + " report --inline --format folded --elf " + elf + " " + dump + " 2>/dev/null)",
            dir / "inlined.txt");
  ASSERT_EQ(inlined.status, 0) << inlined.out;
  EXPECT_EQ(inlined.out, "entry;fw::scaled_sum(int) 15\n" +
                             (mid != 0 ? "entry;fw::scaled_sum(int);fw::square_add " + std::to_string(mid) + "\n"
                                       : std::string()) +
                             "entry;fw::scaled_sum(int);fw::square_add;fw::twice 60\n");

  // Every format agrees with --inline, on this dump and on the deep one (no inlined code there).
  for (const std::string& d : {dump, deep_dump(elf, dir, big)}) {
    const Shell r = shell(std::string(PMUKIT_FORMAT_CONSISTENCY) + " " + PMUKIT_CLI + " " + elf + " " + d + " " + dir.path +
                              " --inline",
                          dir / "check.txt");
    EXPECT_EQ(r.status, 0) << r.out;
    const std::string n = d == dump ? total : "805";
    for (const char* format : {"table", "flat", "csv", "callgraph", "folded", "svg", "html", "callgrind", "pprof",
                               "flat --sort line", "flat --sort address", "flat --sort caller", "callgraph -g caller",
                               "callgraph -g callee"})
      EXPECT_NE(r.out.find(std::string("ok       ") + format + " (" + n + " samples"), std::string::npos)
          << format << ":\n" << r.out;
    EXPECT_NE(r.out.find("skipped  gmon (--inline)"), std::string::npos) << r.out;
  }
  // gprof cannot name inlined functions: refused, not written wrong.
  const Shell gmon = shell(std::string(PMUKIT_CLI) + " report --inline --format gmon --elf " + elf + " -o " +
                               (dir / "gmon.out") + " " + dump,
                           dir / "gmon.txt");
  EXPECT_EQ(gmon.status, 2) << gmon.out;
  EXPECT_NE(gmon.out.find("--inline is not for --format gmon"), std::string::npos) << gmon.out;
}

INSTANTIATE_TEST_SUITE_P(Elfs, Inlined, ::testing::Values("mips", "arm", "ppc", "i386"));

// gprof ends a function at the next symbol: the i386 test ELF has none after `entry`, so gprof
// never credits it. The gmon output says so instead of losing the samples silently.
TEST(GmonLastFunction, UncreditedSamplesAreSaid) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/i386.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no i686 cross compiler";
  dumptest::TempFolder dir("pmukit_gmon");
  const std::string dump = deep_dump(elf, dir, false);
  const Shell r = shell(std::string(PMUKIT_CLI) + " report --format gmon --elf " + elf + " -o " + (dir / "gmon.out") + " " + dump,
                      dir / "err.txt");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("gmon: gprof will not credit the 25 samples in 'entry': no symbol follows it"), std::string::npos)
      << r.out;
  if (std::system("command -v gprof >/dev/null") == 0) {  // and gprof indeed does not
    const Shell g = shell("gprof -b " + elf + " " + (dir / "gmon.out"), dir / "gprof.txt");
    EXPECT_EQ(g.out.find(" entry\n"), std::string::npos) << g.out;
    EXPECT_NE(g.out.find("fw::two_exits(int)"), std::string::npos) << g.out;
  }
}

}  // namespace

namespace {
// Samples in code at 0x1000 and one stray sample near the top of a 32-bit address space: the
// histogram needs bins far wider than an instruction.
TEST(GmonWideBins, SaysThatGprofDividesEachBin) {
  dumptest::TempFolder dir("pmukit_gmon_wide");
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"test", "none", 0, 32, 4});
  w.begin_samples(3);
  w.sample(0x1000, 0);
  w.sample(0x1004, 0);
  w.sample(0xFFFFF000u, 0);
  w.finish();
  const std::string dump = dir / "wide.bin";
  std::ofstream(dump, std::ios::binary).write(reinterpret_cast<const char*>(out.bytes.data()),
                                              static_cast<std::streamsize>(out.bytes.size()));
  const Shell r = shell(std::string(PMUKIT_CLI) + " report --format gmon -o " + (dir / "gmon.out") + " " + dump,
                        dir / "err.txt");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("each histogram bin covers 1024 bytes and gprof divides"), std::string::npos) << r.out;
}
}  // namespace
