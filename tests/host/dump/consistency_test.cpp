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
#include <sstream>
#include <string>

#include "elf/nm_listing.hpp"
#include "fixtures.hpp"
#include "temp_folder.hpp"

namespace {

namespace pd = pmu::dump;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Shell {
  int status;
  std::string out;
};
Shell shell(const std::string& cmd, const std::string& out) {
  const int raw = std::system((cmd + " >" + out + " 2>&1").c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read(out)};
}

// The test ELF's functions, sampled in every way the profile distinguishes: walked stacks (FRAMES)
// complete, recursive and cut short; raw samples of a leaf with its LR caller, of a function with
// no LR, of a function no walk ever saw (its LR caller was seen), of one whose caller was not
// seen either; and the image's last function.
std::string deep_dump(const std::string& elf, const dumptest::TempFolder& dir, bool big) {
  const auto nm = dumptest::nm_functions(elf);
  const std::uint64_t entry = nm.at("entry"), middle = nm.at("fw::middle(int)"), leaf = nm.at("fw::leaf_add(int, int)"),
                      fill = nm.at("fw::fill(int*, int)"), two_exits = nm.at("fw::two_exits(int)"),
                      scale = nm.at("thumb_scale(int)");
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), big ? pd::ByteOrder::big : pd::ByteOrder::little);
  w.begin({"test", "none", 0, 32, 4});
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000, 0});
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
  w.begin_samples(160 + 80 + 30 + 40 + 25);
  for (int i = 0; i < 160; ++i) w.sample(leaf + 4 * (i % 3), middle + 9);
  for (int i = 0; i < 80; ++i) w.sample(middle + 4, 0);
  for (int i = 0; i < 30; ++i) w.sample(scale + 4, entry + 25);
  for (int i = 0; i < 40; ++i) w.sample(two_exits + 4, 0);
  for (int i = 0; i < 25; ++i) w.sample(entry + 4, 0);
  w.finish();
  const std::string path = dir / "deep.bin";
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

INSTANTIATE_TEST_SUITE_P(Elfs, EveryFormat, ::testing::Values("mips", "arm", "ppc", "i386"));

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
