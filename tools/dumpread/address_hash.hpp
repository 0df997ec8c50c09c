#pragma once
// A hash for the values a dump chooses (addresses, and keys made of them): splitmix64's
// finalizer, so every input bit reaches every output bit, over a seed random per process, so no
// dump can make them collide. A product alone carries bits only upwards (pairs with zero low bits
// all met in one slot), a fixed mix can be inverted, and std::hash of an integer is the integer
// itself (pcs that are multiples of a table's bucket count share one bucket): each made a crafted
// 4 MB dump take 30 s or more (issue 31).
#include <cstddef>
#include <cstdint>
#include <random>

namespace pmukit {

// Drawn once at start-up (no guard to test on every hash).
inline const std::uint64_t address_hash_seed = [] {
  std::random_device r;
  return std::uint64_t{r()} << 32 | r();
}();

inline std::uint64_t hash_address(std::uint64_t x) {
  x ^= address_hash_seed;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct AddressHash {
  std::size_t operator()(std::uint64_t x) const { return static_cast<std::size_t>(hash_address(x)); }
};

}  // namespace pmukit
