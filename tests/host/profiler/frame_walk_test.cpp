// The target's frame walk (profiler/frame_walk.hpp) on built stacks: each chain's layout gives the
// right return addresses, and a corrupt chain (a loop, a frame outside the stack, misaligned) ends
// the walk instead of reading anywhere.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>

#include "profiler/frame_walk.hpp"

namespace {

struct Memory {
  std::map<std::uint32_t, std::uint32_t> words;
  std::uint32_t operator()(std::uint32_t a) const {
    const auto it = words.find(a);
    EXPECT_NE(it, words.end()) << "read outside the built stack at " << a;
    return it == words.end() ? 0 : it->second;
  }
};

constexpr std::uint32_t kBottom = 0x1000, kTop = 0x2000;

template <std::size_t D = 8>
prof::FrameSample<D> walk(prof::FrameChain chain, const prof::StackContext& c, const Memory& m) {
  prof::FrameSample<D> out{};
  prof::walk_frames<D>(chain, c, kBottom, kTop, [&](std::uint32_t a) { return m(a); }, out);
  return out;
}

TEST(FrameWalk, I386EbpChain) {
  // leaf's EBP 0x1800 -> [0x1900, ret into mid]; 0x1900 -> [0x1a00, ret into main]; 0x1a00 -> [0, 0x11]
  Memory m{{{0x1800, 0x1900}, {0x1804, 0x300}, {0x1900, 0x1a00}, {0x1904, 0x400}, {0x1a00, 0}, {0x1a04, 0x11}}};
  const auto f = walk(prof::FrameChain::i386_ebp, {0x100, 0, 0x17f0, 0x1800}, m);
  ASSERT_EQ(f.count, 4u);
  EXPECT_EQ(f.pcs[0], 0x100u);
  EXPECT_EQ(f.pcs[1], 0x300u);
  EXPECT_EQ(f.pcs[2], 0x400u);
  EXPECT_EQ(f.pcs[3], 0x11u);
  EXPECT_TRUE(f.complete);
}

TEST(FrameWalk, ArmFramePointerChain) {
  // r11 points at the saved lr, the saved r11 just below it.
  Memory m{{{0x1804, 0x300}, {0x1800, 0x1904}, {0x1904, 0x400}, {0x1900, 0}}};
  const auto f = walk(prof::FrameChain::arm_fp, {0x100, 0x300, 0x17f0, 0x1804}, m);
  ASSERT_EQ(f.count, 3u);
  EXPECT_EQ(f.pcs[1], 0x300u);
  EXPECT_EQ(f.pcs[2], 0x400u);
  EXPECT_TRUE(f.complete);
}

TEST(FrameWalk, PowerPcBackChain) {
  // A frameless leaf: r1 is its caller's frame 0x1800; that caller's caller saved LR at 0x1904 of
  // the next frame, and so on: [0x1800] = 0x1900, [0x1904] = ret into main, [0x1900] = 0x1a00,
  // [0x1a04] = ret into start, [0x1a00] = 0.
  Memory leaf{{{0x1800, 0x1900}, {0x1904, 0x400}, {0x1900, 0x1a00}, {0x1a04, 0x500}, {0x1a00, 0}}};
  auto f = walk(prof::FrameChain::powerpc_back_chain, {0x100, 0x300, 0x1800, 0}, leaf);
  ASSERT_EQ(f.count, 4u);
  EXPECT_EQ(f.pcs[1], 0x300u) << "the leaf's caller from lr";
  EXPECT_EQ(f.pcs[2], 0x400u);
  EXPECT_EQ(f.pcs[3], 0x500u);
  EXPECT_TRUE(f.complete);
  // A function with its own frame (0x17f0) that saved lr in its caller's frame (0x1800 + 4): that
  // copy is not a second caller.
  Memory framed{{{0x17f0, 0x1800}, {0x1804, 0x300}, {0x1800, 0x1900}, {0x1904, 0x400}, {0x1900, 0}}};
  f = walk(prof::FrameChain::powerpc_back_chain, {0x100, 0x300, 0x17f0, 0}, framed);
  ASSERT_EQ(f.count, 3u);
  EXPECT_EQ(f.pcs[1], 0x300u);
  EXPECT_EQ(f.pcs[2], 0x400u);
}

TEST(FrameWalk, CorruptChainsEndTheWalk) {
  // A loop (a frame pointing at itself), a frame above the stack, a misaligned one: the walk stops,
  // incomplete, having read only inside the stack.
  Memory loop{{{0x1800, 0x1800}, {0x1804, 0x300}}};
  auto f = walk(prof::FrameChain::i386_ebp, {0x100, 0, 0x17f0, 0x1800}, loop);
  EXPECT_EQ(f.count, 2u);
  EXPECT_FALSE(f.complete);
  f = walk(prof::FrameChain::i386_ebp, {0x100, 0, 0x17f0, kTop + 0x100}, Memory{});
  EXPECT_EQ(f.count, 1u);
  EXPECT_FALSE(f.complete);
  f = walk(prof::FrameChain::i386_ebp, {0x100, 0, 0x17f0, 0x1802}, Memory{});
  EXPECT_EQ(f.count, 1u);
  // Depth: a long valid chain stops at the ring's depth, incomplete.
  Memory deep;
  for (std::uint32_t k = 0; k < 20; ++k) {
    deep.words[0x1100 + 0x10 * k] = 0x1110 + 0x10 * k;
    deep.words[0x1104 + 0x10 * k] = 0x200 + k;
  }
  const auto d = walk<4>(prof::FrameChain::i386_ebp, {0x100, 0, 0x10f0, 0x1100}, deep);
  EXPECT_EQ(d.count, 5u);
  EXPECT_FALSE(d.complete);
}

}  // namespace
