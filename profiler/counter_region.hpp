#pragma once
// Counter regions: one counter chosen at run time, with a window near a fast region's. A sweep of
// every counter bracketed by overflow status reads and a fold check, out of line, puts 44 to 320
// instructions between a counter's two reads (Region's fall-back, profiler/region.hpp, whose
// prepared reads are these). Here the counter is chosen once (select()), and the region's window
// holds only what reading a counter
// chosen at run time costs (bench/zero_cost gates it at 4: window_region_1counter):
//   - a PMU of one counter (RM7000): its read, inline, as in a fast region: 0 between the reads;
//   - a driver that gives the count register's address (counter_address: the MIPS CM's count
//     registers are loads in the GCR block): one load from the address chosen at select(): 0;
//   - else (XScale, e500: the counter is encoded in the read instruction; NetBurst: rdpmc's index
//     in ECX) the driver's read of the slot as a function of its own, made per slot at compile
//     time and called through a pointer: its return, the first value kept, the second call (and
//     the reader's own set-up, NetBurst's ECX): 3 on XScale, 4 on e500 and NetBurst.
// Every region has calibrate()'s window, around nothing, a call, or a call whose argument the
// caller keeps in a register across a loop of regions (the examples' known region): the region's
// code outside its window takes none of the caller's callee-saved registers. Its Mark is never
// copied whole (a block move; i386 with -march=pentium4: `rep movs`, ESI and EDI, two of
// the three; NetBurst's known region read 20008 for 20007, the argument spilled and loaded again
// between the reads): anchor() returns it in place, finish() takes a copy made member by member.
// bench/zero_cost gates it: window_region_calibrate_1counter, window_region_call_arg_1counter.
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
// Several counters chosen at run time (CounterRegions<Pmu, N>: up to N, gated at 2 and 3): the
// window reads N positions, begin in order 0..N-1 and end in order N-1..0, nested (a,b ... b,a);
// select(counters, n) puts the n counters at the last n positions (stats index k: the k-th given),
// and the positions before them read nothing that counts (a reader returning 0, a load from RAM;
// a PMU of one counter reads it, unused): those reads run before every counter's first read and
// after every counter's second read, outside all windows. So the innermost counter's window is
// the one counter's above, and each other counter's adds only the nested counters' reads (their
// call, reader and the move that keeps the value; bench/zero_cost: window_region_<N>counters and
// window_region_<N>counters_read). Each counter has its own anchors; any one void voids the call.
// On i386 (three callee-saved registers) the readers are called through the object, not through
// copies in registers (kCallThroughObject; Region's reads on ARM too: kKeptCallThroughObject).
// There the N first values are kept in those registers too: with 2 or 3 positions a caller's own value may be spilled and loaded again between the
// reads (NetBurst's example, 3 positions: the outermost counter reads 20008 for 20007; keeping
// the first values in memory instead makes the region's own state memory that an asm "memory"
// clobber in the body forces loaded again, one instruction more in every such window).
//
//   prof::CounterRegions<Pmu, 3> some{profiler};
//   const prof::Counter pick[] = {cycles, dmiss};
//   some.select(pick, 2);                                // 1..3 added counters, at run time
//
// Void (RegionStats::voided, never a wrong value): a reset inside the region (start, reset,
// accumulate), a profiler not running, no counter selected, the counter armed for sampling at
// either end (a re-arm between an anchor and its read moves the register back; select() refuses
// armed counters). Linked pairs are refused (not_linkable): their value is two registers. A region
// whose every counter is chosen by add() is Region's (its windows are in docs/figures.md).
//
// Interrupts: the regions read only; finish() updates its RegionStats: one context per object.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "hal/core/bus/barrier.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region_stats.hpp"

namespace prof {

template <Backend B, unsigned N = 1>
class CounterRegion;

template <Backend B, unsigned N = 1>
class CounterRegions {
  struct Empty {};
  static_assert(N >= 1 && N <= 32, "a counter region reads 1 to 32 counters");

 public:
  using Low = std::uint32_t;  // what the window's reads return: the register's low 32 bits
  using Read = Low (*)();
  static constexpr unsigned kPositions = N;

  struct Mark {
    std::uint64_t anchor[N];  // each counter's whole value just before the first reads
    Low anchor_low[N];        // the register it was extended from
    Low low[N];               // the first reads
    std::uint32_t epoch, interrupts;
    std::uint8_t index[N];    // the counter at each position at begin (Counter::kInvalid: none)
  };
  struct Lows {
    Low low[N];  // the second reads
  };

  // Nothing selected (set(k, nullptr) for every position), constant-initialised: a static one needs
  // no start-up code (Regions keeps one, profiler/region.hpp).
  constexpr explicit CounterRegions(Profiler<B>& p) : p_(p), read_{} {
    for (unsigned k = 0; k < N; ++k) {
      read_[k] = &read_none;
      if constexpr (kByAddress) address_[k] = &unused_;
    }
  }

  // The counters to measure, 1..N of them: added (bad_argument), not linked (not_linkable), not
  // armed for sampling (busy); the k-th is RegionStats index k. Thread context, no region open.
  // Clears the calibrated overheads. Refused: the selection is unchanged.
  Status select(const Counter* cs, unsigned n) {
    if (n == 0 || n > N || cs == nullptr) return Status::bad_argument;
    for (unsigned k = 0; k < n; ++k) {
      if (!p_.valid(cs[k])) return Status::bad_argument;
      if (p_.linked(cs[k])) return Status::not_linkable;
      if (p_.sampled_slots() & (std::uint32_t{1} << p_.slot_of(cs[k]))) return Status::busy;
    }
    for (unsigned k = 0; k < N; ++k) set(k, k + n >= N ? &cs[k + n - N] : nullptr);
    n_ = static_cast<std::uint8_t>(n);
    for (auto& o : overhead_) o = 0;
    return Status::ok;
  }
  Status select(Counter c) { return select(&c, 1); }
  // No counter: every position reads nothing that counts (Region's fall-back, profiler/region.hpp).
  void deselect() {
    for (unsigned k = 0; k < N; ++k) set(k, nullptr);
    n_ = 0;
  }
  Counter selected(unsigned k = 0) const { return k < n_ ? counter_[N - n_ + k] : Counter{}; }
  unsigned selected_count() const { return n_; }

  // How the window reads a counter. A PMU of one counter: its read, inline. A driver that gives
  // the count register's address (the MIPS CM): one load from the address chosen at select().
  // Else the slot's reader, called through a pointer.
  static constexpr bool kOneSlot = B::kSlots == 1;
  static constexpr bool kByAddress = !kOneSlot && requires { B::counter_address(0u); };
  using Handle = std::conditional_t<kByAddress, const volatile Low*, Read>;
  struct Handles {
    Handle h[N];
  };
  Handle reader(unsigned pos = N - 1) const {
    if constexpr (kByAddress)
      return address_[pos];
    else
      return read_[pos];
  }
  Handles readers() const {
    Handles h;
    for (unsigned k = 0; k < N; ++k) h.h[k] = reader(k);
    return h;
  }
  // i386 has three callee-saved registers: a copy of each reader pointer in a register for the
  // body's duration does not fit (a frame pointer, the object, N pointers), and a pointer spilled
  // and loaded again is one instruction more in the window. There a reader is called through the
  // object (`call *offset(%reg)`: one instruction, the object's address the only register kept).
#if defined(__i386__)
  static constexpr bool kCallThroughObject = !kOneSlot && !kByAddress;
#else
  static constexpr bool kCallThroughObject = false;
#endif
  // Region's reads (Kept, profiler/region.hpp) on ARM too: N reader pointers kept across the body
  // with Region's own values leave a caller's value no callee-saved register (r4-r11), and its
  // load is in the window (XScale's known region: one instruction) where calibrate()'s empty
  // region has none. Through the object: one load before each call (innermost window 3 -> 4), in
  // every region and in calibrate() alike.
#if defined(__i386__) || defined(__arm__)
  static constexpr bool kKeptCallThroughObject = !kOneSlot && !kByAddress;
#else
  static constexpr bool kKeptCallThroughObject = false;
#endif
  template <bool Kept = false>
  [[gnu::always_inline]] Handle handle(const Handles& r, unsigned k) const {
    if constexpr (Kept ? kKeptCallThroughObject : kCallThroughObject)
      return read_[k];
    else
      return r.h[k];
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

  // The state and the anchors (out of line: one copy), then the first reads, in position order:
  // the last thing begin does.
  [[gnu::always_inline]] Mark begin(const Handles& r) const {
    // Returned in place: no copy (a block move, see the top), and no call keeps m's address, so
    // the region's values stay in registers across the body.
    Mark m = anchor();
    pmu::schedule_barrier();  // what precedes the region stays before its first read
    first_reads(m, r, std::make_index_sequence<N>{});
    // The values leave the registers a call clobbers right after the reads, whatever the body: a
    // body's argument set-up in the register a reader returns in would otherwise cost a move
    // that calibrate()'s empty region does not have (e500, several counters: one instruction).
    pmu::call_barrier();
    return m;
  }
  // The second reads, in the reverse order (nested): the first thing end does.
  [[gnu::always_inline]] Lows second_reads(const Handles& r) const {
    Lows b;
    second_reads(b, r, std::make_index_sequence<N>{});
    return b;
  }
  // Region's reads (profiler/region.hpp): each value stored into the region's slot (volatile
  // words of memory) right after its read, the same store at every site, so the caller keeps no
  // register and no stack word for them.
  template <class M>
  [[gnu::always_inline]] void first_reads_to(M& a, const Handles& r) const {
    pmu::schedule_barrier();
    first_reads<true>(a, r, std::make_index_sequence<N>{});
    pmu::call_barrier();
  }
  template <class M>
  [[gnu::always_inline]] void second_reads_to(M& b, const Handles& r) const {
    second_reads<true>(b, r, std::make_index_sequence<N>{});
  }
  [[gnu::noinline, PROF_REGION_CALL]] Mark anchor() const {
    Mark m;
    m.epoch = p_.epoch();
    m.interrupts = p_.interrupts();
    for (unsigned k = 0; k < N; ++k) {
      m.index[k] = counter_[k].index;
      std::uint64_t raw = 0;
      m.anchor[k] = counter_[k].index == Counter::kInvalid ? 0 : p_.read_anchor(counter_[k], raw);
      m.anchor_low[k] = static_cast<Low>(raw);
      m.low[k] = 0;  // the first reads' (begin)
    }
    return m;
  }
  // A copy member by member, unrolled: scalar moves through the registers a call clobbers (no
  // block move, no loop keeping two addresses in registers).
  [[gnu::always_inline]] static void copy(Mark& to, const Mark& from) {
    to.epoch = from.epoch;
    to.interrupts = from.interrupts;
    copy(to, from, std::make_index_sequence<N>{});
  }

  // After the second reads (`b`): the anchors, then the region's values into `stats`.
  // Out of line: one copy for every region.
  [[gnu::noinline, PROF_REGION_CALL]] void finish(const Mark& a, const Lows& b, RegionStats<B>& stats) const {
    After t;
    anchors_after(a.index, t);
    std::uint64_t d[N] = {};
    unsigned used = 0;
    const bool voided = differences(a, b, t, d, used);
    bool clamped = false;
    for (unsigned i = 0; i < (used ? used : 1); ++i) stats.add(i, net_of(d[i], overhead_[i], voided, clamped));
    stats.close(clamped, voided, p_.interrupts() - a.interrupts);
  }
  // The anchors after the second reads, of the counter at each position (`index`, Mark::index):
  // the first thing finish() does. Region's end reads them on its own (profiler/region.hpp).
  struct After {
    std::uint64_t anchor[N];
    std::uint64_t raw[N];
    std::uint8_t index[N];
  };
  [[gnu::always_inline]] void anchors_after(const std::uint8_t (&index)[N], After& t) const {
    for (unsigned k = 0; k < N; ++k) {
      t.index[k] = index[k];
      t.raw[k] = 0;
      t.anchor[k] = index[k] == Counter::kInvalid ? 0 : p_.read_anchor(Counter{index[k]}, t.raw[k]);
    }
  }
  // The counter at each position now (what anchor() records).
  void positions(std::uint8_t (&index)[N]) const {
    for (unsigned k = 0; k < N; ++k) index[k] = counter_[k].index;
  }
  // finish()'s values from the anchors after (`t`): d[k] for the k-th counter selected (`used` of
  // them); true when the call is void. Region's end takes them too.
  [[gnu::always_inline]] bool differences(const Mark& a, const Lows& b, const After& t, std::uint64_t (&d)[N],
                                          unsigned& used) const {
    const std::uint64_t(&raw)[N] = t.raw;
    const std::uint64_t(&anchor)[N] = t.anchor;
    bool voided = !p_.running() || p_.epoch() != a.epoch;
    used = 0;
    for (unsigned k = 0; k < N; ++k) {
      const Counter c{a.index[k]};
      if (c.index == Counter::kInvalid) continue;
      const unsigned slot = p_.slot_of(c);
      voided |= !p_.valid(c) || (p_.sampled_slots() & (std::uint32_t{1} << (slot & 31))) != 0;
      const std::uint64_t first = a.anchor[k] + step(slot, a.anchor_low[k], a.low[k]);
      const std::uint64_t second = anchor[k] - step(slot, b.low[k], static_cast<Low>(raw[k]));
      voided |= second < first;
      d[used++] = second - first;
    }
    return voided || used == 0;  // nothing selected
  }

  // The smallest cost of an empty region becomes the overhead of each counter (the code every
  // region runs). Counters running, counters selected. Staggered as Regions::calibrate, for coarse
  // clocks.
  void calibrate(unsigned iterations = 16) {
    for (auto& o : overhead_) o = 0;
    RegionStats<B> empty{"calibration"};
    for (unsigned it = 0; it < iterations; ++it) {
      CounterRegion<B, N> r{*this, empty};
    }
    for (unsigned it = 0; it < iterations; ++it) {
      stagger_region(it);
      CounterRegion<B, N> r{*this, empty};
    }
    for (unsigned k = 0; k < N; ++k) overhead_[k] = empty.calls > empty.voided ? empty.min[k] : 0;
  }
  std::uint64_t overhead(unsigned k = 0) const { return k < N ? overhead_[k] : 0; }

  // Events from x to y, two reads of one register a few instructions apart: modulo the low bits a
  // fold leaves alone (see the top); a counter stopped at its maximum moved by y alone, if at all.
  static Low step(unsigned slot, Low x, Low y) {
    if (Profiler<B>::stopped_at_max(slot, x)) return y == x ? 0 : y;
    const unsigned bits = B::width(slot) < 32 ? B::width(slot) : 32;
    return static_cast<Low>((y - x) & low_mask(bits));
  }

 private:
  // In order (a comma fold is sequenced left to right). Kept: each value kept before the next read
  // (Region's: no scheduler groups the reads at one site and not at another, as MIPS's loads
  // before their stores in Regions::calibrate()'s loop but not at a region's site).
  template <bool Kept = false, class M, std::size_t... I>  // M: Mark or Lows
  [[gnu::always_inline]] void first_reads(M& m, const Handles& r, std::index_sequence<I...>) const {
    ((m.low[I] = read_by(handle<Kept>(r, I)), keep<Kept>()), ...);
  }
  template <bool Kept = false, class M, std::size_t... I>  // M: Lows, or Region's slot (volatile)
  [[gnu::always_inline]] void second_reads(M& b, const Handles& r, std::index_sequence<I...>) const {
    ((b.low[N - 1 - I] = read_by(handle<Kept>(r, N - 1 - I)), keep<Kept>()), ...);
  }
  template <bool Kept>
  [[gnu::always_inline]] static void keep() {
    if constexpr (Kept) pmu::schedule_barrier();
  }
  template <std::size_t... I>
  [[gnu::always_inline]] static void copy(Mark& to, const Mark& from, std::index_sequence<I...>) {
    ((to.anchor[I] = from.anchor[I], to.anchor_low[I] = from.anchor_low[I], to.low[I] = from.low[I],
      to.index[I] = from.index[I]),
     ...);
  }
  // Position k reads counter *c, or (null) nothing that counts.
  void set(unsigned k, const Counter* c) {
    const unsigned slot = c ? p_.slot_of(*c) : B::kSlots;
    read_[k] = c ? pick(slot, std::make_integer_sequence<unsigned, B::kSlots>{}) : &read_none;
    if constexpr (kByAddress) address_[k] = c ? B::counter_address(slot) : &unused_;
    counter_[k] = c ? *c : Counter{};
  }
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
  static inline volatile Low unused_ = 0;  // what an unused position loads (kByAddress)

  Profiler<B>& p_;
  Read read_[N];
  [[no_unique_address]] std::conditional_t<kByAddress, const volatile Low*[N], Empty> address_{};
  Counter counter_[N];
  std::uint8_t n_ = 0;
  std::uint64_t overhead_[N]{};
};

// Scoped: measures from construction to destruction. Inline: between a counter's two reads only
// the first reader's return, the first value kept, the second reader's call, and the reads of the
// counters nested inside it (bench/zero_cost gates it: window_region_1counter,
// window_region_<N>counters).
template <Backend B, unsigned N>
class CounterRegion {
  using Low = typename CounterRegions<B, N>::Low;

 public:
  [[gnu::always_inline]] CounterRegion(const CounterRegions<B, N>& r, RegionStats<B>& stats)
      : r_(r), stats_(stats), read_(r.readers()), start_(r.begin(read_)) {}
  [[gnu::always_inline]] ~CounterRegion() {
    // Inline reads: the second as after a call, whatever the body (the first value kept where a
    // call leaves it), so an empty region, calibrate()'s, has the window of one around a call. A
    // reader called through a pointer is such a call already.
    if constexpr (CounterRegions<B, N>::kOneSlot || CounterRegions<B, N>::kByAddress) {
      pmu::compiler_barrier();
      pmu::call_barrier();
    }
    const auto b = r_.second_reads(read_);
    pmu::schedule_barrier();  // what follows the region stays after its second reads
    // finish() takes a copy by reference: start_'s own address given to a call would be one any
    // call in the region might use (its values in memory, loaded again). Not by value: a block move.
    typename CounterRegions<B, N>::Mark a;
    CounterRegions<B, N>::copy(a, start_);
    r_.finish(a, b, stats_);
  }
  CounterRegion(const CounterRegion&) = delete;
  CounterRegion& operator=(const CounterRegion&) = delete;

 private:
  const CounterRegions<B, N>& r_;
  RegionStats<B>& stats_;
  const typename CounterRegions<B, N>::Handles read_;
  const typename CounterRegions<B, N>::Mark start_;
};

}  // namespace prof
