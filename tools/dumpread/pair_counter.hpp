#pragma once
// Counts per distinct (pc, lr) for the binary decoder: open addressing, linear probing, at most
// 3/4 full. One probe per record in the common case and 24 bytes per slot, instead of a node
// allocation per new pair.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tools/dumpread/address_hash.hpp"
#include "tools/dumpread/dump.hpp"

namespace pmukit {

class PairCounter {
 public:
  void add(std::uint64_t pc, std::uint64_t lr) {
    if (4 * (used_ + 1) > 3 * slots_.size()) grow();
    Slot& s = find(slots_, pc, lr, probes_);
    if (s.count == 0) {
      s.pc = pc;
      s.lr = lr;
      ++used_;
    }
    ++s.count;
  }
  // The pairs sorted by pc, then lr; empties the counter.
  std::vector<SampleCount> take() {
    std::vector<SampleCount> out;
    out.reserve(used_);
    for (const Slot& s : slots_)
      if (s.count != 0) out.push_back({s.pc, s.lr, s.count});
    std::sort(out.begin(), out.end(), [](const SampleCount& a, const SampleCount& b) {
      return a.pc != b.pc ? a.pc < b.pc : a.lr < b.lr;
    });
    slots_.clear();
    used_ = 0;
    return out;
  }
  // Slots looked at by add() so far: a few per record whatever the addresses (a test checks).
  std::uint64_t probes() const { return probes_; }

 private:
  struct Slot {
    std::uint64_t pc = 0, lr = 0, count = 0;  // count 0: empty
  };
  static Slot& find(std::vector<Slot>& slots, std::uint64_t pc, std::uint64_t lr, std::uint64_t& probes) {
    const std::size_t mask = slots.size() - 1;
    std::size_t i = static_cast<std::size_t>(hash_address(hash_address(pc) ^ lr));
    for (;; ++i) {
      ++probes;
      Slot& s = slots[i & mask];
      if (s.count == 0 || (s.pc == pc && s.lr == lr)) return s;
    }
  }
  void grow() {
    std::vector<Slot> bigger(slots_.empty() ? 1024 : 2 * slots_.size());
    std::uint64_t ignored = 0;
    for (const Slot& s : slots_)
      if (s.count != 0) find(bigger, s.pc, s.lr, ignored) = s;
    slots_.swap(bigger);
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
  std::uint64_t probes_ = 0;
};

}  // namespace pmukit
