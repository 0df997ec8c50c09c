#pragma once
// Code regions: how many events (per added counter) a piece of code costs, with the fixed cost of
// the measurement itself calibrated once and subtracted, so an empty region reads 0.
//
//   prof::Regions<Pmu> regions{profiler};
//   regions.calibrate();                                   // after adding counters and start()
//   static prof::RegionStats<Pmu> crc_stats{"crc32"};
//   { prof::Region r{regions, crc_stats}; crc32(buf, n); }  // RAII
//
// Begin reads every counter in add() order, end reads them in the same order, so each counter's
// overhead (the instructions between its two reads) is the same in every region and calibration
// can remove it. A measured value below the overhead (jitter on real hardware) is clamped to 0 and
// counted in `clamped`; a region across a reset of the counters (or one that read a counter going
// backwards) means nothing, adds 0 and is counted in `voided`. Neither is ever reported as a huge
// unsigned number, and both go into the dump (REGION, format 1.3) for the report to flag.
#include <cstddef>
#include <cstdint>

#include "profiler/profiler.hpp"

namespace prof {

// All zero bytes mean "no measurement" (calls == 0; the first call sets min): an unnamed
// RegionStats at namespace scope is constant-initialised to zero and lands in .bss (RAM only),
// not in .data, whose initial image is stored in flash too. So the name pointer is null by
// default. A name given at construction is a non-zero pointer, which puts the whole object into
// .data; where flash counts, name the region at run time instead (`stats.name = "crc32";`, a
// string in .rodata).
template <Backend B>
struct RegionStats {
  static constexpr unsigned kMax = Profiler<B>::kMaxCounters;
  const char* name = nullptr;  // null: unnamed (the dump writes an empty name)
  std::uint64_t calls = 0;    // 64-bit like the dump's field: no wrap, so `min` is never lost
  std::uint64_t clamped = 0;  // calls below the calibrated overhead: 0 added
  std::uint64_t voided = 0;   // calls across a reset of the counters: 0 added
  std::uint64_t interrupts = 0;  // sampling interrupts inside the calls: their handlers' events are in the totals
  std::uint64_t switched = 0;    // calls with a task switch inside (TaskCounters): other tasks' time is in them
  // min and max before total: a region's update touches each twice as often, and on i386 an
  // offset below 128 takes 1 byte instead of 4 (NetBurst: 18 counters, so only the first array's
  // offset is that small; bench/footprint).
  std::uint64_t min[kMax]{};
  std::uint64_t max[kMax]{};
  std::uint64_t total[kMax]{};

  constexpr RegionStats() = default;
  constexpr explicit RegionStats(const char* n) : name(n) {}
  void clear() { *this = RegionStats{name}; }

  // One region's value for counter i (less the overhead; 0 if clamped). close() ends the region.
  void add(unsigned i, std::uint64_t d) {
    total[i] += d;
    if (calls == 0 || d < min[i]) min[i] = d;
    if (d > max[i]) max[i] = d;
  }
  void close(bool was_clamped, bool was_voided = false, std::uint32_t interrupts_inside = 0,
             bool was_switched = false) {
    calls++;
    interrupts += interrupts_inside;
    switched += was_switched;
    voided += was_voided;
    clamped += was_clamped && !was_voided;
  }
};

// A difference less the calibrated overhead; 0, with `clamped` set, when the region is void or the
// difference is below the overhead (jitter). T: std::uint64_t, or a fast region's narrower Diff.
template <class T>
constexpr T net_of(T d, T overhead, bool voided, bool& clamped) {
  if (voided || d < overhead) {
    clamped = true;
    return 0;
  }
  return d - overhead;
}

template <Backend B>
class Region;

template <Backend B>
class Regions {
 public:
  static constexpr unsigned kMax = Profiler<B>::kMaxCounters;

  struct Mark {
    typename Profiler<B>::Snapshot snap;  // swept: the registers; else snap.high holds read()'s values
    std::uint32_t epoch;                  // Profiler::epoch() at begin: a reset in between voids the region
    std::uint32_t interrupts;             // Profiler::interrupts() at begin
    std::uint32_t switches;               // Profiler::switches() at begin
    bool swept;                           // begin's choice; end follows it
  };

  explicit Regions(Profiler<B>& p) : p_(p) {}
  const Profiler<B>& profiler() const { return p_; }

  // Out of line on purpose: a Region, calibrate() and the C API all run these same instructions
  // between the two reads of a counter, so the calibrated overhead is exactly what they cost.
  // Between the reads: the rest of the register sweep, the status and fold checks, the returns and
  // calls, and end's status read; no per-slot dispatch, no 64-bit extension, no statistics
  // (Profiler::take). Linked pairs or a stopped profiler take read() per counter instead.
  [[gnu::noinline]] Mark begin() const {
    Mark m;
    m.epoch = p_.epoch();
    m.interrupts = p_.interrupts();
    m.switches = p_.switches();
    m.swept = p_.sweepable();
    if (m.swept)
      p_.template take<true>(m.snap);
    else
      read_each(m);
    return m;
  }

  [[gnu::noinline]] void end(const Mark& start, RegionStats<B>& stats) const {
    Mark now;
    const bool swept = start.swept;  // a local: the reads' memory clobbers cannot change it
    if (swept)
      p_.template take<false>(now.snap);
    else
      read_each(now);
    const unsigned n = p_.counters_added();
    // Counters reset (start, reset, accumulate) inside the region: its difference means nothing.
    // A narrow polled counter over too long a region (narrow_unbounded): void, never wrong.
    const bool reset_inside = p_.epoch() != start.epoch || narrow_unbounded(start, now, swept);
    const std::uint32_t interrupts = p_.interrupts() - start.interrupts;
    bool clamped = false, voided = reset_inside;
    for (unsigned i = 0; i < n; ++i) {
      const std::uint64_t a = value(start, i, swept), b = value(now, i, swept);
      voided |= b < a;
      stats.add(i, net_of(b - a, overhead_[i], reset_inside || b < a, clamped));
    }
    stats.close(clamped, voided, interrupts, p_.switches() != start.switches);
  }

  // Measures an empty Region `iterations` times — the very code path a real region takes — and
  // keeps the smallest cost per counter as the overhead. Call with the counters running.
  // A clock coarser than an instruction reads the same code one tick apart depending on where its
  // ticks fall; a second pass with a delay that grows with each iteration moves the region across
  // the clock's phases, so the minimum is the true one and not the one phase the first pass
  // happened to lock onto.
  void calibrate(unsigned iterations = 16) {
    for (auto& o : overhead_) o = 0;
    RegionStats<B> empty{"calibration"};
    for (unsigned it = 0; it < iterations; ++it) {
      Region<B> r{*this, empty};
    }
    for (unsigned it = 0; it < iterations; ++it) {
      stagger(it);
      Region<B> r{*this, empty};
    }
    for (unsigned i = 0; i < p_.counters_added(); ++i) overhead_[i] = iterations ? empty.min[i] : 0;
  }
  std::uint64_t overhead(unsigned i) const { return i < kMax ? overhead_[i] : 0; }

  // Out of line, so the delay leaves the measured instructions exactly those of a real region.
  [[gnu::noinline]] static void stagger(unsigned n) {
    volatile unsigned i = 0;
    while (i < n) i = i + 1u;
  }

 private:
  [[gnu::noinline]] void read_each(Mark& m) const {  // the fallback: one copy for begin and end
    const unsigned n = p_.counters_added();
    for (unsigned i = 0; i < n; ++i) m.snap.high[i] = p_.read(Counter{static_cast<std::uint8_t>(i)});
  }
  // A polled counter narrower than 32 bits (the Cortex-M DWT's 8-bit counters) is extended only
  // as often as fold() runs: a region's difference on it is exact (or else negative, hence voided)
  // over fewer than 2^width of its counts, whatever the polling. A driver that names its cycle
  // counter (kCycleSlot) and the slots that advance at most once per cycle (kOncePerCycleSlots)
  // lets a region keep such a counter while its cycles are below 2^width; past that, for another
  // narrow slot, or without the cycle counter added, the region is voided.
  bool narrow_unbounded(const Mark& start, const Mark& now, bool swept) const {
    if constexpr (Profiler<B>::kPolled) {
      const unsigned n = p_.counters_added();
      std::uint64_t cycles = ~std::uint64_t{0};
      if constexpr (requires { B::kCycleSlot; }) {
        for (unsigned i = 0; i < n; ++i)
          if (p_.slot_of(Counter{static_cast<std::uint8_t>(i)}) == B::kCycleSlot)
            cycles = value(now, i, swept) - value(start, i, swept);
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
      (void)start, (void)now, (void)swept;
      return false;
    }
  }
  std::uint64_t value(const Mark& m, unsigned i, bool swept) const {
    return swept ? p_.value(m.snap, Counter{static_cast<std::uint8_t>(i)}) : m.snap.high[i];
  }

  Profiler<B>& p_;
  std::uint64_t overhead_[kMax]{};
};

// i386 passes arguments on the stack, and a call site then stores `this` with one or two
// instructions (a register, or an address computed first): inside the measured window, so an empty
// region would read a count away from the calibrated one. In registers it is one move everywhere.
#if defined(__i386__)
#define PROF_REGION_CALL gnu::regparm(3)
#else
#define PROF_REGION_CALL
#endif

// Scoped region: measures from construction to destruction.
template <Backend B>
class Region {
 public:
  [[gnu::noinline, PROF_REGION_CALL]] Region(const Regions<B>& r, RegionStats<B>& stats)
      : r_(r), stats_(stats), start_(r.begin()) {}
  [[gnu::noinline, PROF_REGION_CALL]] ~Region() { r_.end(start_, stats_); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

 private:
  const Regions<B>& r_;
  RegionStats<B>& stats_;
  typename Regions<B>::Mark start_;
};

}  // namespace prof
