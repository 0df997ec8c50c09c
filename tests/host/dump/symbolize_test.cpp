// ELF symbolization (elfutils) against ELFs cross-compiled from elf/sample.cpp: little- and
// big-endian ELF32, ARM Thumb entry points, C++ names, with and without DWARF.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <random>
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

// "file:line" per address from binutils' <triple>-addr2line, the independent reference; empty
// if it is not installed.
std::vector<std::string> addr2line(const std::string& target, const std::string& elf,
                                   const std::vector<std::uint64_t>& addresses) {
  const std::map<std::string, std::string> triple = {
      {"arm", "arm-none-eabi"}, {"mips", "mips-linux-gnu"}, {"ppc", "powerpc-linux-gnu"},
      {"i386", "i686-linux-gnu"}};
  const std::string input = ::testing::TempDir() + "pmukit_addr2line_" + std::to_string(getpid());
  {
    std::ofstream in(input);
    for (std::uint64_t a : addresses) in << std::hex << "0x" << a << '\n';
  }
  std::vector<std::string> out;
  FILE* p = popen((triple.at(target) + "-addr2line -e " + elf + " <" + input + " 2>/dev/null").c_str(), "r");
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
// address below the CFA (MIPS's epilogue row: CFA = sp + 0, ra at CFA - 4) put the read at 2^64 - 4,
// which the bounds check let through: the unwinder read 4 bytes before its stack copy. The walk
// must stop there instead, saying why (and ASan/valgrind see no read outside the copy).
TEST(Unwinder, EightByteAddressesNeverReadBeforeTheStack) {
  const std::string elf = kElfDir + "/mips.elf";
  if (!exists(elf)) GTEST_SKIP() << "no mips cross compiler";
  const pmukit::LlvmCfi cfi(elf);
  const std::uint64_t middle = nm_functions(elf).at("fw::middle(int)");
  std::uint64_t pc = 0;
  for (std::uint64_t a = middle; a < middle + 0x100 && pc == 0; a += 4) {
    const std::optional<pmukit::CfiRow> row = cfi.at(a);
    if (!row) continue;
    const auto ra = row->rules.find(row->ra);
    if (ra != row->rules.end() && ra->second.kind == pmukit::CfiRule::at_cfa && row->cfa_offset + ra->second.offset < 0)
      pc = a;
  }
  if (pc == 0) GTEST_SKIP() << "this compiler's fw::middle has no row with the return address below sp";
  pmukit::StackSampleRecord s;
  s.pc = pc;
  s.sp = 0;
  s.stack.assign(16, 0x11);
  const pmukit::Unwinder u(elf);
  const pmukit::UnwoundStack w = u.unwind(s, pmukit::ByteOrder::big, 8);
  EXPECT_EQ(w.pcs, std::vector<std::uint64_t>{pc});
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
