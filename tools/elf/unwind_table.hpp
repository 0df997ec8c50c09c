#pragma once
// The on-target unwind table (profiler/unwind_table.hpp) from a linked ELF's own call frame
// information (DWARF 4, section 6.4), as LLVM's DWARF library reads it (unwind_llvm.hpp: every
// FDE's rows, .debug_frame first, else .eh_frame). Each row becomes a rule: the CFA on SP or FP,
// the return address in the link register, at CFA + offset or undefined, the frame pointer kept or
// at CFA + offset; a rule the walk cannot follow (a CFA on another register or by expression, an
// offset beyond 16 bits or not a whole word) becomes one where the walk ends, and is counted.
// Consecutive equal rows merge; a gap between FDEs gets no rule. The encoded table maps every code
// slot of the largest cluster of FDEs to its rule (profiler/unwind_table.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/unwind_table.hpp"

namespace pmukit {

// A rule from pc up to the next row's pc.
struct UnwindRow {
  std::uint32_t pc;
  prof::UnwindRule rule;
};

struct UnwindRules {
  unsigned machine = 0;  // e_machine
  bool big_endian = false;
  std::uint32_t text_start = 0, text_end = 0;  // the map's range: the largest cluster of FDEs
  std::vector<UnwindRow> entries;              // sorted; the last at the end of the code, with no rule
  std::size_t rows = 0, unsupported = 0;       // CFI rows read, and those the walk cannot follow
  std::string error;                           // why there is no table ("" when there is one)
};

// The rules of the ELF at path. Throws ElfError (elf_symbols.hpp) when it cannot be read.
UnwindRules unwind_rules(const std::string& elf_path);

// The table as the target reads it: header, rules, map (UnwindTable::from), in the byte order asked
// for. The map's slot: the largest power of two up to 4 bytes that every row's address is a
// multiple of (4 on ARM, MIPS, PowerPC; 2 with Thumb code; 1 on i386). Empty: no rows.
std::vector<std::uint8_t> encode_unwind_table(const UnwindRules& rules, bool big_endian);

// An assembly file defining pmukit_unwind_table (4-aligned, in section .pmukit_unwind) as blob.
std::string unwind_table_assembly(const std::vector<std::uint8_t>& blob, const std::string& comment);

}  // namespace pmukit
