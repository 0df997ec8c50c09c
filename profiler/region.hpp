#pragma once
// Code regions: how many events (per added counter) a piece of code costs, with the fixed cost of
// the measurement itself calibrated once and subtracted, so an empty region reads 0.
//
//   prof::Regions<Pmu> regions{profiler};
//   regions.calibrate();                                   // after adding counters and start()
//   static prof::RegionStats<Pmu> crc_stats{"crc32"};
//   { prof::Region r{regions, crc_stats}; crc32(buf, n); }  // RAII
//
// Two ways to read the counters, with the same code at every region's site:
//   - prepared (up to kPositions counters, none linked, none armed for sampling, no fast vector's
//     re-arms, the profiler running): Regions keeps a read sequence for the counters added
//     (CounterRegions<Pmu, kPositions>, profiler/counter_region.hpp), made again at the next begin
//     after the counters changed (Profiler::layout()). Region's constructor is inline and ends
//     with the first reads, in position order; its destructor begins with the second reads, in the
//     reverse order (nested). Counter 0 (the first added) is innermost: its window is a counter
//     region's, at most 4 instructions between the reads on every target (bench/zero_cost gates it:
//     window_run_region_<N>counters); counter i's holds the reads of counters 0..i-1 too (one read
//     each side: the reader's call and return and the value kept). Each counter is
//     anchored out of line (its whole value, extended across folds) just before its first read and
//     just after its second, so no status read or fold check is in the window;
//   - else (more counters, a linked pair, a sampled counter, a stopped profiler, a clock backend)
//     the positions read nothing that counts, and begin's out-of-line part ends, and end's begins,
//     with a sweep of every counter (Profiler::take: the registers bracketed by the overflow status
//     and the fold count) or read() of each: tens to hundreds of instructions between a counter's
//     reads, calibrated away (calibrate() runs an empty Region in a function of its own).
//     A region prepared at begin that finds a counter armed or the profiler stopped at its end is
//     voided (a re-arm between an anchor and its read would move the register unseen). This
//     window holds the code at the region's site around the inline reads too: the same as
//     calibrate()'s with GCC; clang's register allocation can put an instruction or two more or
//     less there (the MIPS CM example under pmusim: 1).
// Either way each counter's overhead (the instructions between its two reads) is the same in every
// region, and calibrate() measures both ways (so a counter armed after it falls back calibrated)
// and removes it.
//
// What a region keeps: its state (the epoch, the anchors or the sweep's snapshot, the inline reads'
// values) is in one of kNesting slots shared by the Regions of a backend,
// claimed by open() with interrupts masked (pmu::IrqGuard: a region in an interrupt handler, or in
// a task switched to from one, between the test and the set takes another slot) and released by
// finish(), whose own frame holds end's anchors or sweep while it runs; the statistics' address
// is in the slot too (given to open()). The Region object holds the Regions' and the slot's
// pointers and the readers (or, where the caller has no registers for them, reads them from the
// object): no snapshot, no copy for finish(), no end state in the caller's frame
// (bench/zero_cost gates the frame: frame_run_region, at most 64 bytes more than the same function
// without the region; XScale 8, was 120 with the sweep's snapshot in the Region). The inline reads
// store each value into the slot right after its read (volatile words: one store, the same at every
// site, where a value kept in a register costs a move and a spilled one a store), so no value of
// the caller is spilled and loaded again in a window. More regions open at once than slots (nested
// deeper than kNesting, interrupt handlers included): counted voided at begin, never a wrong value. The readers are called through the object on ARM, as on i386
// (CounterRegions::kKeptCallThroughObject: one load before each call, calibrate()'s too). bench/
// zero_cost gates the window around a call with an argument: window_run_region_call_arg_<N>counters.
// A measured value below the overhead (jitter on real hardware)
// is clamped to 0 and counted in `clamped`; a region across a reset of the counters (or one that
// read a counter going backwards: that counter) means nothing, adds 0 and is counted in `voided`. Neither is ever
// reported as a huge unsigned number, and both go into the dump (REGION, format 1.3) for the report
// to flag.
//
// begin(Mark&)/end(): the same out of line (the C API's regions, profile_main's run), their state in
// the Mark (no slot: the C API keeps one per region number, open in any order), calibrated
// separately by calibrate_calls() (call_overhead()), as their window holds begin's return and end's
// call; what the caller runs between them besides its body (the C API's checks: a few
// instructions) is not.
// Interrupts: a region may run in a handler (end updates only its own RegionStats); a preparation
// it makes rewrites the sequence from the profiler's state, the same in every context.
#include <cstddef>
#include <cstdint>
#include <utility>

#include "hal/core/bus/barrier.hpp"
#include "hal/core/bus/irq.hpp"
#include "profiler/counter_region.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region_stats.hpp"

#ifndef PMUKIT_REGION_SLOTS
#define PMUKIT_REGION_SLOTS 4
#endif

namespace prof {

template <Backend B>
class Region;

template <Backend B>
class Regions {
 public:
  static constexpr unsigned kMax = Profiler<B>::kMaxCounters;
  // The prepared read sequence's positions: regions on this many counters or fewer get it.
  static constexpr unsigned kPositions = kMax < 4 ? kMax : 4;
  using Prepared = CounterRegions<B, kPositions>;
  // A backend whose read is software (prof::ClockBackend: a clock, running or latched) is never
  // prepared: its read inline at each site would be branches laid out differently at each one,
  // so the window would differ from calibrate()'s. Its regions sweep, out of line, as before.
  static constexpr bool kPrepares = !requires { B::kSoftwareRead; };

  // What begin leaves for end, besides the prepared sequence's first reads.
  struct State {
    std::uint32_t epoch;       // Profiler::epoch() at begin: a reset in between voids the region
    std::uint32_t interrupts;  // Profiler::interrupts() at begin
    std::uint32_t switches;    // Profiler::switches() at begin
    bool prepared;             // the prepared reads count; else swept or read_each
    bool swept;                // not prepared: begin's choice; end follows it
    union {
      typename Prepared::Mark at;           // prepared: the anchors
      typename Profiler<B>::Snapshot snap;  // swept: the registers; else snap.high holds read()'s values
    };
  };
  // What finish reads right after the second reads: the anchors after, or the sweep. A local of
  // finish(), not in the slot: it lives only while finish runs.
  struct End {
    bool prepared, swept;
    union {
      typename Prepared::After after;
      typename Profiler<B>::Snapshot snap;
    };
  };
  // One region's state between its begin and its end: not in the Region (a caller's stack frame)
  // but in one of the Regions' kNesting slots, claimed at begin and released at end; a Region keeps
  // only a pointer to it. `bit`: the slot's bit in busy_ (0: a Mark's own or the spare). `stats`:
  // the region's statistics, given at begin, and `owner` the Regions that claimed it, so that end's
  // call has one argument at every site, the slot's pointer open() returned (a swept region's window
  // holds its set-up: one move from the register that kept it across the body).
  struct Slot {
    State start;
    RegionStats<B>* stats;
    const Regions* owner;
    std::uint32_t bit;
    struct Reads {
      volatile typename Prepared::Low low[kPositions];
    } first, second;  // the inline reads, stored by the region's site
  };
  // Regions open at once through Region (nested, or in interrupt handlers and other tasks inside
  // them): PMUKIT_REGION_SLOTS, 4 unless the build defines it (1 to 32; each slot is RAM). One more
  // finds no slot: it is counted voided at once (never a wrong value) and its reads go into the
  // spare slot, never used.
  static constexpr unsigned kNesting = PMUKIT_REGION_SLOTS;
  static_assert(kNesting >= 1 && kNesting <= 32, "PMUKIT_REGION_SLOTS: 1 to 32 regions open at once");
  // begin(Mark&)/end()'s: their own slot (the C API keeps one per region number).
  // The readers are not kept: end() takes the sequence's readers again (prepared again for other
  // counters in between, finish() finds another counter at a position and voids the region).
  struct Mark {
    Slot slot;
  };

  explicit Regions(Profiler<B>& p) : p_(p), prepared_(p) {}
  const Profiler<B>& profiler() const { return p_; }
  const Prepared& prepared() const { return prepared_; }
  // Counters the prepared sequence reads (0: regions sweep), as of the last begin or calibrate().
  unsigned prepared_count() const { return prepared_n_; }
  // Slots claimed now (a bit each): 0 when no Region is open.
  std::uint32_t slots_busy() const { return busy_; }

  // Region's begin, out of line: a slot claimed, then begin's part (fill): the preparation (again
  // if the profiler's counters changed), the state and the anchors, then, not prepared, the sweep:
  // the last thing before the first reads. No slot free: the call is counted voided in `stats` now
  // (in the region's own context, as its end would) and the spare slot returned, whose reads are
  // stored there and never used (several regions may share it: nothing of it is read).
  [[gnu::noinline, PROF_REGION_CALL]] Slot* open(RegionStats<B>& stats) const {
    Slot* s = claim();
    if (!s) {
      stats.close(false, true);
      return &spare_;
    }
    s->stats = &stats;
    s->owner = this;
    fill(*s);
    return s;
  }

  // Region's end, out of line, right after the second reads: the slot's owner's close(). One
  // argument, the slot open() returned, which the caller keeps in a register across the body: the
  // same one move at every region's site (a swept region's window holds it), where the Regions'
  // address could be a register at one site and a constant built in two to four instructions at
  // another (e500's calibration: four).
  [[gnu::noinline, PROF_REGION_CALL]] static void finish(Slot* s) {
    if (s == &spare_) return;  // counted voided by open()
    s->owner->close(*s);
  }

 private:
  // The anchors after (prepared), or the sweep, first; then the values into the slot's statistics,
  // less the overhead calibrated for the way begin read (Region's, or begin(Mark&)'s: a slot of no
  // bit), and the slot released. A region whose end read another way than its begin (a counter
  // armed, the profiler stopped or started inside it) is voided.
  [[gnu::always_inline]] void close(Slot& slot) const {
    Slot* const s = &slot;
    RegionStats<B>& stats = *s->stats;
    const bool out_of_line = s->bit == 0;
    End e;
    e.prepared = prepared_n_ != 0 && p_.running();  // begin's way, unless the counters changed (voided below)
    e.swept = p_.sweepable();
    if (e.prepared) {
      std::uint8_t index[kPositions];
      prepared_.positions(index);
      prepared_.anchors_after(index, e.after);
    } else if (e.swept) {
      p_.template take<false>(e.snap);
    } else {
      read_each(e.snap);
    }
    typename Prepared::Lows first, b;
    for (unsigned k = 0; k < kPositions; ++k) {
      first.low[k] = s->first.low[k];
      b.low[k] = s->second.low[k];
    }
    const State& start = s->start;
    const bool prepared = start.prepared, swept = start.swept;
    std::uint64_t d[kMax] = {};
    bool back[kMax] = {};  // swept: counter i read going backwards (itself voided, and the call)
    const unsigned n = p_.counters_added();
    bool voided;  // the whole call
    if (prepared) {
      std::uint64_t dp[kPositions] = {};
      unsigned used = 0;
      typename Prepared::Mark& a = s->start.at;  // the slot's own: released below
      bool other = !e.prepared;  // read another way at end, or other counters
      for (unsigned k = 0; k < kPositions; ++k) {
        a.low[k] = first.low[k];
        other |= e.prepared && e.after.index[k] != a.index[k];
      }
      voided = other || prepared_.differences(a, b, e.after, dp, used) || used != n;
      for (unsigned k = 0; k < used && k < n; ++k) d[n - 1 - k] = dp[k];  // position order: counter n-1 first
    } else {
      // Counters reset (start, reset, accumulate) inside the region: its difference means nothing.
      voided = p_.epoch() != start.epoch || e.prepared || e.swept != swept;
      for (unsigned i = 0; i < n && !e.prepared; ++i) {
        const std::uint64_t x = value(start.snap, i, swept), y = value(e.snap, i, swept);
        back[i] = y < x;
        d[i] = y - x;
      }
    }
    // A narrow polled counter over too long a region (narrow_unbounded): void, never wrong.
    voided |= narrow_unbounded(d);
    const Overheads& o = out_of_line ? call_overhead_ : overhead_;
    const std::uint64_t* overhead = prepared ? o.prepared : o.swept;
    const std::uint32_t interrupts = p_.interrupts() - start.interrupts;
    const bool switched = p_.switches() != start.switches;
    release(*s);
    bool clamped = false, any_back = false;
    for (unsigned i = 0; i < n; ++i) {
      stats.add(i, net_of(d[i], overhead[i], voided || back[i], clamped));
      any_back |= back[i];
    }
    stats.close(clamped, voided || any_back, interrupts, switched);
  }

 public:
  // A region out of line (the C API's): begin's reads the last thing begin(Mark&) does, end's the
  // first thing end() does. Its state in the Mark, not a slot. Calibrated by calibrate() as such
  // (call_overhead()).
  [[gnu::noinline]] void begin(Mark& m) const {
    m.slot.bit = 0;
    m.slot.stats = nullptr;
    m.slot.owner = this;
    fill(m.slot);
    if constexpr (kPrepares) prepared_.first_reads_to(m.slot.first, prepared_.readers());
  }
  [[gnu::noinline]] void end(Mark& m, RegionStats<B>& stats) const {
    if constexpr (kPrepares) prepared_.second_reads_to(m.slot.second, prepared_.readers());
    pmu::schedule_barrier();
    m.slot.stats = &stats;
    finish(&m.slot);
  }

  // Measures an empty Region `iterations` times — the very code a real region runs — and keeps
  // the smallest cost per counter as the overhead; the same for begin(Mark&)/end(). Both ways of
  // reading: prepared (if the counters allow it now) and swept (what a region falls back to when a
  // counter is armed for sampling later). Call with the counters running. A clock coarser than an
  // instruction reads the same code one tick apart depending on where its ticks fall; a second
  // pass with a delay that grows with each iteration moves the region across the clock's phases,
  // so the minimum is the true one and not the one phase the first pass happened to lock onto.
  void calibrate(unsigned iterations = 16) { calibrate_ways<false>(iterations); }
  // The same for begin(Mark&)/end() (call_overhead(): the C API's regions, profile_main's run),
  // apart so that an image with Regions alone has no copy of them.
  void calibrate_calls(unsigned iterations = 16) { calibrate_ways<true>(iterations); }
  // Counter i's calibrated overhead for the way a Region reads it now (prepared or swept).
  std::uint64_t overhead(unsigned i) const {
    if (layout_ != p_.layout() || !ready_) prepare();
    if (i >= kMax) return 0;
    return prepared_n_ != 0 ? (i < kPositions ? overhead_.prepared[i] : 0) : overhead_.swept[i];
  }
  // The same for begin(Mark&)/end().
  std::uint64_t call_overhead(unsigned i) const {
    if (layout_ != p_.layout() || !ready_) prepare();
    if (i >= kMax) return 0;
    return prepared_n_ != 0 ? (i < kPositions ? call_overhead_.prepared[i] : 0) : call_overhead_.swept[i];
  }

  static void stagger(unsigned n) { stagger_region(n); }

 private:
  template <bool Calls>
  void calibrate_ways(unsigned iterations) {
    prepare();
    Overheads& o = Calls ? call_overhead_ : overhead_;
    o = Overheads{};
    for (unsigned way = 0; way < 2; ++way) {
      const bool swept = way == 1;
      if (!swept && prepared_n_ == 0) continue;
      if (swept) {  // as a fall-back runs: the positions read nothing
        prepared_.deselect();
        prepared_n_ = 0;
      }
      RegionStats<B> empty{"calibration"};
      for (unsigned pass = 0; pass < 2; ++pass)
        for (unsigned it = 0; it < iterations; ++it) {
          if (pass) stagger_region(it);
          if constexpr (Calls) {
            Mark m;
            begin(m);
            end(m, empty);
          } else {
            empty_region(empty);
          }
        }
      for (unsigned i = 0; i < p_.counters_added() && i < kMax; ++i) {
        if (swept)
          o.swept[i] = iterations ? empty.min[i] : 0;
        else if (i < kPositions)
          o.prepared[i] = iterations ? empty.min[i] : 0;
      }
    }
    prepare();
  }
  // An empty Region in a function of its own: the calibration loop's own instructions (its count,
  // its test) cannot be scheduled into the window, where a region at a site without them would
  // then read below the overhead (a swept region on the sampled counter, one instruction under:
  // ARM's loop counter moved before end's call). The barrier after it keeps end's call a call:
  // as a tail call, the function's epilogue ran before it, inside the window (MIPS: 4 more).
  [[gnu::noinline]] void empty_region(RegionStats<B>& stats) const {
    { Region<B> r{*this, stats}; }
    pmu::schedule_barrier();
  }
  // begin's part into a slot (Region's and begin(Mark&)'s): out of line, one copy.
  [[gnu::noinline]] void fill(Slot& slot) const {
    if (layout_ != p_.layout() || !ready_) prepare();
    State& s = slot.start;
    s.epoch = p_.epoch();
    s.interrupts = p_.interrupts();
    s.switches = p_.switches();
    s.prepared = prepared_n_ != 0 && p_.running();
    s.swept = p_.sweepable();
    if (s.prepared) {
      s.at = prepared_.anchor();
    } else if (s.swept) {
      p_.template take<true>(s.snap);
    } else {
      read_each(s.snap);
    }
  }
  // A free slot, claimed with interrupts masked: a region in an interrupt handler (or another task,
  // switched to by one) between the test and the set cannot take the same slot. Null: none free.
  Slot* claim() const {
    pmu::IrqGuard guard;
    const std::uint32_t busy = busy_;
    for (unsigned i = 0; i < kNesting; ++i) {
      const std::uint32_t bit = std::uint32_t{1} << i;
      if (busy & bit) continue;
      busy_ = busy | bit;
      slots_[i].bit = bit;
      return &slots_[i];
    }
    return nullptr;
  }
  void release(const Slot& s) const {
    if (!s.bit) return;  // a Mark's own
    pmu::IrqGuard guard;
    busy_ = busy_ & ~s.bit;
  }
  // The read sequence for the counters added, if they allow one (see the top): counter i at
  // position kPositions-1-i, so counter 0 is innermost. Else no position reads a counter.
  void prepare() const {
    const unsigned n = p_.counters_added();
    bool ok = kPrepares && n >= 1 && n <= kPositions && !p_.counts_rearms() && (p_.sampled_slots() & p_.used_slots()) == 0;
    if (ok) {
      Counter cs[kPositions];
      for (unsigned k = 0; k < n; ++k) cs[k] = Counter{static_cast<std::uint8_t>(n - 1 - k)};
      ok = prepared_.select(cs, n) == Status::ok;  // refuses linked and sampled counters
    }
    if (!ok) prepared_.deselect();
    prepared_n_ = static_cast<std::uint8_t>(ok ? n : 0);
    layout_ = p_.layout();
    ready_ = true;
  }
  [[gnu::noinline]] void read_each(typename Profiler<B>::Snapshot& s) const {  // the fallback: one copy for begin and end
    const unsigned n = p_.counters_added();
    for (unsigned i = 0; i < n; ++i) s.high[i] = p_.read(Counter{static_cast<std::uint8_t>(i)});
  }
  // A polled counter narrower than 32 bits (the Cortex-M DWT's 8-bit counters) is extended only
  // as often as fold() runs: a region's difference on it is exact (or else negative, hence voided)
  // over fewer than 2^width of its counts, whatever the polling. A driver that names its cycle
  // counter (kCycleSlot) and the slots that advance at most once per cycle (kOncePerCycleSlots)
  // lets a region keep such a counter while its cycles are below 2^width; past that, for another
  // narrow slot, or without the cycle counter added, the region is voided. d[i]: counter i's
  // difference.
  bool narrow_unbounded(const std::uint64_t* d) const {
    if constexpr (Profiler<B>::kPolled) {
      const unsigned n = p_.counters_added();
      std::uint64_t cycles = ~std::uint64_t{0};
      if constexpr (requires { B::kCycleSlot; }) {
        for (unsigned i = 0; i < n; ++i)
          if (p_.slot_of(Counter{static_cast<std::uint8_t>(i)}) == B::kCycleSlot) cycles = d[i];
      }
      for (unsigned i = 0; i < n; ++i) {
        const unsigned slot = p_.slot_of(Counter{static_cast<std::uint8_t>(i)});
        if (slot >= B::kSlots || B::width(slot) >= 32) continue;
        bool once = false;
        if constexpr (requires { B::kOncePerCycleSlots; }) once = (B::kOncePerCycleSlots >> slot) & 1u;
        if (!once || cycles >= (std::uint64_t{1} << B::width(slot))) return true;
      }
      return false;
    } else {
      (void)d;
      return false;
    }
  }
  std::uint64_t value(const typename Profiler<B>::Snapshot& m, unsigned i, bool swept) const {
    return swept ? p_.value(m, Counter{static_cast<std::uint8_t>(i)}) : m.high[i];
  }

  Profiler<B>& p_;
  mutable Prepared prepared_;
  mutable std::uint32_t layout_ = 0;   // Profiler::layout() when prepared_ was made
  mutable std::uint8_t prepared_n_ = 0;
  mutable bool ready_ = false;
  struct Overheads {
    std::uint64_t swept[kMax];
    std::uint64_t prepared[kPositions];
  };
  Overheads overhead_{};
  Overheads call_overhead_{};  // begin(Mark&)/end()'s
  // Shared by the Regions of one backend (all zero: in .bss, not in the object's .data image).
  static inline Slot slots_[kNesting];
  static inline Slot spare_;  // a region's when no slot is free
  static inline volatile std::uint32_t busy_ = 0;  // slots_ claimed: bit i for slots_[i]
};

// Scoped region: measures from construction to destruction. Inline: the out-of-line begin
// (Regions::open: a slot claimed and filled), then the first reads, the last thing the constructor
// does; the second reads the first thing the destructor does, then the out-of-line end
// (Regions::finish: end's anchors or sweep, the slot read and released). Prepared, only the reads'
// calls and the first values kept are between a counter's reads (bench/zero_cost:
// window_run_region_<N>counters); else the positions read nothing and the sweeps hold the window.
// The object holds the slot's pointer (and the readers where they are kept in registers); the
// reads' values go into the slot: a caller's frame grows by a few words at most (bench/zero_cost:
// frame_run_region).
template <Backend B>
class Region {
  using Prepared = typename Regions<B>::Prepared;

 public:
  [[gnu::always_inline]] Region(const Regions<B>& r, RegionStats<B>& stats)
      : r_(r), slot_(r.open(stats)), read_(r.prepared().readers()) {  // loaded after open()
    if constexpr (Regions<B>::kPrepares) r.prepared().first_reads_to(slot_->first, read_);
  }
  [[gnu::always_inline]] ~Region() {
    // As CounterRegion's: the second reads as after a call, whatever the body.
    if constexpr (Prepared::kOneSlot || Prepared::kByAddress) {
      pmu::compiler_barrier();
      pmu::call_barrier();
    }
    if constexpr (Regions<B>::kPrepares) r_.prepared().second_reads_to(slot_->second, read_);
    pmu::schedule_barrier();  // what follows the region stays after its second reads
    Regions<B>::finish(slot_);
  }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

 private:
  const Regions<B>& r_;
  typename Regions<B>::Slot* const slot_;  // before read_: the readers are loaded after open()
  const typename Prepared::Handles read_;
};

}  // namespace prof
