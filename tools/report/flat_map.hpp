#pragma once
// A hash map in one array: open addressing, linear probing, at most 3/4 full. For the maps with
// a key per distinct sample (hundreds of thousands on a large ELF), where std::unordered_map's
// node per key (an allocation, a free, and a cache miss to reach it) cost most of the time. Keys
// are never erased; a pointer into it lasts until the next insertion. Hash: a seeded one
// (address_hash.hpp), so no dump can make its keys collide.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pmukit {

template <class Key, class Value, class Hash>
class FlatMap {
 public:
  // key's value, inserted as `init` where absent (second: whether it was).
  std::pair<Value*, bool> try_emplace(const Key& key, const Value& init) {
    if (4 * (used_ + 1) > 3 * slots_.size()) grow();
    Slot& s = slot(slots_, key);
    if (s.used) return {&s.value, false};
    s = {key, init, true};
    ++used_;
    return {&s.value, true};
  }
  Value* find(const Key& key) {
    if (slots_.empty()) return nullptr;
    Slot& s = slot(slots_, key);
    return s.used ? &s.value : nullptr;
  }
  std::size_t size() const { return used_; }
  // f(key, value) for every entry, in no particular order.
  template <class F>
  void for_each(F f) const {
    for (const Slot& s : slots_)
      if (s.used) f(s.key, s.value);
  }

 private:
  struct Slot {
    Key key{};
    Value value{};
    bool used = false;
  };
  static Slot& slot(std::vector<Slot>& slots, const Key& key) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = Hash()(key);; ++i) {
      Slot& s = slots[i & mask];
      if (!s.used || s.key == key) return s;
    }
  }
  void grow() {
    std::vector<Slot> bigger(slots_.empty() ? 1024 : 2 * slots_.size());
    for (const Slot& s : slots_)
      if (s.used) slot(bigger, s.key) = s;
    slots_.swap(bigger);
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

}  // namespace pmukit
