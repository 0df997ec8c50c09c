// ELF symbolization (elfutils) against ELFs cross-compiled from elf/sample.cpp: little- and
// big-endian ELF32, ARM Thumb entry points, C++ names, with and without DWARF.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "elf/nm_listing.hpp"
#include "tools/elf/elf_symbols.hpp"
#include "tools/elf/image_check.hpp"
#include "tools/elf/unwind.hpp"
#include "tools/elf/unwind_llvm.hpp"

namespace {

const std::string kElfDir = PMUKIT_TEST_ELF_DIR;

bool exists(const std::string& path) { return std::ifstream(path).good(); }

using dumptest::nm_functions;

// The line of sample.cpp holding "LINE:<tag>".
unsigned source_line(const std::string& tag) {
  std::ifstream in(std::string(PMUKIT_DUMP_TEST_DIR) + "/elf/sample.cpp");
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find("// LINE:" + tag) != std::string::npos) return n;
  return 0;
}

unsigned char elf_data_encoding(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char ident[16] = {};
  in.read(ident, 16);
  return static_cast<unsigned char>(ident[5]);  // EI_DATA: 1 little-endian, 2 big-endian
}

struct Expected {
  const char* name;  // as nm -C prints it
  const char* tag;   // LINE: marker in sample.cpp
};
constexpr Expected kFunctions[] = {
    {"fw::leaf_add(int, int)", "leaf_add"}, {"fw::middle(int)", "middle"},
    {"thumb_scale(int)", "thumb_scale"},    {"local_helper(int)", "local_helper"},
    {"entry", "entry"},
};

class ElfTarget : public ::testing::TestWithParam<std::string> {
 protected:
  std::string elf(const std::string& suffix = "") const {
    return kElfDir + "/" + GetParam() + suffix + ".elf";
  }
  void SetUp() override {
    if (!exists(elf())) GTEST_SKIP() << "no cross compiler for " << GetParam();
  }
};

TEST_P(ElfTarget, ByteOrderIsAsExpected) {
  const bool big = GetParam() == "mips" || GetParam() == "ppc";
  EXPECT_EQ(elf_data_encoding(elf()), big ? 2 : 1);
}

TEST_P(ElfTarget, FunctionsResolveAtStartAndInside) {
  const pmukit::SymbolTable t = pmukit::load_elf_symbols(elf());
  const auto nm = nm_functions(elf());
  for (const Expected& e : kFunctions) {
    ASSERT_TRUE(nm.count(e.name)) << e.name;
    const std::uint64_t addr = nm.at(e.name);
    for (std::uint64_t at : {addr, addr + 2}) {
      const auto f = t.function_at(at);
      ASSERT_TRUE(f.has_value()) << e.name << " at " << std::hex << at;
      EXPECT_EQ(t.function(*f).name, e.name);
    }
  }
}

const std::map<std::string, std::string> kTriple = {
    {"arm", "arm-none-eabi"}, {"mips", "mips-linux-gnu"}, {"ppc", "powerpc-linux-gnu"}, {"i386", "i686-linux-gnu"}};

// "file:line" per address from binutils' <triple>-addr2line, the independent reference; empty
// if it is not installed.
std::vector<std::string> addr2line(const std::string& target, const std::string& elf,
                                   const std::vector<std::uint64_t>& addresses) {
  const std::string input = ::testing::TempDir() + "pmukit_addr2line_" + std::to_string(getpid());
  {
    std::ofstream in(input);
    for (std::uint64_t a : addresses) in << std::hex << "0x" << a << '\n';
  }
  std::vector<std::string> out;
  FILE* p = popen((kTriple.at(target) + "-addr2line -e " + elf + " <" + input + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p) != nullptr) {
    std::string line(buf);
    line = line.substr(0, line.find_first_of(" \n"));  // drop " (discriminator N)"
    out.push_back(line);
  }
  pclose(p);
  std::remove(input.c_str());
  if (out.size() != addresses.size()) out.clear();
  return out;
}

std::string basename_of(const std::string& path) { return path.substr(path.rfind('/') + 1); }

TEST_P(ElfTarget, LinesAgreeWithAddr2line) {
  const pmukit::SymbolTable t = pmukit::load_elf_symbols(elf());
  const auto nm = nm_functions(elf());
  std::vector<std::uint64_t> addresses;
  for (const Expected& e : kFunctions)
    for (std::uint64_t offset = 0; offset < 16; offset += 2) addresses.push_back(nm.at(e.name) + offset);
  const std::vector<std::string> reference = addr2line(GetParam(), elf(), addresses);
  if (reference.empty()) GTEST_SKIP() << "no addr2line for " << GetParam();
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    const auto line = t.line_at(addresses[i]);
    const std::string ours =
        line ? t.file(t.line(*line).file) + ":" + std::to_string(t.line(*line).line) : "??:0";
    EXPECT_EQ(basename_of(ours), basename_of(reference[i])) << std::hex << "0x" << addresses[i];
  }
}

// DWARF's inlined subroutines (report --inline) as binutils reads them: `addr2line -a -i` gives
// per address the line there, then the line of each inlined call around it, innermost first. Ours
// are the same calls outermost first: as many, with the same call lines, and the innermost
// function is the one whose declaration is on the LINE: marker (twice inside square_add).
TEST_P(ElfTarget, InlinedCallsAgreeWithAddr2lineInline) {
  const pmukit::SymbolTable t = pmukit::load_elf_symbols(elf(), true);
  EXPECT_FALSE(pmukit::load_elf_symbols(elf()).has_inlined()) << "read without being asked";
  const auto nm = nm_functions(elf());
  const std::uint64_t lo = nm.at("fw::scaled_sum(int)");
  std::uint64_t hi = ~std::uint64_t{0};
  for (const auto& [name, a] : nm)
    if (a > lo) hi = std::min(hi, a);
  const std::string input = ::testing::TempDir() + "pmukit_addr2line_i_" + std::to_string(getpid());
  {
    std::ofstream in(input);
    for (std::uint64_t a = lo; a < hi; a += GetParam() == "i386" ? 1 : 4) in << std::hex << "0x" << a << '\n';
  }
  FILE* p = popen((kTriple.at(GetParam()) + "-addr2line -a -i -e " + elf() + " <" + input + " 2>/dev/null").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::map<std::uint64_t, std::vector<unsigned>> lines;  // address -> its line, then the calls' lines
  std::uint64_t at = 0;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p) != nullptr) {
    const std::string l(buf);
    if (l.rfind("0x", 0) == 0) at = std::stoull(l, nullptr, 16);
    else if (const std::size_t colon = l.rfind(':'); colon != std::string::npos) lines[at].push_back(std::stoul(l.substr(colon + 1)));
  }
  pclose(p);
  std::remove(input.c_str());
  if (lines.empty()) GTEST_SKIP() << "no addr2line for " << GetParam();
  std::vector<pmukit::InlineFrame> chain;
  std::size_t deepest = 0;
  for (const auto& [a, reference] : lines) {
    t.inlined_at(a, chain);
    ASSERT_EQ(chain.size() + 1, reference.size()) << std::hex << "0x" << a;
    for (std::size_t k = 0; k < chain.size(); ++k) {
      ASSERT_NE(chain[k].call_line, 0xFFFFFFFFu);
      EXPECT_EQ(t.line(chain[k].call_line).line, reference[reference.size() - 1 - k]) << std::hex << "0x" << a;
    }
    if (chain.size() == 2) {
      EXPECT_EQ(t.inlined(chain[0].function).name, "fw::square_add");
      EXPECT_EQ(t.inlined(chain[1].function).name, "fw::twice");
      EXPECT_EQ(t.line(t.inlined(chain[1].function).decl_line).line, source_line("twice"));
    }
    deepest = std::max(deepest, chain.size());
  }
  EXPECT_EQ(deepest, 2u) << "twice inlined in square_add inlined in scaled_sum";
}

TEST_P(ElfTarget, FunctionStartsAreOnTheirSourceLines) {
  const pmukit::SymbolTable t = pmukit::load_elf_symbols(elf());
  const auto nm = nm_functions(elf());
  for (const Expected& e : kFunctions) {
    const auto line = t.line_at(nm.at(e.name));
    ASSERT_TRUE(line.has_value()) << e.name;
    const std::string& file = t.file(t.line(*line).file);
    EXPECT_EQ(basename_of(file), "sample.cpp") << file;
    // The first row is the signature's line or, with -O1, a line of the (short) body.
    EXPECT_GE(t.line(*line).line, source_line(e.tag)) << e.name;
    EXPECT_LE(t.line(*line).line, source_line(e.tag) + 5) << e.name;
  }
}

TEST_P(ElfTarget, AddressesOutsideFunctions) {
  const pmukit::SymbolTable t = pmukit::load_elf_symbols(elf());
  EXPECT_FALSE(t.function_at(0).has_value());
  EXPECT_FALSE(t.function_at(0xFFFFFFF0u).has_value());
}

TEST_P(ElfTarget, WithoutDwarfFunctionsStillResolve) {
  const pmukit::SymbolTable t = pmukit::load_elf_symbols(elf("-nodebug"));
  const auto nm = nm_functions(elf());
  EXPECT_EQ(t.line_range_count(), 0u);
  const auto f = t.function_at(nm.at("fw::middle(int)"));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(t.function(*f).name, "fw::middle(int)");
}

TEST_P(ElfTarget, StrippedElfIsAClearError) {
  try {
    pmukit::load_elf_symbols(elf("-stripped"));
    FAIL() << "no error";
  } catch (const pmukit::ElfError& e) {
    EXPECT_EQ(std::string(e.what()), "ELF '" + elf("-stripped") + "': has no symbol table (stripped?)");
  }
}

// A command's standard output, line by line (none if it cannot run).
std::vector<std::string> output_lines(const std::string& command) {
  std::vector<std::string> out;
  FILE* p = popen((command + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out.emplace_back(buf);
  pclose(p);
  return out;
}

// The lines readelf -wf/-wF prints for the FDE of the function at fn (up to the blank line).
std::vector<std::string> fde_lines(const std::string& readelf, std::uint64_t fn) {
  std::vector<std::string> out;
  bool in = false;
  for (const std::string& line : output_lines(readelf)) {
    const std::size_t pc = line.find(" pc=");
    if (line.find(" FDE ") != std::string::npos && pc != std::string::npos)
      in = std::stoull(line.substr(pc + 4), nullptr, 16) == fn;
    else if (line.find_first_not_of(" \n") == std::string::npos)
      in = false;
    else if (in)
      out.push_back(line);
  }
  return out;
}

// Issue 32 item 6: fw::two_exits's FDE has two DW_CFA_remember_state/DW_CFA_restore_state blocks
// (sample.cpp). A sample just after the second DW_CFA_restore_state, where the whole frame is
// back, unwinds to its caller, entry, and ends there. Binutils give the reference: the pc from
// readelf -wf, the CFA and the return address's slot from readelf -wF's row there, the return
// address from objdump. LLVM 14's rows kept the epilogue's CFA after a restore: MIPS stopped.
TEST_P(ElfTarget, UnwindsAfterTheSecondRestoreState) {
  const std::string tool = kTriple.at(GetParam());
  const auto nm = nm_functions(elf());
  const std::uint64_t fn = nm.at("fw::two_exits(int)"), entry = nm.at("entry");
  std::uint64_t pc = 0, loc = fn;
  unsigned restores = 0;
  const std::vector<std::string> program = fde_lines(tool + "-readelf -wf " + elf(), fn);
  if (program.empty()) GTEST_SKIP() << "no " << tool << "-readelf, or no FDE for fw::two_exits";
  for (const std::string& line : program) {
    const std::size_t to = line.find(" to ");
    if (line.find("DW_CFA_advance_loc") != std::string::npos && to != std::string::npos)
      loc = std::stoull(line.substr(to + 4), nullptr, 16);
    if (line.find("DW_CFA_restore_state") != std::string::npos && ++restores == 2) pc = loc;
  }
  ASSERT_NE(pc, 0u) << "fw::two_exits has fewer than two DW_CFA_restore_state: the test ELF changed";
  // readelf -wF's row at pc, as "LOC CFA r16 ra" columns: "0040028c r29+40 c-8 c-4".
  std::vector<std::string> columns, row;
  for (const std::string& line : fde_lines(tool + "-readelf -wF " + elf(), fn)) {
    std::istringstream in(line);
    const std::vector<std::string> w{std::istream_iterator<std::string>(in), {}};
    if (!w.empty() && w[0] == "LOC") columns = w;
    else if (w.size() == columns.size() && std::stoull(w[0], nullptr, 16) <= pc) row = w;
  }
  const std::map<std::string, std::string> sp_names = {{"arm", "r13"}, {"mips", "r29"}, {"ppc", "r1"}, {"i386", "esp"}};
  const std::string& sp = sp_names.at(GetParam());
  ASSERT_GE(row.size(), 2u) << "no row of readelf -wF at " << std::hex << pc;
  ASSERT_EQ(row[1].rfind(sp, 0), 0u) << "a CFA not on sp: " << row[1];
  const long long cfa = std::stoll(row[1].substr(sp.size()));
  const auto ra = std::find(columns.begin(), columns.end(), "ra");
  ASSERT_NE(ra, columns.end());
  const std::string saved = row[static_cast<std::size_t>(ra - columns.begin())];  // "c-4": at CFA - 4
  ASSERT_EQ(saved[0], 'c') << "the return address is not on the stack at " << std::hex << pc;
  // entry's return address: after its call of two_exits (MIPS: after the delay slot).
  std::uint64_t ret = 0;
  for (const std::string& line : output_lines(tool + "-objdump -d " + elf())) {
    const std::uint64_t at = std::strtoull(line.c_str(), nullptr, 16);
    if (line.find("<_ZN2fw9two_exitsEi>") != std::string::npos && line.find(">:") == std::string::npos && at > entry)
      ret = at + (GetParam() == "mips" ? 8 : GetParam() == "i386" ? 5 : 4);
  }
  ASSERT_NE(ret, 0u) << "no call of fw::two_exits in entry";
  // The stack: zeros (entry's saved return address 0 ends the walk), ret in two_exits's slot.
  const bool big = GetParam() == "mips" || GetParam() == "ppc";
  pmukit::StackSampleRecord s;
  s.pc = pc;
  s.sp = 0x8000;
  s.stack.assign(256, 0);
  const std::size_t slot = static_cast<std::size_t>(cfa + std::stoll(saved.substr(1)));
  ASSERT_LE(slot + 4, s.stack.size());
  for (unsigned j = 0; j < 4; ++j) s.stack[slot + j] = static_cast<std::uint8_t>(ret >> (8 * (big ? 3 - j : j)));
  const pmukit::Unwinder u(elf());
  const pmukit::UnwoundStack w = u.unwind(s, big ? pmukit::ByteOrder::big : pmukit::ByteOrder::little, 4);
  EXPECT_EQ(w.pcs, (std::vector<std::uint64_t>{pc, ret})) << std::hex << "pc 0x" << pc << ", CFA " << row[1];
  EXPECT_EQ(w.stopped, "");
}

// Every board's start-up code marks the outermost frame: its return address's CFI rule is
// "undefined" (DW_CFA_undefined; sample.cpp's `outermost`). A walk there ends complete, no marker.
// libdw.h: dwarf_frame_register's *nops 0 with *ops set to ops_mem is "undefined", with *ops null
// "same value"; read the other way round, the walk stopped ("no return address rule", or on a
// board's _start "no progress" and 64 frames of _start).
TEST_P(ElfTarget, AnUndefinedReturnAddressEndsTheWalkComplete) {
  const auto nm = nm_functions(elf());
  const bool big = GetParam() == "mips" || GetParam() == "ppc";
  pmukit::StackSampleRecord s;
  s.pc = nm.at("outermost") + (GetParam() == "i386" ? 1 : 4);  // its second instruction: after the rule
  s.sp = 0x8000;
  s.stack.assign(64, 0);
  const pmukit::Unwinder u(elf());
  const pmukit::UnwoundStack w = u.unwind(s, big ? pmukit::ByteOrder::big : pmukit::ByteOrder::little, 4);
  EXPECT_EQ(w.pcs, (std::vector<std::uint64_t>{s.pc}));
  EXPECT_EQ(w.stopped, "");
}

INSTANTIATE_TEST_SUITE_P(Targets, ElfTarget, ::testing::Values("arm", "mips", "ppc", "i386"),
                         [](const auto& info) { return info.param; });

TEST(ElfErrors, MissingFile) {
  try {
    pmukit::load_elf_symbols("/nonexistent/fw.elf");
    FAIL();
  } catch (const pmukit::ElfError& e) {
    EXPECT_STREQ(e.what(), "cannot open ELF '/nonexistent/fw.elf': No such file or directory");
  }
}

TEST(ElfErrors, NotAnElf) {
  const std::string path = std::string(PMUKIT_DUMP_TEST_DIR) + "/elf/sample.cpp";
  try {
    pmukit::load_elf_symbols(path);
    FAIL();
  } catch (const pmukit::ElfError& e) {
    EXPECT_EQ(std::string(e.what()), "ELF '" + path + "': not an ELF file");
  }
}

}  // namespace

// The unwinder on hostile input: random stack bytes and registers under each test ELF's real CFI
// (ARM, MIPS and PowerPC big-endian, i386; MIPS through LLVM's rules, libdw reading none). Every walk ends, within the frame limit, with either a
// clean end or a reason; never a crash (the suite also runs under ASan and UBSan).
TEST(Unwinder, RandomStacksEndCleanly) {
  std::mt19937 rng(17);
  for (const char* arch : {"arm", "mips", "ppc", "i386"}) {
    const std::string elf = std::string(PMUKIT_TEST_ELF_DIR) + "/" + arch + ".elf";
    if (!std::ifstream(elf)) continue;
    SCOPED_TRACE(arch);
    const pmukit::Unwinder u(elf);
    EXPECT_TRUE(u.has_cfi());
    const auto nm = dumptest::nm_functions(elf);
    const std::uint64_t leaf = nm.at("fw::leaf_add(int, int)");
    const bool big = std::string(arch) != "arm" && std::string(arch) != "i386";
    unsigned deep = 0;
    for (int i = 0; i < 2000; ++i) {
      pmukit::StackSampleRecord s;
      s.pc = (i % 2) ? leaf + 4 * (rng() % 4) : rng();
      s.lr = (i % 3) ? leaf + 8 : rng();
      s.sp = 0x1000 + 4 * (rng() % 64);
      s.fp = rng();
      s.stack.resize(rng() % 300);
      for (auto& b : s.stack) b = static_cast<std::uint8_t>(rng());
      if (i % 5 == 0)  // return addresses into the leaf on the stack: loops for a naive walker
        for (std::size_t k = 0; k + 4 <= s.stack.size(); k += 4)
          for (unsigned j = 0; j < 4; ++j) s.stack[k + j] = static_cast<std::uint8_t>((leaf + 8) >> (8 * (big ? 3 - j : j)));
      const pmukit::UnwoundStack w = u.unwind(s, big ? pmukit::ByteOrder::big : pmukit::ByteOrder::little, 4);
      ASSERT_GE(w.pcs.size(), 1u);
      ASSERT_LE(w.pcs.size(), pmukit::Unwinder::kMaxFrames);
      EXPECT_EQ(w.pcs[0], s.pc);
      deep += w.pcs.size() > 1;
    }
    EXPECT_GT(deep, 0u) << "no walk ever left the first frame: the CFI was not used";
  }
}

// Issue 31: a dump claiming 8-byte addresses, a sample sp under 8 and a rule saving the return
// address below the CFA (CFA = sp + 0, ra at CFA - 4) put the read at 2^64 - 4, which the bounds
// check let through: the unwinder read 4 bytes before its stack copy. The walk must stop there
// instead, saying why (and ASan/valgrind see no read outside the copy). The rule comes from a
// stand-in for pmukit-llvm-cfi: no compiler's CFI has one (the MIPS epilogue row this test used
// was LLVM 14's wrong CFA after DW_CFA_restore_state, issue 32).
TEST(Unwinder, EightByteAddressesNeverReadBeforeTheStack) {
  const std::string elf = kElfDir + "/mips.elf";
  if (!exists(elf)) GTEST_SKIP() << "no mips cross compiler";
  const std::string helper = ::testing::TempDir() + "pmukit_cfi_below_sp_" + std::to_string(getpid());
  std::ofstream(helper) << "#!/bin/sh\nprintf 'F 4096 8192 31\\nR 4096 29 0 1\\n31 2 0 -4\\n'\n";
  ASSERT_EQ(::chmod(helper.c_str(), 0755), 0);
  ::setenv("PMUKIT_LLVM_CFI", helper.c_str(), 1);
  pmukit::StackSampleRecord s;
  s.pc = 0x1000;
  s.sp = 0;
  s.stack.assign(16, 0x11);
  const pmukit::Unwinder u(elf);
  const pmukit::UnwoundStack w = u.unwind(s, pmukit::ByteOrder::big, 8);
  ::unsetenv("PMUKIT_LLVM_CFI");
  std::remove(helper.c_str());
  EXPECT_EQ(u.llvm_failure(), "");
  EXPECT_EQ(w.pcs, std::vector<std::uint64_t>{s.pc});
  EXPECT_EQ(w.stopped, "its return address is beyond the captured stack");
}

// The dump's address size is part of the ELF's identity: 8-byte addresses against an ELF32 are
// another program (and would walk its stacks with the wrong slot size).
TEST(ImageCheck, AddressSizeMustBeTheElfs) {
  pmukit::Dump d;
  d.target.address_bytes = 8;
  d.image.emplace().elf_machine = 8;  // emplace: GCC 12's -O2 -Wmaybe-uninitialized misfires on `= Image{}`
  pmukit::ElfIdentity elf;
  elf.machine = 8;
  elf.address_bytes = 4;
  const pmukit::ImageCheck c = pmukit::check_image(d, elf);
  ASSERT_EQ(c.mismatches.size(), 1u);
  EXPECT_EQ(c.mismatches[0], "the dump has 8-byte addresses, the ELF 4-byte ones (ELFCLASS32)");
  elf.address_bytes = 8;
  EXPECT_TRUE(pmukit::check_image(d, elf).mismatches.empty());
}

// An ELF whose CFI crashes LLVM 14's reader (found by fuzzing it): the reader runs in a child
// process, so the unwinder survives, says it, and every walk still ends cleanly.
TEST(Unwinder, LlvmCrashIsContained) {
  const std::string elf = std::string(PMUKIT_DUMP_TEST_DIR) + "/fuzz/llvm_cfi_crash.bin";
  const pmukit::LlvmCfi cfi(elf);
  EXPECT_TRUE(cfi.crashed());
  EXPECT_FALSE(cfi.any());
  pmukit::StackSampleRecord s;
  s.pc = 0x1000;
  s.sp = 0x2000;
  s.stack.assign(64, 0x41);
  try {
    const pmukit::Unwinder u(elf);
    const pmukit::UnwoundStack w = u.unwind(s, pmukit::ByteOrder::little, 4);
    EXPECT_EQ(w.pcs.size(), 1u);
    EXPECT_FALSE(w.stopped.empty());
  } catch (const pmukit::ElfError&) {  // libelf may refuse the file outright: also clean
  }
}
