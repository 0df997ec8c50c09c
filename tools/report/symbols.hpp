#pragma once
// Symbols for the addresses in a profile: functions (from an ELF symbol table), source lines
// (from DWARF line tables) and, when asked for, inlined code (DWARF's inlined subroutines), sorted
// once so each lookup is a binary search. Filled by load_elf_symbols() or, in tests, by hand.
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

// A function inlined somewhere (its abstract origin in DWARF): the name as the symbol table
// would spell it (demangled linkage name, else the plain name), and where it is declared.
struct InlinedFunction {
  std::string name;
  std::uint32_t decl_line = 0xFFFFFFFFu;  // a line id (line()), or none
  std::uint64_t lowest = ~std::uint64_t{0};  // the start of its lowest inlined copy
};

// One level of the inlined calls at an address: which function, and the line it was called from
// (DW_AT_call_file/DW_AT_call_line, in the function it was inlined into).
struct InlineFrame {
  std::uint32_t function;                 // index into inlined()
  std::uint32_t call_line = 0xFFFFFFFFu;  // a line id (line()), or none
};

class SymbolTable {
 public:
  // size 0: the function reaches to the next function's start (assembly labels often have no size).
  void add_function(std::uint64_t lo, std::uint64_t size, std::string name);
  void add_line(std::uint64_t lo, std::uint64_t hi, std::string_view file, unsigned line);
  // Inlined code: the function (by name, added once) and, for each address range of one inlined
  // call, its nesting depth (1: inlined into a function with a symbol, 2: into a depth-1 one...).
  std::uint32_t add_inlined_function(const std::string& name, std::string_view decl_file, unsigned decl_line);
  void add_inlined(unsigned depth, std::uint64_t lo, std::uint64_t hi, std::uint32_t function,
                   std::string_view call_file, unsigned call_line);
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
  // The same, searched from `hint` (where the last look-up ended; start at 0) outwards: addresses
  // looked up in rising order, or near each other, cost a few steps instead of a search of every
  // range (a large ELF's line table is megabytes: each of those steps a cache miss).
  std::optional<std::uint32_t> line_at(std::uint64_t pc, std::size_t& hint) const;
  const SourceLine& line(std::uint32_t id) const { return lines_[id]; }
  const std::string& file(std::uint32_t index) const { return files_[index]; }

  // The inlined calls covering pc, outermost first (empty outside inlined code, or when the loader
  // did not read them). Into `out`, cleared first, so a caller reuses its storage.
  void inlined_at(std::uint64_t pc, std::vector<InlineFrame>& out) const;
  bool has_inlined() const { return !inline_levels_.empty(); }
  const InlinedFunction& inlined(std::uint32_t index) const { return inlined_[index]; }
  std::size_t inlined_count() const { return inlined_.size(); }
  // The function symbol named exactly `name`, if any (the out-of-line copy of an inlined one).
  std::optional<std::uint32_t> function_named(const std::string& name) const;

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
  std::uint32_t line_id(std::string_view file, unsigned line);
  static constexpr std::uint32_t kNoFile = 0xFFFFFFFFu;
  std::uint32_t last_file_ = kNoFile;  // line_id()'s last file
  struct InlineRange {
    std::uint64_t lo, hi;
    InlineFrame frame;
  };
  // By depth - 1: at one depth the inlined calls' ranges do not overlap (DWARF nests them), so
  // each level is one binary search.
  std::vector<std::vector<InlineRange>> inline_levels_;
  std::vector<InlinedFunction> inlined_;
  std::unordered_map<std::string, std::uint32_t> inlined_ids_;
  std::unordered_map<std::string, std::uint32_t> by_name_;  // function_named(), after finalize()
};

}  // namespace pmukit
