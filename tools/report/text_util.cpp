#include "tools/report/text_util.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>

namespace pmukit {

std::string hex(std::uint64_t v, unsigned digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*" PRIx64, static_cast<int>(digits), v);
  return buf;
}

std::string hex_bytes(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

std::string fixed_ratio(std::uint64_t num, std::uint64_t den, unsigned decimals, unsigned exp10) {
  if (den == 0) num = 0, den = 1;
  while (den > UINT64_MAX / 10) {  // keep r * 10 below 2^64 (loses only invisible precision)
    num >>= 1;
    den >>= 1;
  }
  // Long division: the integer part, then exp10 + decimals fraction digits and one more to round.
  std::string digits = std::to_string(num / den);
  std::uint64_t r = num % den;
  for (unsigned i = 0; i < exp10 + decimals + 1; ++i) {
    r *= 10;
    digits += static_cast<char>('0' + r / den);
    r %= den;
  }
  const bool up = digits.back() >= '5';
  digits.pop_back();
  if (up) {
    std::size_t i = digits.size();
    while (i > 0 && digits[i - 1] == '9') digits[--i] = '0';
    if (i == 0)
      digits.insert(digits.begin(), '1');
    else
      ++digits[i - 1];
  }
  const std::size_t point = digits.size() - decimals;
  std::size_t first = 0;  // drop leading zeros of the integer part, keep one
  while (first + 1 < point && digits[first] == '0') ++first;
  std::string out = digits.substr(first, point - first);
  if (decimals != 0) out += '.' + digits.substr(point);
  return out;
}

std::string percent(std::uint64_t part, std::uint64_t whole) { return fixed_ratio(part, whole, 2, 2); }

std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  // No overlong forms, no surrogates, nothing past U+10FFFF.
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;
  if (c == 0xED && b(i + 1) > 0x9F) return 0;
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;
  if (c == 0xF4 && b(i + 1) > 0x8F) return 0;
  return n;
}

bool c1_control(std::string_view s, std::size_t i) {
  return i + 1 < s.size() && static_cast<unsigned char>(s[i]) == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0;
}

namespace {

std::string escaped(std::string_view s, bool double_backslash) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_sequence(s, i);
    if (c == '\\' && double_backslash) {
      out += "\\\\";
      ++i;
    } else if (n == 0 || c < 0x20 || c == 0x7F || c1_control(s, i)) {  // a C1's second byte: n == 0 next
      out += "\\x" + hex(c, 2).substr(2);
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace

std::string printable(std::string_view s) { return escaped(s, true); }

std::string one_line(std::string_view s) { return escaped(s, false); }

std::string to_valid_utf8(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string html_escape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) {  // invalid UTF-8: the replacement character keeps the SVG/HTML well-formed
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (n > 1) {
      // U+FFFE and U+FFFF are not XML characters: the SVG would not parse. C1 controls: as C0.
      if (n == 3 && s.substr(i, 2) == "\xEF\xBF" && static_cast<unsigned char>(s[i + 2]) >= 0xBE)
        out += "\xEF\xBF\xBD";
      else if (c1_control(s, i))
        out += '?';
      else
        out.append(s.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        // Control bytes are not allowed in XML 1.0 (the SVG must stay well-formed).
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7F ? '?' : c;
    }
    ++i;
  }
  return out;
}

std::string csv_field(std::string_view raw) {
  const std::string s = printable(raw);  // no raw control bytes or invalid UTF-8 in a CSV cell
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

namespace {

// The code point of the valid sequence of n bytes at s[i].
char32_t code_point(std::string_view s, std::size_t i, std::size_t n) {
  const auto b = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k])); };
  if (n == 1) return b(0);
  char32_t c = b(0) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (std::size_t k = 1; k < n; ++k) c = c << 6 | (b(k) & 0x3F);
  return c;
}

// Unicode's East Asian Width W and F blocks (UAX #11) and the common zero-width marks, by block:
// enough for names and paths, not a full wcwidth.
unsigned columns(char32_t c) {
  if ((c >= 0x0300 && c <= 0x036F) || (c >= 0x200B && c <= 0x200F) || (c >= 0xFE00 && c <= 0xFE0F)) return 0;
  if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF) ||
      (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
      (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
      (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
      (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD))
    return 2;
  return 1;
}

// Each character of s: its byte offset, length and columns.
struct Glyph {
  std::size_t at, bytes;
  unsigned width;
};
std::vector<Glyph> glyphs(std::string_view s) {
  std::vector<Glyph> g;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) {
      g.push_back({i, 1, 1});
      ++i;
    } else {
      g.push_back({i, n, columns(code_point(s, i, n))});
      i += n;
    }
  }
  return g;
}

}  // namespace

// glyphs()'s widths summed, without the vector: every cell of a text table is measured twice.
std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) {
      w += 1;
      ++i;
    } else {
      w += columns(code_point(s, i, n));
      i += n;
    }
  }
  return w;
}

std::string shorten(std::string_view s, std::size_t width) {
  if (width == 0 || display_width(s) <= width) return std::string(s);
  if (width <= 3) return std::string("...").substr(0, width);
  const std::vector<Glyph> g = glyphs(s);
  // The head gets the odd column; each side stops before a character that would not fit.
  const std::size_t room = width - 3, head_room = room - room / 2, tail_room = room / 2;
  std::size_t head = 0, used = 0;
  while (head < g.size() && used + g[head].width <= head_room) used += g[head++].width;
  std::size_t tail = g.size();
  used = 0;
  while (tail > head && used + g[tail - 1].width <= tail_room) used += g[--tail].width;
  const std::size_t head_end = head == 0 ? 0 : g[head - 1].at + g[head - 1].bytes;
  const std::size_t tail_at = tail == g.size() ? s.size() : g[tail].at;
  return std::string(s.substr(0, head_end)) + "..." + std::string(s.substr(tail_at));
}

void TextTable::row(std::vector<std::string> cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    cells[i] = printable(cells[i]);  // a dump string cannot drive the terminal
    if (max_width_ != 0 && i < align_.size() && align_[i] == left) cells[i] = shorten(cells[i], max_width_);
  }
  rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& os, std::string_view indent) const {
  std::vector<std::size_t> width(align_.size(), 0);
  for (const auto& r : rows_)
    for (std::size_t i = 0; i < r.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], display_width(r[i]));
  for (const auto& r : rows_) {
    std::string line(indent);
    for (std::size_t i = 0; i < r.size() && i < width.size(); ++i) {
      if (i != 0) line += "  ";
      const std::string pad(width[i] - display_width(r[i]), ' ');
      line += align_[i] == right ? pad + r[i] : r[i] + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    os << line << '\n';
  }
}

}  // namespace pmukit
