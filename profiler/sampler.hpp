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
// counter, re-arm it (preset 2^width - N; NetBurst 2^40 - (N - 1), its PMI coming one event after
// the overflow), fold the overflows of counting-only counters into their 64-bit values,
// acknowledge, unfreeze. on_pmu_interrupt<Slot>, for a counter known at compile
// time, does the common case (only that counter overflowed) without a loop or a freeze. A full
// buffer drops the sample and counts it: dropped() is always reported next to the samples.
#include <cstddef>
#include <cstdint>

#include "hal/core/bus/barrier.hpp"

#include "profiler/profiler.hpp"
#include "profiler/stack.hpp"

namespace prof {

struct Sample {
  std::uint32_t pc;  // interrupted program counter
  std::uint32_t lr;  // interrupted link register (the caller, for leaf functions)
};

// A 64-bit tally bumped by one context (the interrupt) and read by another: two 32-bit halves,
// read high-low-high so a carry between them is never seen half done. No wrap in practice.
class Tally {
 public:
  constexpr Tally() = default;
  explicit constexpr Tally(std::uint64_t start)
      : lo_(static_cast<std::uint32_t>(start)), hi_(static_cast<std::uint32_t>(start >> 32)) {}
  void bump() {
    const std::uint32_t l = lo_ + 1;
    lo_ = l;
    if (l == 0) hi_ = hi_ + 1;
  }
  std::uint64_t get() const {
    std::uint32_t h1, l, h2;
    do {
      h1 = hi_;
      l = lo_;
      h2 = hi_;
    } while (h1 != h2);
    return (std::uint64_t{h1} << 32) | l;
  }

 private:
  volatile std::uint32_t lo_ = 0;
  volatile std::uint32_t hi_ = 0;
};

// What a full ring does with a new sample.
enum class RingFull : std::uint8_t {
  keep_oldest,  // drop the new sample (a long run profiles its start)
  keep_newest,  // overwrite the oldest (a long run profiles its end)
};

// Sample ring, N a power of two. Contract: ONE producer, the sampling interrupt of one core
// (record), and one consumer in thread context (pop, peek, size, dropped); one ring per core.
// Every sample that is not kept is counted in dropped(), never silently lost.
//  keep_oldest: a full ring drops the new sample.
//  keep_newest: the producer always writes; the consumer skips what was overwritten before it
//    read it (and checks after copying that the slot was not overwritten meanwhile).
template <std::size_t N, RingFull Policy = RingFull::keep_oldest>
class SampleRing {
  static_assert(N >= 2 && (N & (N - 1)) == 0, "ring size must be a power of two");

 public:
  static constexpr std::size_t kCapacity = N;
  static constexpr RingFull kPolicy = Policy;
  // For a producer written in assembly (a board's fast sampling interrupt): the samples are at
  // offset 0, 8 bytes each (pc, lr); the free-running count of recorded samples ("head") at
  // kHeadOffset. keep_newest producer: store buf[head % N], then head + 1, as record() does.
  static constexpr std::size_t kHeadOffset = N * sizeof(Sample);
  // Interrupt side.
  bool record(std::uint32_t pc, std::uint32_t lr) {
    static_assert(offsetof(SampleRing, head_) == kHeadOffset && sizeof(Sample) == 8,
                  "the layout assembly producers rely on");
    const std::uint32_t h = head_;
    if constexpr (Policy == RingFull::keep_oldest) {
      if (h - tail_ == N) {
        dropped_.bump();
        return false;
      }
    }
    buf_[h % N] = Sample{pc, lr};
    pmu::compiler_barrier();  // publish the sample before the index
    head_ = h + 1;
    return true;
  }
  // Thread side.
  bool pop(Sample& out) {
    std::uint32_t t = oldest();
    for (;;) {
      if (t == head_) return false;
      pmu::compiler_barrier();  // the index before the sample
      out = buf_[t % N];
      pmu::compiler_barrier();
      if (intact(t)) break;
      t = oldest();  // overwritten while copying (keep_newest): skip to what is left
    }
    tail_ = t + 1;
    return true;
  }
  // Thread side: the i-th oldest unread sample, without consuming it.
  bool peek(std::size_t i, Sample& out) {
    const std::uint32_t t = oldest();
    if (i >= static_cast<std::uint32_t>(head_ - t)) return false;
    pmu::compiler_barrier();  // the index before the sample, as pop()
    out = buf_[(t + i) % N];
    pmu::compiler_barrier();
    return intact(t + static_cast<std::uint32_t>(i));
  }
  std::size_t size() const {
    const std::uint32_t n = head_ - tail_;
    return n > N ? N : n;
  }
  std::uint32_t recorded() const { return head_; }
  // Empties the ring and zeroes its counts (recorded, dropped). Only while no producer can run
  // (its interrupt stopped): it writes the producer's own index.
  void reset() {
    head_ = 0;
    tail_ = 0;
    dropped_ = Tally{};
    skipped_ = 0;
  }
  // Samples not kept: dropped when full (keep_oldest), or overwritten unread (keep_newest).
  std::uint64_t dropped() const {
    if constexpr (Policy == RingFull::keep_oldest) {
      return dropped_.get();
    } else {
      const std::uint32_t n = head_ - tail_;
      return skipped_ + (n > N ? n - N : 0);
    }
  }

 private:
  // keep_newest: the oldest sample still in the buffer; the ones before it are counted skipped.
  std::uint32_t oldest() {
    const std::uint32_t t = tail_;
    if constexpr (Policy == RingFull::keep_newest) {
      const std::uint32_t h = head_;
      if (h - t > N) {
        skipped_ += h - N - t;
        tail_ = h - N;
        return h - N;
      }
    }
    return t;
  }
  // The copy of slot t is good: keep_oldest never overwrites; keep_newest checks the producer is
  // still less than a lap ahead of t.
  bool intact(std::uint32_t t) const {
    if constexpr (Policy == RingFull::keep_newest) return head_ - t <= N;
    return true;
  }

  Sample buf_[N]{};
  volatile std::uint32_t head_ = 0;
  volatile std::uint32_t tail_ = 0;
  Tally dropped_;
  std::uint64_t skipped_ = 0;  // keep_newest, consumer side
};

// The ring the example boards' assembly producers write: 256 samples (the index is one AND or a
// byte), keep-newest (no full test in the interrupt), the layout kHeadOffset documents.
template <class Ring>
inline constexpr bool kAssemblyFastRing =
    Ring::kCapacity == 256 && Ring::kHeadOffset == 256 * sizeof(Sample) && Ring::kPolicy == RingFull::keep_newest;

// PC histogram: Buckets counters over [base, base + Buckets << shift). Samples outside the range,
// or into a saturated bucket, are dropped and counted.
template <std::size_t Buckets>
class PcHistogram {
 public:
  static constexpr std::size_t kBuckets = Buckets;
  // shift: log2 of a bucket's size in bytes, 0..31 (bad_argument otherwise; the range is kept).
  Status set_range(std::uint32_t base, unsigned shift) {
    if (shift > 31) return Status::bad_argument;
    base_ = base;
    shift_ = shift;
    return Status::ok;
  }
  bool record(std::uint32_t pc, std::uint32_t /*lr*/) {
    const std::uint32_t off = pc - base_;
    const std::uint32_t b = off >> shift_;
    if (pc < base_ || b >= Buckets || counts_[b] == ~std::uint32_t{0}) {
      dropped_.bump();
      return false;
    }
    counts_[b] = counts_[b] + 1;
    total_.bump();
    return true;
  }
  std::uint32_t base() const { return base_; }
  unsigned shift() const { return shift_; }
  std::uint32_t count(std::size_t bucket) const { return bucket < Buckets ? counts_[bucket] : 0; }
  std::uint64_t recorded() const { return total_.get(); }
  std::uint64_t dropped() const { return dropped_.get(); }

 private:
  std::uint32_t base_ = 0;
  unsigned shift_ = 2;
  volatile std::uint32_t counts_[Buckets]{};
  Tally total_;
  Tally dropped_;
};

// The value a counter `width` bits wide is preset to for its overflow interrupt to come after
// exactly `period` events: 2^width - period, plus the events the PMU counts between the overflow
// and its interrupt (pmu::pmi_events_after_overflow). NetBurst: 2^40 - (period - 1), the SDM's
// -99 for an interrupt on the 100th event (Intel SDM Vol. 3B, 18.15.5.8 "Generating an Interrupt
// on Overflow"). Valid for lag < period <= 2^width.
template <Backend B>
constexpr std::uint64_t sampling_preset(unsigned width, std::uint64_t period) {
  return (std::uint64_t{1} << width) - (period - pmu::pmi_events_after_overflow<B>());
}

template <Backend B, class Sink>
class Sampler {
 public:
  Sampler(Profiler<B>& p, Sink& sink) : p_(p), sink_(sink) {}

  // Samples every `period` events of counter c (an added counter). The armed counter still counts:
  // read(), regions and the dump see every event (Profiler::account_rearm: each re-arm's rewind is
  // added back), including the sampling handlers' own, and a region says how many interrupts fell
  // inside it. Works before or after Profiler::start(): the preset (sampling_preset: the interrupt
  // after exactly `period` events) is also what start()/reset() load into the counter.
  // bad_argument: an invalid handle, a linked counter (its overflow belongs to the pair), a period
  // of 0 (or not above the events from overflow to interrupt: NetBurst's least is 2) or beyond
  // 2^width, a 64-bit clock slot, a PMU without an overflow interrupt.
  Status arm(Counter c, std::uint64_t period) {
    // No overflow interrupt (Capabilities::interrupt, e.g. the Cortex-M DWT): nothing can sample
    // on a count; sample from a timer (on_timer_tick).
    if (!B::kCapabilities.interrupt) return Status::bad_argument;
    if (!p_.valid(c) || p_.linked(c)) return Status::bad_argument;
    const unsigned s = p_.slot_of(c);
    if (s >= B::kSlots) return Status::bad_argument;
    const unsigned w = B::width(s);
    // A 64-bit-wide slot (a clock) never overflows: nothing to arm. Otherwise 1 <= N <= 2^width
    // (NetBurst: 2 <= N, its preset being 2^40 - (N - 1)).
    if (w >= 64 || period <= pmu::pmi_events_after_overflow<B>() || period > (std::uint64_t{1} << w))
      return Status::bad_argument;
    if constexpr (requires { B::kMaxSamplingPeriod; }) {  // a PMU's own limit (NetBurst: 2^39)
      if (period > B::kMaxSamplingPeriod) return Status::bad_argument;
    }
    pmu::IrqGuard guard;  // the value read, the preset written and the account are one step
    const std::uint64_t value = p_.read(c);
    period_[s] = period;
    counter_[s] = c;
    armed_ |= std::uint32_t{1} << s;
    p_.set_sampled(s, true);
    p_.set_start_value(s, preset(s));
    B::write(s, preset(s));
    B::clear_overflow(std::uint32_t{1} << s);
    if (p_.running()) p_.account_preset(c, value, preset(s));
    B::set_overflow_interrupt(std::uint32_t{1} << s, true);
    return Status::ok;
  }
  void disarm() {
    B::set_overflow_interrupt(armed_, false);
    for (unsigned s = 0; s < B::kSlots; ++s) {
      if (!(armed_ & (std::uint32_t{1} << s))) continue;
      p_.set_start_value(s, 0);
      p_.set_sampled(s, false);
    }
    armed_ = 0;
  }

  // PMU overflow interrupt entry. pc/lr: the interrupted context, passed by the board's glue. Each
  // entry also takes the whole interrupted context (StackContext: pc, lr, sp, fp), for a sink that
  // keeps stacks (StackRing, FrameRing): the interrupt's one sample then carries its stack, and
  // no second ring records it again (docs/dump-format.md: one sample per interrupt).
  void on_pmu_interrupt(std::uint32_t pc, std::uint32_t lr) { general(PcLr{pc, lr}); }
  void on_pmu_interrupt(const StackContext& at) { general(at); }

  // The same entry for a firmware that samples one counter whose slot it knows at compile time
  // (e.g. CCNT, slot 0 on XScale). Common case, Slot armed and its overflow the only one set: the
  // sample, then the driver's rearm<Slot> (the counter rewound by exactly the period, so the events
  // since the overflow count towards the next sample, and the condition acknowledged unless a whole
  // period came since: then the interrupt comes again for it; no counter stops).
  // No loop and no branch besides the one test for that case. Anything else (another counter's
  // overflow to fold, Slot not armed, a spurious interrupt) takes the general path, out of line.
  // A linked pair's low counter passing bit 31 (e500) is not "another overflow": it is ignored.
  template <unsigned Slot>
  void on_pmu_interrupt(std::uint32_t pc, std::uint32_t lr) {
    fast<Slot>(PcLr{pc, lr});
  }
  template <unsigned Slot>
  void on_pmu_interrupt(const StackContext& at) {
    fast<Slot>(at);
  }

  // Timer-driven sampling where the PMU has no (working) overflow interrupt.
  void on_timer_tick(std::uint32_t pc, std::uint32_t lr) {
    p_.note_interrupt();
    sink_.record(pc, lr);
  }
  void on_timer_tick(const StackContext& at) {
    p_.note_interrupt();
    record(at);
  }

  std::uint32_t interrupts() const { return p_.interrupts(); }
  std::uint32_t armed_slots() const { return armed_; }
  std::uint64_t period(unsigned slot) const { return slot < B::kSlots ? period_[slot] : 0; }

 private:
  struct PcLr {
    std::uint32_t pc, lr;
  };
  [[gnu::always_inline]] void record(const PcLr& at) { sink_.record(at.pc, at.lr); }
  [[gnu::always_inline]] void record(const StackContext& at) {
    if constexpr (requires { sink_.record(at); })
      sink_.record(at);
    else
      sink_.record(at.pc, at.lr);
  }

  // Both entries hold the driver's InterruptScope (hal/core/driver.hpp, the interrupt contract):
  // where the PMU's accesses share state (ARMv7-A's PMSELR) the interrupted access gets it back.
  template <class At>
  [[gnu::always_inline]] void general(const At& at) {
    [[maybe_unused]] const pmu::InterruptScope<B> scope{};
    p_.note_interrupt();
    service(at);
  }
  template <unsigned Slot, class At>
  [[gnu::always_inline]] void fast(const At& at) {
    static_assert(Slot < B::kSlots, "on_pmu_interrupt<Slot>: this PMU has no such slot");
    static_assert(requires { B::template rearm<Slot>(std::uint64_t{}); },
                  "on_pmu_interrupt<Slot>: this backend has no overflow interrupt (no rearm<Slot>)");
    constexpr std::uint32_t bit = std::uint32_t{1} << Slot;
    [[maybe_unused]] const pmu::InterruptScope<B> scope{};
    p_.note_interrupt();
    const std::uint32_t ovf = B::overflow_status() & p_.foldable_slots();
    if (((ovf ^ bit) | (~armed_ & bit)) == 0) [[likely]] {
      record(at);
      B::template rearm<Slot>(period_[Slot]);
      p_.account_rearm(counter_[Slot], period_[Slot]);
      return;
    }
    service_out_of_line(at);
  }

  // The general service: freeze; sample each overflowed armed counter and move it back by its
  // period (what it counted since the overflow kept, the period accounted), acknowledging it only
  // if that puts its next overflow ahead (else the condition stays and the interrupt comes again,
  // as rearm<Slot> does); fold the counting-only ones; release.
  template <class At>
  void service(const At& at) {
    const std::uint32_t used = p_.used_slots();
    B::stop(used);
    const std::uint32_t ovf = B::overflow_status();
    const std::uint32_t sampled = ovf & armed_;
    std::uint32_t ahead = 0;
    for (unsigned s = 0; s < B::kSlots; ++s) {
      if (!(sampled & (std::uint32_t{1} << s))) continue;
      record(at);
      const unsigned w = B::width(s);
      const std::uint64_t raw = B::read(s);
      // Since the overflow: the count past 2^w (a flag's counter wrapped to 0; bit 31's has it set),
      // or nothing for a counter stopped at its maximum (Profiler::stopped_at_max): its rewind below
      // puts the next stop a period ahead.
      if (Profiler<B>::stopped_at_max(s, raw) || (raw & low_mask(w)) < period_[s]) ahead |= std::uint32_t{1} << s;
      B::write(s, (raw - period_[s]) & low_mask(register_bits(w)));
      p_.account_rearm(counter_[s], period_[s]);
    }
    B::clear_overflow(ahead);
    p_.fold_mask(ovf & ~armed_);  // counting-only counters: extend to 64 bits
    if (p_.running()) B::start(used);
  }

  template <class At>  // by value: pc and lr stay in registers (StackContext: 16 bytes)
  [[gnu::noinline]] void service_out_of_line(At at) {
    service(at);
  }

  std::uint64_t preset(unsigned s) const { return sampling_preset<B>(B::width(s), period_[s]); }

  Profiler<B>& p_;
  Sink& sink_;
  std::uint64_t period_[B::kSlots]{};
  Counter counter_[B::kSlots]{};  // the Profiler's handle of each armed slot, for its accounts
  std::uint32_t armed_ = 0;
};

}  // namespace prof
