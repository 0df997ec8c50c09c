#pragma once
// Small formatting helpers shared by the report writers.
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace pmukit {

std::string hex(std::uint64_t v, unsigned digits = 0);  // "0x" + at least `digits` hex digits
// Reports use integer arithmetic only, no floating point: the same digits on every host, and no
// FP in builds for soft-float targets (the e500 host tests).
// num / den * 10^exp10 in decimal, rounded half up to `decimals` digits; "0.00..." if den is 0.
std::string fixed_ratio(std::uint64_t num, std::uint64_t den, unsigned decimals, unsigned exp10 = 0);
// 100 * part / whole, two decimals: "43.75".
std::string percent(std::uint64_t part, std::uint64_t whole);
std::string html_escape(std::string_view s);
std::string csv_field(std::string_view s);  // quoted when it holds a comma, quote or newline

// Columns padded to their widest cell, separated by two spaces; trailing blanks trimmed.
class TextTable {
 public:
  enum Align { left, right };
  explicit TextTable(std::vector<Align> align) : align_(std::move(align)) {}
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void print(std::ostream& os, std::string_view indent = "") const;

 private:
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace pmukit
