#pragma once
// Symbols for the addresses in a profile: functions (from an ELF symbol table) and source lines
// (from DWARF line tables), sorted once so each lookup is a binary search. Filled by
// load_elf_symbols() or, in tests, by hand.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pmukit {

struct Function {
  std::uint64_t lo = 0, hi = 0;  // [lo, hi)
  std::string name;
};

struct SourceLine {
  std::uint32_t file = 0;  // index into SymbolTable::file()
  unsigned line = 0;
};

class SymbolTable {
 public:
  // size 0: the function reaches to the next function's start (assembly labels often have no size).
  void add_function(std::uint64_t lo, std::uint64_t size, std::string name);
  void add_line(std::uint64_t lo, std::uint64_t hi, std::string_view file, unsigned line);
  void finalize();  // call after the last add_*: sorts and settles sizes
  // Any symbol in an executable section (labels too): gprof ends each function at the next one.
  void note_code_symbol(std::uint64_t address) { last_code_symbol_ = std::max(last_code_symbol_, address); }
  std::uint64_t last_code_symbol() const { return last_code_symbol_; }

  bool empty() const { return functions_.empty(); }
  std::size_t function_count() const { return functions_.size(); }
  std::size_t line_range_count() const { return ranges_.size(); }

  // Index of the function containing pc, if any.
  std::optional<std::uint32_t> function_at(std::uint64_t pc) const;
  const Function& function(std::uint32_t index) const { return functions_[index]; }

  // The source line of pc (an id into line()), if the DWARF line table covers it.
  std::optional<std::uint32_t> line_at(std::uint64_t pc) const;
  const SourceLine& line(std::uint32_t id) const { return lines_[id]; }
  const std::string& file(std::uint32_t index) const { return files_[index]; }

 private:
  struct Range {
    std::uint64_t lo, hi;
    std::uint32_t line_id;
  };
  std::vector<Function> functions_;
  std::vector<std::string> files_;
  std::unordered_map<std::string, std::uint32_t> file_ids_;
  std::vector<SourceLine> lines_;
  std::unordered_map<std::uint64_t, std::uint32_t> line_ids_;  // file << 32 | line
  std::vector<Range> ranges_;
  std::uint64_t last_code_symbol_ = 0;
};

}  // namespace pmukit
