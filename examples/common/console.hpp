#pragma once
// Tiny freestanding text output for example firmware: no printf, no heap, works on any board that
// can send one character. A Console wraps the board's putc.
#include <cstddef>
#include <cstdint>

namespace examples {

struct Console {
  void (*putc)(char c);

  void put(char c) const { putc(c); }
  void put(const char* s) const {
    while (*s) putc(*s++);
  }
  void dec(std::uint64_t v) const {
    char buf[21];
    std::size_t n = 0;
    do {
      buf[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n) putc(buf[--n]);
  }
  void sdec(std::int64_t v) const {
    if (v < 0) {
      putc('-');
      dec(static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(v));
    } else {
      dec(static_cast<std::uint64_t>(v));
    }
  }
  // Fixed-width lower-case hex, `digits` nibbles, no prefix.
  void hex(std::uint64_t v, unsigned digits = 8) const {
    static constexpr char kDigits[] = "0123456789abcdef";
    for (unsigned i = digits; i-- > 0;) putc(kDigits[(v >> (4 * i)) & 0xF]);
  }
  void line(const char* s) const {
    put(s);
    putc('\n');
  }
};

}  // namespace examples
