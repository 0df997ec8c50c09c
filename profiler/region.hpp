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
//   - else (more counters, a linked pair, a sampled counter, a stopped profiler) the positions
//     read nothing that counts, and begin's out-of-line part ends, and end's begins, with a sweep
//     of every counter (Profiler::take: the registers bracketed by the overflow status and the fold
//     count) or read() of each: 44 to 320 instructions between a counter's reads, calibrated away.
//     A region prepared at begin that finds a counter armed or the profiler stopped at its end is
//     voided (a re-arm between an anchor and its read would move the register unseen). This
//     window holds the code at the region's site around the inline reads too: the same as
//     calibrate()'s with GCC; clang's register allocation can put an instruction or two more or
//     less there (the MIPS CM example under pmusim: 1).
// Either way each counter's overhead (the instructions between its two reads) is the same in every
// region, and calibrate() measures both ways (so a counter armed after it falls back calibrated)
// and removes it. Around a body, the readers kept in callee-saved registers may make the body
// reload a value of its own (XScale's example: 1 instruction): that is the body's. A measured value below the overhead (jitter on real hardware)
// is clamped to 0 and counted in `clamped`; a region across a reset of the counters (or one that
// read a counter going backwards: that counter) means nothing, adds 0 and is counted in `voided`. Neither is ever
// reported as a huge unsigned number, and both go into the dump (REGION, format 1.3) for the report
// to flag.
//
// begin(Mark&)/end(): the same out of line (the C API's regions, profile_main's run), calibrated
// separately (call_overhead()), as their window holds begin's return and end's call; what the
// caller runs between them besides its body (the C API's checks: a few instructions) is not.
// Interrupts: a region may run in a handler (end updates only its own RegionStats); a preparation
// it makes rewrites the sequence from the profiler's state, the same in every context.
#include <cstddef>
#include <cstdint>

#include "hal/core/bus/barrier.hpp"
#include "profiler/counter_region.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region_stats.hpp"

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

  // What begin leaves for end, besides the prepared sequence's first reads.
  struct State {
    std::uint32_t epoch;       // Profiler::epoch() at begin: a reset in between voids the region
    std::uint32_t interrupts;  // Profiler::interrupts() at begin
    std::uint32_t switches;    // Profiler::switches() at begin
    bool prepared;             // the prepared reads count; else swept or read_each
    bool swept;                // not prepared: begin's choice; end follows it
    typename Prepared::Mark at;           // prepared: the anchors
    typename Profiler<B>::Snapshot snap;  // swept: the registers; else snap.high holds read()'s values
  };
  // What end reads right after the second reads (end_reads): the anchors after, or the sweep.
  struct End {
    bool prepared, swept;
    typename Prepared::After after;
    typename Profiler<B>::Snapshot snap;
  };
  // begin(Mark&)/end()'s.
  struct Mark {
    State state;
    typename Prepared::Handles read;  // the readers the first reads used
    typename Prepared::Lows first;    // the first reads
  };

  constexpr explicit Regions(Profiler<B>& p) : p_(p), prepared_(p) {}
  const Profiler<B>& profiler() const { return p_; }
  const Prepared& prepared() const { return prepared_; }
  // Counters the prepared sequence reads (0: regions sweep), as of the last begin or calibrate().
  unsigned prepared_count() const { return prepared_n_; }

  // Region's begin, out of line: the preparation (again if the profiler's counters changed), the
  // state and the anchors, then, not prepared, the sweep: the last thing before the first reads.
  // Returned by value: a region's own storage is never passed by address, so the readers and
  // values it keeps stay in registers across the body.
  [[gnu::noinline, PROF_REGION_CALL]] State open() const {
    if (layout_ != p_.layout() || !ready_) prepare();
    State s;
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
    return s;
  }

  // Region's end, out of line, right after the second reads: the anchors after (prepared), or the
  // sweep. Two arguments (the object and a local of end's): the same few instructions at every
  // region's site, inside a swept region's window.
  [[gnu::noinline, PROF_REGION_CALL]] void end_reads(End& e) const {
    e.prepared = prepared_n_ != 0 && p_.running();  // begin's way, unless the counters changed (close voids)
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
  }

  // Then, out of line: the values into `stats`, less the overhead calibrated for the way begin read
  // (Region's, or begin(Mark&)'s: out_of_line). A region whose end read another way than its begin
  // (a counter armed, the profiler stopped or started inside it) is voided.
  [[gnu::noinline, PROF_REGION_CALL]] void close(State start, typename Prepared::Lows first,
                                                 typename Prepared::Lows b, const End& e, RegionStats<B>& stats,
                                                 bool out_of_line = false) const {
    const bool prepared = start.prepared, swept = start.swept;
    std::uint64_t d[kMax] = {};
    bool back[kMax] = {};  // swept: counter i read going backwards (itself voided, and the call)
    const unsigned n = p_.counters_added();
    bool voided;  // the whole call
    if (prepared) {
      std::uint64_t dp[kPositions] = {};
      unsigned used = 0;
      typename Prepared::Mark a = start.at;
      bool other = !e.prepared;  // read another way at end, or other counters
      for (unsigned k = 0; k < kPositions; ++k) {
        a.low[k] = first.low[k];
        other |= e.after.index[k] != a.index[k];
      }
      voided = prepared_.differences(a, b, e.after, dp, used) || used != n || other;
      for (unsigned k = 0; k < used && k < n; ++k) d[n - 1 - k] = dp[k];  // position order: counter n-1 first
    } else {
      // Counters reset (start, reset, accumulate) inside the region: its difference means nothing.
      voided = p_.epoch() != start.epoch || e.prepared || e.swept != swept;
      for (unsigned i = 0; i < n; ++i) {
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
    bool clamped = false, any_back = false;
    for (unsigned i = 0; i < n; ++i) {
      stats.add(i, net_of(d[i], overhead[i], voided || back[i], clamped));
      any_back |= back[i];
    }
    stats.close(clamped, voided || any_back, interrupts, p_.switches() != start.switches);
  }

  // A region out of line (the C API's): begin's reads the last thing begin(Mark&) does, end's the
  // first thing end() does. Calibrated by calibrate() as such (call_overhead()).
  [[gnu::noinline]] void begin(Mark& m) const {
    m.state = open();
    m.read = prepared_.readers();
    m.first = prepared_.first_lows(m.read);
  }
  [[gnu::noinline]] void end(const Mark& m, RegionStats<B>& stats) const {
    const typename Prepared::Lows b = prepared_.template second_reads<true>(m.read);
    pmu::schedule_barrier();
    End e;
    end_reads(e);
    close(m.state, m.first, b, e, stats, true);
  }

  // Measures an empty Region `iterations` times — the very code a real region runs — and keeps
  // the smallest cost per counter as the overhead; the same for begin(Mark&)/end(). Both ways of
  // reading: prepared (if the counters allow it now) and swept (what a region falls back to when a
  // counter is armed for sampling later). Call with the counters running. A clock coarser than an
  // instruction reads the same code one tick apart depending on where its ticks fall; a second
  // pass with a delay that grows with each iteration moves the region across the clock's phases,
  // so the minimum is the true one and not the one phase the first pass happened to lock onto.
  void calibrate(unsigned iterations = 16) {
    prepare();
    overhead_ = Overheads{};
    call_overhead_ = Overheads{};
    for (unsigned way = 0; way < 2; ++way) {
      const bool swept = way == 1;
      if (!swept && prepared_n_ == 0) continue;
      if (swept) {  // as a fall-back runs: the positions read nothing
        prepared_.deselect();
        prepared_n_ = 0;
      }
      RegionStats<B> empty{"calibration"}, call{"calibration"};
      for (unsigned pass = 0; pass < 2; ++pass)
        for (unsigned it = 0; it < iterations; ++it) {
          if (pass) stagger_region(it);
          Region<B> r{*this, empty};
        }
      for (unsigned pass = 0; pass < 2; ++pass)
        for (unsigned it = 0; it < iterations; ++it) {
          if (pass) stagger_region(it);
          Mark m;
          begin(m);
          end(m, call);
        }
      for (unsigned i = 0; i < p_.counters_added() && i < kMax; ++i) {
        if (swept) {
          overhead_.swept[i] = iterations ? empty.min[i] : 0;
          call_overhead_.swept[i] = iterations ? call.min[i] : 0;
        } else if (i < kPositions) {
          overhead_.prepared[i] = iterations ? empty.min[i] : 0;
          call_overhead_.prepared[i] = iterations ? call.min[i] : 0;
        }
      }
    }
    prepare();
  }
  // Counter i's calibrated overhead for the way a Region reads it now (prepared or swept).
  std::uint64_t overhead(unsigned i) const {
    if (layout_ != p_.layout() || !ready_) prepare();
    if (i >= kMax) return 0;
    return prepared_n_ != 0 ? (i < kPositions ? overhead_.prepared[i] : 0) : overhead_.swept[i];
  }
  // The same for the sweep and for begin(Mark&)/end().
  std::uint64_t sweep_overhead(unsigned i) const { return i < kMax ? overhead_.swept[i] : 0; }
  std::uint64_t call_overhead(unsigned i) const {
    if (layout_ != p_.layout() || !ready_) prepare();
    if (i >= kMax) return 0;
    return prepared_n_ != 0 ? (i < kPositions ? call_overhead_.prepared[i] : 0) : call_overhead_.swept[i];
  }

  static void stagger(unsigned n) { stagger_region(n); }

 private:
  // The read sequence for the counters added, if they allow one (see the top): counter i at
  // position kPositions-1-i, so counter 0 is innermost. Else no position reads a counter.
  void prepare() const {
    const unsigned n = p_.counters_added();
    bool ok = n >= 1 && n <= kPositions && !p_.counts_rearms() && (p_.sampled_slots() & p_.used_slots()) == 0;
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
};

// Scoped region: measures from construction to destruction. Inline: the out-of-line begin
// (Regions::open), then the first reads, the last thing the constructor does; the second reads
// the first thing the destructor does, then the out-of-line end (Regions::close). Prepared, only
// the reads' calls and the first values kept are between a counter's reads (bench/zero_cost:
// window_run_region_<N>counters); else the positions read nothing and the sweeps hold the window.
template <Backend B>
class Region {
  using Prepared = typename Regions<B>::Prepared;

 public:
  [[gnu::always_inline]] Region(const Regions<B>& r, RegionStats<B>& stats)
      : r_(r), stats_(stats), open_(r.open()), read_(r.prepared().readers()),  // loaded after open()
        first_(r.prepared().first_lows(read_)) {}
  [[gnu::always_inline]] ~Region() {
    // As CounterRegion's: the second reads as after a call, whatever the body.
    if constexpr (Prepared::kOneSlot || Prepared::kByAddress) {
      pmu::compiler_barrier();
      pmu::call_barrier();
    }
    const typename Prepared::Lows b = r_.prepared().template second_reads<true>(read_);
    pmu::schedule_barrier();  // what follows the region stays after its second reads
    typename Regions<B>::End e;  // a local of its own: the region's storage is not passed by address
    r_.end_reads(e);
    r_.close(open_, first_, b, e, stats_);
  }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

 private:
  const Regions<B>& r_;
  RegionStats<B>& stats_;
  const typename Regions<B>::State open_;  // before read_: the readers are loaded after open()
  const typename Prepared::Handles read_;
  const typename Prepared::Lows first_;
};

}  // namespace prof
