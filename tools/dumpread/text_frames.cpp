#include "tools/dumpread/text_frames.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "profiler/dump/format.hpp"
#include "tools/dumpread/crc32_host.hpp"

namespace pmukit {
namespace {

namespace fmt = pmu::dump;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parses a whole token of hex digits; false if any character is not hex.
bool parse_hex(std::string_view s, std::uint32_t& out) {
  if (s.empty() || s.size() > 8) return false;
  std::uint32_t v = 0;
  for (char c : s) {
    const int d = hex_value(c);
    if (d < 0) return false;
    v = (v << 4) | static_cast<std::uint32_t>(d);
  }
  out = v;
  return true;
}

bool parse_dec(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  out = v;
  return true;
}

// Splits on single spaces; returns false if there are more than `max` tokens.
bool split(std::string_view s, std::string_view* tok, std::size_t max, std::size_t& n) {
  n = 0;
  while (!s.empty()) {
    const std::size_t sp = s.find(' ');
    const std::string_view t = s.substr(0, sp);
    if (!t.empty()) {
      if (n == max) return false;
      tok[n++] = t;
    }
    if (sp == std::string_view::npos) break;
    s.remove_prefix(sp + 1);
  }
  return true;
}

class FrameScanner {
 public:
  explicit FrameScanner(std::size_t want) : want_(want) {}
  TextFrames frames;

  void line(std::string_view text, std::size_t number) {
    const std::size_t tag = text.find(fmt::kFrameTag);
    if (tag == std::string_view::npos) return;
    const std::string_view body = text.substr(tag + std::strlen(fmt::kFrameTag));
    if (body.empty() || body[0] != ' ') return;  // "@PMUDX...": not ours
    std::string_view tok[4];
    std::size_t n = 0;
    const bool fits = split(body, tok, 4, n);
    if (n > 0 && tok[0] == "BEGIN") return begin(tok, n, fits, number);
    if (!open_) return;  // data or END without BEGIN: console noise or a lost frame start
    if (n > 0 && tok[0] == "END") {
      if (keep_) return end(tok, n, fits, number);
      open_ = false;
      return;
    }
    if (keep_) data(tok, n, fits, number);
  }

  void finish() {
    if (open_ && keep_) fail(frames.chosen.begin_line, "has no END line (the log ends inside the frame)");
  }

 private:
  // A frame other than the one wanted is only counted: a record per BEGIN line made a log of
  // 250 MB of them take 4.2 GB.
  void begin(std::string_view* tok, std::size_t n, bool fits, std::size_t number) {
    if (open_ && keep_)
      fail(number, "is interrupted by a new BEGIN line (the target restarted mid-dump?)");
    ++frames.count;
    open_ = true;
    keep_ = want_ == 0 || frames.count == want_;
    if (!keep_) return;
    frames.chosen = TextFrame{};
    frames.chosen.begin_line = number;
    seq_ = 0;
    lines_ = 0;
    std::uint64_t version = 0;
    if (!fits || n != 2 || !parse_dec(tok[1], version))
      return fail(number, "has a malformed BEGIN line");
    if (version != fmt::kFrameVersion)
      return fail(number, "uses text frame version " + std::to_string(version) +
                              " (this pmukit reads version " +
                              std::to_string(fmt::kFrameVersion) + ")");
  }

  void end(std::string_view* tok, std::size_t n, bool fits, std::size_t number) {
    TextFrame& f = frames.chosen;
    open_ = false;
    f.end_line = number;
    if (!f.error.empty()) return;
    std::uint64_t lines = 0, bytes = 0;
    if (!fits || n != 3 || !parse_dec(tok[1], lines) || !parse_dec(tok[2], bytes))
      return fail(number, "has a malformed END line");
    if (lines != lines_ || bytes != f.bytes.size())
      return fail(number, "END line says " + std::to_string(lines) + " lines and " +
                              std::to_string(bytes) + " bytes, the frame has " +
                              std::to_string(lines_) + " lines and " +
                              std::to_string(f.bytes.size()) + " bytes");
  }

  void data(std::string_view* tok, std::size_t n, bool fits, std::size_t number) {
    TextFrame& f = frames.chosen;
    if (!f.error.empty()) return;
    std::uint32_t seq = 0, check = 0;
    if (!fits || n != 3) return fail(number, "frame line does not have 3 fields (seq data check)");
    if (tok[0].size() != 4 || !parse_hex(tok[0], seq))
      return fail(number, "frame line has a bad sequence field '" + std::string(tok[0]) + "'");
    if (tok[2].size() != 4 || !parse_hex(tok[2], check))
      return fail(number, "frame line has a bad check field '" + std::string(tok[2]) + "'");
    const std::string_view hex = tok[1];
    if (hex.size() % 2 != 0 || hex.size() > 2 * fmt::kFrameBytesPerLine)
      return fail(number, "frame line has " + std::to_string(hex.size()) +
                              " hex digits (an even number up to 64)");
    std::uint8_t bytes[fmt::kFrameBytesPerLine];
    for (std::size_t i = 0; i < hex.size() / 2; ++i) {
      const int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
      if (hi < 0 || lo < 0)
        return fail(number, "frame line has a non-hex character in its data");
      bytes[i] = static_cast<std::uint8_t>(hi << 4 | lo);
    }
    const std::uint8_t seq_bytes[2] = {static_cast<std::uint8_t>(seq >> 8),
                                       static_cast<std::uint8_t>(seq)};
    HostCrc32 crc;
    crc.update(seq_bytes, 2);
    crc.update(bytes, hex.size() / 2);
    if ((crc.value() & 0xFFFFu) != check) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "frame line check %04x does not match its content (%04x)",
                    static_cast<unsigned>(check), static_cast<unsigned>(crc.value() & 0xFFFFu));
      return fail(number, buf);
    }
    if (seq != seq_) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "frame line has sequence %04x, expected %04x (lines lost)",
                    static_cast<unsigned>(seq), static_cast<unsigned>(seq_));
      return fail(number, buf);
    }
    seq_ = static_cast<std::uint16_t>(seq_ + 1);
    ++lines_;
    f.bytes.insert(f.bytes.end(), bytes, bytes + hex.size() / 2);
  }

  void fail(std::size_t number, const std::string& why) {
    TextFrame& f = frames.chosen;
    if (!f.error.empty()) return;
    f.error = "line " + std::to_string(number) + ": " + why;
    f.bytes.clear();
  }

  std::size_t want_;
  bool open_ = false;
  bool keep_ = false;  // the open frame is the one wanted
  std::uint16_t seq_ = 0;
  std::uint64_t lines_ = 0;
};

}  // namespace

TextFrames find_text_frames(const char* text, std::size_t size, std::size_t want) {
  FrameScanner scanner(want);
  std::size_t number = 0, start = 0;
  while (start < size) {
    const void* nl = std::memchr(text + start, '\n', size - start);
    const std::size_t stop = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text) : size;
    std::string_view line(text + start, stop - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    scanner.line(line, ++number);
    start = stop + 1;
  }
  scanner.finish();
  return std::move(scanner.frames);
}

}  // namespace pmukit
