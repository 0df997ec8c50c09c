#pragma once
// malloc's heap for the boards without a C library (examples/common/libc/libc.cpp): one region
// (the linker script's __heap_start .. __heap_end), first fit, blocks split on allocation and
// merged with their free neighbours. Every block is aligned as max_align_t (ISO C 7.22.3: a
// pointer "suitably aligned" for any object type). No locking: the profiler's interrupt
// handlers never allocate. Header-only and target-independent: tests/host/libc/ runs it on the
// host beside the host's malloc.
#include <cstddef>
#include <cstdint>

namespace pmukit::libc {

class Heap {
 public:
  static constexpr std::size_t kAlign = alignof(std::max_align_t);

  // The region [begin, end); an earlier one is forgotten.
  void init(void* begin, void* end) {
    auto b = reinterpret_cast<std::uintptr_t>(begin);
    const auto e = reinterpret_cast<std::uintptr_t>(end);
    b = (b + kAlign - 1) & ~(kAlign - 1);
    first_ = nullptr;
    end_ = nullptr;
    if (e <= b || e - b < 2 * kHeader) return;
    first_ = reinterpret_cast<Block*>(b);
    end_ = reinterpret_cast<Block*>(b + ((e - b) & ~(kAlign - 1)));
    first_->size = reinterpret_cast<std::uintptr_t>(end_) - b;
    first_->tag = kFree;
  }
  bool ready() const { return first_ != nullptr; }

  void* alloc(std::size_t n) {
    const std::size_t need = block_size(n);
    if (need == 0 || first_ == nullptr) return nullptr;
    for (Block* b = first_; b != end_; b = next(b)) {
      if (b->tag != kFree) continue;
      merge_free_after(b);
      if (b->size >= need) {
        split(b, need);
        b->tag = kUsed;
        return payload(b);
      }
    }
    return nullptr;
  }

  // free(): a null pointer, or one this heap did not give (or gave and took back), does nothing.
  void release(void* p) {
    Block* b = block_of(p);
    if (b != nullptr) b->tag = kFree;
  }

  // realloc() for p != nullptr, n != 0: in place where the block (with free blocks after it) is
  // big enough, else a new block with the old contents; nullptr (p kept) when there is no room.
  void* resize(void* p, std::size_t n) {
    Block* b = block_of(p);
    const std::size_t need = block_size(n);
    if (b == nullptr || need == 0) return nullptr;
    merge_free_after(b);
    if (b->size >= need) {
      split(b, need);
      return p;
    }
    void* q = alloc(n);
    if (q == nullptr) return nullptr;
    copy(q, p, b->size - kHeader);
    b->tag = kFree;
    return q;
  }

  // The usable bytes of an allocated block (0 for anything else).
  std::size_t usable(const void* p) const {
    const Block* b = block_of(p);
    return b == nullptr ? 0 : b->size - kHeader;
  }
  // Bytes free: neighbouring free blocks count as the one block the next allocation merges them
  // into (one header).
  std::size_t free_bytes() const {
    std::size_t n = 0;
    bool after_free = false;
    for (const Block* b = first_; b != end_; b = next(b)) {
      if (b->tag == kFree) n += after_free ? b->size : b->size - kHeader;
      after_free = b->tag == kFree;
    }
    return n;
  }

 private:
  struct Block {
    std::size_t size;  // the whole block, header included; a multiple of kAlign
    std::size_t tag;   // kUsed or kFree: a pointer free() did not come from is refused
  };
  static constexpr std::size_t kUsed = 0x55534544u, kFree = 0x46524545u;
  static constexpr std::size_t kHeader = (sizeof(Block) + kAlign - 1) & ~(kAlign - 1);

  static std::size_t block_size(std::size_t n) {
    if (n > SIZE_MAX - kHeader - kAlign) return 0;
    if (n == 0) n = 1;  // malloc(0): a unique pointer
    return (kHeader + n + kAlign - 1) & ~(kAlign - 1);
  }
  Block* next(const Block* b) const {
    return reinterpret_cast<Block*>(reinterpret_cast<std::uintptr_t>(b) + b->size);
  }
  static void* payload(Block* b) { return reinterpret_cast<char*>(b) + kHeader; }
  Block* block_of(const void* p) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    if (p == nullptr || first_ == nullptr || a < reinterpret_cast<std::uintptr_t>(first_) + kHeader ||
        a >= reinterpret_cast<std::uintptr_t>(end_) || (a & (kAlign - 1)) != 0)
      return nullptr;
    auto* b = reinterpret_cast<Block*>(a - kHeader);
    return b->tag == kUsed ? b : nullptr;
  }
  void merge_free_after(Block* b) {
    for (Block* n = next(b); n != end_ && n->tag == kFree; n = next(b)) {
      b->size += n->size;
      n->tag = 0;  // no longer a block
    }
  }
  void split(Block* b, std::size_t need) {
    if (b->size - need < kHeader + kAlign) return;
    auto* rest = reinterpret_cast<Block*>(reinterpret_cast<std::uintptr_t>(b) + need);
    rest->size = b->size - need;
    rest->tag = kFree;
    b->size = need;
  }
  static void copy(void* dst, const void* src, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    while (n--) *d++ = *s++;
  }

  Block* first_ = nullptr;
  Block* end_ = nullptr;
};

}  // namespace pmukit::libc
