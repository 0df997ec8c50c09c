#pragma once
// Fast regions: the counters are template arguments, so the two reads of a region are the
// driver's inline accessors (one instruction each: read<Slot>()) with none of the profiler's code
// between them. Use them around short code, where Region's out-of-line calls and run-time slot
// dispatch would disturb what is measured (caches, pipeline, interrupt latency).
//
//   prof::Profiler<Pmu> profiler;  ...  profiler.add_on(0, cycles, c);  profiler.start();
//   prof::FastRegions<Pmu, 0> fast{profiler};         // slot 0 (XScale: CCNT)
//   if (fast.check() != prof::Status::ok) ...         // every slot added, none armed for sampling
//   fast.calibrate();
//   static prof::RegionStats<Pmu> crc{"crc32"};
//   { prof::FastRegion r{fast, crc}; crc32(buf, n); }  // or fast.measure(crc, [&] { ... });
//
// Windows: begin reads the slots in the listed order and end reads them again in the same order,
// so each counter's window (what runs between its two reads) is the region plus the other
// counters' reads: the same for every counter and every region, and calibrate() removes it. With
// one slot the window is the region alone (bench/zero_cost gates it at 2 instructions at most).
// The Profiler's state is read before the first read and after the last one, and the difference
// is taken after the second read, modulo the counter register (prof::delta): no 64-bit extension
// and no statistics inside the window. Stats go to RegionStats index i for the i-th listed slot.
//
// Limits, each counted in RegionStats::clamped instead of reported wrong:
//   - a reset inside the region (start, reset, accumulate): the values are from two epochs;
//   - a fold inside the region on a PMU whose acknowledge rewrites the count (width 31: e500 and
//     RM7000 clear bit 31 of the counter): the raw difference lost 2^31;
//   - a value below the calibrated overhead.
// A region must stay below 2^32 events (2^40 on NetBurst): one register wrap is all the difference
// can see. Slots the Sampler presets are refused by check(): its interrupt rewrites them.
//
// Interrupts: begin(), end() and the reads are safe anywhere; record() (the destructor of
// FastRegion) updates its RegionStats: one context per RegionStats object.
#include <cstdint>

#include "profiler/profiler.hpp"
#include "profiler/region.hpp"

namespace prof {

template <Backend B, unsigned... Slots>
class FastRegions {
  static constexpr bool distinct() {
    constexpr unsigned s[] = {Slots...};
    for (unsigned i = 0; i < sizeof...(Slots); ++i)
      for (unsigned j = i + 1; j < sizeof...(Slots); ++j)
        if (s[i] == s[j]) return false;
    return true;
  }
  static_assert(sizeof...(Slots) > 0, "FastRegions needs at least one counter slot");
  static_assert(((Slots < B::kSlots) && ...), "FastRegions: a slot is not a counter of this PMU (0 .. kSlots-1)");
  static_assert(distinct(), "FastRegions: a slot is listed twice");

 public:
  static constexpr unsigned kCount = sizeof...(Slots);
  static constexpr unsigned kSlot[kCount] = {Slots...};

  struct Mark {
    std::uint64_t v[kCount];
    std::uint32_t epoch, folds;
  };

  explicit FastRegions(const Profiler<B>& p) : p_(p) {}

  // Every slot added to the profiler (bad_argument) and none armed for sampling (busy).
  Status check() const {
    for (unsigned s : kSlot) {
      if (!(p_.used_slots() & (std::uint32_t{1} << s))) return Status::bad_argument;
      if (p_.start_value(s) != 0) return Status::busy;
    }
    return Status::ok;
  }

  // The first reads: the profiler's state, then each slot in order.
  [[gnu::always_inline]] Mark begin() const {
    Mark m;
    m.epoch = p_.epoch();
    m.folds = p_.folds();
    read_all(m);
    return m;
  }
  // The second reads: each slot in the same order, then the profiler's state.
  [[gnu::always_inline]] Mark end() const {
    Mark m;
    read_all(m);
    m.epoch = p_.epoch();
    m.folds = p_.folds();
    return m;
  }

  // The differences into `stats`, after the second reads. Inline, and no Mark's address is
  // taken: the first reads stay in registers across the region (were a Mark in memory that a
  // callee can see, the accessors' "memory" clobbers would force its stores into the window).
  [[gnu::always_inline]] void record(const Mark& a, const Mark& b, RegionStats<B>& stats) const {
    std::uint64_t d[kCount];
    for (unsigned i = 0; i < kCount; ++i) d[i] = delta(a.v[i], b.v[i], B::width(kSlot[i]));
    add(d, a.epoch != b.epoch || (a.folds != b.folds && kAckRewritesCount), stats);
  }

  // Differences less the calibrated overhead into `stats` (voided: the region is clamped).
  [[gnu::noinline]] void add(const std::uint64_t* diff, bool voided, RegionStats<B>& stats) const {
    bool clamped = false;
    for (unsigned i = 0; i < kCount; ++i) stats.add(i, net_of(diff[i], overhead_[i], voided, clamped));
    stats.close(clamped);
  }

  template <class F>
  [[gnu::always_inline]] void measure(RegionStats<B>& stats, F&& body) const {
    const Mark a = begin();
    body();
    const Mark b = end();
    record(a, b, stats);
  }

  // The smallest cost of an empty region per slot becomes the overhead. Counters running.
  void calibrate(unsigned iterations = 16) {
    for (auto& o : overhead_) o = 0;
    RegionStats<B> empty{"calibration"};
    for (unsigned it = 0; it < iterations; ++it) measure(empty, [] {});
    for (unsigned i = 0; i < kCount; ++i) overhead_[i] = iterations ? empty.min[i] : 0;
  }
  std::uint64_t overhead(unsigned i) const { return i < kCount ? overhead_[i] : 0; }

 private:
  // Width 31: the overflow condition is bit 31 of a 32-bit count, and acknowledging it clears
  // that bit (hal/core/driver.hpp, width rule).
  static constexpr bool kAckRewritesCount = ((B::width(Slots) < 32) || ...);

  [[gnu::always_inline]] static void read_all(Mark& m) {
    unsigned i = 0;
    ((m.v[i++] = B::template read<Slots>()), ...);
  }

  const Profiler<B>& p_;
  std::uint64_t overhead_[kCount]{};
};

// Scoped fast region: reads at construction and destruction, records after the second read.
template <Backend B, unsigned... Slots>
class FastRegion {
 public:
  [[gnu::always_inline]] FastRegion(const FastRegions<B, Slots...>& r, RegionStats<B>& stats)
      : r_(r), stats_(stats), start_(r.begin()) {}
  [[gnu::always_inline]] ~FastRegion() {
    const auto now = r_.end();
    r_.record(start_, now, stats_);
  }
  FastRegion(const FastRegion&) = delete;
  FastRegion& operator=(const FastRegion&) = delete;

 private:
  const FastRegions<B, Slots...>& r_;
  RegionStats<B>& stats_;
  typename FastRegions<B, Slots...>::Mark start_;
};

}  // namespace prof
