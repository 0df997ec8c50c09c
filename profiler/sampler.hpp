#pragma once
// Overflow-interrupt sampling: every N events of a counter, record where the program was.
//
//   static prof::SampleRing<1024> ring;                   // or prof::PcHistogram<4096>
//   static prof::Sampler<Pmu, prof::SampleRing<1024>> sampler{profiler, ring};
//   sampler.arm(cycles, 100000);                          // interrupt every 100000 cycles
//   // in the PMU interrupt handler (board glue passes the interrupted PC and LR):
//   sampler.on_pmu_interrupt(pc, lr);
//   // where the PMU has no usable interrupt, from a periodic timer instead:
//   sampler.on_timer_tick(pc, lr);
//
// The interrupt path: freeze the counters, read which overflowed, record one sample per armed
// counter, re-arm it (preset 2^width - N), fold the overflows of counting-only counters into their
// 64-bit values, acknowledge, unfreeze. A full buffer drops the sample and counts it: dropped()
// is always reported next to the samples.
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "profiler/profiler.hpp"

namespace prof {

struct Sample {
  std::uint32_t pc;  // interrupted program counter
  std::uint32_t lr;  // interrupted link register (the caller, for leaf functions)
};

// Single-producer (interrupt) single-consumer (thread) ring; N a power of two.
template <std::size_t N>
class SampleRing {
  static_assert(N >= 2 && (N & (N - 1)) == 0, "ring size must be a power of two");

 public:
  static constexpr std::size_t kCapacity = N;
  // Interrupt side.
  bool record(std::uint32_t pc, std::uint32_t lr) {
    const std::uint32_t h = head_;
    if (h - tail_ == N) {
      dropped_ = dropped_ + 1;
      return false;
    }
    buf_[h % N] = Sample{pc, lr};
    std::atomic_signal_fence(std::memory_order_seq_cst);  // publish the sample before the index
    head_ = h + 1;
    return true;
  }
  // Thread side.
  bool pop(Sample& out) {
    const std::uint32_t t = tail_;
    if (t == head_) return false;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    out = buf_[t % N];
    std::atomic_signal_fence(std::memory_order_seq_cst);
    tail_ = t + 1;
    return true;
  }
  // Thread side: the i-th oldest unread sample, without consuming it.
  bool peek(std::size_t i, Sample& out) const {
    const std::uint32_t t = tail_;
    if (i >= static_cast<std::uint32_t>(head_ - t)) return false;
    std::atomic_signal_fence(std::memory_order_seq_cst);  // the index before the sample, as pop()
    out = buf_[(t + i) % N];
    return true;
  }
  std::size_t size() const { return head_ - tail_; }
  std::uint32_t recorded() const { return head_; }
  std::uint32_t dropped() const { return dropped_; }

 private:
  Sample buf_[N]{};
  volatile std::uint32_t head_ = 0;
  volatile std::uint32_t tail_ = 0;
  volatile std::uint32_t dropped_ = 0;
};

// PC histogram: Buckets counters over [base, base + Buckets << shift). Samples outside the range,
// or into a saturated bucket, are dropped and counted.
template <std::size_t Buckets>
class PcHistogram {
 public:
  static constexpr std::size_t kBuckets = Buckets;
  void set_range(std::uint32_t base, unsigned shift) {
    base_ = base;
    shift_ = shift;
  }
  bool record(std::uint32_t pc, std::uint32_t /*lr*/) {
    const std::uint32_t off = pc - base_;
    const std::uint32_t b = off >> shift_;
    if (pc < base_ || b >= Buckets || counts_[b] == ~std::uint32_t{0}) {
      dropped_ = dropped_ + 1;
      return false;
    }
    counts_[b] = counts_[b] + 1;
    total_ = total_ + 1;
    return true;
  }
  std::uint32_t base() const { return base_; }
  unsigned shift() const { return shift_; }
  std::uint32_t count(std::size_t bucket) const { return bucket < Buckets ? counts_[bucket] : 0; }
  std::uint32_t recorded() const { return total_; }
  std::uint32_t dropped() const { return dropped_; }

 private:
  std::uint32_t base_ = 0;
  unsigned shift_ = 2;
  volatile std::uint32_t counts_[Buckets]{};
  volatile std::uint32_t total_ = 0;
  volatile std::uint32_t dropped_ = 0;
};

template <Backend B, class Sink>
class Sampler {
 public:
  Sampler(Profiler<B>& p, Sink& sink) : p_(p), sink_(sink) {}

  // Samples every `period` events of counter c (an added counter). Call after Profiler::start(),
  // which zeroes the counters. The armed counter's own read() value is not meaningful meanwhile.
  Status arm(Counter c, std::uint64_t period) {
    const unsigned s = p_.slot_of(c);
    if (!c.valid() || s >= B::kSlots) return Status::bad_argument;
    const unsigned w = B::width(s);
    // A 64-bit-wide slot (a clock) never overflows: nothing to arm. Otherwise 1 <= N <= 2^width.
    if (w >= 64 || period == 0 || period > (std::uint64_t{1} << w)) return Status::bad_argument;
    period_[s] = period;
    armed_ |= std::uint32_t{1} << s;
    B::write(s, preset(s));
    B::clear_overflow(std::uint32_t{1} << s);
    B::set_overflow_interrupt(std::uint32_t{1} << s, true);
    return Status::ok;
  }
  void disarm() {
    B::set_overflow_interrupt(armed_, false);
    armed_ = 0;
  }

  // PMU overflow interrupt entry. pc/lr: the interrupted context, passed by the board's glue.
  void on_pmu_interrupt(std::uint32_t pc, std::uint32_t lr) {
    interrupts_ = interrupts_ + 1;
    const std::uint32_t used = p_.used_slots();
    B::stop(used);
    const std::uint32_t ovf = B::overflow_status();
    const std::uint32_t sampled = ovf & armed_;
    for (unsigned s = 0; s < B::kSlots; ++s) {
      if (!(sampled & (std::uint32_t{1} << s))) continue;
      sink_.record(pc, lr);
      B::write(s, preset(s));
    }
    B::clear_overflow(sampled);
    p_.fold_mask(ovf & ~armed_);  // counting-only counters: extend to 64 bits
    if (p_.running()) B::start(used);
  }

  // Timer-driven sampling where the PMU has no (working) overflow interrupt.
  void on_timer_tick(std::uint32_t pc, std::uint32_t lr) {
    interrupts_ = interrupts_ + 1;
    sink_.record(pc, lr);
  }

  std::uint32_t interrupts() const { return interrupts_; }
  std::uint32_t armed_slots() const { return armed_; }
  std::uint64_t period(unsigned slot) const { return slot < B::kSlots ? period_[slot] : 0; }

 private:
  std::uint64_t preset(unsigned s) const {
    return (std::uint64_t{1} << B::width(s)) - period_[s];
  }

  Profiler<B>& p_;
  Sink& sink_;
  std::uint64_t period_[B::kSlots]{};
  std::uint32_t armed_ = 0;
  volatile std::uint32_t interrupts_ = 0;
};

}  // namespace prof
