#pragma once
// Live stream frames (docs/stream-format.md): the encoder side. A frame is the sync bytes A5 5A,
// type, flags (0), a u16 sequence number, a u16 payload length (at most 1024), the payload and a
// u32 CRC-32 (the dump's, profiler/dump/crc32.hpp) of everything from the type to the payload's
// end. The framing's integers are little-endian on every target; dump bytes carried in a payload
// keep the target's order. Freestanding, like profiler/dump/writer.hpp: no heap, no exceptions.
#include <cstddef>
#include <cstdint>

#include "profiler/dump/crc32.hpp"

namespace pmu::stream {

inline constexpr std::uint8_t kSync[2] = {0xA5, 0x5A};
inline constexpr std::uint8_t kStreamVersion = 1;
inline constexpr std::size_t kHeaderSize = 8;    // sync, type, flags, sequence, length
inline constexpr std::size_t kCrcSize = 4;
inline constexpr std::size_t kMaxPayload = 1024;
inline constexpr std::size_t kMaxFrame = kHeaderSize + kMaxPayload + kCrcSize;
inline constexpr std::size_t kMaxVarint = 10;    // 64 bits in 7-bit groups

enum class FrameType : std::uint8_t { hello = 0x01, samples = 0x02, chunk = 0x03, counts = 0x04 };

// SAMPLES flags.
inline constexpr std::uint8_t kSamplesHaveLr = 0x01;
inline constexpr std::uint8_t kSamplesHaveTask = 0x02;

// Zigzag: small magnitudes of either sign become small unsigned values (0, -1, 1, -2 -> 0, 1, 2, 3).
constexpr std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
constexpr std::int64_t unzigzag(std::uint64_t u) {
  return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
}

constexpr std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Unsigned LEB128 into out (room for kMaxVarint bytes); returns the bytes written.
constexpr std::size_t put_varint(std::uint8_t* out, std::uint64_t v) {
  std::size_t n = 0;
  while (v >= 0x80) {
    out[n++] = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  out[n++] = static_cast<std::uint8_t>(v);
  return n;
}

// One frame being built in place: begin(), the payload's fields, seal(). The bytes are then
// bytes()[0 .. size()). A field that does not fit the 1024-byte payload is refused (false) and
// leaves the payload as it was, so the caller can close the frame there.
class Frame {
 public:
  void begin(FrameType type) {
    buf_[0] = kSync[0];
    buf_[1] = kSync[1];
    buf_[2] = static_cast<std::uint8_t>(type);
    buf_[3] = 0;
    len_ = 0;
    size_ = 0;
  }
  std::size_t payload_size() const { return len_; }
  std::size_t room() const { return kMaxPayload - len_; }

  bool u8(std::uint8_t v) { return bytes(&v, 1); }
  bool u32le(std::uint32_t v) {
    const std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                               static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
    return bytes(b, 4);
  }
  bool varint(std::uint64_t v) {
    if (varint_size(v) > room()) return false;
    len_ += put_varint(buf_ + kHeaderSize + len_, v);
    return true;
  }
  bool svarint(std::int64_t v) { return varint(zigzag(v)); }
  bool bytes(const std::uint8_t* p, std::size_t n) {
    if (n > room()) return false;
    for (std::size_t i = 0; i < n; ++i) buf_[kHeaderSize + len_ + i] = p[i];
    len_ += n;
    return true;
  }
  // Where a caller writes up to room() payload bytes itself, then commit(n).
  std::uint8_t* tail() { return buf_ + kHeaderSize + len_; }
  void commit(std::size_t n) { len_ += n <= room() ? n : room(); }
  // Overwrites payload byte i (a count written before the items it counts).
  void patch(std::size_t i, std::uint8_t v) { buf_[kHeaderSize + i] = v; }

  // Sequence number, length and CRC: the frame is complete.
  void seal(std::uint16_t seq) {
    buf_[4] = static_cast<std::uint8_t>(seq);
    buf_[5] = static_cast<std::uint8_t>(seq >> 8);
    buf_[6] = static_cast<std::uint8_t>(len_);
    buf_[7] = static_cast<std::uint8_t>(len_ >> 8);
    const std::uint32_t crc = pmu::dump::crc32(buf_ + 2, kHeaderSize - 2 + len_);
    std::uint8_t* c = buf_ + kHeaderSize + len_;
    for (unsigned i = 0; i < 4; ++i) c[i] = static_cast<std::uint8_t>(crc >> (8 * i));
    size_ = kHeaderSize + len_ + kCrcSize;
  }
  const std::uint8_t* bytes() const { return buf_; }
  std::size_t size() const { return size_; }  // 0 until sealed

 private:
  std::uint8_t buf_[kMaxFrame] = {};
  std::size_t len_ = 0;
  std::size_t size_ = 0;
};

}  // namespace pmu::stream
