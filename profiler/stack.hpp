#pragma once
// Stack capture per sample, for call stacks unwound on the host with the ELF's DWARF CFI
// (`pmukit report` does it where the dump has a STACKS chunk): the registers an unwinder starts
// from, and a bounded copy of the stack above the interrupted stack pointer.
//
//   static prof::StackRing<128, 256> stacks;             // 128 samples of 256 stack bytes
//   stacks.set_stack_top(__stack_top);                    // never read above the stack
//   // in the sampling interrupt, with the interrupted context the board's glue passes:
//   stacks.record({pc, lr, sp, fp});
//
// Cost per sample: the context (4 words) and a copy of min(Bytes, top - sp) bytes, four words a
// step; measured on every example board, with a 512-byte copy and without stack capture, in
// docs/figures.md ("Call stacks per sample"). A ring of N samples holds N * (Bytes + 20) bytes.
// A full ring drops the sample and counts it (dropped()). One producer (the sampling interrupt of one core)
// and one consumer (thread context), as prof::SampleRing.
#include "hal/core/bus/barrier.hpp"
#include <cstddef>
#include <cstdint>

namespace prof {

// The interrupted context: program counter, link register (0 where there is none, x86), stack
// pointer and frame pointer (ARM r11, MIPS $30, PowerPC r31, x86 EBP; 0 if not captured).
struct StackContext {
  std::uint32_t pc, lr, sp, fp;
};

// The ring both capture rings (this one and FrameRing, profiler/frame_walk.hpp) are: entries of a
// fixed size filled in place by the interrupt, keep-oldest, drops counted.
template <class Entry, std::size_t N>
class CaptureRing {
  static_assert(N >= 2 && (N & (N - 1)) == 0, "ring size must be a power of two");

 public:
  static constexpr std::size_t kCapacity = N;
  // Interrupt side: the entry to fill, or nullptr (full: the sample is dropped and counted); then
  // publish(head) once it is filled. The index is read once: claim hands it to publish.
  Entry* claim(std::uint32_t& head) {
    head = head_;
    if (head - tail_ == N) {
      dropped_ = dropped_ + 1;
      return nullptr;
    }
    return &buf_[head % N];
  }
  void publish(std::uint32_t head) {
    pmu::compiler_barrier();  // the entry before the index
    head_ = head + 1;
  }
  // Thread side.
  std::size_t size() const { return head_ - tail_; }
  const Entry& peek(std::size_t i) const { return buf_[(tail_ + i) % N]; }  // i < size()
  void consume(std::size_t n) { tail_ = tail_ + static_cast<std::uint32_t>(n); }
  std::uint32_t recorded() const { return head_; }
  std::uint64_t dropped() const { return dropped_; }
  // Only while the producer is stopped.
  void reset() {
    head_ = 0;
    tail_ = 0;
    dropped_ = 0;
  }

 protected:
  Entry* entries() { return buf_; }  // claim's entry is entries() + head % N

 private:
  Entry buf_[N]{};
  volatile std::uint32_t head_ = 0;
  volatile std::uint32_t tail_ = 0;
  volatile std::uint32_t dropped_ = 0;
};

template <std::size_t Bytes>
struct StackSample {
  StackContext ctx;
  std::uint32_t bytes;  // how much of `stack` was copied (from ctx.sp up)
  std::uint32_t stack[Bytes / 4];
};

template <std::size_t N, std::size_t Bytes>
class StackRing : public CaptureRing<StackSample<Bytes>, N> {
  static_assert(Bytes >= 16 && Bytes <= 4096 && Bytes % 4 == 0, "stack copy: 16..4096 bytes, whole words");

 public:
  static constexpr std::size_t kBytes = Bytes;
  using Entry = StackSample<Bytes>;

  // The first address above the stack (its top, e.g. the linker script's symbol): the copy stops
  // there, so it never reads beyond the stack. 0: no limit (only where any address reads safely).
  void set_stack_top(std::uintptr_t top) { top_ = top; }

  // Interrupt side.
  bool record(const StackContext& c) {
    std::uint32_t head;
    Entry* slot = this->claim(head);
    if (slot == nullptr) return false;
    Entry& e = *slot;
    e.ctx = c;
    std::size_t n = Bytes;
    if (top_ != 0) n = c.sp >= top_ ? 0 : (top_ - c.sp < Bytes ? (top_ - c.sp) & ~std::size_t{3} : Bytes);
    if (c.sp % 4 != 0) n = 0;  // a misaligned stack pointer is no stack to copy
    // Word by word, four at a time: the C library's memcpy is a byte loop on some boards (2,550
    // instructions for 512 bytes on the e500 example), and volatile reads keep GCC from calling it.
    const volatile std::uint32_t* from = reinterpret_cast<const volatile std::uint32_t*>(std::uintptr_t{c.sp});
    std::uint32_t* to = e.stack;
    std::size_t words = n / 4;
    for (; words >= 4; words -= 4, from += 4, to += 4) {
      const std::uint32_t a = from[0], b = from[1], d = from[2], f = from[3];
      to[0] = a, to[1] = b, to[2] = d, to[3] = f;
    }
    for (; words != 0; --words) *to++ = *from++;
    e.bytes = static_cast<std::uint32_t>(n);
    this->publish(head);
    return true;
  }
  // The same sink interface as SampleRing (pc, lr only: no stack).
  bool record(std::uint32_t pc, std::uint32_t lr) { return record(StackContext{pc, lr, 0, 0}); }

 private:
  std::uintptr_t top_ = 0;
};

// The ring as write_dump reads it, whatever N and Bytes.
struct StackView {
  void* ring;
  std::size_t count;
  std::uint64_t dropped;
  const StackContext& (*context)(const void* ring, std::size_t i);
  const std::uint32_t* (*words)(const void* ring, std::size_t i, std::uint32_t& bytes);
  void (*consume)(void* ring, std::size_t n);

  template <std::size_t N, std::size_t Bytes>
  static StackView of(StackRing<N, Bytes>& r) {
    using R = StackRing<N, Bytes>;
    return {&r, r.size(), r.dropped(),
            [](const void* p, std::size_t i) -> const StackContext& { return static_cast<const R*>(p)->peek(i).ctx; },
            [](const void* p, std::size_t i, std::uint32_t& bytes) -> const std::uint32_t* {
              const auto& e = static_cast<const R*>(p)->peek(i);
              bytes = e.bytes;
              return e.stack;
            },
            [](void* p, std::size_t n) { static_cast<R*>(p)->consume(n); }};
  }
};

}  // namespace prof
