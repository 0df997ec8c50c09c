// The libgcc helpers GCC calls for 64-bit integers on 32-bit MIPS IV, for images linked without
// libgcc (Debian's mips-linux-gnu libgcc is MIPS32r2 code, which a MIPS IV image cannot link):
// shifts by a run-time amount, signed and unsigned division, and counting trailing and leading
// zeros (MIPS IV has no clz/ctz instruction; the C API's __builtin_ctz calls __ctzsi2). Shifts work on the two 32-bit halves (so they
// never call themselves); division is restoring shift-and-subtract, exact for every operand.
// Division by zero returns an all-ones quotient and the dividend as remainder (the MIPS divu
// instruction leaves its result unpredictable).
#include <cstdint>

namespace {
struct Halves {
  std::uint32_t hi, lo;
};
Halves split(std::uint64_t v) { return {static_cast<std::uint32_t>(v >> 32), static_cast<std::uint32_t>(v)}; }
std::uint64_t join(Halves h) { return (std::uint64_t{h.hi} << 32) | h.lo; }

std::uint64_t divmod(std::uint64_t n, std::uint64_t d, std::uint64_t* rem) {
  if (d == 0) {
    *rem = n;
    return ~std::uint64_t{0};
  }
  std::uint64_t q = 0, r = 0;
  for (int i = 63; i >= 0; --i) {
    r = (r << 1) | ((n >> i) & 1u);
    if (r >= d) {
      r -= d;
      q |= std::uint64_t{1} << i;
    }
  }
  *rem = r;
  return q;
}
}  // namespace

extern "C" {
// Shift counts are 0..63 (C++ leaves larger ones undefined; these mask them as libgcc's do).
std::uint64_t __ashldi3(std::uint64_t v, int n) {
  const Halves h = split(v);
  n &= 63;
  if (n == 0) return v;
  if (n >= 32) return join({h.lo << (n - 32), 0});
  return join({(h.hi << n) | (h.lo >> (32 - n)), h.lo << n});
}
std::uint64_t __lshrdi3(std::uint64_t v, int n) {
  const Halves h = split(v);
  n &= 63;
  if (n == 0) return v;
  if (n >= 32) return join({0, h.hi >> (n - 32)});
  return join({h.hi >> n, (h.lo >> n) | (h.hi << (32 - n))});
}
std::uint64_t __udivdi3(std::uint64_t n, std::uint64_t d) {
  std::uint64_t r;
  return divmod(n, d, &r);
}
std::uint64_t __umoddi3(std::uint64_t n, std::uint64_t d) {
  std::uint64_t r;
  divmod(n, d, &r);
  return r;
}
// Arithmetic shift: the sign fills from the left.
std::int64_t __ashrdi3(std::int64_t v, int n) {
  const Halves h = split(static_cast<std::uint64_t>(v));
  const auto hi = static_cast<std::int32_t>(h.hi);
  n &= 63;
  if (n == 0) return v;
  if (n >= 32)
    return static_cast<std::int64_t>(join({static_cast<std::uint32_t>(hi >> 31), static_cast<std::uint32_t>(hi >> (n - 32))}));
  return static_cast<std::int64_t>(join({static_cast<std::uint32_t>(hi >> n), (h.lo >> n) | (h.hi << (32 - n))}));
}
// Signed division truncates toward zero; the remainder has the dividend's sign (C's rules).
std::int64_t __divdi3(std::int64_t n, std::int64_t d) {
  const std::uint64_t un = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  const std::uint64_t ud = d < 0 ? 0 - static_cast<std::uint64_t>(d) : static_cast<std::uint64_t>(d);
  std::uint64_t r;
  const std::uint64_t q = divmod(un, ud, &r);
  return static_cast<std::int64_t>((n < 0) != (d < 0) ? 0 - q : q);
}
std::int64_t __moddi3(std::int64_t n, std::int64_t d) {
  const std::uint64_t un = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  const std::uint64_t ud = d < 0 ? 0 - static_cast<std::uint64_t>(d) : static_cast<std::uint64_t>(d);
  std::uint64_t r;
  divmod(un, ud, &r);
  return static_cast<std::int64_t>(n < 0 ? 0 - r : r);
}
// Halving steps, no loop (a loop could be recognised and turned back into these calls); 32 for 0.
int __ctzsi2(std::uint32_t x) {
  if (x == 0) return 32;
  int n = 0;
  if ((x & 0xFFFFu) == 0) { n += 16; x >>= 16; }
  if ((x & 0xFFu) == 0) { n += 8; x >>= 8; }
  if ((x & 0xFu) == 0) { n += 4; x >>= 4; }
  if ((x & 0x3u) == 0) { n += 2; x >>= 2; }
  if ((x & 0x1u) == 0) n += 1;
  return n;
}
int __clzsi2(std::uint32_t x) {
  if (x == 0) return 32;
  int n = 0;
  if ((x & 0xFFFF0000u) == 0) { n += 16; x <<= 16; }
  if ((x & 0xFF000000u) == 0) { n += 8; x <<= 8; }
  if ((x & 0xF0000000u) == 0) { n += 4; x <<= 4; }
  if ((x & 0xC0000000u) == 0) { n += 2; x <<= 2; }
  if ((x & 0x80000000u) == 0) n += 1;
  return n;
}
}
