#pragma once
// A live stream written for the tests straight from docs/stream-format.md and
// docs/dump-format.md, independently of profiler/stream/ (the firmware's encoder) and of the
// decoder under test: its own CRC-32 (bit by bit), LEB128 and zigzag, frames and dump chunks.
#include <cstdint>
#include <string>
#include <vector>

namespace streamtest {

using Bytes = std::vector<std::uint8_t>;

inline std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}

inline void le(Bytes& b, std::uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void be(Bytes& b, std::uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * (n - 1 - i))));
}
inline void varint(Bytes& b, std::uint64_t v) {
  do {
    std::uint8_t byte = v & 0x7F;
    v >>= 7;
    if (v != 0) byte |= 0x80;
    b.push_back(byte);
  } while (v != 0);
}
inline void svarint(Bytes& b, std::int64_t v) {
  varint(b, (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
}

// Dump pieces in one byte order (the target's).
struct DumpBytes {
  bool big = false;
  unsigned address_bytes = 4;
  void u(Bytes& b, std::uint64_t v, unsigned n) const { big ? be(b, v, n) : le(b, v, n); }
  void str(Bytes& b, const std::string& s) const {
    b.push_back(static_cast<std::uint8_t>(s.size()));
    b.insert(b.end(), s.begin(), s.end());
  }
  Bytes chunk(unsigned type, const Bytes& payload) const {
    Bytes c;
    u(c, type, 2), u(c, 0, 2), u(c, payload.size(), 4);
    c.insert(c.end(), payload.begin(), payload.end());
    return c;
  }
  Bytes header() const {
    Bytes h{'P', 'M', 'U', 'D'};
    u(h, 0x01020304, 4), u(h, 1, 2), u(h, 5, 2), u(h, 16, 2), u(h, 0, 2);
    return h;
  }
  // header, TARGET (xscale, 400 MHz), COUNTERS (CCNT as cycles, INSTR), SAMPLE_SOURCE (dropped 0).
  Bytes preamble(std::uint64_t source_dropped = 0) const {
    Bytes p = header();
    Bytes t;
    str(t, "xscale"), str(t, "xscale-xsc2"), u(t, 400000000, 8), t.push_back(32), t.push_back(static_cast<std::uint8_t>(address_bytes));
    Bytes c = chunk(0x0001, t);
    p.insert(p.end(), c.begin(), c.end());
    Bytes k{2};
    k.push_back(0), k.push_back(32), u(k, 0x100, 4), str(k, "cycles"), str(k, "cycles");
    k.push_back(1), k.push_back(32), u(k, 0x07, 4), str(k, "INSTR"), str(k, "instructions");
    c = chunk(0x0002, k);
    p.insert(p.end(), c.begin(), c.end());
    Bytes s{1, 0};
    u(s, 10000, 8), u(s, source_dropped, 8);
    c = chunk(0x0004, s);
    p.insert(p.end(), c.begin(), c.end());
    return p;
  }
  Bytes region(const std::string& name, std::uint64_t calls, std::uint64_t total) const {
    Bytes r;
    str(r, name), u(r, calls, 8), r.push_back(2);
    for (int i = 0; i < 2; ++i) u(r, total + i, 8), u(r, 1, 8), u(r, total, 8), u(r, 0, 8);
    u(r, 0, 8), u(r, 0, 8), u(r, 0, 8);
    return chunk(0x0003, r);
  }
};

inline Bytes frame(std::uint8_t type, std::uint16_t seq, const Bytes& payload) {
  Bytes f{0xA5, 0x5A, type, 0};
  le(f, seq, 2), le(f, payload.size(), 2);
  f.insert(f.end(), payload.begin(), payload.end());
  le(f, crc32(f.data() + 2, f.size() - 2), 4);
  return f;
}

inline Bytes hello(std::uint16_t seq, std::uint32_t boot, const Bytes& preamble, std::uint8_t version = 1) {
  Bytes p{version};
  le(p, boot, 4);
  p.insert(p.end(), preamble.begin(), preamble.end());
  return frame(0x01, seq, p);
}

struct Sample {
  std::uint64_t pc = 0, lr = 0;
  int task = -1;  // -1: no task id in the frame
  bool operator==(const Sample&) const = default;
  bool operator<(const Sample& o) const { return pc != o.pc ? pc < o.pc : lr < o.lr; }
};

inline Bytes samples_payload(std::uint64_t dropped, const std::vector<Sample>& s, bool lr, bool task) {
  Bytes p;
  varint(p, dropped), varint(p, s.size());
  p.push_back(static_cast<std::uint8_t>((lr ? 1 : 0) | (task ? 2 : 0)));
  std::uint64_t prev = 0;
  for (const Sample& x : s) {
    svarint(p, static_cast<std::int64_t>(x.pc - prev));
    prev = x.pc;
    if (lr) svarint(p, static_cast<std::int64_t>(x.lr - x.pc));
    if (task) varint(p, static_cast<std::uint64_t>(x.task));
  }
  return p;
}

inline Bytes samples(std::uint16_t seq, std::uint64_t dropped, const std::vector<Sample>& s, bool lr = true,
                     bool task = false) {
  return frame(0x02, seq, samples_payload(dropped, s, lr, task));
}

// time_hz 0: the TARGET chunk's counter clock stands in (docs/stream-format.md, COUNTS).
inline Bytes counts(std::uint16_t seq, std::uint64_t time, const std::vector<std::uint64_t>& totals,
                    std::uint64_t time_hz = 0) {
  Bytes p;
  varint(p, time_hz), varint(p, time), varint(p, totals.size());
  for (std::uint64_t t : totals) varint(p, t);
  return frame(0x04, seq, p);
}

// The A5 5A pairs inside a frame after its own sync: false syncs a decoder meets when it searches
// again from the byte after a broken frame's sync.
inline std::size_t inner_syncs(const Bytes& f) {
  std::size_t n = 0;
  for (std::size_t i = 1; i + 1 < f.size(); ++i) n += f[i] == 0xA5 && f[i + 1] == 0x5A;
  return n;
}

// Frame k's samples: 5 per frame, pcs in [0x8000, 0x9000), lrs near them, no A5 5A anywhere.
inline std::vector<Sample> frame_samples(unsigned k) {
  std::vector<Sample> s;
  for (unsigned i = 0; i < 5; ++i) {
    const std::uint64_t pc = 0x8000 + ((k * 37 + i * 13) % 1024) * 4;
    s.push_back({pc, 0x8100 + ((k + i) % 64) * 4, -1});
  }
  return s;
}

}  // namespace streamtest
