#pragma once
// What the tabular formats (table, flat, csv --table profile, json's functions) show of a profile,
// like perf report's options: the rows' key (--sort), which rows (--symbols, --symbol-filter,
// --percent-limit, --top), and a note that says what was left out, so no total changes silently.
// Percentages stay shares of all samples (perf's default, --percentage absolute).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/report/profile.hpp"

namespace pmukit {

// function: self samples per function (perf's sym); line: per source line of the sampled pc
// (srcline); address: per sampled instruction (perf's symoff); caller: per caller -> function
// pair, the last two frames of each sample's stack (a stack of one frame: caller "[no caller]").
enum class SortKey { function, line, address, caller };

struct ViewOptions {
  SortKey sort = SortKey::function;
  std::optional<std::size_t> top;      // rows shown (0: all); unset: the format's default
  std::uint32_t percent_limit = 0;     // hundredths of a percent: rows under it are left out
  std::vector<std::string> symbols;    // --symbols: only rows of these functions (exact names)
  std::string symbol_filter;           // --symbol-filter: only rows whose function contains it
};

// "function", "line", "address", "caller", and perf's names for them (sym, symbol, srcline,
// addr, symoff, parent is not one: perf's parent is a regex filter).
std::optional<SortKey> parse_sort_key(std::string_view name);
const char* sort_key_name(SortKey key);
// Keys read Profile::line_self / pc_self, which build_profile fills only with lines.
bool sort_needs_lines(SortKey key);
// "0.5", "5", "12.25", "3%": hundredths of a percent (no floating point: reports use integers);
// nullopt past 100 or with more than two decimals.
std::optional<std::uint32_t> parse_percent(std::string_view text);

// One row of the tabular formats.
struct ProfileRow {
  std::uint64_t samples = 0;
  std::uint32_t function = kNoFunction;  // the row's function (caller rows: the called one)
  std::uint32_t caller = kNoFunction;    // caller rows; kNoFunction: the stack had one frame
  std::uint32_t line = kNoLine;          // line and address rows
  std::uint64_t address = 0;             // address rows: the instruction
};

struct ProfileRows {
  std::vector<ProfileRow> rows;  // shown, most samples first
  std::uint64_t left_rows = 0, left_samples = 0;
  std::vector<std::string> why;  // the options that left rows out
  // "" when nothing was left out; else "N <unit> with S samples (P%) not shown: under 0.50%
  // (--percent-limit), past the first 5 (--top)".
  std::string note(const Profile& p, std::string_view unit) const;
};

// The candidates in their order (function ids with their samples), filtered by `view`:
// --symbols and --symbol-filter, then --percent-limit, then --top (default_top when unset).
ProfileRows choose_rows(const Profile& p, std::vector<ProfileRow> candidates, const ViewOptions& view,
                        std::size_t default_top);
// The rows for view.sort, most samples first (ties by name, then address or line), filtered.
ProfileRows profile_rows(const Profile& p, const ViewOptions& view, std::size_t default_top);
// The unit of a key's rows, for notes and headers: "functions", "lines", "addresses", "call pairs".
const char* row_unit(SortKey key);
// A row's key cells and their headers (table/flat/csv): function: [address,] function, location;
// line: location, function; address: address, function+offset, location; caller: caller, function.
std::vector<std::string> key_headers(SortKey key, bool with_address);
std::vector<std::string> key_cells(const Profile& p, const ProfileRow& row, SortKey key, bool with_address,
                                   unsigned digits);

}  // namespace pmukit
