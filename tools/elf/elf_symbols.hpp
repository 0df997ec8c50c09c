#pragma once
// Firmware ELF -> SymbolTable, through elfutils: functions from the symbol table (libelf),
// source lines from the DWARF line tables (libdw) when the ELF has them. Works for ELF32/ELF64 of
// either byte order (libelf converts). Throws ElfError with a message naming the file.
#include <stdexcept>
#include <string>

#include "tools/report/symbols.hpp"

namespace pmukit {

class ElfError : public std::runtime_error {
 public:
  explicit ElfError(const std::string& what) : std::runtime_error(what) {}
};

SymbolTable load_elf_symbols(const std::string& path);

}  // namespace pmukit
