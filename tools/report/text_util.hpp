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
// True if s[i] starts a C1 control (U+0080..U+009F): terminals may obey them (U+009B is CSI).
bool c1_control(std::string_view s, std::size_t i);
// One helper per kind of output for every string from a dump or an ELF (names, paths, source;
// JSON has JsonWriter::escape, CSV csv_field). For text read by people: valid UTF-8 kept, control bytes (C0, DEL, C1), backslash and invalid
// bytes as \xNN (backslash as \\), so a string cannot move the cursor or recolour a terminal.
std::string printable(std::string_view s);
// For line-based formats read by tools (folded, callgrind): the same, but a backslash stays one,
// so paths and names keep their text; no newline or control byte can end or corrupt a line.
std::string one_line(std::string_view s);
// For HTML and SVG: markup escaped, invalid UTF-8 and the non-characters U+FFFE/U+FFFF (not
// XML characters) as U+FFFD, control bytes as '?'.
std::string html_escape(std::string_view s);
// For formats whose strings must be UTF-8 but are data (pprof's protobuf strings): invalid bytes
// as U+FFFD, everything else kept.
std::string to_valid_utf8(std::string_view s);
std::string csv_field(std::string_view s);  // quoted when it holds a comma, quote or newline

// Columns a terminal gives s (valid UTF-8): one per code point, two for East Asian wide and
// full-width ones (CJK, Hangul, full-width forms, emoji), none for combining marks; an invalid
// byte counts one.
std::size_t display_width(std::string_view s);
// s in at most `width` columns: the middle replaced by "..." (a C++ name keeps its namespace and
// its function); s itself when it fits or width is 0.
std::string shorten(std::string_view s, std::size_t width);

// Columns padded to their widest cell (in display columns), separated by two spaces; trailing
// blanks trimmed.
class TextTable {
 public:
  enum Align { left, right };
  explicit TextTable(std::vector<Align> align) : align_(std::move(align)) {}
  // Left-aligned cells (names, paths) longer than `width` columns are shorten()ed; 0: never.
  void max_width(std::size_t width) { max_width_ = width; }
  void row(std::vector<std::string> cells);  // cells made printable()
  void print(std::ostream& os, std::string_view indent = "") const;

 private:
  std::vector<Align> align_;
  std::size_t max_width_ = 0;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace pmukit
