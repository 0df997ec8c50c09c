// The `pmukit` command end to end: exit status, one-line errors, output files, ELF reports.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

#include "elf/nm_listing.hpp"
#include "fixtures.hpp"

namespace {

namespace pd = pmu::dump;

struct Result {
  int status;
  std::string out, err;
};

// Per process: ctest -j runs the cases of this file in parallel processes.
std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "pmukit_cli_" + std::to_string(getpid()) + "_" + name;
}

void write(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary) << data;
}
void write(const std::string& path, const dumptest::Bytes& data) {
  write(path, std::string(data.begin(), data.end()));
}
std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Result pmukit(const std::string& args) {
  const std::string out = temp_path("stdout"), err = temp_path("stderr");
  const int raw = std::system((std::string(PMUKIT_CLI) + " " + args + " >" + out + " 2>" + err).c_str());
  Result r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read(out), read(err)};
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

// A failed run: the status, and exactly one stderr line that is `message`.
void expect_error(const Result& r, int status, const std::string& message) {
  EXPECT_EQ(r.status, status);
  EXPECT_EQ(r.err, "pmukit: error: " + message + "\n");
}

class Cli : public ::testing::Test {
 protected:
  const std::string dump = temp_path("profile.bin");
  const std::string log = temp_path("console.log");
  void SetUp() override {
    write(dump, dumptest::profile_dump(pd::ByteOrder::big));
    write(log, dumptest::profile_log(pd::ByteOrder::little));
  }
  void TearDown() override {
    std::remove(dump.c_str());
    std::remove(log.c_str());
  }
};

TEST_F(Cli, ReportFromABinaryDump) {
  const Result r = pmukit("report " + dump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("dma_copy                  100  cycles       123456"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, DecodeFromAUartLog) {
  const Result r = pmukit("decode " + log);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"carrier\": \"text frame 1 of 1 (lines 5-30)\""), std::string::npos);
  EXPECT_NE(r.out.find("\"byte_order\": \"little\""), std::string::npos);
}

TEST_F(Cli, StandardInputAndOutputFile) {
  const std::string out = temp_path("report.csv");
  const Result r = pmukit("report --format=csv -o " + out + " - <" + dump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read(out), pmukit("report --format csv " + dump).out);
  EXPECT_EQ(read(out).rfind("region,calls,counter,", 0), 0u);
  std::remove(out.c_str());
}

TEST_F(Cli, BadCrcIsOneLine) {
  dumptest::Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  b[100] ^= 0xFF;
  write(dump, b);
  const Result r = pmukit("report " + dump);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("pmukit: error: " + dump + ": bad CRC-32: END chunk at offset ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST_F(Cli, TruncatedDump) {
  dumptest::Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  b.resize(12);
  write(dump, b);
  expect_error(pmukit("decode " + dump), 1,
               dump + ": truncated dump: the 16-byte header is cut off at byte 12");
}

TEST_F(Cli, WrongVersionAndUnknownByteOrder) {
  dumptest::Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  dumptest::put_u16(b, 8, 3, pd::ByteOrder::big);
  write(dump, b);
  expect_error(pmukit("report " + dump), 1,
               dump + ": unsupported dump version 3.0 at offset 8 (this pmukit reads 1.x)");
  b[4] = 0xEE;
  write(dump, b);
  expect_error(pmukit("decode " + dump), 1,
               dump + ": unknown endianness tag ee 02 03 04 at offset 4 (expected 01 02 03 04 for "
                      "big-endian or 04 03 02 01 for little-endian)");
}

TEST_F(Cli, BadTextLineNamesTheLine) {
  std::string text = read(log);
  const std::size_t at = text.find("@PMUD 0003 ");
  text[at + 20] = text[at + 20] == 'a' ? 'b' : 'a';
  write(log, text);
  std::size_t line = 1;
  for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n';
  const Result r = pmukit("report " + log);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("pmukit: error: " + log + ": text frame 1 of 1: line " +
                            std::to_string(line) + ": frame line check ", 0), 0u) << r.err;
}

TEST_F(Cli, InputErrors) {
  expect_error(pmukit("report /nonexistent.bin"), 1,
               "/nonexistent.bin: cannot open '/nonexistent.bin': No such file or directory");
  expect_error(pmukit("report " + dump + " --elf /nonexistent.elf"), 1,
               "cannot open ELF '/nonexistent.elf': No such file or directory");
  expect_error(pmukit("report " + dump + " --elf " + dump), 1, "ELF '" + dump + "': not an ELF file");
  expect_error(pmukit("report " + dump + " -o /nonexistent/dir/out.txt"), 1,
               "cannot create '/nonexistent/dir/out.txt'");
}

TEST_F(Cli, UsageErrors) {
  expect_error(pmukit("report"), 2, "no input file (a binary dump or a UART log) (see pmukit --help)");
  expect_error(pmukit("report " + dump + " --format pdf"), 2, "unknown --format 'pdf' (see pmukit --help)");
  expect_error(pmukit("report " + dump + " --frame x"), 2, "--frame wants a number, not 'x' (see pmukit --help)");
  expect_error(pmukit("report " + dump + " --elf"), 2, "option --elf needs a value (see pmukit --help)");
  expect_error(pmukit("decode " + dump + " --bogus"), 2, "unknown option '--bogus' (see pmukit --help)");
  expect_error(pmukit("frobnicate"), 2, "unknown command 'frobnicate' (see pmukit --help)");
  EXPECT_EQ(pmukit("").status, 2);
  EXPECT_EQ(pmukit("--help").status, 0);
}

TEST_F(Cli, Events) {
  const Result r = pmukit("events --json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("[", 0), 0u);
  // Every PMU registered in hal/pmus.cmake is listed.
  for (const char* id : {"\"xscale-xsc1\"", "\"xscale-xsc2\"", "\"e500\""})
    EXPECT_NE(r.out.find(id), std::string::npos) << id;
}

using dumptest::nm_functions;

// Samples in the sample ELF's functions, written as a dump.
std::string elf_dump(const std::string& elf, std::uint32_t count, unsigned seed) {
  const auto nm = nm_functions(elf);
  const std::uint64_t leaf = nm.at("fw::leaf_add(int, int)"), middle = nm.at("fw::middle(int)");
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"mips", "mips-cps-cm", 100000000u, 32, 4});
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000, 0});
  std::mt19937 rng(seed);
  w.begin_samples(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const bool in_leaf = rng() % 4 != 0;
    w.sample((in_leaf ? leaf : middle) + 4 * (rng() % 4), in_leaf ? middle + 8 : 0);
  }
  w.finish();
  const std::string path = temp_path("elf_samples.bin");
  write(path, out.bytes);
  return path;
}

TEST(CliElf, EveryFormatWithABigEndianElf) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  const std::string dump = elf_dump(elf, 1000, 1);
  struct Cleanup {
    std::string path;
    ~Cleanup() { std::remove(path.c_str()); }
  } cleanup{dump};
  for (const char* format : {"table", "flat", "folded", "callgrind", "json", "csv", "html", "svg"}) {
    const Result r = pmukit(std::string("report --format ") + format + " --elf " + elf + " " + dump);
    EXPECT_EQ(r.status, 0) << format << ": " << r.err;
    if (std::string(format) != "csv") {  // the csv default table is the (empty) region table
      EXPECT_NE(r.out.find("fw::leaf_add(int, int)"), std::string::npos) << format;
    }
  }
  const Result folded = pmukit("report --format folded --elf " + elf + " " + dump);
  EXPECT_NE(folded.out.find("fw::middle(int);fw::leaf_add(int, int) "), std::string::npos) << folded.out;
  const Result flat = pmukit("report --format flat --elf " + elf + " " + dump);
  EXPECT_NE(flat.out.find("sample.cpp:"), std::string::npos) << flat.out;
}

TEST(CliElf, AMillionSamplesInWellUnderASecond) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/i386.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no i686 cross compiler";
  const std::string dump = elf_dump(elf, 1000000, 2);
  struct Cleanup {
    std::string path;
    ~Cleanup() { std::remove(path.c_str()); }
  } cleanup{dump};
  const auto start = std::chrono::steady_clock::now();
  const Result r = pmukit("report --format flat --elf " + elf + " " + dump);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# flat profile: 1000000 samples"), std::string::npos);
  EXPECT_LT(seconds, 1.0);  // measured ~0.1 s in a release build; generous for loaded CI machines
  std::cout << "[ measure  ] 1,000,000 samples: report --format flat in " << seconds << " s\n";
}

}  // namespace
