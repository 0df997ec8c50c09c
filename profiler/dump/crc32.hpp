#pragma once
// CRC-32 as used by the dump format: the IEEE 802.3 / zlib CRC (polynomial 0x04C11DB7, reflected
// 0xEDB88320, initial value 0xFFFFFFFF, final XOR 0xFFFFFFFF). Check value: "123456789" -> 0xCBF43926.
// A 16-entry (nibble) table keeps it at 64 bytes of ROM for firmware.
#include <cstddef>
#include <cstdint>

namespace pmu::dump {

namespace detail {
struct Crc32Table {
  std::uint32_t entry[16];
};
constexpr Crc32Table make_crc32_table() {
  Crc32Table t{};
  for (std::uint32_t n = 0; n < 16; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 4; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    t.entry[n] = c;
  }
  return t;
}
inline constexpr Crc32Table kCrc32Table = make_crc32_table();
}  // namespace detail

class Crc32 {
 public:
  constexpr void update(const std::uint8_t* data, std::size_t size) {
    std::uint32_t r = reg_;
    for (std::size_t i = 0; i < size; ++i) {
      r ^= data[i];
      r = (r >> 4) ^ detail::kCrc32Table.entry[r & 0xFu];
      r = (r >> 4) ^ detail::kCrc32Table.entry[r & 0xFu];
    }
    reg_ = r;
  }
  constexpr std::uint32_t value() const { return reg_ ^ 0xFFFFFFFFu; }

 private:
  std::uint32_t reg_ = 0xFFFFFFFFu;
};

constexpr std::uint32_t crc32(const std::uint8_t* data, std::size_t size) {
  Crc32 c;
  c.update(data, size);
  return c.value();
}

}  // namespace pmu::dump
