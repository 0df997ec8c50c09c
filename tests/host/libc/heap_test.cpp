// examples/common/libc/heap.hpp: malloc's contract (ISO C 7.22.3) on a region, checked beside the
// host's malloc: the same sequence of malloc, realloc and free on both, the contents compared.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "examples/common/libc/heap.hpp"

using pmukit::libc::Heap;

namespace {
alignas(64) unsigned char g_region[64 * 1024];
}

TEST(LibcHeap, BlocksAreAlignedForAnyObjectAndDoNotOverlapAsIsoC7_22_3) {
  Heap h;
  h.init(g_region + 3, g_region + sizeof g_region);  // an unaligned start is rounded up
  std::vector<std::pair<unsigned char*, std::size_t>> live;
  for (std::size_t n : {1u, 7u, 8u, 16u, 100u, 0u, 333u}) {
    auto* p = static_cast<unsigned char*>(h.alloc(n));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t), 0u);
    EXPECT_GE(h.usable(p), n);
    for (auto& [q, m] : live) EXPECT_TRUE(p + n <= q || q + m <= p) << "overlap";
    live.emplace_back(p, n == 0 ? 1 : n);
  }
}

TEST(LibcHeap, FreedSpaceIsReusedAndNeighboursMergeAsIsoC7_22_3_3) {
  Heap h;
  h.init(g_region, g_region + 4096);
  const std::size_t all = h.free_bytes();
  void* a = h.alloc(1000);
  void* b = h.alloc(1000);
  void* c = h.alloc(1000);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(h.alloc(2000), nullptr);  // no room: a null pointer (7.22.3p1)
  h.release(a);
  h.release(b);
  void* d = h.alloc(1900);  // a and b merged
  EXPECT_EQ(d, a);
  h.release(d);
  h.release(c);
  EXPECT_NE(h.alloc(all - 64), nullptr);  // everything merged back into one block
}

TEST(LibcHeap, FreeOfANullOrForeignPointerDoesNothingAsIsoC7_22_3_3) {
  Heap h;
  h.init(g_region, g_region + 4096);
  const std::size_t all = h.free_bytes();
  h.release(nullptr);
  int local = 0;
  h.release(&local);
  void* p = h.alloc(10);
  h.release(p);
  h.release(p);  // a second free is refused, not a corrupted heap
  EXPECT_EQ(h.free_bytes(), all);
}

TEST(LibcHeap, ReallocKeepsTheContentsUpToTheSmallerSizeAsIsoC7_22_3_5) {
  Heap h;
  h.init(g_region, g_region + sizeof g_region);
  auto* p = static_cast<unsigned char*>(h.alloc(40));
  for (int i = 0; i < 40; ++i) p[i] = static_cast<unsigned char>(i);
  void* blocker = h.alloc(16);  // the block cannot grow in place
  auto* q = static_cast<unsigned char*>(h.resize(p, 4000));
  ASSERT_NE(q, nullptr);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(q[i], i);
  auto* r = static_cast<unsigned char*>(h.resize(q, 8));  // shrinking stays in place
  EXPECT_EQ(r, q);
  EXPECT_EQ(h.resize(r, sizeof g_region), nullptr);  // no room: null, and the block is kept
  EXPECT_EQ(r[7], 7);
  h.release(blocker);
}

TEST(LibcHeap, ARandomSequenceKeepsEveryBlocksContentsLikeTheHostMalloc) {
  Heap h;
  h.init(g_region, g_region + sizeof g_region);
  std::mt19937 rng(34);
  struct Live {
    unsigned char* ours;
    unsigned char* host;
    std::size_t n;
  };
  std::vector<Live> live;
  for (int step = 0; step < 20000; ++step) {
    const unsigned op = rng() % 3;
    if (op == 0 || live.empty()) {
      const std::size_t n = rng() % 600;
      auto* p = static_cast<unsigned char*>(h.alloc(n));
      if (p == nullptr) continue;  // full: the host would not be
      auto* q = static_cast<unsigned char*>(std::malloc(n ? n : 1));
      for (std::size_t i = 0; i < n; ++i) p[i] = q[i] = static_cast<unsigned char>(rng());
      live.push_back({p, q, n});
    } else {
      const std::size_t k = rng() % live.size();
      Live& l = live[k];
      ASSERT_EQ(std::memcmp(l.ours, l.host, l.n), 0) << "step " << step;
      if (op == 1) {
        h.release(l.ours);
        std::free(l.host);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        const std::size_t n = 1 + rng() % 900;
        auto* p = static_cast<unsigned char*>(h.resize(l.ours, n));
        if (p == nullptr) continue;
        l.host = static_cast<unsigned char*>(std::realloc(l.host, n));
        for (std::size_t i = l.n; i < n; ++i) p[i] = l.host[i] = static_cast<unsigned char>(rng());
        l.ours = p;
        l.n = n;
      }
    }
  }
  for (Live& l : live) {
    EXPECT_EQ(std::memcmp(l.ours, l.host, l.n), 0);
    std::free(l.host);
  }
}
