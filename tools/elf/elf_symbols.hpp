#pragma once
// Firmware ELF -> SymbolTable, through elfutils: functions from the symbol table (libelf),
// source lines from the DWARF line tables (libdw) when the ELF has them, and on request the
// inlined calls (DWARF's DW_TAG_inlined_subroutine). Works for ELF32/ELF64 of
// either byte order (libelf converts). Throws ElfError with a message naming the file.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/report/symbols.hpp"

namespace pmukit {

class ElfError : public std::runtime_error {
 public:
  explicit ElfError(const std::string& what) : std::runtime_error(what) {}
};

// What identifies the program in an ELF: checked against a dump's IMAGE chunk (image_check.hpp).
struct ElfIdentity {
  unsigned machine = 0;       // e_machine
  unsigned address_bytes = 4;  // 4 for ELFCLASS32, 8 for ELFCLASS64
  bool big_endian = false;
  std::vector<std::uint8_t> build_id;  // NT_GNU_BUILD_ID descriptor; empty: none
  struct Segment {
    std::uint64_t vaddr = 0;
    std::vector<std::uint8_t> bytes;  // PT_LOAD file contents (p_filesz bytes)
  };
  std::vector<Segment> segments;
  // CRC-32 (the dump's) of [lo, hi) as loaded; none when the file does not hold every byte.
  std::optional<std::uint32_t> crc(std::uint64_t lo, std::uint64_t hi) const;
};

struct ElfImage {
  SymbolTable symbols;
  ElfIdentity identity;
  std::vector<std::string> warnings;  // what of the ELF was not used, and why
};

// inlined: also read DWARF's inlined subroutines (SymbolTable::inlined_at, report --inline):
// a walk of every DIE, so only when asked.
ElfImage load_elf(const std::string& path, bool inlined = false);
SymbolTable load_elf_symbols(const std::string& path, bool inlined = false);

}  // namespace pmukit
