#pragma once
// `pmukit annotate`: where inside a function the samples are, per instruction and per source
// line, against the function's disassembly (the cross binutils' objdump for the ELF's machine),
// in the manner of `perf annotate --stdio`.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tools/report/profile.hpp"
#include "tools/report/symbols.hpp"

namespace pmukit {

struct DisassembledInstruction {
  std::uint64_t address = 0;
  std::string text;  // "addiu sp,sp,-8" as objdump prints it
};

// objdump -d output -> its instructions (labels, headers and blank lines skipped).
std::vector<DisassembledInstruction> parse_objdump(const std::string& text);

// objdump for this e_machine, from PATH: the first of the cross binutils' names that exists; ""
// when none does.
std::string objdump_for(unsigned elf_machine);

// One function's annotation: a header with its samples, then for every source line its total and
// text (where the file can be read), followed by its instructions with their own counts.
void write_annotation(std::ostream& os, const Profile& profile, const SymbolTable& symbols,
                      const Function& function, const std::vector<DisassembledInstruction>& code);

}  // namespace pmukit
