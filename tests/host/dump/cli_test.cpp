// The `pmukit` command end to end: exit status, one-line errors, output files, ELF reports.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

#include "cli_runner.hpp"
#include "elf/nm_listing.hpp"
#include "fixtures.hpp"
#include "mini_json.hpp"
#include "temp_folder.hpp"
#include "pmukit_catalogs.hpp"  // every PMU registered in hal/pmus.cmake (cmake/PmuKit.cmake)
#include "profile.pb.h"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/elf/elf_symbols.hpp"
#include "tools/pprof/format_pprof.hpp"
#include "tools/report/text_util.hpp"

namespace {

namespace pd = pmu::dump;

using Result = dumptest::CliResult;

std::string temp_path(const std::string& name) { return dumptest::cli_temp_path("pmukit_cli_", name); }

void write(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary) << data;
}
void write(const std::string& path, const dumptest::Bytes& data) {
  write(path, std::string(data.begin(), data.end()));
}
std::string read(const std::string& path) { return dumptest::read_file(path); }

Result pmukit(const std::string& args) { return dumptest::run_cli(PMUKIT_CLI, args, "pmukit_cli_"); }

// pmukit ARGS run by the shell after PREFIX (environment assignments, a `timeout` wrapper).
Result pmukit_env(const std::string& prefix, const std::string& args) {
  return dumptest::run_cli(PMUKIT_CLI, args, "pmukit_cli_", prefix);
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
  EXPECT_NE(r.out.find("\"carrier\": \"text frame 1 of 1 (lines 5-35)\""), std::string::npos);
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
  dumptest::put_u16(b, 10, 3, pd::ByteOrder::big);  // the minor too: the message names both
  write(dump, b);
  expect_error(pmukit("report " + dump), 1,
               dump + ": unsupported dump version 3.3 at offset 8 (this pmukit reads 1.x)");
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

// An error quotes what it found in the input: a terminal escape there reaches stderr escaped.
TEST_F(Cli, ErrorsQuoteTheInputEscaped) {
  write(log, std::string("@PMUD BEGIN 1\n@PMUD \x1b[2J 00 0000\n@PMUD END 1 1\n"));
  expect_error(pmukit("report " + log), 1,
               log + ": text frame 1 of 1: line 2: frame line has a bad sequence field '\\x1b[2J'");
}

TEST_F(Cli, InputErrors) {
  expect_error(pmukit("report /nonexistent.bin"), 1,
               "/nonexistent.bin: cannot open '/nonexistent.bin': No such file or directory");
  expect_error(pmukit("report " + dump + " --elf /nonexistent.elf"), 1,
               "cannot open ELF '/nonexistent.elf': No such file or directory");
  expect_error(pmukit("report " + dump + " --elf " + dump), 1, "ELF '" + dump + "': not an ELF file");
  const Result r = pmukit("report " + dump + " -o /nonexistent/dir/out.txt");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("pmukit: error: cannot create '/nonexistent/dir/out.txt.pmukit-", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(": No such file or directory\n"), std::string::npos) << "errno's reason";
}

// -o naming an input (directly or through a link) is refused and the input survives; a report is
// written beside its name and renamed into place, leaving no temporary file.
TEST_F(Cli, OutputNeverOverwritesAnInput) {
  const std::string before = read(dump);
  expect_error(pmukit("report " + dump + " -o " + dump), 1,
               "-o '" + dump + "' is the input '" + dump + "': refusing to overwrite it");
  const std::string link = temp_path("link.bin");
  std::remove(link.c_str());
  ASSERT_EQ(symlink(dump.c_str(), link.c_str()), 0);
  EXPECT_EQ(pmukit("decode " + dump + " -o " + link).status, 1);
  std::remove(link.c_str());
  EXPECT_EQ(read(dump), before) << "the input is intact";
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/arm.elf";
  if (std::ifstream(elf)) {
    const std::string elf_before = read(elf);
    EXPECT_EQ(pmukit("report " + dump + " --elf " + elf + " -o " + elf).status, 1);
    EXPECT_EQ(read(elf), elf_before);
  }
  const std::string out = temp_path("ok.txt");
  ASSERT_EQ(pmukit("report " + dump + " -o " + out).status, 0);
  EXPECT_FALSE(read(out).empty());
  std::remove(out.c_str());
  for (const auto& e : std::filesystem::directory_iterator(::testing::TempDir()))
    EXPECT_EQ(e.path().string().find(out + ".pmukit-"), std::string::npos) << "left behind: " << e.path();
}

using dumptest::TempFolder;
mode_t type_of(const std::string& path) {
  struct stat st{};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & S_IFMT : 0;
}

// -o onto what pmukit does not own: a device node stays the device (a /dev/null made with mknod
// here), a full device's ENOSPC is an error, a FIFO gets the report through it, a link is written
// through and stays a link, hard links all see the report, a folder is refused; nothing is left
// behind. Before the fix, every one of these was replaced by a regular file.
TEST_F(Cli, OutputNeverReplacesWhatItDoesNotOwn) {
  TempFolder dir;
  ASSERT_FALSE(dir.path.empty());
  const std::string report = pmukit("report " + dump).out;
  ASSERT_FALSE(report.empty());

  // FIFO: opened for reading here first, so pmukit's open finds a reader and nothing blocks.
  const std::string fifo = dir / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const int rd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(rd, 0);
  EXPECT_EQ(pmukit("report " + dump + " -o " + fifo).status, 0);
  std::string got;
  char b[4096];
  for (ssize_t n; (n = ::read(rd, b, sizeof b)) > 0;) got.append(b, static_cast<std::size_t>(n));
  ::close(rd);
  EXPECT_EQ(got, report) << "the report went through the FIFO";
  EXPECT_EQ(type_of(fifo), S_IFIFO) << "the FIFO is still a FIFO";

  // A symbolic link to a regular file: written through, the link kept.
  const std::string real = dir / "real.txt", link = dir / "link.txt";
  write(real, "old");
  ASSERT_EQ(symlink(real.c_str(), link.c_str()), 0);
  EXPECT_EQ(pmukit("report " + dump + " -o " + link).status, 0);
  EXPECT_EQ(type_of(link), S_IFLNK);
  EXPECT_EQ(read(real), report);

  // Hard links: every name sees the new report.
  const std::string a = dir / "a.txt", other = dir / "b.txt";
  write(a, "old");
  ASSERT_EQ(::link(a.c_str(), other.c_str()), 0);
  EXPECT_EQ(pmukit("report " + dump + " -o " + a).status, 0);
  EXPECT_EQ(read(other), report);

  const Result folder = pmukit("report " + dump + " -o " + dir.path);
  EXPECT_EQ(folder.status, 1);
  EXPECT_NE(folder.err.find("is a directory"), std::string::npos) << folder.err;

  // Device nodes (root only: mknod needs CAP_MKNOD): 1,3 is the null device, 1,7 the full one.
  const std::string null = dir / "null", full = dir / "full", null_link = dir / "null_link";
  if (mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0 &&
      mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0) {
    EXPECT_EQ(pmukit("report " + dump + " -o " + null).status, 0);
    EXPECT_EQ(type_of(null), S_IFCHR) << "-o onto a device node replaced it with a regular file";
    ASSERT_EQ(symlink(null.c_str(), null_link.c_str()), 0);
    EXPECT_EQ(pmukit("decode " + dump + " -o " + null_link).status, 0);
    EXPECT_EQ(type_of(null_link), S_IFLNK);
    EXPECT_EQ(type_of(null), S_IFCHR);
    const Result r = pmukit("report " + dump + " -o " + full);
    EXPECT_EQ(r.status, 1) << "ENOSPC must not be lost";
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    EXPECT_EQ(type_of(full), S_IFCHR);
  } else {
    std::cerr << "[ note ] not root: the device-node cases were skipped\n";
  }
  for (const auto& e : std::filesystem::directory_iterator(dir.path))
    EXPECT_EQ(e.path().string().find(".pmukit-"), std::string::npos) << "left behind: " << e.path();
}

// Every command refuses an output that is one of its inputs: diff's either dump, either ELF, the
// dump given on standard input; pmusim's log is never the firmware it is about to load.
TEST_F(Cli, NoCommandOverwritesAnyOfItsInputs) {
  TempFolder dir;
  ASSERT_FALSE(dir.path.empty());
  const std::string b = dir / "b.bin", hard = dir / "hard.bin";
  write(b, read(dump));
  ASSERT_EQ(::link(b.c_str(), hard.c_str()), 0);
  const std::string before = read(b);
  EXPECT_EQ(pmukit("diff " + dump + " " + b + " -o " + b).status, 1);
  EXPECT_EQ(pmukit("diff " + dump + " " + b + " -o " + hard).status, 1) << "a hard link is the input too";
  EXPECT_EQ(pmukit("report - -o " + b + " <" + b).status, 1) << "standard input's file";
  EXPECT_EQ(pmukit("stat " + dump + " " + b + " -o " + hard).status, 1) << "any of stat's runs";
  EXPECT_EQ(read(b), before);
  const std::string elf_dir = PMUKIT_TEST_ELF_DIR;
  const std::string x = dir / "x.elf", y = dir / "y.elf";
  write(x, read(elf_dir + "/mips.elf"));
  write(y, read(elf_dir + "/mips.elf"));
  const std::string y_before = read(y);
  EXPECT_EQ(pmukit("diff " + dump + " " + b + " --elf-base " + x + " --elf-new " + y + " -o " + y).status, 1);
  EXPECT_EQ(pmukit("diff " + dump + " " + b + " --elf " + y + " -o " + y).status, 1);
  EXPECT_EQ(read(y), y_before);
#if PMUKIT_WITH_SIM
  const Result sim = pmukit("sim " + y + " --log " + y);
  EXPECT_EQ(sim.status, 2);
  EXPECT_NE(sim.err.find("refusing to overwrite it"), std::string::npos) << sim.err;
  EXPECT_EQ(read(y), y_before) << "the firmware was truncated by its own log";
#endif
}

TEST_F(Cli, EmptyElfNameIsAnError) {
  expect_error(pmukit("report " + dump + " --elf="), 2, "--elf needs a file name (see pmukit --help)");
}

// An input far larger than any dump (a device) is refused with the reason, not read whole.
TEST_F(Cli, EndlessInputIsCapped) {
  const Result r = pmukit("decode /dev/zero");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("larger than 256 MiB"), std::string::npos) << r.err;
}

// Issue 31: every '@PMUD BEGIN' line kept a frame record to the end of the log (250 MB of them
// took 4.2 GB). Only the frame asked for is kept: 24 MB of BEGIN lines took 285 MB, now about
// the mapped file. The peak resident size of the pmukit process, from wait4.
TEST_F(Cli, ManyBeginLinesTakeOneFramesMemory) {
  const std::string path = temp_path("begins.log");
  const std::size_t lines = 2000000;
  {
    std::string text;
    for (std::size_t i = 0; i < lines; ++i) text += "@PMUD BEGIN\n";
    write(path, text);
  }
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(PMUKIT_CLI, PMUKIT_CLI, "decode", path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  ASSERT_EQ(wait4(pid, &status, 0, &usage), pid);
  std::remove(path.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);  // the last frame's BEGIN line is malformed
  const long input_kib = static_cast<long>(lines * 12 / 1024);
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the peak under AddressSanitizer is its allocator's (" << usage.ru_maxrss << " KiB): checked in the host preset";
#endif
  EXPECT_LT(usage.ru_maxrss, 2 * input_kib + 64 * 1024) << "KiB at the peak for a " << input_kib << " KiB log";
}

// A cut-off ELF says it is truncated (its section headers are gone), not "stripped?".
TEST_F(Cli, TruncatedElfSaysSo) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/arm.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no arm cross compiler";
  const std::string whole = read(elf);
  const std::string cut = temp_path("cut.elf");
  write(cut, whole.substr(0, whole.size() / 2));
  const Result r = pmukit("report " + dump + " --elf " + cut);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("truncated: its section headers end at byte"), std::string::npos) << r.err;
  std::remove(cut.c_str());
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
  // Every catalog of every PMU registered in hal/pmus.cmake is listed.
  for (const pmu::PmuCatalog& c : pmu::registered_catalogs) {
    const std::string id = std::string("\"") + c.id + "\"";
    EXPECT_NE(r.out.find(id), std::string::npos) << id;
  }
}

// Issue 16's conventions: every command's --help/-h, -o -, events PATTERN, docs/pmukit.md is the
// tool's own help text.
TEST_F(Cli, EveryCommandHasItsHelp) {
  for (const char* c : {"report", "diff", "stat", "annotate", "decode", "events", "encode", "sim", "conformance", "help"}) {
    SCOPED_TRACE(c);
    const Result h = pmukit(std::string(c) + " --help"), s = pmukit(std::string(c) + " -h");
    EXPECT_EQ(h.status, 0) << h.err;
    EXPECT_EQ(h.out.rfind(std::string("usage: pmukit ") + c + " ", 0), 0u) << h.out;
    EXPECT_EQ(h.out, s.out);
    EXPECT_EQ(h.out, pmukit(std::string("help ") + c).out);
  }
  EXPECT_EQ(pmukit("report " + dump + " --help").status, 0) << "help wins over the other arguments";
  expect_error(pmukit("help frobnicate"), 2, "no command 'frobnicate' (see pmukit --help)");
  const Result v = pmukit("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("pmukit ", 0), 0u);
}

// main.cpp tunes the heap (mallopt, and a 256 MiB pad of address space advised for transparent
// huge pages) for the commands that read a whole dump and ELF, not at every start: --version and
// the help texts start without it. Seen as the madvise(MADV_HUGEPAGE) call, under strace.
TEST_F(Cli, OnlyTheCommandsReadingAWholeDumpTuneTheHeap) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "under AddressSanitizer: its allocator is not glibc's heap, and LeakSanitizer stops under ptrace";
#endif
  const std::string trace = temp_path("syscalls.txt");
  const std::string strace = "strace -qq -e trace=madvise -o " + trace + " ";
  if (std::system((strace + "true >/dev/null 2>&1").c_str()) != 0) GTEST_SKIP() << "no strace here (or no ptrace)";
  const auto advised = [&](const std::string& args) {
    const Result r = pmukit_env(strace, args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    const bool huge = read(trace).find("MADV_HUGEPAGE") != std::string::npos;
    std::remove(trace.c_str());
    return huge;
  };
  for (const std::string args : {"--version", "--help", "help report", "report --help", "encode --pmu rm7000 INSTR_ISSUED"})
    EXPECT_FALSE(advised(args)) << args;
#if defined(__GLIBC__) && defined(__linux__) && defined(__LP64__)
  EXPECT_TRUE(advised("report " + dump)) << "report reads a whole dump: its heap is still tuned";
#endif
}

TEST_F(Cli, DocsPageIsTheHelpText) {
  EXPECT_EQ(pmukit("help --markdown").out, read(PMUKIT_SOURCE_DIR "/docs/pmukit.md"))
      << "docs/pmukit.md is stale: regenerate it with `pmukit help --markdown > docs/pmukit.md`";
}

TEST_F(Cli, TraceNeedsTimings) {
  expect_error(pmukit("report --format trace " + dump), 1,
               "this dump has no region timings (a TRACE chunk: prof::RegionTrace, docs/profiler.md)");
  const std::string traced = temp_path("trace.bin");
  write(traced, dumptest::trace_dump(pd::ByteOrder::little));
  const Result r = pmukit("report --format trace " + traced);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(r.out.find("\"dur\": 3.250"), std::string::npos) << "1300 cycles at 400 MHz: " << r.out;
  std::remove(traced.c_str());
}

TEST_F(Cli, DashOutputIsStandardOutput) {
  const Result r = pmukit("report --format csv -o - " + dump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, pmukit("report --format csv " + dump).out);
  EXPECT_FALSE(std::filesystem::exists("-"));
}

TEST_F(Cli, EventsFilterLikePerfList) {
  const Result all = pmukit("events --pmu e500");
  const Result some = pmukit("events --pmu e500 reload");
  EXPECT_EQ(some.status, 0) << some.err;
  EXPECT_NE(some.out.find("DL1_RELOADS"), std::string::npos) << some.out;
  EXPECT_LT(some.out.size(), all.out.size() / 4);
  const Result glob = pmukit("events 'dl1_*' --pmu e500");
  EXPECT_NE(glob.out.find("DL1_RELOADS"), std::string::npos) << glob.out;
  EXPECT_EQ(glob.out.find("CYCLES"), std::string::npos);
  expect_error(pmukit("events no_such_event_anywhere"), 1, "no event or preset matches 'no_such_event_anywhere'");
}

// Issue 38: `events --metrics` lists each PMU's derived metrics (hal/<pmu>/metrics.hpp, registered
// through its pmu.cmake): name, group, formula in the PMU's event names, unit, source.
TEST_F(Cli, EventsMetricsListsEachPmusMetrics) {
  const Result all = pmukit("events --metrics");
  EXPECT_EQ(all.status, 0) << all.err;
  // Every registered catalog with a metric table (PMU_METRICS in its pmu.cmake).
  std::string known;  // every registered catalog, for the unknown --pmu message below
  for (std::size_t i = 0; i < std::size(pmu::registered_catalogs); ++i) {
    const std::string id = pmu::registered_catalogs[i].id;
    known += (known.empty() ? "" : ", ") + id;
    if (pmu::registered_metric_tables[i].count > 0) {
      EXPECT_NE(all.out.find(id + ": "), std::string::npos) << id;
    }
  }
  const Result e500 = pmukit("events --metrics --pmu e500");
  EXPECT_EQ(e500.status, 0) << e500.err;
  EXPECT_EQ(e500.out.rfind("e500: 11 metrics\n", 0), 0u) << e500.out;
  for (const char* row : {"ipc                       basic   INSTR_COMPLETED / CYCLES",
                          "dcache_miss_ratio         cache   100 * DL1_RELOADS / (LOAD_UOPS_COMPLETED + STORE_UOPS_COMPLETED)  %",
                          "ipc                       AN3636 Rev. 2, Table 1"})
    EXPECT_NE(e500.out.find(row), std::string::npos) << row << "\n" << e500.out;
  EXPECT_EQ(e500.out.find("xscale"), std::string::npos);
  // NetBurst's terms spelled as event strings, masks by name.
  const Result nb = pmukit("events --metrics --pmu netburst");
  EXPECT_NE(nb.out.find("100 * branch_retired:MMNM:MMTM / branch_retired:MMNP:MMNM:MMTP:MMTM"), std::string::npos)
      << nb.out;
  // PATTERN narrows to the metrics whose name, group or description matches.
  const Result tlb = pmukit("events --metrics --pmu xscale-xsc2 dtlb");
  EXPECT_EQ(tlb.status, 0) << tlb.err;
  EXPECT_EQ(tlb.out.rfind("xscale-xsc2: 1 metric\n", 0), 0u) << tlb.out;
  EXPECT_NE(tlb.out.find("dtlb_miss_ratio"), std::string::npos);
  expect_error(pmukit("events --metrics no_such_metric"), 1, "no metric matches 'no_such_metric'");
  expect_error(pmukit("events --metrics --pmu nope"), 2, "unknown --pmu 'nope' (known: " + known + ") (see pmukit --help)");
}

TEST_F(Cli, EventsMetricsJsonHasTheTermsAndTheSource) {
  const Result r = pmukit("events --metrics --pmu xscale-xsc2 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("[", 0), 0u);
  for (const char* text : {"\"id\": \"xscale-xsc2\"", "\"name\": \"ipc\"", "\"group\": \"basic\"",
                           "\"formula\": \"INSTR / CCNT\"", "\"unit\": \"instructions/cycle\"",
                           "\"source\": \"Intel XScale Core Developer's Manual, 8.4.1", "\"scale\": 100",
                           "\"event\": \"CCNT\"", "\"code\": 256", "\"denominator\": ["})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
}

// perf report's habits on the command line (tools/report/view.hpp). docs/capture.md runs
// `--format flat --top 5`: before, flat ignored --top and none of the other options existed.
TEST_F(Cli, FlatHonoursTopAndSaysWhatItLeftOut) {
  const Result r = pmukit("report --format flat --top 2 " + dump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 1 + 2 + 1) << r.out;
  // Without --elf every sampled address is a function of its own: 8 of them.
  EXPECT_NE(r.out.find("# 6 functions with 8 samples (50.00%) not shown: past the first 2 (--top)"), std::string::npos) << r.out;
  const Result csv = pmukit("report --format csv --table profile --top 2 " + dump);
  EXPECT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 3) << csv.out;
  EXPECT_EQ(csv.err, "pmukit: warning: csv: 6 functions with 8 samples (50.00%) not shown: past the first 2 (--top)\n");
}

TEST_F(Cli, SortPercentLimitSymbolsAndCallGraphOrder) {
  const Result line = pmukit("report --format flat --sort srcline " + dump);
  EXPECT_EQ(line.status, 0) << line.err;
  EXPECT_NE(line.out.find("samples  percent  cumul%  location"), std::string::npos) << line.out;
  const Result caller = pmukit("report --sort caller --percent-limit 10 " + dump);
  EXPECT_EQ(caller.status, 0) << caller.err;
  EXPECT_NE(caller.out.find("samples  percent  cumul%  caller"), std::string::npos) << caller.out;
  EXPECT_NE(caller.out.find("not shown: under 10.00% (--percent-limit)"), std::string::npos) << caller.out;
  // Without --elf the functions are addresses: 0x00002010 and 0x00002020 contain "0x000020".
  const Result only = pmukit("report --format flat --symbol-filter 0x000020 " + dump);
  EXPECT_NE(only.out.find("0x00002010"), std::string::npos) << only.out;
  EXPECT_EQ(only.out.find("0x00003040"), std::string::npos) << only.out;
  EXPECT_NE(only.out.find("not shown: not matching --symbol-filter"), std::string::npos) << only.out;
  EXPECT_NE(pmukit("report --format flat --symbols 0x00002010 " + dump).out.find("not shown: not in --symbols"),
            std::string::npos);
  const Result tree = pmukit("report --format callgraph -g callee " + dump);
  EXPECT_EQ(tree.status, 0) << tree.err;
  EXPECT_EQ(tree.out.rfind("# call graph, callee order", 0), 0u) << tree.out;
  EXPECT_NE(pmukit("report --format callgraph --call-graph=caller " + dump).out.find("caller order"), std::string::npos);
}

TEST_F(Cli, PerfHabitOptionsRefuseWhatTheyCannotDo) {
  expect_error(pmukit("report --sort dso " + dump), 2,
               "--sort is function, line, address or caller, not 'dso' (see pmukit --help)");
  expect_error(pmukit("report --format folded --sort line " + dump), 2,
               "--sort line is for --format table, flat and csv (see pmukit --help)");
  expect_error(pmukit("report --percent-limit 101 " + dump), 2,
               "--percent-limit wants a percentage from 0 to 100, not '101' (see pmukit --help)");
  expect_error(pmukit("report -g callee " + dump), 2, "-g is for --format callgraph (see pmukit --help)");
  expect_error(pmukit("report --format callgraph -g fractal " + dump), 2,
               "-g is caller, callee or gprof, not 'fractal' (see pmukit --help)");
  expect_error(pmukit("report --symbols , " + dump), 2, "--symbols needs a name (see pmukit --help)");
}

// A name past --max-name-width (default 120) is shortened in the text formats, never in the
// machine ones; 0 keeps it whole.
TEST_F(Cli, LongNamesAreShortenedInTextFormatsOnly) {
  const std::string name = "ns::" + std::string(190, 'n') + "::f";  // a dump string holds 255 bytes
  // Without an ELF the functions are addresses: a region's name is the long name here.
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({"xscale", "xscale-xsc2", 0, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 0xFF, "CCNT", "cycles"}};
  w.counters(counters, 1);
  const pd::CounterStats stats[] = {{100, 10, 10, 3}};
  w.region({name.c_str(), 10, stats, 1});
  w.finish();
  const std::string path = temp_path("long.bin");
  write(path, out.bytes);
  const Result table = pmukit("report " + path);
  EXPECT_EQ(table.status, 0) << table.err;
  EXPECT_EQ(table.out.find(name), std::string::npos) << "shortened";
  EXPECT_NE(table.out.find("ns::nnn"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("nnn...nnn"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("nnn::f "), std::string::npos) << "the end kept: " << table.out;
  EXPECT_NE(pmukit("report --max-name-width 0 " + path).out.find(name), std::string::npos);
  EXPECT_NE(pmukit("report --format json " + path).out.find(name), std::string::npos) << "json keeps it whole";
  EXPECT_NE(pmukit("report --format csv " + path).out.find(name), std::string::npos) << "csv keeps it whole";
  std::remove(path.c_str());
}

// Two dumps whose one region's mean is `mean` cycles (10 calls).
std::string region_dump(const std::string& name, std::uint64_t mean) {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({"xscale", "xscale-xsc2", 0, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 0xFF, "CCNT", "cycles"}};
  w.counters(counters, 1);
  const pd::CounterStats loop[] = {{10 * mean, mean, mean, 3}};
  const pd::CounterStats steady[] = {{5000, 500, 500, 3}};
  w.region({"hot_loop", 10, loop, 1});
  w.region({"steady", 10, steady, 1});
  w.finish();
  const std::string path = temp_path(name);
  write(path, out.bytes);
  return path;
}

TEST(CliDiff, ExitsNonZeroPastTheThreshold) {
  const std::string base = region_dump("base.bin", 1000), slower = region_dump("slower.bin", 1100);
  const Result same = pmukit("diff " + base + " " + base + " --threshold 5");
  EXPECT_EQ(same.status, 0) << same.err;
  EXPECT_NE(same.out.find("nothing past the threshold"), std::string::npos) << same.out;
  const Result worse = pmukit("diff " + base + " " + slower + " --threshold 5");
  EXPECT_EQ(worse.status, 3) << worse.out << worse.err;
  EXPECT_NE(worse.out.find("+10.0%"), std::string::npos) << worse.out;
  EXPECT_NE(worse.out.find("CCNT (cycles)"), std::string::npos) << worse.out;
  EXPECT_NE(worse.out.find("1 past the threshold"), std::string::npos) << worse.out;
  EXPECT_EQ(pmukit("diff " + base + " " + slower + " --threshold 10.5").status, 0);
  EXPECT_EQ(pmukit("diff " + base + " " + slower).status, 0) << "no threshold: a report";
  EXPECT_EQ(pmukit("diff " + slower + " " + base + " --threshold 5").status, 0) << "faster is no regression";
  expect_error(pmukit("diff " + base), 2, "diff takes two dumps, BASE and NEW (see pmukit --help)");
  expect_error(pmukit("diff " + base + " " + base + " --threshold -1"), 2,
               "--threshold wants a non-negative percentage, not '-1' (see pmukit --help)");
  std::remove(base.c_str());
  std::remove(slower.c_str());
}

// A dump of regions (name, mean) counted by one counter on one target.
std::string custom_region_dump(const std::string& name, const char* target, const char* pmu,
                               const pd::CounterInfo& counter,
                               const std::vector<std::pair<const char*, std::uint64_t>>& regions) {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({target, pmu, 0, 32, 4});
  w.counters(&counter, 1);
  for (const auto& [region, mean] : regions) {
    const pd::CounterStats st[] = {{10 * mean, mean, mean, 3}};
    w.region({region, 10, st, 1});
  }
  w.finish();
  const std::string path = temp_path(name);
  write(path, out.bytes);
  return path;
}

// Like with like: cycles against instructions and XScale against e500 are refused with the reason;
// a region that grew from 0 is past any threshold; two regions of one name are both compared.
TEST(CliDiff, ComparesLikeWithLikeAndEveryRegion) {
  const pd::CounterInfo cycles{0, 32, 0xFF, "CCNT", "cycles"}, insns{1, 32, 0x07, "INSTR_EXECUTED", "instructions"};
  const std::string base = custom_region_dump("lb.bin", "xscale", "xscale-xsc2", cycles, {{"loop", 100}});
  const std::string other_event = custom_region_dump("li.bin", "xscale", "xscale-xsc2", insns, {{"loop", 100}});
  const Result events = pmukit("diff " + base + " " + other_event + " --threshold 5");
  EXPECT_EQ(events.status, 1) << events.out;
  EXPECT_NE(events.err.find("count different events"), std::string::npos) << events.err;
  const std::string e500 = custom_region_dump("le.bin", "e500", "e500v2", cycles, {{"loop", 100}});
  const Result targets = pmukit("diff " + base + " " + e500 + " --threshold 5");
  EXPECT_EQ(targets.status, 1) << targets.out;
  EXPECT_NE(targets.err.find("a diff compares two runs on one PMU"), std::string::npos) << targets.err;

  const std::string zero = custom_region_dump("lz.bin", "xscale", "xscale-xsc2", cycles, {{"loop", 0}});
  const Result from_zero = pmukit("diff " + zero + " " + base + " --threshold 5");
  EXPECT_EQ(from_zero.status, 3) << from_zero.out;
  EXPECT_NE(from_zero.out.find("from 0"), std::string::npos) << from_zero.out;

  const std::string twice = custom_region_dump("l2.bin", "xscale", "xscale-xsc2", cycles, {{"loop", 100}, {"loop", 200}});
  const std::string twice_slower =
      custom_region_dump("l3.bin", "xscale", "xscale-xsc2", cycles, {{"loop", 100}, {"loop", 300}});
  const Result dup = pmukit("diff " + twice + " " + twice_slower + " --threshold 5");
  EXPECT_EQ(dup.status, 3) << "the second 'loop' grew by 50%: " << dup.out;
  EXPECT_NE(dup.out.find("loop #2"), std::string::npos) << dup.out;
  EXPECT_NE(dup.out.find("more than one region named 'loop'"), std::string::npos) << dup.out;
  for (const std::string& f : {base, other_event, e500, zero, twice, twice_slower}) std::remove(f.c_str());
}

// A report with no sample says why, from what the dump carries (docs/dump-format.md, "Chunk
// types": SAMPLE_SOURCE's dropped count, REGION's interrupts, 1.3), and what to do: in the table and
// flat text, on stderr for the other formats. Before issue 34 it said "Samples: 0" and no more.
// One counter (slot 0, cycles), one region 'loop' counting `loop_total` events with `interrupts`
// sampling interrupts inside, then `sampling` (the sample source and samples, or nothing).
std::string no_sample_dump(const std::string& name, std::uint64_t loop_total, std::uint64_t interrupts,
                           const std::function<void(pd::Writer&)>& sampling) {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({"xscale", "xscale-xsc2", 0, 32, 4});
  const pd::CounterInfo cycles{0, 32, 0xFF, "CCNT", "cycles"};
  w.counters(&cycles, 1);
  const pd::CounterStats st[] = {{loop_total, loop_total / 10, loop_total / 10, 3}};
  w.region({"loop", 10, st, 1, 0, 0, interrupts});
  sampling(w);
  w.finish();
  const std::string path = temp_path(name);
  write(path, out.bytes);
  return path;
}

// Table, flat and JSON (stderr) of a dump: each must carry `why` and `todo`.
void expect_said_everywhere(const std::string& dump, const std::string& why, const std::string& todo) {
  const Result table = pmukit("report " + dump);
  EXPECT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("Samples: 0 ("), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("\n  no samples: " + why), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("\n  to do: " + todo), std::string::npos) << table.out;
  const Result flat = pmukit("report --format flat " + dump);
  EXPECT_EQ(flat.status, 0) << flat.err;
  EXPECT_NE(flat.out.find("\n# no samples: " + why), std::string::npos) << flat.out;
  EXPECT_NE(flat.out.find("\n# to do: " + todo), std::string::npos) << flat.out;
  const Result json = pmukit("report --format json " + dump);
  EXPECT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.err.find("pmukit: warning: no samples: " + why), std::string::npos) << json.err;
  EXPECT_NE(json.err.find("; to do: " + todo), std::string::npos) << json.err;
  std::remove(dump.c_str());
}

// No SAMPLE_SOURCE chunk: the firmware wrote the dump without a sampler.
// pmukit stat end to end: the table, csv and json (several runs, --region), its warnings on
// standard error for csv and json; runs that are not repeats refused with exit 1, usage errors
// exit 2, -o never over one of the runs.
TEST(CliStat, ReportsRunsAndRefusesWhatIsNoRepeat) {
  const std::string a = temp_path("stat_a.bin"), b = temp_path("stat_b.bin"), e = temp_path("stat_e500.bin"),
                    log = temp_path("stat.log"), out = temp_path("stat.json");
  write(a, dumptest::mux_dump(pd::ByteOrder::big));
  write(b, dumptest::mux_dump(pd::ByteOrder::little));
  write(e, dumptest::histogram_dump(pd::ByteOrder::little));  // PMU e500
  dumptest::TextLog text;
  pd::Writer w(text.frames.sink());
  dumptest::write_mux(w);
  write(log, "boot\n" + text.text + "done\n");

  Result r = pmukit("stat " + a);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "") << "the table says its warnings itself";
  EXPECT_NE(r.out.find("region 'main' (the whole run), multiplexed: 1 call, 0.010000 s\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  warning: not counted (never on a counter while the region ran): PC_CHANGE\n"),
            std::string::npos) << r.out;

  r = pmukit("stat " + a + " " + b + " " + log + " --format csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("region,multiplexed,whole_run,calls,row,name,", 0), 0u) << r.out;
  EXPECT_EQ(r.err, "pmukit: warning: region 'main': not counted (never on a counter while the region ran): PC_CHANGE\n");
  for (const auto& row : dumptest::parse_csv(r.out)) EXPECT_EQ(row.size(), 20u);

  r = pmukit("stat " + a + " --format json --region dma_copy -o " + out);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const dumptest::Json j = dumptest::parse_json(read(out));
  ASSERT_EQ(j["regions"].items.size(), 1u);
  EXPECT_EQ(j["regions"][0]["name"].s, "dma_copy");
  EXPECT_EQ(j["regions"][0]["events"][1]["count"].s, "600000");

  r = pmukit("stat - <" + a);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("pmukit stat: <stdin>\n", 0), 0u) << r.out;

  expect_error(pmukit("stat " + a + " " + e), 1,
               "run 2 (" + e + ") ran on PMU e500, run 1 (" + a + ") on PMU xscale-xsc2: repeated runs are of one PMU");
  expect_error(pmukit("stat " + a + " --region nope"), 1,
               "no region named 'nope' in " + a + " (its regions: 'main', 'dma_copy', 'init')");
  expect_error(pmukit("stat " + e), 1, e + " has no MUX_REGION or REGION chunk: no region was measured, nothing to report");
  expect_error(pmukit("stat"), 2, "stat needs an input (a dump or a UART log; several: repeated runs) (see pmukit --help)");
  expect_error(pmukit("stat " + a + " --format xml"), 2, "stat --format is table, csv or json, not 'xml' (see pmukit --help)");
  expect_error(pmukit("stat - - <" + a), 2, "'-' (standard input) given more than once (see pmukit --help)");
  expect_error(pmukit("stat " + a + " --region="), 2, "--region needs a region name (see pmukit --help)");
  const std::string before = read(b);
  expect_error(pmukit("stat " + a + " " + b + " -o " + b), 1, "-o '" + b + "' is the input '" + b + "': refusing to overwrite it");
  EXPECT_EQ(read(b), before);
  for (const std::string& f : {a, b, e, log, out}) std::remove(f.c_str());
}

// Tasks and cores (format 1.5) end to end: --task by name or id, --core, --root, and what is refused.
TEST(CliTasks, ReportKeepsAndGroupsTheSamplesOfTasksAndCores) {
  const std::string t = temp_path("tasks.bin"), plain = temp_path("untagged.bin");
  write(t, dumptest::tasks_dump(pd::ByteOrder::big));
  write(plain, dumptest::profile_dump(pd::ByteOrder::big));
  Result r = pmukit("report --format flat " + t);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# tasks: net (1) 9 (56.25%), crc (2) 5 (31.25%), [no task] 2 (12.50%)\n"), std::string::npos) << r.out;
  r = pmukit("report --format flat --task net " + t);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# flat profile: 9 samples;", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("# kept: --task net: 9 of 16 samples\n"), std::string::npos) << r.out;
  r = pmukit("report --format flat --task 2,65535 " + t);
  EXPECT_EQ(r.out.rfind("# flat profile: 7 samples;", 0), 0u) << r.out << r.err;
  r = pmukit("report --format flat --task crc --core 1 " + t);
  EXPECT_EQ(r.out.rfind("# flat profile: 4 samples;", 0), 0u) << r.out << r.err;
  r = pmukit("report --format folded --root core,task " + t);
  EXPECT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    EXPECT_TRUE(line.rfind("[core 0];", 0) == 0 || line.rfind("[core 1];", 0) == 0) << line;
  EXPECT_NE(r.out.find("[core 1];[task crc];0x00004010 4\n"), std::string::npos) << r.out;
  expect_error(pmukit("report --task nope " + t), 2,
               "--task: no task 'nope' in this dump (its tasks: net (1), crc (2), idle (3), 65535 (no task)) "
               "(see pmukit --help)");
  expect_error(pmukit("report --core x " + t), 2, "--core: 'x' is not a core number (0 to 255) (see pmukit --help)");
  expect_error(pmukit("report --task net " + plain), 2,
               "--task: this dump's samples carry no task (no SAMPLE_TAGS chunk with task ids, format 1.5) "
               "(see pmukit --help)");
  expect_error(pmukit("report --root comm " + t), 2,
               "--root is task, core, task,core or core,task, not 'comm' (see pmukit --help)");

  r = pmukit("stat " + t);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  all tasks            8  1,000,000  cycles       100.00%  # 400.000 M/sec\n"), std::string::npos)
      << r.out;
  r = pmukit("stat --task 1 --format csv " + t);
  EXPECT_EQ(r.status, 0) << r.err;
  const auto rows = dumptest::parse_csv(r.out);
  ASSERT_EQ(rows.size(), 5u) << r.out;  // header, net's two counters, the whole's two
  for (const auto& row : rows) EXPECT_EQ(row.size(), 20u);
  expect_error(pmukit("stat --task nope " + t), 1,
               "--task: no task 'nope' in the TASK_COUNTS of " + t + " (its tasks: net (1), crc (2), [no task] (65535))");
  for (const std::string& f : {t, plain}) std::remove(f.c_str());
}

// pmukit diff on multiplexed regions, end to end: the section, and the exit status of the gate.
TEST(CliStat, DiffComparesMultiplexedRegions) {
  const std::string a = temp_path("mux_diff_a.bin");
  write(a, dumptest::mux_dump(pd::ByteOrder::big));
  const Result r = pmukit("diff " + a + " " + a + " --threshold 1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Multiplexed regions (scaled estimate per call)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("base 62.50%, new 62.50%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<not counted>"), std::string::npos) << r.out;
  std::remove(a.c_str());
}

TEST(CliNoSamples, NoSampleSourceSaysNoSamplerWasArmed) {
  expect_said_everywhere(no_sample_dump("nosource.bin", 5000, 0, [](pd::Writer&) {}),
                         "the dump has no sample source: no sampler was armed for it",
                         "arm a Sampler (profiler/sampler.hpp)");
}

// SAMPLE_SOURCE's dropped (samples lost, e.g. ring buffer full) with none kept.
TEST(CliNoSamples, EverySampleDroppedSaysTheRingCouldNotKeepThem) {
  expect_said_everywhere(no_sample_dump("dropped.bin", 5000, 40, [](pd::Writer& w) {
                           w.sample_source({pd::SampleSourceKind::pmu_overflow, 0, 100, 40});
                           w.begin_samples(0);
                         }),
                         "every sample taken was dropped, none kept (40 samples dropped)",
                         "a bigger ring (SampleRing<N>, StackRing<N>), a longer period");
}

// REGION's interrupts (sampling interrupts inside its calls) with no sample and none dropped: the
// interrupts came, the ring the dump was written from was empty.
TEST(CliNoSamples, InterruptsTakenButNoSampleSaysTheRingWasEmpty) {
  expect_said_everywhere(no_sample_dump("empty.bin", 5000, 7, [](pd::Writer& w) {
                           w.sample_source({pd::SampleSourceKind::pmu_overflow, 0, 100, 0});
                           w.begin_samples(0);
                         }),
                         "7 sampling interrupts were taken inside the regions, but the ring was empty",
                         "write the dump from the Sampler's own ring");
}

// No interrupt at all: the reasons for the source's kind, and for a PMU overflow what the sampled
// counter counted in the regions (the armed counter still counts: profiler/sampler.hpp's arm).
TEST(CliNoSamples, NoInterruptTakenSaysWhyForTheSourceAndWhatTheCounterCounted) {
  auto pmu = [](std::uint64_t period) {
    return [period](pd::Writer& w) {
      w.sample_source({pd::SampleSourceKind::pmu_overflow, 0, period, 0});
      w.begin_samples(0);
    };
  };
  const std::string none = "no sampling interrupt was taken (none inside the regions either): ";
  expect_said_everywhere(no_sample_dump("overflowed.bin", 50000, 0, pmu(10000)),
                         none + "counter 0 counted 50000 events in region 'loop', more than one period (10000 "
                                "events): it overflowed and its interrupt was not taken (interrupts masked, or "
                                "the overflow interrupt not enabled or not routed to the core)",
                         "unmask interrupts, enable the PMU's overflow interrupt and route it (the board's "
                         "interrupt controller) to the Sampler's on_pmu_interrupt; where the emulator raises "
                         "none, run under pmusim (scripts/profile.sh --sim)");
  expect_said_everywhere(no_sample_dump("short.bin", 500, 0, pmu(10000)),
                         none + "counter 0 counted at most 500 events in a region, less than one period (10000 "
                                "events): a run shorter than one period, or interrupts masked",
                         "a shorter period; unmask interrupts");
  expect_said_everywhere(no_sample_dump("inert.bin", 0, 0, pmu(10000)),
                         none + "counter 0 counted 0 events in every region: the PMU does not count",
                         "run where the PMU counts (pmusim: scripts/profile.sh --sim), or sample from a timer");
  expect_said_everywhere(no_sample_dump("timer.bin", 5000, 0, [](pd::Writer& w) {
                           w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000000, 0});
                           w.begin_samples(0);
                         }),
                         "no sampling interrupt was taken (none inside the regions either): interrupts masked, "
                         "the timer's interrupt not enabled or not routed to the core, or a run shorter than "
                         "one period (1000000 ns)",
                         "unmask interrupts, enable the timer and route its interrupt to the Sampler's "
                         "on_timer_tick");
}

using dumptest::nm_functions;

// Samples in the sample ELF's functions, written as a dump (with an IMAGE chunk when given;
// `outside` moves every sample out of the ELF's functions).
std::string elf_dump(const std::string& elf, std::uint32_t count, unsigned seed,
                     const char* target = "mips", const pd::ImageInfo* image = nullptr,
                     std::uint64_t outside = 0) {
  const auto nm = nm_functions(elf);
  const std::uint64_t leaf = nm.at("fw::leaf_add(int, int)") + outside,
                      middle = nm.at("fw::middle(int)") + outside;
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({target, "mips-cps-cm", 100000000u, 32, 4});
  if (image) w.image(*image);
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

// gmon.out as the target's own gprof reads it: the flat profile's shares are the samples' (3 in 4 in
// leaf_add, the rest in middle, elf_dump's mix), and no call counts: gprof would print the
// samples on an arc as calls and split time by them (the call graph is in the other formats).
TEST(CliConsumers, GprofReadsTheGmonOutput) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  if (std::system("command -v mips-linux-gnu-gprof >/dev/null") != 0) GTEST_SKIP() << "no mips-linux-gnu-gprof";
  const std::string dump = elf_dump(elf, 4000, 7), gmon = temp_path("gmon.out");
  const Result r = pmukit("report --format gmon --elf " + elf + " -o " + gmon + " " + dump);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(gmon).rfind("gmon", 0), 0u);
  const std::string out = temp_path("gprof.txt");
  ASSERT_EQ(std::system(("mips-linux-gnu-gprof -b " + elf + " " + gmon + " >" + out + " 2>&1").c_str()), 0);
  const std::string text = read(out);
  double leaf = -1, middle = -1;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    double pct = 0;
    if (std::sscanf(line.c_str(), " %lf", &pct) != 1) continue;
    if (line.find("fw::leaf_add(int, int)") != std::string::npos && leaf < 0) leaf = pct;
    if (line.find("fw::middle(int)") != std::string::npos && line.find('[') == std::string::npos && middle < 0) middle = pct;
  }
  EXPECT_NEAR(leaf, 75.0, 3.0) << text;
  EXPECT_NEAR(middle, 25.0, 3.0) << text;
  EXPECT_EQ(text.find("fw::middle(int) ["), std::string::npos) << "a call graph of calls never counted: " << text;
  std::remove(dump.c_str());
  std::remove(gmon.c_str());
  std::remove(out.c_str());
}

// callgrind output as Valgrind's callgrind_annotate reads it: every sample accounted for, and
// instruction addresses (positions: instr line) for KCacheGrind's disassembly view.
TEST(CliConsumers, CallgrindAnnotateReadsTheCallgrindOutput) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  if (std::system("command -v callgrind_annotate >/dev/null") != 0) GTEST_SKIP() << "no callgrind_annotate";
  const std::string dump = elf_dump(elf, 1000, 3), cg = temp_path("callgrind.out");
  const Result r = pmukit("report --format callgrind --elf " + elf + " -o " + cg + " " + dump);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(read(cg).find("positions: instr line"), std::string::npos);
  const std::string out = temp_path("annotate.txt");
  ASSERT_EQ(std::system(("callgrind_annotate " + cg + " >" + out + " 2>&1").c_str()), 0) << read(out);
  const std::string text = read(out);
  EXPECT_NE(text.find("1,000"), std::string::npos) << "the total: " << text;
  EXPECT_NE(text.find("fw::leaf_add(int, int)"), std::string::npos) << text;
  std::remove(dump.c_str());
  std::remove(cg.c_str());
  std::remove(out.c_str());
}

// pprof's protocol buffers, parsed by protoc against the schema (pprof itself is not packaged in
// Debian): every sample accounted for, leaf_add named, and its caller frame (middle) present.
TEST(CliConsumers, PprofOutputParsesAgainstTheSchema) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  if (std::system("command -v protoc >/dev/null") != 0) GTEST_SKIP() << "no protoc";
  const std::string dump = elf_dump(elf, 1000, 5), pb = temp_path("profile.pb"), text = temp_path("profile.txt");
  const Result r = pmukit("report --format pprof --elf " + elf + " -o " + pb + " " + dump);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string proto = std::string(PMUKIT_SOURCE_DIR) + "/tools/pprof";
  ASSERT_EQ(std::system(("protoc --decode=perftools.profiles.Profile -I" + proto + " " + proto + "/profile.proto <" + pb +
                         " >" + text + " 2>&1").c_str()), 0) << read(text);
  const std::string decoded = read(text);
  std::uint64_t samples = 0;
  std::size_t values = 0;
  std::istringstream lines(decoded);
  for (std::string line; std::getline(lines, line);) {
    unsigned long long v = 0;
    if (std::sscanf(line.c_str(), " value: %llu", &v) == 1 && values++ % 2 == 0) samples += v;  // count, then ns
  }
  EXPECT_EQ(samples, 1000u) << decoded;
  EXPECT_NE(decoded.find("string_table: \"fw::leaf_add(int, int)\""), std::string::npos) << decoded;
  EXPECT_NE(decoded.find("string_table: \"fw::middle(int)\""), std::string::npos) << decoded;
  EXPECT_NE(decoded.find("string_table: \"nanoseconds\""), std::string::npos) << decoded;
  std::remove(dump.c_str());
  std::remove(pb.c_str());
  std::remove(text.c_str());
}

// proto3 strings must be UTF-8: a name with an invalid byte (an ELF's symbol table holds any
// bytes) made protobuf readers reject the whole profile. It is written as U+FFFD instead.
TEST(CliConsumers, PprofStringsAreValidUtf8) {
  pmukit::SymbolTable symbols;
  symbols.add_function(0x2000, 0x80, "memcpy\xff\xc3");
  symbols.add_line(0x2000, 0x2080, "lib/\xfe.c", 5);
  symbols.finalize();
  const dumptest::Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  const pmukit::Dump d = pmukit::decode_dump(b.data(), b.size());
  const pmukit::Profile p = pmukit::build_profile(d, symbols);
  const pmukit::ReportOptions options;
  std::ostringstream os;
  pmukit::write_pprof(os, {d, p, options});
  perftools::profiles::Profile parsed;
  ASSERT_TRUE(parsed.ParseFromString(os.str()));
  const auto& table = parsed.string_table();
  EXPECT_NE(std::find(table.begin(), table.end(), "memcpy\xef\xbf\xbd\xef\xbf\xbd"), table.end());
  EXPECT_NE(std::find(table.begin(), table.end(), "lib/\xef\xbf\xbd.c"), table.end());
}

// annotate and diff keep the samples of --task and --core as report does (format 1.5's SAMPLE_TAGS):
// task 1 samples leaf_add, task 2 middle, so a task's annotation and diff see that task's alone.
std::string tagged_elf_dump(const std::string& elf, std::uint32_t in_leaf, std::uint32_t in_middle, const char* name) {
  const auto nm = nm_functions(elf);
  const std::uint64_t leaf = nm.at("fw::leaf_add(int, int)"), middle = nm.at("fw::middle(int)");
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"mips", "mips-cps-cm", 100000000u, 32, 4});
  const pd::TaskInfo tasks[] = {{1, "net"}, {2, "crc"}};
  w.tasks(tasks, 2);
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000, 0});
  w.begin_samples(in_leaf + in_middle);
  for (std::uint32_t i = 0; i < in_leaf; ++i) w.sample(leaf, middle + 8);
  for (std::uint32_t i = 0; i < in_middle; ++i) w.sample(middle, 0);
  w.begin_sample_tags(in_leaf + in_middle, pd::kTagTask);
  for (std::uint32_t i = 0; i < in_leaf + in_middle; ++i) w.sample_tag(i < in_leaf ? 1 : 2, 0);
  w.finish();
  const std::string path = temp_path(name);
  write(path, out.bytes);
  return path;
}

TEST(CliTasks, AnnotateAndDiffKeepTheSamplesOfTasks) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  const std::string base = tagged_elf_dump(elf, 10, 10, "tasks_base.bin"), next = tagged_elf_dump(elf, 10, 30, "tasks_new.bin");
  // diff: leaf_add's share of all samples halves (50% -> 25%), of task net's it stays 100%.
  Result r = pmukit("diff " + base + " " + next + " --elf " + elf + " --threshold 1");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  r = pmukit("diff " + base + " " + next + " --elf " + elf + " --threshold 1 --task net");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  r = pmukit("diff " + base + " " + next + " --elf " + elf + " --threshold 1 --task 2");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  expect_error(pmukit("diff " + base + " " + next + " --task net"), 2,
               "--task and --core compare the samples by function: give --elf (or --elf-base and --elf-new) "
               "(see pmukit --help)");
  expect_error(pmukit("diff " + base + " " + next + " --elf " + elf + " --task nope"), 2,
               "--task: no task 'nope' in this dump (its tasks: net (1), crc (2)) (see pmukit --help)");
  if (std::system("command -v mips-linux-gnu-objdump >/dev/null") == 0) {
    r = pmukit("annotate " + next + " --elf " + elf + " --function leaf_add --task crc");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("pmukit annotate: 30 samples (--task crc: 30 of 40), ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("): 0 samples"), std::string::npos) << r.out;  // leaf_add: none of crc's
    r = pmukit("annotate " + next + " --elf " + elf + " --function leaf_add --task net");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("): 10 samples"), std::string::npos) << r.out;
    expect_error(pmukit("annotate " + next + " --elf " + elf + " --core 1"), 2,
                 "--core: this dump's samples carry no core number (no SAMPLE_TAGS chunk with cores, format 1.5) "
                 "(see pmukit --help)");
  }
  for (const std::string& f : {base, next}) std::remove(f.c_str());
}

// annotate against the MIPS objdump: every sample of leaf_add on one of its instructions, the
// per-instruction counts adding up to the function's, and a source line header.
TEST(CliAnnotate, PerInstructionCountsAddUpWithTheDisassembly) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  if (std::system("command -v mips-linux-gnu-objdump >/dev/null") != 0) GTEST_SKIP() << "no mips objdump";
  const std::string dump = elf_dump(elf, 1000, 11);
  const Result r = pmukit("annotate " + dump + " --elf " + elf + " --function leaf_add");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t head = r.out.find("Function fw::leaf_add(int, int)");
  ASSERT_NE(head, std::string::npos) << r.out;
  unsigned long long total = 0, sum = 0;
  ASSERT_EQ(std::sscanf(r.out.c_str() + r.out.find("): ", head), "): %llu samples", &total), 1) << r.out;
  EXPECT_GT(total, 700u);
  std::istringstream lines(r.out.substr(head));
  unsigned instructions = 0;
  for (std::string line; std::getline(lines, line);) {
    unsigned long long n = 0;
    char addr[32];
    if (line.find("      0x") != std::string::npos) {
      ++instructions;
      if (std::sscanf(line.c_str(), " %llu %*s %31s", &n, addr) == 2 && addr[0] == '0') sum += n;
    }
  }
  EXPECT_GE(instructions, 3u) << r.out;
  EXPECT_EQ(sum, total) << r.out;
  EXPECT_NE(r.out.find("sample.cpp:"), std::string::npos) << r.out;
  const Result none = pmukit("annotate " + dump + " --elf " + elf + " --function no_such_function");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("pmukit: error: no function of '" + elf + "' is named like 'no_such_function'"),
            std::string::npos) << none.err;
  expect_error(pmukit("annotate " + dump), 2, "annotate needs --elf FIRMWARE.elf (see pmukit --help)");
  std::remove(dump.c_str());
}

// Fake helper programs (shell scripts) in a folder of their own, for the tests of the children
// pmukit runs.
struct Helpers {
  const TempFolder folder{"pmukit_helpers"};
  const std::string& dir = folder.path;
  std::string script(const std::string& name, const std::string& body) const {
    const std::string path = folder / name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path.c_str(), 0755);
    return path;
  }
};

// --objdump NAME is the program of that name on PATH, as a shell would run it: it was exec'd as a
// path relative to the current directory, so only ./NAME or a full path worked.
TEST(CliAnnotate, ObjdumpByNameIsLookedUpOnPath) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  const Helpers h;
  ASSERT_FALSE(h.dir.empty());
  h.script("pmukit-fake-objdump",  // one instruction at --start-address, as objdump -d prints it
           "for a; do case $a in --start-address=0x*) s=${a#--start-address=0x};; esac; done\n"
           "printf '  %s:\\tfake_insn\\n' \"$s\"");
  const std::string dump = elf_dump(elf, 100, 11);
  const std::string args = "annotate " + dump + " --elf " + elf + " --function leaf_add --objdump pmukit-fake-objdump";
  const Result on_path = pmukit_env("PATH=" + h.dir + ":\"$PATH\" ", args);
  EXPECT_EQ(on_path.status, 0) << on_path.err;
  EXPECT_NE(on_path.out.find(": fake_insn"), std::string::npos) << on_path.out;
  const Result missing = pmukit("annotate " + dump + " --elf " + elf + " --objdump pmukit-no-such-objdump");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("pmukit: error: --objdump 'pmukit-no-such-objdump': no such program on PATH"),
            std::string::npos) << missing.err;
  std::remove(dump.c_str());
}

// An objdump that never answers is killed at the helpers' deadline (PMUKIT_HELPER_TIMEOUT, 1 s
// here), and annotate fails saying so; it used to wait for as long as the helper lived.
TEST(CliAnnotate, AHungObjdumpIsKilled) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  const Helpers h;
  const std::string hang = h.script("hang", "exec sleep 20");
  const std::string dump = elf_dump(elf, 100, 11);
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = pmukit_env("PMUKIT_HELPER_TIMEOUT=1 timeout 60 ",
                              "annotate " + dump + " --elf " + elf + " --function leaf_add --objdump " + hang);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 15);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("pmukit: error: " + hang + " failed: no answer within 1 s (killed)\n"), std::string::npos)
      << r.err;
  std::remove(dump.c_str());
}

// One stack sample in leaf_add of a test ELF (MIPS: its CFI needs pmukit-llvm-cfi).
std::string stacks_dump(const std::string& elf) {
  const auto nm = nm_functions(elf);
  dumptest::VectorSink sink;
  pd::Writer w(sink.sink(), pd::ByteOrder::big);
  w.begin({"mips", "mips-cps-cm", 100000000u, 32, 4});
  const std::uint8_t stack[16] = {};
  w.begin_stacks(1, sizeof stack, 0);
  w.stack_sample(nm.at("fw::leaf_add(int, int)") + 4, nm.at("fw::middle(int)") + 8, 0x1000, 0, stack, sizeof stack);
  w.finish();
  const std::string dump = temp_path("stacks.bin");
  write(dump, sink.bytes);
  return dump;
}

// MIPS stacks need pmukit-llvm-cfi: missing, crashed, hung or flooding, it is killed within its
// limits and named in a warning (the stacks are then one frame deep), never a hang, a silent
// one-frame stack, or gigabytes of its output held.
TEST(CliReport, LlvmHelperFailuresAreWarnings) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  const std::string dump = stacks_dump(elf);
  const Helpers h;
  const struct {
    std::string helper, why;
  } cases[] = {
      {h.dir + "/missing", "cannot run it: No such file or directory"},
      {h.script("crash", "kill -SEGV $$"), "killed by signal 11 (Segmentation fault)"},
      {h.script("hang", "exec sleep 20"), "no answer within 1 s (killed)"},
      {h.script("flood", "yes x | head -c 33554432"), "more than 16777216 bytes of output (killed)"},
  };
  for (const auto& c : cases) {
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = pmukit_env("PMUKIT_LLVM_CFI=" + c.helper + " PMUKIT_HELPER_TIMEOUT=1 timeout 60 ",
                                "report --format folded --elf " + elf + " " + dump);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 15) << c.helper;
    EXPECT_EQ(r.status, 0) << c.helper << ": " << r.err;
    EXPECT_NE(r.err.find("pmukit: warning: no call frame rules from LLVM for '" + elf + "' (" + c.helper + ": " +
                         c.why + "): stacks are one frame deep where libdw has none (MIPS)\n"),
              std::string::npos) << r.err;
    EXPECT_NE(r.out.find("fw::leaf_add(int, int) 1"), std::string::npos) << r.out;
  }
  std::remove(dump.c_str());
}

// A 1 MB .debug_frame whose FDE has a million rows of 128 register rules: gigabytes of rules
// (LLVM 14's UnwindTable held 4.1 GB of them; the helper now prints them as it goes, 1.5 GB of
// text). The helper is killed at its output limit and pmukit says so. The shell's ulimit keeps a
// run without the limits from exhausting the machine.
TEST(CliReport, AHugeDebugFrameStaysWithinTheHelperLimits) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "sanitizer builds do not limit the helpers' memory";
#endif
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  if (std::system("command -v mips-linux-gnu-objcopy >/dev/null") != 0) GTEST_SKIP() << "no mips objcopy";
  const Helpers h;
  std::string frame;  // DWARF 2 .debug_frame, big-endian: a CIE, then one FDE
  const auto u32 = [](std::uint32_t v) { return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; };
  std::string cie = u32(0xffffffff) + std::string{1, 0, 1, 0x7c, 31, 0x0c, 29, 0};  // v1, "", CFA = r29
  for (int r = 0; r < 64; ++r) cie += {char(0x80 | r), 1};                            // DW_CFA_offset
  for (int r = 64; r < 128; ++r) cie += {0x05, char(r), 1};                            // DW_CFA_offset_extended
  cie.resize((cie.size() + 3) / 4 * 4, 0);
  std::string fde = u32(0) + u32(0x400000) + u32(0x100000) + std::string(1000000, 0x41);  // advance_loc 1
  fde.resize((fde.size() + 3) / 4 * 4, 0);
  frame = u32(static_cast<std::uint32_t>(cie.size())) + cie + u32(static_cast<std::uint32_t>(fde.size())) + fde;
  const std::string blob = h.dir + "/frame.bin", big = h.dir + "/big_frame.elf";
  std::ofstream(blob, std::ios::binary) << frame;
  const std::string objcopy = "mips-linux-gnu-objcopy --update-section .debug_frame=" + blob + " " + elf + " " + big;
  ASSERT_EQ(std::system(objcopy.c_str()), 0);
  const std::string dump = stacks_dump(elf);  // the same code and symbols
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = pmukit_env("ulimit -v 3000000; timeout 120 ", "report --format folded --elf " + big + " " + dump);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 60);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("pmukit: warning: no call frame rules from LLVM for '" + big + "' ("), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("pmukit-llvm-cfi: more than 16777216 bytes of output (killed)"), std::string::npos) << r.err;
  std::remove(dump.c_str());
}

// The flame graph is interactive and self-contained: every frame carries what the zoom script
// reads, the controls exist, and the script is valid JavaScript (node --check, where Debian's
// nodejs is installed; a browser is not available here).
TEST(CliFlameGraph, InteractiveAndSelfContained) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no mips cross compiler";
  const std::string dump = elf_dump(elf, 500, 2);
  const Result r = pmukit("report --format svg --elf " + elf + " " + dump);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("<g class=\"f\" data-x=\""), std::string::npos);
  EXPECT_NE(r.out.find("id=\"fg-reset\""), std::string::npos);
  EXPECT_NE(r.out.find("id=\"fg-search\""), std::string::npos);
  EXPECT_EQ(r.out.find("http://", r.out.find("<svg") + 60), std::string::npos) << "an external resource";
  const std::size_t a = r.out.find("<![CDATA["), b = r.out.find("]]></script>");
  ASSERT_TRUE(a != std::string::npos && b != std::string::npos && a < b);
  if (std::system("command -v node >/dev/null") == 0) {
    const std::string js = temp_path("flame.js");
    write(js, r.out.substr(a + 9, b - a - 9));
    EXPECT_EQ(std::system(("node --check " + js).c_str()), 0) << "the script does not parse";
    std::remove(js.c_str());
  }
  std::remove(dump.c_str());
}

// The build-id as `readelf -n` prints it (binutils: an independent reader of the note).
std::vector<std::uint8_t> readelf_build_id(const std::string& elf) {
  std::vector<std::uint8_t> id;
  FILE* p = popen(("readelf -n " + elf + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return id;
  char line[512];
  while (std::fgets(line, sizeof line, p) != nullptr) {
    const char* at = std::strstr(line, "Build ID: ");
    if (at == nullptr) continue;
    for (at += 10; std::isxdigit(static_cast<unsigned char>(at[0])) && std::isxdigit(static_cast<unsigned char>(at[1])); at += 2)
      id.push_back(static_cast<std::uint8_t>(std::stoul(std::string(at, 2), nullptr, 16)));
  }
  pclose(p);
  return id;
}

// Runs `pmukit report` on a dump of the MIPS test ELF with this IMAGE (or none).
struct ElfCheckRun {
  std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/mips.elf";
  Result run(const pd::ImageInfo* image, const std::string& extra = "", const char* target = "mips",
             const std::string& against = "", std::uint64_t outside = 0) {
    const std::string dump = elf_dump(elf, 100, 3, target, image, outside);
    const Result r = pmukit("report --format flat --elf " + (against.empty() ? elf : against) + " " + extra + " " + dump);
    std::remove(dump.c_str());
    return r;
  }
};

TEST(CliElfIdentity, TheRightElfIsAcceptedSilently) {
  ElfCheckRun t;
  if (!std::ifstream(t.elf)) GTEST_SKIP() << "no mips cross compiler";
  const std::vector<std::uint8_t> id = readelf_build_id(t.elf);
  if (id.empty()) GTEST_SKIP() << "no readelf, or the ELF has no build-id";
  const auto nm = nm_functions(t.elf);
  const std::uint64_t lo = nm.at("fw::leaf_add(int, int)");
  // The code CRC comes from the tool's own ELF reader here; the firmware runs in scripts/test.sh
  // check it against CRCs the firmware took of its own memory under QEMU.
  const auto crc = pmukit::load_elf(t.elf).identity.crc(lo, lo + 16);
  ASSERT_TRUE(crc);
  const pd::ImageInfo good{8, id.data(), static_cast<std::uint8_t>(id.size()), lo, lo + 16, *crc};
  const Result r = t.run(&good);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("fw::leaf_add(int, int)"), std::string::npos);
}

TEST(CliElfIdentity, AnotherBuildIsRefusedUnlessForced) {
  ElfCheckRun t;
  if (!std::ifstream(t.elf)) GTEST_SKIP() << "no mips cross compiler";
  std::vector<std::uint8_t> id = readelf_build_id(t.elf);
  if (id.empty()) GTEST_SKIP() << "no readelf, or the ELF has no build-id";
  id.back() ^= 1;
  const pd::ImageInfo other{8, id.data(), static_cast<std::uint8_t>(id.size()), 0, 0, 0};
  const Result refused = t.run(&other);
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("did not write this dump: build-id differs: dump " + pmukit::hex_bytes(id)),
            std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("(--force-elf uses it anyway)"), std::string::npos);
  EXPECT_EQ(refused.out, "");
  const Result forced = t.run(&other, "--force-elf");
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_NE(forced.err.find("pmukit: warning: --force-elf: build-id differs"), std::string::npos) << forced.err;
  EXPECT_NE(forced.out.find("fw::leaf_add(int, int)"), std::string::npos);
}

TEST(CliElfIdentity, CodeThatDiffersOrIsNotInTheElfIsRefused) {
  ElfCheckRun t;
  if (!std::ifstream(t.elf)) GTEST_SKIP() << "no mips cross compiler";
  const std::uint64_t lo = nm_functions(t.elf).at("fw::leaf_add(int, int)");
  const auto crc = pmukit::load_elf(t.elf).identity.crc(lo, lo + 16);
  ASSERT_TRUE(crc);
  const pd::ImageInfo changed{8, nullptr, 0, lo, lo + 16, *crc ^ 1u};
  const Result r = t.run(&changed);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("code CRC-32 over [" + pmukit::hex(lo, 8) + ", " + pmukit::hex(lo + 16, 8) + ") differs"),
            std::string::npos) << r.err;
  const pd::ImageInfo elsewhere{8, nullptr, 0, 0xF0000000u, 0xF0000100u, 0};
  const Result r2 = t.run(&elsewhere);
  EXPECT_EQ(r2.status, 1);
  EXPECT_NE(r2.err.find("do not hold the dump's code range [0xf0000000, 0xf0000100)"), std::string::npos) << r2.err;
}

TEST(CliElfIdentity, AnotherArchitectureIsRefused) {
  ElfCheckRun t;
  const std::string arm = std::string(PMUKIT_TEST_ELF_DIR) + "/arm.elf";
  if (!std::ifstream(t.elf) || !std::ifstream(arm)) GTEST_SKIP() << "no mips or arm cross compiler";
  // With an IMAGE chunk, and (format 1.0) from the target id alone.
  const pd::ImageInfo mips{8, nullptr, 0, 0, 0, 0};
  for (const pd::ImageInfo* im : {&mips, static_cast<const pd::ImageInfo*>(nullptr)}) {
    const Result r = t.run(im, "", "mips", arm);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("the dump comes from MIPS code, the ELF is ARM"), std::string::npos) << r.err;
  }
}

TEST(CliElfIdentity, WarnsWhatItCannotCheckAndWhatDoesNotSymbolize) {
  ElfCheckRun t;
  if (!std::ifstream(t.elf)) GTEST_SKIP() << "no mips cross compiler";
  const Result old = t.run(nullptr, "", "some-board");
  EXPECT_EQ(old.status, 0) << old.err;
  EXPECT_NE(old.err.find("pmukit: warning: the dump carries no build-id or code CRC (format 1.5): cannot check"),
            std::string::npos) << old.err;
  const pd::ImageInfo machine_only{8, nullptr, 0, 0, 0, 0};
  const Result lost = t.run(&machine_only, "", "mips", "", 0x40000000);
  EXPECT_EQ(lost.status, 0) << lost.err;
  EXPECT_NE(lost.err.find("pmukit: warning: 100 of 100 samples are in no function of"), std::string::npos) << lost.err;
  const Result fine = t.run(&machine_only);
  EXPECT_EQ(fine.err.find("samples are in no function"), std::string::npos) << fine.err;
  expect_error(pmukit("report x.bin --force-elf"), 2, "--force-elf without --elf (see pmukit --help)");
}

// Samples, but every one in no function of the ELF: the table and flat text say so and what to do
// (the warning on stderr above only counts them); a right ELF says nothing of the kind.
TEST(CliNoSamples, AllSamplesOutsideTheElfSaysItIsNotTheProgramThatRan) {
  ElfCheckRun t;
  if (!std::ifstream(t.elf)) GTEST_SKIP() << "no mips cross compiler";
  const pd::ImageInfo machine_only{8, nullptr, 0, 0, 0, 0};
  const Result lost = t.run(&machine_only, "", "mips", "", 0x40000000);
  EXPECT_EQ(lost.status, 0) << lost.err;
  EXPECT_NE(lost.out.find("# no sample in a function: all 100 samples are in no function of the ELF: it is not "
                          "the program that ran"), std::string::npos) << lost.out;
  EXPECT_NE(lost.out.find("# to do: give --elf the ELF that ran, with its symbol table"), std::string::npos)
      << lost.out;
  const std::string dump = elf_dump(t.elf, 100, 3, "mips", &machine_only, 0x40000000);
  const Result table = pmukit("report --elf " + t.elf + " " + dump);
  std::remove(dump.c_str());
  EXPECT_NE(table.out.find("\n  no sample in a function: all 100 samples"), std::string::npos) << table.out;
  const Result fine = t.run(&machine_only);
  EXPECT_EQ(fine.out.find("no sample in a function"), std::string::npos) << fine.out;
}

// A copy of `elf` whose `section` has no NUL byte left (each replaced by 'A'); "" without one.
std::string unterminated(const std::string& elf, const std::string& section) {
  std::string bytes = read(elf);
  const std::string copy = temp_path("unterminated" + section + ".elf");
  const int fd = open(elf.c_str(), O_RDONLY);
  elf_version(EV_CURRENT);
  Elf* e = elf_begin(fd, ELF_C_READ, nullptr);
  std::size_t shstrndx = 0;
  elf_getshdrstrndx(e, &shstrndx);
  bool found = false;
  for (Elf_Scn* scn = elf_nextscn(e, nullptr); scn != nullptr; scn = elf_nextscn(e, scn)) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr || section != elf_strptr(e, shstrndx, sh.sh_name)) continue;
    for (std::size_t i = sh.sh_offset; i < sh.sh_offset + sh.sh_size; ++i)
      if (bytes[i] == '\0') bytes[i] = 'A';
    found = true;
  }
  elf_end(e);
  close(fd);
  if (!found) return {};
  write(copy, bytes);
  return copy;
}

// elfutils 0.188's libdw runs strlen() past the end of an unterminated .debug_line_str (ASan saw
// it in the host-asan build, where this test runs the sanitized pmukit): such DWARF is not given
// to libdw; functions still symbolize, without source lines.
TEST(CliElf, UnterminatedDwarfStringsAreNotGivenToLibdw) {
  unsigned cases = 0;
  for (const char* name : {"i386", "mips", "ppc", "arm"}) {
    const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/" + name + ".elf";
    if (!std::ifstream(elf)) continue;
    for (const std::string section : {".debug_line_str", ".debug_str"}) {
      const std::string bad = unterminated(elf, section);
      if (bad.empty()) continue;
      ++cases;
      const std::string dump = elf_dump(elf, 100, 4, "any");
      const Result r = pmukit("report --format flat --elf " + bad + " " + dump);
      std::remove(dump.c_str());
      std::remove(bad.c_str());
      EXPECT_EQ(r.status, 0) << name << section << ": " << r.err;
      EXPECT_NE(r.err.find("pmukit: warning: ELF '" + bad + "': " + section +
                           " does not end with a NUL byte (malformed string table); source lines are not used"),
                std::string::npos) << r.err;
      EXPECT_NE(r.out.find("fw::leaf_add(int, int)"), std::string::npos) << name << section;
      EXPECT_EQ(r.out.find("sample.cpp:"), std::string::npos) << name << section << ": lines from a refused table";
    }
  }
  if (cases == 0) GTEST_SKIP() << "no test ELF with DWARF string sections";
}

// A million samples all counted (the time it takes is bench/symbolize's business, not a test's).
TEST(CliElf, AMillionSamples) {
  const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/i386.elf";
  if (!std::ifstream(elf)) GTEST_SKIP() << "no i686 cross compiler";
  const std::string dump = elf_dump(elf, 1000000, 2, "netburst");
  struct Cleanup {
    std::string path;
    ~Cleanup() { std::remove(path.c_str()); }
  } cleanup{dump};
  const Result r = pmukit("report --format flat --elf " + elf + " " + dump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# flat profile: 1000000 samples"), std::string::npos);
}

}  // namespace

namespace {

// A region name with a terminal escape, a newline, valid UTF-8 (ü) and an invalid byte (0xFF).
const char kHostile[] = "\x1b[31mred\nline\xc3\xbc\xff<&>";

std::string hostile_dump_path() {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({"xscale", "xscale-xsc2", 0u, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 0xFF, "cycles", "cycles"}};
  w.counters(counters, 1);
  const pd::CounterStats st[] = {{10, 1, 2, 0}};
  w.region({kHostile, 1, st, 1});
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000, 0});
  w.begin_samples(1);
  w.sample(0x1000, 0x2000);
  w.finish();
  const std::string path = temp_path("hostile.bin");
  write(path, out.bytes);
  return path;
}

Result run_cli(const std::string& args) { return pmukit(args); }

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = ::pmukit::utf8_sequence(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace

// Hostile strings in a dump, in every format: no raw escape or control byte reaches a text report,
// the HTML/SVG stays well-formed UTF-8, JSON keeps valid UTF-8 as it is.
TEST(CliHostile, EveryFormatEscapesDumpStrings) {
  const std::string dump = hostile_dump_path();
  for (const std::string format : {"table", "csv", "flat", "folded", "callgrind", "json", "html", "svg"}) {
    SCOPED_TRACE(format);
    const Result r = run_cli("report --format " + format + " " + dump);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "a raw escape byte";
    EXPECT_TRUE(valid_utf8(r.out)) << "invalid UTF-8 in the output";
    if (format == "html" || format == "svg") {
      EXPECT_EQ(r.out.find("<&>"), std::string::npos) << "markup not escaped";
    }
  }
  const Result t = run_cli("report " + dump);
  EXPECT_NE(t.out.find("\\x1b[31mred\\x0aline\xc3\xbc\\xff<&>"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("counter clock unknown"), std::string::npos);
  const Result j = run_cli("decode " + dump);
  EXPECT_NE(j.out.find("\\u001b[31mred\\nline\xc3\xbc\\ufffd<&>"), std::string::npos) << j.out;
  std::remove(dump.c_str());
}

// `pmukit encode`: the NetBurst encoder end to end (the values are the SDM field layouts'; see
// hal/netburst/tests/encode_test.cpp), the ESCR and counter chosen, and the errors.
TEST(CliEncode, NetburstPrintsEscrCccrAndTheRegistersChosen) {
  const Result r = run_cli("encode netburst::global_power_events:RUNNING");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "escr=0x2600020f cccr=0x3d000\n"
            "FSB_ESCR0=0x2600020f msr=0x3a2\n"
            "BPU_CCCR0=0x3d000 msr=0x360 counter=0 (BPU_COUNTER0)\n");
  const Result k = run_cli("encode --pmu netburst instr_retired:NBOGUSNTAG:k:thr=2");
  EXPECT_EQ(k.status, 0);
  EXPECT_NE(k.out.find("escr=0x400020a cccr=0x279000\n"), std::string::npos) << k.out;
  EXPECT_NE(k.out.find("CRU_ESCR0="), std::string::npos);
  EXPECT_NE(k.out.find("counter=12"), std::string::npos);
}

#if PMUKIT_WITH_SIM
// `pmukit sim` (pmusim): what it refuses before running anything. Firmware runs are the cross
// presets' pmusim ctests (examples/pc/CMakeLists.txt).
TEST(CliSim, RefusesWhatItCannotRun) {
  const std::string i386 = std::string(PMUKIT_TEST_ELF_DIR) + "/i386.elf";
  EXPECT_EQ(run_cli("sim").status, 2);
  EXPECT_EQ(run_cli("sim " + i386 + " --insns 0").status, 2);
  EXPECT_EQ(run_cli("sim " + i386 + " --pmu e500").status, 2) << "an i386 image runs with netburst";
  const Result missing = run_cli("sim /no/such/firmware.elf");
  EXPECT_EQ(missing.status, 3);
  EXPECT_NE(missing.err.find("cannot open '/no/such/firmware.elf'"), std::string::npos) << missing.err;
  const Result elf64 = run_cli("sim " + std::string(PMUKIT_CLI));
  EXPECT_EQ(elf64.status, 3);
  EXPECT_NE(elf64.err.find("is not ELF32"), std::string::npos) << elf64.err;
  const Result linux_elf = run_cli("sim " + i386 + " --quiet");  // linked at 0x08048000
  EXPECT_EQ(linux_elf.status, 3);
  EXPECT_NE(linux_elf.err.find("lies outside the machine's RAM"), std::string::npos) << linux_elf.err;
}
#endif

TEST(CliEncode, BadEventStringsAreUsageErrors) {
  expect_error(run_cli("encode global_power_events:thr=16"), 2,
               "netburst: value out of range (thr is 0..15; u, k, e, cmpl are 0 or 1) at 'thr=16' in "
               "'global_power_events:thr=16' (see pmukit --help)");
  expect_error(run_cli("encode instr_retired"), 2,
               "netburst: the event has no default mask: name one in 'instr_retired' (see pmukit --help)");
  EXPECT_EQ(run_cli("encode no_such_event").status, 2);
  EXPECT_EQ(run_cli("encode --pmu rm7000 INSTR_ISSUED").out, "event=0x1 counters=0\n");
  EXPECT_EQ(run_cli("encode --pmu rm7000 INSTR_ISSUED:u").status, 2);
}
