#pragma once
// Call frame rules at a pc from LLVM's DWARF library (Debian's llvm-14-dev), where libdw reads none:
// Debian 12's elfutils skips MIPS .debug_frame (SHT_MIPS_DWARF) and has no MIPS rules for
// .eh_frame. The unwinder (unwind.hpp) asks this only when libdw has no frame for a pc. LLVM's
// reader runs once per file in its own program, pmukit-llvm-cfi (tools/elf/llvm_cfi_main.cpp),
// which prints every FDE's rows: pmukit does not load LLVM, and a file that crashes the reader
// (the ELF fuzzer found one) loses the MIPS stacks, never the report.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pmukit {

struct CfiRule {
  enum Kind { undefined, same, at_cfa, is_cfa, in_register, unsupported } kind = same;
  int reg = 0;               // in_register
  std::int64_t offset = 0;   // at_cfa (saved at CFA + offset), is_cfa (the value CFA + offset)
};

struct CfiRow {
  int cfa_reg = 0;           // CFA = register + offset
  std::int64_t cfa_offset = 0;
  int ra = -1;               // the return address column
  std::map<int, CfiRule> rules;  // registers without an entry keep their value (same)
};

// One FDE's rows, by address: each holds from its address up to the next row's (the last to hi).
struct CfiFde {
  std::uint64_t lo = 0, hi = 0;
  int ra = -1;  // the CIE's return address column
  std::vector<std::pair<std::uint64_t, CfiRow>> rows;
};

class LlvmCfi {
 public:
  explicit LlvmCfi(const std::string& elf_path);  // no CFI (or an unreadable file): every at() is empty
  ~LlvmCfi();
  std::optional<CfiRow> at(std::uint64_t pc) const;
  bool any() const;      // the file has a .debug_frame or .eh_frame LLVM could read
  bool crashed() const;  // LLVM's reader failed on this file (pmukit-llvm-cfi: it runs apart)
  const std::string& failure() const;  // how: not found, killed, a limit ("" when it worked)
  const std::vector<CfiFde>& fdes() const;  // every FDE read, by lo (the unwind table's source)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pmukit
