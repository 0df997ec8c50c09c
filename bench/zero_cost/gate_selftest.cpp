// Self-test of the zero-cost gate (ctest zero_cost_gate_<preset>); check.py --expect-regression
// must fail every pair, or the gate cannot catch what the pair stands for:
//  gate:      the same access plus one extra instruction (ratio > 1);
//  gate_mask: the same instructions, one mask differs (a wrong constant at ratio 1.00).
#include <cstdint>

namespace {
inline std::uint32_t access() {
  std::uint32_t v;
#if defined(__arm__)
  asm volatile("mrc p15, 0, %0, c0, c0, 0" : "=r"(v) : : "memory");  // MIDR
#elif defined(__powerpc__)
  asm volatile("mfpmr %0, 0" : "=r"(v) : : "memory");  // UPMC0
#elif defined(__mips__)
  asm volatile("mfc0 %0, $12" : "=r"(v) : : "memory");  // Status
#elif defined(__i386__) || defined(__x86_64__)
  std::uint32_t hi;
  asm volatile("rdtsc" : "=a"(v), "=d"(hi) : : "memory");
#else
#error "no gate self-test access for this architecture"
#endif
  return v;
}
}  // namespace

extern "C" {
std::uint32_t ours_gate(std::uint32_t x) { return (access() ^ x) + 0x5A; }
std::uint32_t hand_gate(std::uint32_t x) { return access() ^ x; }
std::uint32_t ours_gate_mask() { return access() & 0x7F0u; }
std::uint32_t hand_gate_mask() { return access() & 0x3F0u; }
}
