#include "tools/report/json_writer.hpp"

#include <cstdio>

#include "tools/report/text_util.hpp"

namespace pmukit {

// Valid UTF-8 passes through (JSON text is UTF-8: "ü" stays "ü"); control bytes (C1 too: decode
// prints to a terminal) are \u escapes; a byte that is not valid UTF-8 becomes U+FFFD, so the
// output is always valid JSON.
std::string JsonWriter::escape(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence(s, i);
      if (n == 0) {
        out += "\\ufffd";
      } else if (c1_control(s, i)) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(s[i + 1]));
        out += buf;
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {  // control bytes
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

void JsonWriter::newline() {
  os_ << '\n';
  for (std::size_t i = 0; i < has_items_.size(); ++i) os_ << "  ";
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) os_ << ',';
    has_items_.back() = true;
    newline();
  }
}

JsonWriter& JsonWriter::open(char c) {
  before_value();
  os_ << c;
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::close(char c) {
  const bool had = has_items_.back();
  has_items_.pop_back();
  if (had) newline();
  os_ << c;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  os_ << escape(k) << ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  before_value();
  os_ << escape(s);
  return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t v) {
  before_value();
  os_ << v;
  return *this;
}

JsonWriter& JsonWriter::number(std::string_view digits) {
  before_value();
  os_ << digits;
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  before_value();
  os_ << (v ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  os_ << "null";
  return *this;
}

}  // namespace pmukit
