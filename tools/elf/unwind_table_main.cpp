// pmukit-unwind-table: the on-target unwind table (profiler/unwind_table.hpp) of a linked ELF, as
// an assembly file for the firmware's second link (cmake/PmuUnwindTable.cmake).
//
//   pmukit-unwind-table ELF OUT.S          the table of ELF's call frame information
//   pmukit-unwind-table --empty OUT.S      the first link's placeholder (an empty table)
//   pmukit-unwind-table --check ELF TABLE.S  exit 1 unless ELF's table is TABLE.S: the second link
//                                          moved no code (the table's section comes after it all)
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/elf/elf_symbols.hpp"
#include "tools/elf/unwind_table.hpp"

namespace {

std::string table_of(const std::string& elf, std::string& summary) {
  const pmukit::UnwindRules r = pmukit::unwind_rules(elf);
  if (!r.error.empty()) throw pmukit::ElfError("ELF '" + elf + "': " + r.error);
  const auto blob = pmukit::encode_unwind_table(r, r.big_endian);
  summary = std::to_string(r.entries.size()) + " entries from " + std::to_string(r.rows) + " CFI rows (" +
            std::to_string(r.unsupported) + " the walk cannot follow), " + std::to_string(blob.size()) + " bytes";
  return pmukit::unwind_table_assembly(blob, "pmukit-unwind-table: " + summary);
}

bool write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string a1 = argc > 1 ? argv[1] : "";
    if (argc == 3 && a1 == "--empty") return write(argv[2], pmukit::unwind_table_assembly({}, "empty unwind table")) ? 0 : 1;
    if (argc == 4 && a1 == "--check") {
      std::string summary;
      const std::string want = table_of(argv[2], summary);
      std::ifstream in(argv[3], std::ios::binary);
      std::stringstream have;
      have << in.rdbuf();
      if (have.str() != want) {
        std::fprintf(stderr, "pmukit-unwind-table: %s's table differs from %s: the second link moved code\n", argv[2], argv[3]);
        return 1;
      }
      std::printf("%s: unwind table checked, %s\n", argv[2], summary.c_str());
      return 0;
    }
    if (argc == 3 && a1[0] != '-') {
      std::string summary;
      const std::string text = table_of(argv[1], summary);
      if (!write(argv[2], text)) return 1;
      std::printf("%s: %s\n", argv[1], summary.c_str());
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pmukit-unwind-table: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "usage: pmukit-unwind-table ELF OUT.S | --empty OUT.S | --check ELF TABLE.S\n");
  return 2;
}
