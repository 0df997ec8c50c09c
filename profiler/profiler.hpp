#pragma once
// The portable profiler: counters by preset or raw event on any Backend, start/stop/reset/read/
// accumulate, 64-bit values from narrow counters, consistent reads of linked counter pairs.
//
//   using Pmu = pmu::xscale::Xsc2<pmu::Cp14Bus>;
//   prof::Profiler<Pmu> p;                          // static storage, no heap
//   p.probe();
//   prof::Counter cyc, dmiss;
//   p.add<pmu::Preset::cycles>(cyc);                // compile error if the PMU has no such event
//   p.add(pmu::Preset::dcache_misses, dmiss);       // run-time choice: returns a Status
//   p.start();  work();  p.stop();
//   std::uint64_t n = p.read(cyc);
//
// 64-bit extension: each counter's overflow condition (see width() in hal/core/driver.hpp) is folded into a
// software high part by fold() — call it from the PMU overflow interrupt (Sampler does) or poll it
// at least once per 2^width events. read() is correct across any number of folded overflows and
// when an overflow lands between its register reads (it retries; see read()).
// A backend without an overflow condition (Capabilities::overflow false: the Cortex-M DWT) is
// extended by polling instead: fold() reads each counter narrower than 64 bits and takes a wrap
// (2^width) where it went backwards since the last fold; read() and regions add a wrap since then
// the same way. Exact when folded at least once per 2^width events of each counter (a SysTick
// handler that calls fold(): under 2^32 cycles for CYCCNT, under 256 counts of an 8-bit counter).
//
// Interrupts (one core; the PMU overflow interrupt is the only other context that uses a Profiler):
//   may be called from the interrupt handler:  read, fold, fold_mask, running, used_slots,
//                                              foldable_slots, slot_of, event_of, valid, linked,
//                                              epoch, folds, start_value, note_switch, switches
//                                              (and Sampler's handlers)
//   thread context only:                       probe, add*, link, clear, start, stop, reset,
//                                              accumulate, set_start_value, set_sampled
// fold/fold_mask and stop run their register sequence with interrupts masked (pmu::IrqGuard), so
// the handler never sees half a fold; read() retries when a fold lands between its reads.
#include <cstddef>
#include <cstdint>
#include <utility>

#include "hal/core/bus/irq.hpp"
#include "hal/core/driver.hpp"
#include "hal/core/event.hpp"

namespace prof {

using pmu::EventConfig;
using pmu::LinkKind;
using pmu::Preset;
using pmu::ProbeResult;
using pmu::register_bits;
using pmu::Status;
using pmu::status_name;

// A profiler backend is a PMU driver (the contract is hal/core/driver.hpp's pmu::Driver) or
// anything else that keeps it, such as ClockBackend.
template <class B>
concept Backend = pmu::Driver<B>;

// Handle to a counter added to a Profiler. Invalid until add() returns ok.
struct Counter {
  static constexpr std::uint8_t kInvalid = 0xFF;
  std::uint8_t index = kInvalid;
  constexpr bool valid() const { return index != kInvalid; }
};

constexpr std::uint64_t low_mask(unsigned bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

// Events between two raw reads of a counter `width` wide, correct across at most one wrap.
constexpr std::uint64_t delta(std::uint64_t before, std::uint64_t after, unsigned width) {
  return (after - before) & low_mask(register_bits(width));
}

// Compile-time questions about a backend (usable in static_assert and if constexpr).
template <class B>
constexpr bool supports(Preset p) {
  return pmu::has_preset(B::catalog, p);
}
template <class B>
constexpr bool has_event(std::uint32_t code) {
  return pmu::has_event(B::catalog, code);
}

template <Backend B>
class Profiler {
 public:
  static constexpr unsigned kMaxCounters = B::kSlots;
  // No overflow condition to fold (Capabilities::overflow false): every counter narrower than 64 bits
  // is polled (header comment).
  static constexpr bool kPolled = !B::kCapabilities.overflow;
  static_assert(kMaxCounters <= 32, "slot masks are 32 bits");

  // Detects the PMU and which counters work. Until probe() runs, every slot is assumed to work.
  ProbeResult probe() {
    const ProbeResult r = B::probe();
    usable_ = r.status == Status::ok ? r.working_slots : 0;
    probed_ = true;
    return r;
  }
  std::uint32_t usable_slots() const { return probed_ ? usable_ : all_slots(); }

  // --- adding counters ---
  template <Preset P>
  Status add(Counter& out) {
    static_assert(supports<B>(P), "this PMU has no event for that preset (see its events.hpp)");
    return add(P, out);
  }
  Status add(Preset p, Counter& out) {
    const pmu::PresetBinding* b = pmu::find_preset(B::catalog, p);
    if (!b) return Status::unsupported_event;
    // Slots come from the driver (B::slots_for): catalog counter masks use the PMU's own counter
    // numbering, which need not match slot numbers (XScale: slot 0 is CCNT).
    const Status s = allocate(EventConfig{b->code, 0, 0}, B::slots_for(b->code), out);
    if (s == Status::ok) counters_[out.index].preset = static_cast<std::int8_t>(p);
    return s;
  }
  template <std::uint32_t Code>
  Status add_event(Counter& out, std::uint32_t qualifier = 0, std::uint32_t options = 0) {
    static_assert(has_event<B>(Code), "this PMU has no event with that code (see its events.hpp)");
    return add(EventConfig{Code, qualifier, options}, out);
  }
  Status add(EventConfig ev, Counter& out) {
    if (!has_event<B>(ev.code)) return Status::unsupported_event;
    return allocate(ev, B::slots_for(ev.code), out);
  }
  // Same, on a chosen slot (e.g. to set up a chain or a cascade on the counters that allow it).
  Status add_on(unsigned slot, EventConfig ev, Counter& out) {
    if (slot >= kMaxCounters) return Status::bad_argument;
    if (!has_event<B>(ev.code)) return Status::unsupported_event;
    if (!(B::slots_for(ev.code) & bit(slot))) return Status::unsupported_event;
    return allocate(ev, bit(slot), out);
  }

  // Links two added counters into one wider value (e500 chain, NetBurst cascade). A counter takes
  // part in one link at most: linking it again, or in a loop, is not_linkable.
  Status link(Counter lo, Counter hi) {
    if (!valid(lo) || !valid(hi) || lo.index == hi.index) return Status::bad_argument;
    if constexpr (B::kLink == LinkKind::none) {
      return Status::not_linkable;
    } else {
      if (running_) return Status::busy;
      if (linked(lo) || linked(hi)) return Status::not_linkable;
      const Status s = B::link(slot_of(lo), slot_of(hi));
      if (s == Status::ok) {
        counters_[hi.index].linked_lo = lo.index;
        linked_lows_ |= bit(slot_of(lo));
        layout_ = layout_ + 1;
      }
      return s;
    }
  }

  // Removes every counter; the PMU is stopped first.
  void clear() {
    stop();
    if constexpr (requires { B::deconfigure(used_); }) B::deconfigure(used_);  // NetBurst: free ESCRs
    used_ = 0;
    linked_lows_ = 0;
    sampled_ = 0;
    rearm_word_ = &kNoRearms;
    rearm_period_ = 0;
    for (auto& c : counters_) c = Slot{};
    for (auto& v : start_value_) v = 0;
    layout_ = layout_ + 1;
  }

  // The value reset()/start() load into a slot instead of 0: a sampling preset (Sampler::arm sets
  // it, disarm clears it), so a start or reset never leaves an armed counter 2^width events from
  // its next sample.
  void set_start_value(unsigned slot, std::uint64_t value) {
    if (slot < kMaxCounters) start_value_[slot] = value;
  }
  // A slot whose overflow is a Sampler's (arm sets it, disarm clears it): a sample waiting for the
  // sampling interrupt, which takes it and re-arms the counter. fold() leaves it to that interrupt:
  // acknowledging it there lost the sample and left the counter 2^width events from the next one.
  void set_sampled(unsigned slot, bool sampled) {
    if (slot < kMaxCounters) sampled_ = sampled ? sampled_ | bit(slot) : sampled_ & ~bit(slot);
    layout_ = layout_ + 1;
  }
  std::uint32_t sampled_slots() const { return sampled_; }
  // Bumped by every change to what a region reads or how: add, link, clear, set_sampled,
  // count_rearms_in. Regions prepares its read sequence again when it changed (profiler/region.hpp).
  std::uint32_t layout() const { return layout_; }
  // A board's fast PMU vector re-arms a counter, counted in a word of its own (count_rearms_in).
  bool counts_rearms() const { return rearm_word_ != &kNoRearms; }

  // --- sampling's accounts (prof::Sampler; interrupt context where marked) ---
  // A sampled counter's value stays what it would be without sampling: every re-arm that moves
  // the register back by `period` events adds them to its software part (and bumps folds(), so a
  // read() or a region's take() it interrupted retries). Interrupt context.
  void account_rearm(Counter c, std::uint64_t period) {
    counters_[c.index].high += period;
    folds_ = folds_ + 1;
  }
  // The Sampler wrote its preset into c's register (arm() while running): the software part takes
  // the difference, so read() goes on from `value`, what it read just before. Interrupts masked.
  void account_preset(Counter c, std::uint64_t value, std::uint64_t preset) {
    counters_[c.index].high = value - preset;
    folds_ = folds_ + 1;
  }
  // A board's fast PMU vector (assembly in examples/<board>/board/: acknowledge, rewind c's counter
  // by `period`, sample) re-arms as the Sampler does but cannot afford account_rearm's 64-bit add:
  // it counts its re-arms in a word of its own (its ring's head), and bumps fold_count_word() so
  // that a read() or a region's reads it interrupted retry. From here on read() and take() add
  // `period` per re-arm counted in *word since this call to c's value (outside a region's window:
  // with the software parts). nullptr: the re-arms counted so far go into c's software part and the
  // word is no longer read. Call with the vector not routed (or its interrupt masked).
  void count_rearms_in(Counter c, const volatile std::uint32_t* word, std::uint32_t period) {
    counters_[rearm_index_].high += rearms_counted();
    const bool on = valid(c) && word != nullptr;
    rearm_word_ = on ? word : &kNoRearms;
    rearm_index_ = on ? c.index : 0;
    rearm_period_ = on ? period : 0;
    rearm_base_ = *rearm_word_;
    folds_ = folds_ + 1;
    layout_ = layout_ + 1;
  }
  // The fold count, for a board's fast vector to bump once per re-arm (load, add 1, store, in the
  // interrupt): a reader it interrupted then retries, as across a fold (count_rearms_in).
  volatile std::uint32_t* fold_count_word() { return &folds_; }
  // Sampling interrupts taken so far (every Sampler entry counts one): a region says how many
  // fell inside it, whose handlers' events its counts include. Interrupt context.
  void note_interrupt() { interrupts_ = interrupts_ + 1; }
  std::uint32_t interrupts() const { return interrupts_; }
  // Task switches so far (prof::TaskCounters::on_switch counts each): a region says how many of
  // its calls had one inside, whose counts include other tasks' time. Interrupt context.
  void note_switch() { switches_ = switches_ + 1; }
  std::uint32_t switches() const { return switches_; }

  // --- counting ---
  // Zeroes and starts every added counter.
  void start() {
    reset();
    stopped_latched_ = false;
    B::start(used_);
    running_ = true;
  }
  // Stops counting and latches every counter's value: read() returns the latched value until the
  // next start() or reset(). (Some parts do not hold a stopped counter's value: QEMU's XScale CCNT
  // reads 0 while PMNC.E=0; the latch makes read-after-stop mean the same everywhere.)
  // Interrupts are masked from the latch to the stop: a handler taken afterwards sees running()
  // false and leaves the PMU stopped.
  void stop() {
    if (!running_) return;
    pmu::IrqGuard guard;
    for (unsigned i = 0; i < kMaxCounters; ++i)
      if (counters_[i].slot != Counter::kInvalid) latched_[i] = read(Counter{static_cast<std::uint8_t>(i)});
    B::stop(used_);
    running_ = false;
    stopped_latched_ = true;
    // No fold: the latch already includes any pending overflow, and start()/reset() zero the
    // software parts before the next reading.
  }
  bool running() const { return running_; }
  // Zeroes every added counter (hardware and software parts; an armed counter gets its sampling
  // preset, set_start_value); leaves it running or stopped. Regions open across it are clamped.
  void reset() {
    pmu::IrqGuard guard;
    B::stop(used_);
    for (unsigned s = 0; s < kMaxCounters; ++s) {
      if (!(used_ & bit(s))) continue;
      B::write(s, start_value_[s]);
    }
    B::clear_overflow(used_);
    // A sampled counter starts at its preset: its software part takes it off, so it reads 0 too.
    for (auto& c : counters_) c.high = c.slot == Counter::kInvalid ? 0 : 0 - start_value_[c.slot];
    if constexpr (kPolled)
      for (auto& c : counters_) c.last = c.slot == Counter::kInvalid ? 0 : start_value_[c.slot] & low_mask(B::width(c.slot));
    for (auto& l : latched_) l = 0;
    rearm_base_ = *rearm_word_;  // re-arms before the reset are gone too
    folds_ = folds_ + 1;
    epoch_ = epoch_ + 1;
    if (running_) B::start(used_);
  }
  // Bumped by every reset (start, accumulate): values read in two epochs are not comparable.
  std::uint32_t epoch() const { return epoch_; }
  // Bumped by every fold and reset: a raw counter value may have been acknowledged in between.
  std::uint32_t folds() const { return folds_; }
  // The value reset() loads into a slot: non-zero while the Sampler has it armed.
  std::uint64_t start_value(unsigned slot) const { return slot < kMaxCounters ? start_value_[slot] : 0; }

  // 64-bit value of one counter (a linked pair: the combined value, read from its high counter).
  std::uint64_t read(Counter c) const {
    if (!valid(c)) return 0;  // an invalid handle reads 0
    if (!running_ && stopped_latched_) return latched_[c.index];
    const Slot& s = counters_[c.index];
    if (s.linked_lo != Counter::kInvalid) return read_linked(counters_[s.linked_lo], s);
    return read_extended(s);
  }

  // read() of a counter that is not linked, with the register value it was extended from: a
  // CounterRegion's anchor (profiler/counter_region.hpp). Running profiler only (else 0, raw 0).
  std::uint64_t read_anchor(Counter c, std::uint64_t& raw) const {
    raw = 0;
    if (!valid(c) || !running_ || counters_[c.index].linked_lo != Counter::kInvalid) return 0;
    return read_extended(counters_[c.index], &raw);
  }

  // Regions' read, in two steps so that only register reads run inside a measured window: take()
  // reads the counters in use in one unrolled sweep (slot order; per slot a mask test, no dispatch
  // and no call; counters not in use are not read, as a part may trap on them: QEMU's PXA27x has
  // CCNT only), bracketed by the overflow status and the fold count, retried if a fold or an
  // overflow fell inside; value() extends a counter to 64 bits from it afterwards, like read().
  // HighsFirst: the software high parts are copied before the sweep (a region's begin: what
  // follows its reads is inside the window) or after it (its end). Linked pairs need read()'s re-reads, and a stopped profiler its latched
  // values: sweepable() says when take() applies. Interrupts: safe anywhere (reads only).
  struct Snapshot {
    std::uint64_t raw[B::kSlots];
    std::uint64_t high[kMaxCounters];
    std::uint64_t last[kPolled ? kMaxCounters : 1];  // polled backends: raw values at the last fold
    std::uint32_t status;
    std::uint32_t rearms;  // a fast vector's re-arm count, with the highs (count_rearms_in)
  };
  bool sweepable() const { return running_ && linked_lows_ == 0; }
  template <bool HighsFirst>
  [[gnu::always_inline]] void take(Snapshot& s) const {
    const std::uint32_t used = used_;
    for (unsigned i = 0;; ++i) {
      const std::uint32_t f = folds_;
      if constexpr (HighsFirst) copy_highs(s);
      const std::uint32_t st1 = B::overflow_status();
      sweep(s.raw, used, std::make_integer_sequence<unsigned, B::kSlots>{});
      s.status = B::overflow_status();
      if constexpr (!HighsFirst) copy_highs(s);
      if (st1 == s.status && f == folds_) return;
      if (i + 1 >= kReadTries) {
        gave_up(0);
        return;
      }
    }
  }
  // take() wrote raw[] for every slot in use, which a valid counter's slot is; GCC cannot follow
  // the mask from the sweep to here and warns.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  std::uint64_t value(const Snapshot& s, Counter c) const {
    if (!valid(c)) return 0;
    const unsigned slot = counters_[c.index].slot, w = B::width(slot);
    const std::uint64_t rearms = c.index == rearm_index_ ? std::uint64_t{s.rearms - rearm_base_} * rearm_period_ : 0;
    std::uint64_t wrap = 0;
    if constexpr (kPolled) wrap = slot < B::kSlots ? polled_carry(slot, s.raw[slot], s.last[c.index]) : 0;
    return s.high[c.index] + rearms + wrap + ((s.status & bit(slot)) ? carry(slot, s.raw[slot]) : 0) + (s.raw[slot] & low_mask(w));
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  // PAPI_accum: adds each counter's value to values[i] (in add() order) and zeroes the counters.
  void accumulate(std::uint64_t* values, std::size_t n) {
    for (std::size_t i = 0; i < n && i < kMaxCounters; ++i) {
      if (counters_[i].slot != Counter::kInvalid) values[i] += read(Counter{static_cast<std::uint8_t>(i)});
    }
    reset();
  }

  // Folds set overflow conditions into the software high parts. Call from the PMU interrupt
  // (Sampler does) or poll it often enough; safe to call at any time. A Sampler's armed slots are
  // left to the sampling interrupt (set_sampled). Returns the slots folded.
  // A polled backend (no overflow condition): returns the slots that wrapped since the last fold.
  std::uint32_t fold() {
    pmu::IrqGuard guard;  // the status read and the fold are one step for the handler
    if constexpr (kPolled)
      return poll_masked();
    else
      return fold_masked(B::overflow_status());
  }

  // Folds exactly these slots' overflow conditions (the caller has read overflow_status()).
  // The low counter of a linked pair is never folded: its overflow is what the high one counts;
  // nor is a sampled slot.
  std::uint32_t fold_mask(std::uint32_t mask) {
    pmu::IrqGuard guard;
    return fold_masked(mask);
  }

  // What a set overflow condition adds to a counter whose register reads `raw`: 2^width, or nothing
  // where the driver says the counter stopped at its maximum instead of wrapping (the MIPS CM's
  // Perf_Ovf_Stop as its text words it; hal/core/driver.hpp, stopped_at_max).
  static bool stopped_at_max(unsigned slot, std::uint64_t raw) {
    if constexpr (requires { B::stopped_at_max(slot, raw); }) return B::stopped_at_max(slot, raw);
    return false;
  }
  static std::uint64_t carry(unsigned slot, std::uint64_t raw) {
    return stopped_at_max(slot, raw) ? 0 : std::uint64_t{1} << B::width(slot);
  }

  // Reads that found the counters changing on every one of kReadTries passes (a broken PMU or an
  // interrupt storm): each returned its last pass. Report it next to the values.
  static constexpr unsigned kReadTries = 8;
  std::uint32_t read_giveups() const { return giveups_; }

  // Queries on a handle; an invalid one (never added, or out of range) gets Counter::kInvalid,
  // an empty event, nullptr and "?".
  unsigned slot_of(Counter c) const { return valid(c) ? counters_[c.index].slot : Counter::kInvalid; }
  EventConfig event_of(Counter c) const { return valid(c) ? counters_[c.index].event : EventConfig{}; }
  // The preset a counter was added by, or nullptr for a raw event.
  const char* preset_of(Counter c) const {
    const std::int8_t p = valid(c) ? counters_[c.index].preset : std::int8_t{-1};
    return p < 0 ? nullptr : pmu::preset_name(static_cast<Preset>(p));
  }
  // The event's mnemonic from the PMU's table.
  const char* event_name(Counter c) const {
    return valid(c) ? pmu::event_name(B::catalog, counters_[c.index].event.code) : "?";
  }
  bool valid(Counter c) const {
    return c.index < kMaxCounters && counters_[c.index].slot != Counter::kInvalid;
  }
  // Part of a linked pair (either side)?
  bool linked(Counter c) const {
    if (!valid(c)) return false;
    const Slot& s = counters_[c.index];
    return s.linked_lo != Counter::kInvalid || (linked_lows_ & bit(s.slot)) != 0;
  }
  std::uint32_t used_slots() const { return used_; }
  // The used slots whose overflow conditions mean something to fold or sample: all but the low
  // counters of linked pairs (their overflow is what the high counter counts).
  std::uint32_t foldable_slots() const { return used_ & ~linked_lows_; }
  unsigned counters_added() const {
    unsigned n = 0;
    for (const auto& c : counters_) n += c.slot != Counter::kInvalid;
    return n;
  }

 private:
  struct Slot {
    std::uint8_t slot = Counter::kInvalid;
    std::uint8_t linked_lo = Counter::kInvalid;  // index of the low counter when this is a high one
    std::int8_t preset = -1;                      // pmu::Preset it was added by, -1: raw event
    EventConfig event{};
    std::uint64_t high = 0;  // software part: 2^width per folded overflow
    std::uint64_t last = 0;  // polled backends: the register's low bits at the last fold or reset
  };

  static constexpr std::uint32_t bit(unsigned s) { return std::uint32_t{1} << s; }
  static constexpr std::uint32_t all_slots() {
    return kMaxCounters >= 32 ? ~0u : (std::uint32_t{1} << kMaxCounters) - 1;
  }
  // A wrap since the last fold: the register's low bits below what that fold saw.
  static std::uint64_t polled_carry(unsigned slot, std::uint64_t raw, std::uint64_t last) {
    const unsigned w = B::width(slot);
    return w < 64 && (raw & low_mask(w)) < last ? std::uint64_t{1} << w : 0;
  }
  // fold()'s sequence on a polled backend; the caller holds the interrupt mask. No register is
  // written and nothing is stopped: a poll loses no event.
  std::uint32_t poll_masked() {
    std::uint32_t wrapped = 0;
    for (auto& c : counters_) {
      if (c.slot == Counter::kInvalid || B::width(c.slot) >= 64) continue;
      const std::uint64_t raw = B::read(c.slot) & low_mask(B::width(c.slot));
      if (polled_carry(c.slot, raw, c.last)) {
        c.high += std::uint64_t{1} << B::width(c.slot);
        wrapped |= bit(c.slot);
      }
      c.last = raw;
    }
    folds_ = folds_ + 1;
    return wrapped;
  }
  // fold_mask's sequence; the caller holds the interrupt mask.
  std::uint32_t fold_masked(std::uint32_t mask) {
    mask &= used_ & ~linked_lows_ & ~sampled_;
    if (!mask) return 0;
    // Clearing a bit-31 condition rewrites the counter: freeze around it so no event is lost.
    if (running_) B::stop(mask);
    for (auto& c : counters_) {
      if (c.slot != Counter::kInvalid && (mask & bit(c.slot))) c.high += folded(c.slot);
    }
    B::clear_overflow(mask);
    folds_ = folds_ + 1;
    if (running_) B::start(mask);
    return mask;
  }

  // What one fold of a slot's set condition moves into its software part: 2^width; or, for a
  // counter stopped at its maximum (stopped_at_max), the count it holds, and the register goes
  // back to 0 before the acknowledge lets it count again.
  std::uint64_t folded(unsigned slot) {
    if constexpr (requires { B::stopped_at_max(slot, std::uint64_t{}); }) {
      const std::uint64_t raw = B::read(slot);
      if (B::stopped_at_max(slot, raw)) {
        B::write(slot, 0);
        return raw;
      }
    }
    return std::uint64_t{1} << B::width(slot);
  }

  Status allocate(EventConfig ev, std::uint32_t candidates, Counter& out) {
    if (running_) return Status::busy;
    if (!candidates) return Status::unsupported_event;
    const std::uint32_t working = candidates & usable_slots();
    if (!working) return Status::counter_unavailable;
    const std::uint32_t free = working & ~used_;
    if (!free) return Status::no_free_counter;
    // Lowest free slot that can take it; an event that fits fewer slots should be added first. A
    // slot whose shared resources are taken (no_free_counter: a NetBurst ESCR in use by another
    // set-up) passes to the next free one.
    unsigned s = 0;
    Status st = Status::no_free_counter;
    for (; s < kMaxCounters; ++s) {
      if (!(free & bit(s))) continue;
      st = B::configure(s, ev);
      if (st != Status::no_free_counter) break;
    }
    if (st != Status::ok) return st;
    unsigned i = 0;
    while (counters_[i].slot != Counter::kInvalid) ++i;  // a free entry exists: used_ has a free slot
    counters_[i] = Slot{static_cast<std::uint8_t>(s), Counter::kInvalid, -1, ev, 0};
    used_ |= bit(s);
    linked_lows_ &= ~bit(s);  // no link or sampling state survives from an earlier use of the slot
    sampled_ = sampled_ & ~bit(s);
    start_value_[s] = 0;
    layout_ = layout_ + 1;
    out = Counter{static_cast<std::uint8_t>(i)};
    return Status::ok;
  }

  // high + the overflow condition + the low bits, from one consistent set of reads: an overflow or
  // a fold between the reads changes the condition or the fold count, and the read is retried.
  // Bounded: on silicon a second pass always succeeds (an overflow needs 2^width events); a part or
  // model that keeps changing gets kReadTries passes, then the last one is returned and the
  // give-up counted (read_giveups()), never a hang.
  std::uint64_t read_extended(const Slot& s, std::uint64_t* raw = nullptr) const {
    const unsigned w = B::width(s.slot);
    for (unsigned i = 0;; ++i) {
      const std::uint32_t f1 = folds_;
      const bool c1 = B::overflow_status() & bit(s.slot);
      const std::uint64_t v = B::read(s.slot);
      if (raw) *raw = v;
      const bool c2 = B::overflow_status() & bit(s.slot);
      std::uint64_t high = s.high + (&s == &counters_[rearm_index_] ? rearms_counted() : 0);
      if constexpr (kPolled) high += polled_carry(s.slot, v, s.last);  // read after v: a fold between retries
      if (c1 == c2 && f1 == folds_) return high + (c1 ? carry(s.slot, v) : 0) + (v & low_mask(w));
      if (i + 1 >= kReadTries) return gave_up(high + (c2 ? carry(s.slot, v) : 0) + (v & low_mask(w)));
    }
  }

  // Linked pair, never folded on its low side. Chain: read high-low-high, retried if high moved.
  // Cascade: low, high, then the low counter's overflow condition again, retried if it changed.
  // Chain (e500 CRM 7.6.1 and its read loop): high counts low's rollovers to zero, so the value is
  // high * 2^32 + low. Cascade (Intel SDM 18.15.5.6): counting "begins on one counter then
  // continues on the second counter after the first counter overflows" and "the contents of the
  // two counters can be added together": the low counter's 2^40 at its overflow + high (before the
  // overflow: low + high, high being 0).
  std::uint64_t read_linked(const Slot& lo, const Slot& hi) const {
    if constexpr (B::kLink == LinkKind::chain) {
      const unsigned lo_bits = register_bits(B::width(lo.slot));
      for (unsigned i = 0;; ++i) {
        const std::uint64_t h1 = read_extended(hi);
        const std::uint64_t l = B::read(lo.slot) & low_mask(lo_bits);
        const std::uint64_t h2 = read_extended(hi);
        const std::uint64_t value = (h1 << lo_bits) + l;
        if (h1 == h2) return value;  // no carry into the high counter between the reads
        if (i + 1 >= kReadTries) return gave_up(value);
      }
    } else {
      // Cascade: before the low counter's overflow the high one is 0 and stopped; after it, the
      // low counter's count is 2^width and the high one counts every event (so two reads of it
      // rarely agree on a running core). The read is consistent when the low counter's overflow
      // condition is the same before and after the high counter's read.
      const std::uint64_t lo_span = std::uint64_t{1} << B::width(lo.slot);
      for (unsigned i = 0;; ++i) {
        const std::uint64_t l = read_extended(lo);
        const std::uint64_t h = read_extended(hi);
        const bool over = l >= lo_span;
        const std::uint64_t value = over ? lo_span + h : l + h;
        if (over == ((B::overflow_status() & bit(lo.slot)) != 0)) return value;
        if (i + 1 >= kReadTries) return gave_up(value);
      }
    }
  }
  template <unsigned... I>
  [[gnu::always_inline]] static void sweep(std::uint64_t* raw, std::uint32_t used,
                                           std::integer_sequence<unsigned, I...>) {
    ((used & bit(I) ? void(raw[I] = B::template read<I>()) : void()), ...);
  }
  [[gnu::always_inline]] void copy_highs(Snapshot& s) const {
    for (unsigned i = 0; i < kMaxCounters; ++i) s.high[i] = counters_[i].high;
    if constexpr (kPolled)
      for (unsigned i = 0; i < kMaxCounters; ++i) s.last[i] = counters_[i].last;
    s.rearms = *rearm_word_;  // value() adds them: one load and store here, no test
  }
  // What a fast vector's re-arms since count_rearms_in() (or the last reset) add.
  std::uint64_t rearms_counted() const { return std::uint64_t{*rearm_word_ - rearm_base_} * rearm_period_; }
  std::uint64_t gave_up(std::uint64_t value) const {
    giveups_ = giveups_ + 1;
    return value;
  }

  Slot counters_[kMaxCounters]{};
  std::uint32_t used_ = 0;
  std::uint32_t linked_lows_ = 0;
  // A Sampler's armed slots: fold() leaves them to its interrupt. Volatile: a fast region reads it
  // before its first counter read, where the accessors' volatile reads keep it.
  volatile std::uint32_t sampled_ = 0;
  std::uint32_t usable_ = 0;
  std::uint64_t latched_[kMaxCounters]{};  // values at the last stop()
  std::uint64_t start_value_[kMaxCounters]{};  // what reset() loads (sampling presets)
  volatile std::uint32_t epoch_ = 0;
  std::uint32_t layout_ = 0;  // layout()
  bool probed_ = false;
  bool running_ = false;
  bool stopped_latched_ = false;
  volatile std::uint32_t folds_ = 0;  // bumped by every fold/reset; read() retries across one
  // count_rearms_in(): a fast vector's re-arm count, its value at the last account, and its period.
  // No fast vector: a word that stays 0, with a period of 0.
  static inline const volatile std::uint32_t kNoRearms = 0;
  const volatile std::uint32_t* rearm_word_ = &kNoRearms;
  std::uint32_t rearm_base_ = 0;
  std::uint32_t rearm_period_ = 0;  // 32 bits: a vector's period is a register (one multiply)
  std::uint8_t rearm_index_ = 0;
  volatile std::uint32_t interrupts_ = 0;  // sampling interrupts (note_interrupt)
  volatile std::uint32_t switches_ = 0;    // task switches (note_switch)
  mutable volatile std::uint32_t giveups_ = 0;
};

}  // namespace prof
