#pragma once
// Call stacks walked on the target, the cheaper alternative to a stack copy (profiler/stack.hpp)
// where the code keeps a frame chain: per sample, the pc and up to Depth return addresses, read
// through the chain at interrupt time. No stack bytes leave the target and the host needs no CFI.
//
//   static prof::FrameRing<256, 16> frames;      // 256 samples of up to 16 frames
//   frames.set_stack(stack_bottom, stack_top);   // every frame read must lie in the stack
//   frames.record({pc, lr, sp, fp});             // in the sampling interrupt
//
// The chain, per architecture (`kFrameChain` says which one this build walks):
//   i386 with -fno-omit-frame-pointer: EBP -> [saved EBP, return address] (the i386 psABI frame)
//   PowerPC (SVR4 / EABI): the back chain, always there: [r1] is the caller's r1 and a function
//     that calls saves LR at 4(its caller's r1). The interrupted function's caller comes from lr
//     (a leaf keeps it there); then each back-chain frame's LR save word, skipping the one that
//     repeats lr (a non-leaf saved it). A leaf that has a frame but no saved LR shows its caller
//     twice.
//   ARM with -fno-omit-frame-pointer -marm (GCC's frame: r11 points at the saved lr, the saved
//     r11 just below it).
// MIPS has no chain a walk can follow without per-function frame sizes: use the stack copy there.
// A frame address outside [bottom, top), misaligned or not strictly above the previous one ends the
// walk (a corrupt or missing chain costs depth, never a wild read). One producer (the sampling
// interrupt), one consumer (thread context); a full ring drops the sample and counts it.
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "profiler/stack.hpp"

namespace prof {

enum class FrameChain : std::uint8_t { none, i386_ebp, powerpc_back_chain, arm_fp };
#if defined(__i386__)
inline constexpr FrameChain kFrameChain = FrameChain::i386_ebp;
#elif defined(__powerpc__)
inline constexpr FrameChain kFrameChain = FrameChain::powerpc_back_chain;
#elif defined(__arm__) && !defined(__thumb__)
inline constexpr FrameChain kFrameChain = FrameChain::arm_fp;
#else
inline constexpr FrameChain kFrameChain = FrameChain::none;
#endif

template <std::size_t Depth>
struct FrameSample {
  std::uint32_t count;          // addresses in pcs: the pc, then return addresses
  bool complete;                // the chain ended (a zero link) rather than at Depth or a bad frame
  std::uint32_t pcs[Depth + 1];
};

// The walk itself, on any memory reader (the target's memory, or a test's array).
template <std::size_t Depth, class Read>
void walk_frames(FrameChain chain, const StackContext& c, std::uintptr_t bottom, std::uintptr_t top, Read read,
                 FrameSample<Depth>& out) {
  out.count = 0;
  out.complete = false;
  out.pcs[out.count++] = c.pc;
  auto in_stack = [&](std::uint32_t a, std::uint32_t bytes) {
    return a % 4 == 0 && a >= bottom && a < top && top - a >= bytes;
  };
  std::uint32_t frame = 0;
  bool lr_seen = false;  // PowerPC: the saved copy of lr skipped once
  switch (chain) {
    case FrameChain::i386_ebp: frame = c.fp; break;
    case FrameChain::arm_fp: frame = c.fp; break;
    case FrameChain::powerpc_back_chain:
      if (c.lr != 0) out.pcs[out.count++] = c.lr;  // the interrupted function's caller
      frame = c.sp;
      break;
    case FrameChain::none: return;
  }
  while (out.count <= Depth) {
    if (frame == 0) {
      out.complete = true;
      return;
    }
    std::uint32_t ret = 0, next = 0;
    if (chain == FrameChain::i386_ebp) {
      if (!in_stack(frame, 8)) return;
      next = read(frame);
      ret = read(frame + 4);
    } else if (chain == FrameChain::arm_fp) {
      if (frame < 4 || !in_stack(frame - 4, 8)) return;
      ret = read(frame);
      next = read(frame - 4);
    } else {  // PowerPC: the back chain; the frame's function saved its LR at 4(back chain)
      if (!in_stack(frame, 4)) return;
      next = read(frame);
      if (next == 0) {
        out.complete = true;
        return;
      }
      if (!in_stack(next, 8)) return;
      ret = read(next + 4);
      if (!lr_seen && out.count == 2 && ret == c.lr) {  // the interrupted function saved lr: already there
        lr_seen = true;
        if (next <= frame) return;
        frame = next;
        continue;
      }
    }
    if (ret == 0) {
      out.complete = true;
      return;
    }
    out.pcs[out.count++] = ret;
    if (next != 0 && next <= frame) return;  // the chain must climb the stack
    frame = next;
  }
}

template <std::size_t N, std::size_t Depth>
class FrameRing : public CaptureRing<FrameSample<Depth>, N> {
  static_assert(Depth >= 1 && Depth <= 64, "1..64 return addresses per sample");

 public:
  static constexpr std::size_t kDepth = Depth;
  using Entry = FrameSample<Depth>;

  void set_stack(std::uintptr_t bottom, std::uintptr_t top) {
    bottom_ = bottom;
    top_ = top;
  }
  // Interrupt side.
  bool record(const StackContext& c) {
    std::uint32_t head;
    Entry* slot = this->claim(head);
    if (slot == nullptr) return false;
    walk_frames<Depth>(kFrameChain, c, bottom_, top_,
                       [](std::uint32_t a) { return *reinterpret_cast<const volatile std::uint32_t*>(std::uintptr_t{a}); },
                       *slot);
    this->publish(head);
    return true;
  }

 private:
  std::uintptr_t bottom_ = 0, top_ = 0;
};

// The ring as write_dump reads it, whatever N and Depth.
struct FrameView {
  void* ring;
  std::size_t count;
  std::uint64_t dropped;
  const std::uint32_t* (*pcs)(const void* ring, std::size_t i, std::uint32_t& count, bool& complete);
  void (*consume)(void* ring, std::size_t n);

  // Any ring of FrameSample entries: FrameRing, UnwindRing (profiler/unwind_table.hpp).
  template <class R>
  static FrameView of(R& r) {
    return {&r, r.size(), r.dropped(),
            [](const void* p, std::size_t i, std::uint32_t& count, bool& complete) -> const std::uint32_t* {
              const auto& e = static_cast<const R*>(p)->peek(i);
              count = e.count;
              complete = e.complete;
              return e.pcs;
            },
            [](void* p, std::size_t n) { static_cast<R*>(p)->consume(n); }};
  }
};

}  // namespace prof
