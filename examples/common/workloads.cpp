#include "examples/common/workloads.hpp"

#define WORKLOAD(section_name) __attribute__((EXAMPLES_NOIPA, section(section_name)))

namespace examples::work {

std::uint8_t buffer[kBufferBytes];
std::uint32_t table[kTableWords];
volatile std::uint32_t sink;

void fill() {
  std::uint32_t x = 12345;
  for (auto& b : buffer) b = static_cast<std::uint8_t>(x = x * 1103515245u + 12345u);
  for (auto& t : table) t = (x = x * 1103515245u + 12345u) >> 8;
}

// Bitwise CRC-32 (IEEE, reflected).
WORKLOAD("work_crc") std::uint32_t crc32(const std::uint8_t* p, std::uint32_t n) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::uint32_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

WORKLOAD("work_sort") void insertion_sort(std::uint32_t* a, std::uint32_t n) {
  for (std::uint32_t i = 1; i < n; ++i) {
    const std::uint32_t v = a[i];
    std::uint32_t j = i;
    for (; j > 0 && a[j - 1] > v; --j) a[j] = a[j - 1];
    a[j] = v;
  }
}

WORKLOAD("work_fib") std::uint32_t fib(std::uint32_t n) {
  std::uint32_t a = 0, b = 1;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t t = a + b;
    a = b;
    b = t;
  }
  return a;
}

__attribute__((EXAMPLES_NOIPA)) void steady(std::uint32_t n) {
  std::uint32_t acc = 1;
  for (std::uint32_t i = 0; i < n; ++i) {
    acc = acc * 31u + buffer[i & 63u];
    if (acc & 4u) {  // a real branch, taken about half the time: the asm keeps it from becoming a select
      asm volatile("");
      acc ^= 0x5Au;
    }
    table[i & 15u] = acc;
  }
  sink = acc;
}

}  // namespace examples::work
