#pragma once
// Counter regions: one counter chosen at run time, with a window near a fast region's. Region
// (profiler/region.hpp) reads every counter added, in a sweep bracketed by overflow status reads
// and a fold check, out of line: 44 to 320 instructions between a counter's two reads. Here the
// counter is chosen once (select()), and the region's window holds only what reading a counter
// chosen at run time costs (bench/zero_cost gates it at 4: window_region_1counter):
//   - a PMU of one counter (RM7000): its read, inline, as in a fast region: 0 between the reads;
//   - a driver that gives the count register's address (counter_address: the MIPS CM's count
//     registers are loads in the GCR block): one load from the address chosen at select(): 0;
//   - else (XScale, e500: the counter is encoded in the read instruction; NetBurst: rdpmc's index
//     in ECX) the driver's read of the slot as a function of its own, made per slot at compile
//     time and called through a pointer: its return, the first value kept, the second call (and
//     the reader's own set-up, NetBurst's ECX): 3 on XScale, 4 on e500 and NetBurst.
//
//   prof::CounterRegions<Pmu> one{profiler};
//   one.select(dmiss);                                   // any added counter, at run time
//   one.calibrate();
//   static prof::RegionStats<Pmu> crc{"crc32"};
//   { prof::CounterRegion r{one, crc}; crc32(buf, n); }  // stats index 0
//
// 64-bit values across folds without a status read in the window: just before the first read the
// counter is read whole (Profiler::read_anchor: high part, overflow condition and register, retried
// until consistent), and just after the second read again. The window's reads give the register's
// low bits only; each is tied to its anchor by the difference of the low bits (a few instructions
// apart: far less than one register span), so
//   first  = anchor before + (first read  - anchor's register) modulo the low bits,
//   second = anchor after  - (anchor's register - second read) modulo the low bits.
// The low bits are those a fold leaves alone: 31 where the overflow condition is bit 31 of the
// count and its acknowledge clears it (e500, RM7000), 32 elsewhere (NetBurst's 40-bit counters:
// the reader returns the low 32). A counter the MIPS CM stopped at its maximum (stopped_at_max),
// which a fold writes back to 0, moved by the second value alone. So an overflow, a fold, or a
// region of any length is exact; what happens between an anchor and its read (an interrupt's
// events) is not in the region.
//
// Void (RegionStats::voided, never a wrong value): a reset inside the region (start, reset,
// accumulate), a profiler not running, no counter selected, the counter armed for sampling at
// either end (a re-arm between an anchor and its read moves the register back; select() refuses
// armed counters). Linked pairs are refused (not_linkable): their value is two registers. A region
// on several counters is Region's (its windows are documented in docs/figures.md).
//
// Interrupts: the regions read only; finish() updates its RegionStats: one context per object.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "hal/core/bus/barrier.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"

namespace prof {

template <Backend B>
class CounterRegion;

template <Backend B>
class CounterRegions {
  struct Empty {};

 public:
  using Low = std::uint32_t;  // what the window's reads return: the register's low 32 bits
  using Read = Low (*)();

  struct Mark {
    std::uint64_t anchor;  // the counter's whole value just before the first read
    Low anchor_low;        // the register it was extended from
    Low low;               // the first read
    std::uint32_t epoch, interrupts;
    std::uint8_t index;    // the counter selected at begin (Counter::kInvalid: none)
  };

  explicit CounterRegions(Profiler<B>& p) : p_(p) {}

  // The counter to measure: added (bad_argument), not linked (not_linkable), not armed for
  // sampling (busy). Thread context, no region open. Clears the calibrated overhead.
  Status select(Counter c) {
    if (!p_.valid(c)) return Status::bad_argument;
    if (p_.linked(c)) return Status::not_linkable;
    const unsigned slot = p_.slot_of(c);
    if (p_.sampled_slots() & (std::uint32_t{1} << slot)) return Status::busy;
    read_ = pick(slot, std::make_integer_sequence<unsigned, B::kSlots>{});
    if constexpr (kByAddress) address_ = B::counter_address(slot);
    counter_ = c;
    overhead_ = 0;
    return Status::ok;
  }
  Counter selected() const { return counter_; }

  // How the window reads the selected counter. A PMU of one counter: its read, inline. A driver
  // that gives the count register's address (the MIPS CM): one load from the address chosen at
  // select(). Else the slot's reader, called through a pointer.
  static constexpr bool kOneSlot = B::kSlots == 1;
  static constexpr bool kByAddress = !kOneSlot && requires { B::counter_address(0u); };
  using Handle = std::conditional_t<kByAddress, const volatile Low*, Read>;
  Handle reader() const {
    if constexpr (kByAddress)
      return address_;
    else
      return read_;
  }
  [[gnu::always_inline]] static Low read_by(Handle h) {
    if constexpr (kOneSlot) {
      (void)h;
      return static_cast<Low>(B::template read<0>());
    } else if constexpr (kByAddress) {
      return *h;
    } else {
      return h();
    }
  }

  // The state and the anchor (out of line: one copy), then the first read: the last thing begin
  // does.
  [[gnu::always_inline]] Mark begin(Handle r) const {
    Mark t;
    anchor(t);
    Mark m = t;  // a copy whose address no call has: the region's own values stay in registers
    pmu::schedule_barrier();  // what precedes the region stays before its first read
    m.low = read_by(r);
    return m;
  }
  [[gnu::noinline, PROF_REGION_CALL]] void anchor(Mark& m) const {
    m.epoch = p_.epoch();
    m.interrupts = p_.interrupts();
    m.index = counter_.index;
    std::uint64_t raw;
    m.anchor = p_.read_anchor(counter_, raw);
    m.anchor_low = static_cast<Low>(raw);
  }

  // After the second read (its value `b`): the anchor, then the region's value into `stats`.
  // Out of line: one copy for every region.
  [[gnu::noinline, PROF_REGION_CALL]] void finish(Mark a, Low b, RegionStats<B>& stats) const {
    const Counter c{a.index};
    std::uint64_t raw;
    const std::uint64_t anchor = p_.read_anchor(c, raw);
    const unsigned slot = p_.slot_of(c);
    bool voided = !p_.valid(c) || !p_.running() || p_.epoch() != a.epoch ||
                  (p_.sampled_slots() & (std::uint32_t{1} << (slot & 31))) != 0;
    const std::uint64_t first = a.anchor + step(slot, a.anchor_low, a.low);
    const std::uint64_t second = anchor - step(slot, b, static_cast<Low>(raw));
    voided |= second < first;
    bool clamped = false;
    stats.add(0, net_of(second - first, overhead_, voided, clamped));
    stats.close(clamped, voided, p_.interrupts() - a.interrupts);
  }

  // The smallest cost of an empty region becomes the overhead (the code every region runs).
  // Counters running, a counter selected. Staggered as Regions::calibrate, for coarse clocks.
  void calibrate(unsigned iterations = 16) {
    overhead_ = 0;
    RegionStats<B> empty{"calibration"};
    for (unsigned it = 0; it < iterations; ++it) {
      CounterRegion<B> r{*this, empty};
    }
    for (unsigned it = 0; it < iterations; ++it) {
      Regions<B>::stagger(it);
      CounterRegion<B> r{*this, empty};
    }
    overhead_ = empty.calls > empty.voided ? empty.min[0] : 0;
  }
  std::uint64_t overhead() const { return overhead_; }

  // Events from x to y, two reads of one register a few instructions apart: modulo the low bits a
  // fold leaves alone (see the top); a counter stopped at its maximum moved by y alone, if at all.
  static Low step(unsigned slot, Low x, Low y) {
    if (Profiler<B>::stopped_at_max(slot, x)) return y == x ? 0 : y;
    const unsigned bits = B::width(slot) < 32 ? B::width(slot) : 32;
    return static_cast<Low>((y - x) & low_mask(bits));
  }

 private:
  template <unsigned S>
  [[gnu::noinline]] static Low read_slot() {
    return static_cast<Low>(B::template read<S>());
  }
  [[gnu::noinline]] static Low read_none() { return 0; }
  template <unsigned... S>
  static Read pick(unsigned slot, std::integer_sequence<unsigned, S...>) {
    Read r = &read_none;
    ((r = slot == S ? &read_slot<S> : r), ...);
    return r;
  }

  Profiler<B>& p_;
  Read read_ = &read_none;
  [[no_unique_address]] std::conditional_t<kByAddress, const volatile Low*, Empty> address_{};
  Counter counter_{};
  std::uint64_t overhead_ = 0;
};

// Scoped: measures from construction to destruction. Inline: between the two reads only the first
// reader's return, the first value kept and the second reader's call (bench/zero_cost gates it:
// window_region_1counter).
template <Backend B>
class CounterRegion {
  using Low = typename CounterRegions<B>::Low;

 public:
  [[gnu::always_inline]] CounterRegion(const CounterRegions<B>& r, RegionStats<B>& stats)
      : r_(r), stats_(stats), read_(r.reader()), start_(r.begin(read_)) {}
  [[gnu::always_inline]] ~CounterRegion() {
    // Inline reads: the second as after a call, whatever the body (the first value kept where a
    // call leaves it), so an empty region, calibrate()'s, has the window of one around a call. A
    // reader called through a pointer is such a call already.
    if constexpr (CounterRegions<B>::kOneSlot || CounterRegions<B>::kByAddress) {
      pmu::compiler_barrier();
      pmu::call_barrier();
    }
    const Low b = CounterRegions<B>::read_by(read_);
    pmu::schedule_barrier();  // what follows the region stays after its second read
    r_.finish(start_, b, stats_);
  }
  CounterRegion(const CounterRegion&) = delete;
  CounterRegion& operator=(const CounterRegion&) = delete;

 private:
  const CounterRegions<B>& r_;
  RegionStats<B>& stats_;
  const typename CounterRegions<B>::Handle read_;
  const typename CounterRegions<B>::Mark start_;
};

}  // namespace prof
