#pragma once
// Small formatting helpers shared by the report writers.
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace pmukit {

std::string hex(std::uint64_t v, unsigned digits = 0);  // "0x" + at least `digits` hex digits
std::string hex_bytes(const std::vector<std::uint8_t>& bytes);  // "5e1f..." (two digits a byte)
// Reports use integer arithmetic only, no floating point: the same digits on every host, and no
// FP in builds for soft-float targets (the e500 host tests).
// num / den * 10^exp10 in decimal, rounded half up to `decimals` digits; "0.00..." if den is 0.
std::string fixed_ratio(std::uint64_t num, std::uint64_t den, unsigned decimals, unsigned exp10 = 0);
// 100 * part / whole, two decimals: "43.75".
std::string percent(std::uint64_t part, std::uint64_t whole);
// Length of the valid UTF-8 sequence at s[i], 0 if the byte starts none.
std::size_t utf8_sequence(std::string_view s, std::size_t i);
// For text output: valid UTF-8 kept, control bytes, DEL, backslash and invalid bytes as \xNN
// (backslash as \\), so a string from a dump cannot move the cursor or recolour a terminal.
std::string printable(std::string_view s);
// For HTML and SVG: markup escaped, invalid UTF-8 as U+FFFD, control bytes as '?'.
std::string html_escape(std::string_view s);
std::string csv_field(std::string_view s);  // quoted when it holds a comma, quote or newline

// Columns padded to their widest cell, separated by two spaces; trailing blanks trimmed.
class TextTable {
 public:
  enum Align { left, right };
  explicit TextTable(std::vector<Align> align) : align_(std::move(align)) {}
  void row(std::vector<std::string> cells);  // cells made printable()
  void print(std::ostream& os, std::string_view indent = "") const;

 private:
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace pmukit
