#pragma once
// The dump's CRC-32 (profiler/dump/crc32.hpp: IEEE 802.3 / zlib, reflected 0xEDB88320, initial
// and final XOR 0xFFFFFFFF) at host speed: slicing-by-8, eight 256-entry tables (8 KiB) and eight
// bytes per step, instead of the firmware's 64-byte nibble table at two lookups per byte. The
// result is the firmware's for every input (tests/host/dump/decoder_test.cpp compares the two).
#include <array>
#include <cstddef>
#include <cstdint>

namespace pmukit {

namespace detail {
using Crc32Slices = std::array<std::array<std::uint32_t, 256>, 8>;
// slice[0]: one byte's CRC; slice[k][b]: byte b followed by k zero bytes.
constexpr Crc32Slices make_crc32_slices() {
  Crc32Slices t{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    t[0][n] = c;
  }
  for (std::uint32_t n = 0; n < 256; ++n)
    for (std::size_t k = 1; k < 8; ++k) t[k][n] = (t[k - 1][n] >> 8) ^ t[0][t[k - 1][n] & 0xFFu];
  return t;
}
inline constexpr Crc32Slices kCrc32Slices = make_crc32_slices();
}  // namespace detail

class HostCrc32 {
 public:
  void update(const std::uint8_t* data, std::size_t size) {
    const auto& t = detail::kCrc32Slices;
    std::uint32_t r = reg_;
    // Bytes are read one by one (no unaligned or byte-order dependent loads): any host, same result.
    for (; size >= 8; size -= 8, data += 8) {
      const std::uint32_t lo = r ^ (std::uint32_t{data[0]} | std::uint32_t{data[1]} << 8 |
                                    std::uint32_t{data[2]} << 16 | std::uint32_t{data[3]} << 24);
      r = t[7][lo & 0xFFu] ^ t[6][(lo >> 8) & 0xFFu] ^ t[5][(lo >> 16) & 0xFFu] ^ t[4][lo >> 24] ^
          t[3][data[4]] ^ t[2][data[5]] ^ t[1][data[6]] ^ t[0][data[7]];
    }
    for (; size != 0; --size) r = (r >> 8) ^ t[0][(r ^ *data++) & 0xFFu];
    reg_ = r;
  }
  std::uint32_t value() const { return reg_ ^ 0xFFFFFFFFu; }

 private:
  std::uint32_t reg_ = 0xFFFFFFFFu;
};

inline std::uint32_t host_crc32(const std::uint8_t* data, std::size_t size) {
  HostCrc32 c;
  c.update(data, size);
  return c.value();
}

}  // namespace pmukit
