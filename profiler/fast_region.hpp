#pragma once
// Fast regions: the counters are template arguments, so the two reads of a region are the
// driver's inline accessors (one instruction each: read<Slot>()) with none of the profiler's code
// between them. Use them around short code, where Region's out-of-line calls, register sweep and
// overflow status reads would disturb what is measured (caches, pipeline, interrupt latency).
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
//     RM7000 clear bit 31 of the counter; the MIPS CM's counter held at 0xFFFFFFFF under
//     Perf_Ovf_Stop goes back to 0): the raw difference lost 2^31 (or 0xFFFFFFFF);
//   - a value below the calibrated overhead.
// A region must stay below 2^32 events (2^40 on NetBurst): one register wrap is all the difference
// can see. Slots the Sampler presets are refused by check(): its interrupt rewrites them.
//
// Interrupts: begin(), end() and the reads are safe anywhere; record() (the destructor of
// FastRegion) updates its RegionStats: one context per RegionStats object.
//
// Without a Profiler (the smallest firmware: bench/footprint's "minimal" configuration):
//   Pmu::configure<0, kCycles>();  Pmu::start(1u);      // the driver alone, checked at compile time
//   prof::StandaloneFastRegions<Pmu, 0> fast;           // nothing resets or folds these counters
//   prof::RegionStats<Pmu> crc;                         // unnamed: fast and crc are all zero (.bss)
//   fast.calibrate();  { prof::FastRegion r{fast, crc}; crc32(buf, n); }
// The caller owns the counters: no reset, fold or sampling may touch them while regions run.
#include <cstdint>
#include <type_traits>

#include "profiler/profiler.hpp"
#include "profiler/region.hpp"

namespace prof {

template <class Owner>
struct OwnerOf {
  using Pmu = typename Owner::Pmu;
};

// The owner of a standalone fast region's counters: no Profiler, so no epochs, folds or presets.
template <Backend B>
struct NoProfiler {
  using Pmu = B;
  static constexpr std::uint32_t epoch() { return 0; }
  static constexpr std::uint32_t folds() { return 0; }
  static constexpr std::uint32_t used_slots() { return ~std::uint32_t{0}; }
  static constexpr std::uint32_t sampled_slots() { return 0; }
};

template <Backend B>
struct OwnerOf<Profiler<B>> {
  using Pmu = B;
};

// Owner: Profiler<B> (FastRegions) or NoProfiler<B> (StandaloneFastRegions).
template <class Owner, unsigned... Slots>
class BasicFastRegions {
  using B = typename OwnerOf<Owner>::Pmu;
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
  using Pmu = B;
  static constexpr bool kStandalone = std::is_same_v<Owner, NoProfiler<B>>;
  // One region's difference: modulo the counter register, so 32 bits where every register is.
  using Diff = std::conditional_t<((B::width(Slots) <= 32) && ...), std::uint32_t, std::uint64_t>;
  static constexpr unsigned kCount = sizeof...(Slots);
  static constexpr unsigned kSlot[kCount] = {Slots...};
  static constexpr std::uint32_t kSlotBits = ((std::uint32_t{1} << Slots) | ...);

  struct Mark {
    std::uint64_t v[kCount];
    std::uint32_t epoch, folds;
    bool sampled;  // one of the slots is a Sampler's (its re-arms move the register back)
  };

  explicit constexpr BasicFastRegions(const Owner& p) : p_(ref(p)) {}
  constexpr BasicFastRegions() requires kStandalone {}

  // Every slot added to the profiler (bad_argument) and none armed for sampling (busy).
  Status check() const {
    for (unsigned s : kSlot) {
      if (!(owner().used_slots() & (std::uint32_t{1} << s))) return Status::bad_argument;
      if (owner().sampled_slots() & (std::uint32_t{1} << s)) return Status::busy;
    }
    return Status::ok;
  }

  // The first reads: the profiler's state, then each slot in order.
  [[gnu::always_inline]] Mark begin() const {
    Mark m;
    m.epoch = owner().epoch();
    m.folds = owner().folds();
    m.sampled = (owner().sampled_slots() & kSlotBits) != 0;
    read_all(m);
    return m;
  }
  // The second reads: each slot in the same order, then the profiler's state.
  [[gnu::always_inline]] Mark end() const {
    Mark m;
    read_all(m);
    m.epoch = owner().epoch();
    m.folds = owner().folds();
    m.sampled = (owner().sampled_slots() & kSlotBits) != 0;
    return m;
  }

  // The differences into `stats`, after the second reads. Inline, and no Mark's address is
  // taken: the first reads stay in registers across the region (were a Mark in memory that a
  // callee can see, the accessors' "memory" clobbers would force its stores into the window).
  [[gnu::always_inline]] void record(const Mark& a, const Mark& b, RegionStats<B>& stats) const {
    Diff d[kCount];
    for (unsigned i = 0; i < kCount; ++i) d[i] = static_cast<Diff>(delta(a.v[i], b.v[i], B::width(kSlot[i])));
    if constexpr (kCanVoid)
      add(d, stats, voided(a, b));
    else
      add(d, stats);
  }

  // Differences less the calibrated overhead into `stats` (voided: the region is clamped). Out of
  // line: one copy however many regions there are. Standalone regions are never void: no flag.
  // Arguments in registers on i386 too (PROF_REGION_CALL): fewer bytes at every region.
  [[gnu::noinline, PROF_REGION_CALL]] void add(const Diff* diff, RegionStats<B>& stats) const {
    add_net(diff, false, stats);
  }
  [[gnu::noinline, PROF_REGION_CALL]] void add(const Diff* diff, RegionStats<B>& stats, bool voided) const {
    add_net(diff, voided, stats);
  }

 private:
  [[gnu::always_inline]] void add_net(const Diff* diff, bool voided, RegionStats<B>& stats) const {
    bool clamped = false;
    for (unsigned i = 0; i < kCount; ++i) stats.add(i, net_of(diff[i], overhead_[i], voided, clamped));
    if constexpr (sizeof(Diff) > sizeof(std::uint32_t)) {
      // A 64-bit difference on a 32-bit target (i386, NetBurst's 40-bit counters) takes the
      // registers: the flag added to the 64-bit count went through the stack (bench/footprint).
      stats.close(false, voided);
      if (clamped && !voided) ++stats.clamped;
    } else {
      stats.close(clamped, voided);
    }
  }

 public:
  template <class F>
  [[gnu::always_inline]] void measure(RegionStats<B>& stats, F&& body) const {
    const Mark a = begin();
    body();
    const Mark b = end();
    record(a, b, stats);
  }

  // The smallest cost of an empty region per slot becomes the overhead (0 if every try was voided
  // by a reset or fold). Counters running.
  void calibrate(unsigned iterations = 16) {
    constexpr Diff kNone = ~Diff{0};  // no try counted (a difference this large is no overhead)
    Diff least[kCount];
    for (auto& l : least) l = kNone;
#pragma GCC unroll 1  // not hot: keep it small
    for (unsigned it = 0; it < iterations; ++it) {
      const Mark a = begin();
      const Mark b = end();
      if (voided(a, b)) continue;
      for (unsigned i = 0; i < kCount; ++i) {
        const Diff d = static_cast<Diff>(delta(a.v[i], b.v[i], B::width(kSlot[i])));
        if (d < least[i]) least[i] = d;
      }
    }
    for (unsigned i = 0; i < kCount; ++i) overhead_[i] = least[i] == kNone ? 0 : least[i];
  }
  std::uint64_t overhead(unsigned i) const { return i < kCount ? overhead_[i] : 0; }

 private:
  // Width 31: the overflow condition is bit 31 of a 32-bit count, and acknowledging it clears
  // that bit (hal/core/driver.hpp, width rule). A driver with stopped_at_max: a fold writes a
  // counter held at its maximum back to 0.
  static constexpr bool kAckRewritesCount =
      ((B::width(Slots) < 32) || ...) || requires { B::stopped_at_max(0u, std::uint64_t{}); };

  // Only a Profiler resets or folds: standalone regions are never void.
  static constexpr bool kCanVoid = !kStandalone;

  // The two marks are from different epochs, or a fold between them rewrote the count, or a
  // sampling re-arm moved a sampled slot back (check() refuses those; used anyway, never wrong).
  [[gnu::always_inline]] bool voided(const Mark& a, const Mark& b) const {
    if constexpr (!kCanVoid) {
      return false;
    } else {
      return a.epoch != b.epoch || (a.folds != b.folds && (kAckRewritesCount || a.sampled || b.sampled));
    }
  }

  [[gnu::always_inline]] static void read_all(Mark& m) {
    unsigned i = 0;
    ((m.v[i++] = B::template read<Slots>()), ...);
  }

  // A Profiler is referred to; NoProfiler is empty and its answers are constants, so a standalone
  // object holds only the overheads: all zero until calibrated, it lands in .bss (not in .data,
  // whose initial image takes flash too).
  using OwnerRef = std::conditional_t<kStandalone, NoProfiler<B>, const Owner*>;
  static constexpr OwnerRef ref(const Owner& p) {
    if constexpr (kStandalone)
      return {};
    else
      return &p;
  }
  [[gnu::always_inline]] constexpr const Owner& owner() const {
    if constexpr (kStandalone)
      return p_;
    else
      return *p_;
  }

  [[no_unique_address]] OwnerRef p_{};
  Diff overhead_[kCount]{};
};

template <Backend B, unsigned... Slots>
using FastRegions = BasicFastRegions<Profiler<B>, Slots...>;
template <Backend B, unsigned... Slots>
using StandaloneFastRegions = BasicFastRegions<NoProfiler<B>, Slots...>;

// Scoped fast region: reads at construction and destruction, records after the second read.
template <class Regions>
class FastRegion {
  using B = typename Regions::Pmu;

 public:
  [[gnu::always_inline]] FastRegion(const Regions& r, RegionStats<B>& stats)
      : r_(r), stats_(stats), start_(r.begin()) {}
  [[gnu::always_inline]] ~FastRegion() {
    const auto now = r_.end();
    r_.record(start_, now, stats_);
  }
  FastRegion(const FastRegion&) = delete;
  FastRegion& operator=(const FastRegion&) = delete;

 private:
  const Regions& r_;
  RegionStats<B>& stats_;
  typename Regions::Mark start_;
};

}  // namespace prof
