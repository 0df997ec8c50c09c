#pragma once
// Counts per distinct (pc, lr, tag) for the binary decoder: open addressing, linear probing, at
// most 3/4 full. One probe per record in the common case and 32 bytes per slot, instead of a node
// allocation per new pair. The tag (format 1.5: task and core) is packed as task << 8 | core.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "tools/dumpread/address_hash.hpp"
#include "tools/dumpread/dump.hpp"

namespace pmukit {

class PairCounter {
 public:
  static std::uint32_t pack(Tag t) { return std::uint32_t{t.task} << 8 | t.core; }
  static constexpr std::uint32_t kUntagged = std::uint32_t{kNoTask} << 8;
  void add(std::uint64_t pc, std::uint64_t lr, std::uint32_t tag = kUntagged) {
    if (4 * (used_ + 1) > 3 * slots_.size()) grow();
    Slot& s = find(slots_, pc, lr, tag, probes_);
    if (s.count == 0) {
      s.pc = pc;
      s.lr = lr;
      s.tag = tag;
      ++used_;
    }
    ++s.count;
  }
  // add() for each of n pairs (at most kBatch), their slots fetched into the cache first: on a
  // table larger than the cache, a record's time is the miss, and the misses then overlap.
  static constexpr std::size_t kBatch = 16;
  // tags: one per pair, or null (untagged).
  void add(const std::uint64_t* pcs, const std::uint64_t* lrs, std::size_t n, const std::uint32_t* tags = nullptr) {
    if (4 * (used_ + n) > 3 * slots_.size()) grow(used_ + n);
    const std::size_t mask = slots_.size() - 1;
    std::size_t at[kBatch];
    for (std::size_t i = 0; i < n; ++i) {
      at[i] = start(pcs[i], lrs[i], tags != nullptr ? tags[i] : kUntagged);
      __builtin_prefetch(&slots_[at[i] & mask]);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t tag = tags != nullptr ? tags[i] : kUntagged;
      Slot& s = probe(slots_, at[i], pcs[i], lrs[i], tag, probes_);
      if (s.count == 0) {
        s.pc = pcs[i];
        s.lr = lrs[i];
        s.tag = tag;
        ++used_;
      }
      ++s.count;
    }
  }
  // The pairs sorted by pc, then lr; empties the counter.
  std::vector<SampleCount> take() {
    std::vector<SampleCount> out;
    out.reserve(used_);
    for (const Slot& s : slots_)
      if (s.count != 0)
        out.push_back({s.pc, s.lr, s.count, Tag{static_cast<std::uint16_t>(s.tag >> 8), static_cast<std::uint8_t>(s.tag)}});
    std::vector<Slot>().swap(slots_);  // released before the sort's buffer is taken
    used_ = 0;
    sort_pairs(out);
    return out;
  }
  // By pc, then lr, then tag (the pairs are distinct): a stable LSD radix sort of the pcs on 11-bit
  // digits, skipping the digits every pc shares (most of an address's high bits), then each run of
  // one pc (a pc has a few return addresses) by lr. std::sort's comparisons of two 64-bit keys
  // took three times as long.
  static void sort_pairs(std::vector<SampleCount>& v) {
    if (v.size() < 2) return;
    constexpr unsigned kBits = 11, kDigits = (64 + kBits - 1) / kBits;
    constexpr std::size_t kBuckets = std::size_t{1} << kBits;
    std::vector<std::uint32_t> counts(kDigits * kBuckets, 0);
    const auto digit = [](std::uint64_t pc, unsigned d) {
      return static_cast<std::size_t>((pc >> (kBits * d)) & (kBuckets - 1));
    };
    for (const SampleCount& s : v)
      for (unsigned d = 0; d < kDigits; ++d) ++counts[d * kBuckets + digit(s.pc, d)];
    std::vector<SampleCount> other(v.size());
    for (unsigned d = 0; d < kDigits; ++d) {
      std::uint32_t* c = &counts[d * kBuckets];
      if (c[digit(v[0].pc, d)] == v.size()) continue;  // every pc has this digit
      std::uint32_t sum = 0;
      for (std::size_t b = 0; b < kBuckets; ++b) sum += std::exchange(c[b], sum);
      for (const SampleCount& s : v) other[c[digit(s.pc, d)]++] = s;
      v.swap(other);
    }
    for (auto run = v.begin(); run != v.end();) {
      auto end = run + 1;
      while (end != v.end() && end->pc == run->pc) ++end;
      if (end - run > 1)
        std::sort(run, end, [](const SampleCount& a, const SampleCount& b) {
          return a.lr != b.lr ? a.lr < b.lr : a.tag < b.tag;
        });
      run = end;
    }
  }
  // Slots looked at by add() so far: a few per record whatever the addresses (a test checks).
  std::uint64_t probes() const { return probes_; }

 private:
  struct Slot {
    std::uint64_t pc = 0, lr = 0, count = 0;  // count 0: empty
    std::uint32_t tag = kUntagged;
  };
  static std::size_t start(std::uint64_t pc, std::uint64_t lr, std::uint32_t tag) {
    return static_cast<std::size_t>(hash_address(hash_address(pc) ^ lr ^ (std::uint64_t{tag ^ kUntagged} << 40)));
  }
  static Slot& find(std::vector<Slot>& slots, std::uint64_t pc, std::uint64_t lr, std::uint32_t tag,
                    std::uint64_t& probes) {
    return probe(slots, start(pc, lr, tag), pc, lr, tag, probes);
  }
  static Slot& probe(std::vector<Slot>& slots, std::size_t i, std::uint64_t pc, std::uint64_t lr, std::uint32_t tag,
                     std::uint64_t& probes) {
    const std::size_t mask = slots.size() - 1;
    for (;; ++i) {
      ++probes;
      Slot& s = slots[i & mask];
      if (s.count == 0 || (s.pc == pc && s.lr == lr && s.tag == tag)) return s;
    }
  }
  // To the next power of two at most 3/4 full with `needed` pairs.
  void grow(std::size_t needed = 0) {
    std::size_t size = slots_.empty() ? 1024 : 2 * slots_.size();
    while (4 * needed > 3 * size) size *= 2;
    std::vector<Slot> bigger(size);
    std::uint64_t ignored = 0;
    for (const Slot& s : slots_)
      if (s.count != 0) find(bigger, s.pc, s.lr, s.tag, ignored) = s;
    slots_.swap(bigger);
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
  std::uint64_t probes_ = 0;
};

}  // namespace pmukit
