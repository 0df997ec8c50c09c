#pragma once
// Is this ELF the program that wrote the dump? Compares the dump's IMAGE chunk (ELF machine,
// GNU build-id, CRC-32 of the code as loaded) with the ELF; dumps of format 1.0 have no IMAGE
// chunk, so only the machine implied by their target id is checked.
#include <string>
#include <vector>

#include "tools/dumpread/dump.hpp"
#include "tools/elf/elf_symbols.hpp"

namespace pmukit {

struct ImageCheck {
  std::vector<std::string> mismatches;  // each one alone means "another program"
  std::vector<std::string> warnings;    // what could not be checked
};

ImageCheck check_image(const Dump& dump, const ElfIdentity& elf);

// "ARM", "PowerPC", ...: e_machine for messages.
std::string machine_name(unsigned e_machine);

}  // namespace pmukit
