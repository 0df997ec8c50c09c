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
// counters' reads: the same for every counter and every region, and calibrate() removes it.
// Whatever the body (nothing, or a call): the first reads are pinned where they are (barriers,
// a use of each value), the second reads follow a barrier that is a call to the compiler (its
// caller-saved registers and memory; a base the driver keeps in memory is loaded again), so what
// an operand costs to reload after a call (i386: rdpmc's index in ECX; the MIPS CM: the GCR base)
// is in every region and in calibrate(), which measures FastRegions' own code around an empty
// body. NetBurst's first reads store EDX:EAX by the read's own instructions (read_to): two stores,
// wherever the value is kept. With one slot, between the reads: nothing on ARM, PowerPC and the
// RM7000, the GCR base load on the MIPS CM, two stores and the ECX load on i686; bench/zero_cost
// gates these (window_1slot) and that a region around a call has calibrate()'s window exactly
// (window_call_1slot, window_calibrate_1slot; standalone regions alike: window_standalone_*).
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
#include <utility>

#include "hal/core/bus/barrier.hpp"
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

template <class Regions>
class FastRegion;

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
  // A fast region takes its difference from two raw reads, modulo the register: exact across one
  // wrap. A counter without an overflow condition that wraps below 32 bits (the Cortex-M DWT's
  // 8-bit counters, every 256 counts) could wrap more than once unseen: not in a fast region.
  static_assert(B::kCapabilities.overflow || ((B::width(Slots) >= 32) && ...),
                "a fast region on a counter without an overflow condition needs 32 bits or more");

 public:
  using Pmu = B;
  // Standalone regions (the smallest firmware, bench/footprint's "minimal" job within 512 B) have
  // the same second reads (call barrier, operands loaded again) but leave NetBurst's first reads
  // where the compiler keeps them: read_to's stores take the Mark's address, which cost 65 B
  // there. Their window around a call is still calibrate()'s (bench/zero_cost gates
  // window_standalone_call_1slot against window_standalone_calibrate_1slot on every target).
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
    pmu::compiler_barrier();  // the reads move before nothing that precedes them, nor it after them
    read_all_first(m);
    return m;
  }
  // The second reads: each slot in the same order (second_reads), then the profiler's state.
  [[gnu::always_inline]] Mark end() const {
    Mark m;
    second_reads(m);
    end_state(m);
    return m;
  }
  // The second reads alone: static, so nothing of the caller's objects is loaded before them (a
  // FastRegion's reference to this object is read after them). Before them, whatever the body
  // was: its memory effects done (a memory barrier), and the reads' operands loaded again as after
  // a call (the call barrier; a base the driver keeps in memory, forget_operands), so every region
  // and calibrate() have the same window. After them, a scheduling barrier: nothing that follows
  // moves between the reads.
  [[gnu::always_inline]] static void second_reads(Mark& m) {
    pmu::compiler_barrier();
    pmu::call_barrier();  // standalone regions too: else a body's call costs them a move or spill
    forget_operands();
    read_all(m);
    pmu::schedule_barrier();
  }
  // The profiler's state after the second reads.
  [[gnu::always_inline]] void end_state(Mark& m) const {
    m.epoch = owner().epoch();
    m.folds = owner().folds();
    m.sampled = (owner().sampled_slots() & kSlotBits) != 0;
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
    FastRegion<BasicFastRegions> r{*this, stats};  // the code calibrate() measures
    body();
  }

  // The smallest cost of an empty region per slot becomes the overhead (0 if every try was voided
  // by a reset or fold). Counters running; one try at least, whatever `iterations`. Each try runs
  // a region's own code (begin, then second_reads as a FastRegion's end) around an empty body that
  // may have changed memory, as any body may: the window measured is the one every region has
  // (bench/zero_cost gates both).
  void calibrate(unsigned iterations = 16) {
    constexpr Diff kNone = ~Diff{0};  // no try counted (a difference this large is no overhead)
    Diff least[kCount];
    for (auto& l : least) l = kNone;
#pragma GCC unroll 1  // not hot: keep it small
    for (unsigned it = 0, n = iterations ? iterations : 1; it < n; ++it) {  // one try at least
      struct {
        Mark a;
      } t{begin()};  // as a FastRegion holds its first marks: a member initialised by begin()
      pmu::compiler_barrier();  // the body: nothing, but memory may have changed
      Mark b;  // not zeroed: nothing but the reads between them
      second_reads(b);
      end_state(b);
      if (voided(t.a, b)) continue;
      keep_least(least, t.a, b, std::make_index_sequence<kCount>{});
    }
    // A standalone try is never void, and one ran: its least is a measured window (no test,
    // which on e500 paid for the call barrier's bytes in the minimal job, bench/footprint).
    if constexpr (kCanVoid)
      for (unsigned i = 0; i < kCount; ++i) overhead_[i] = least[i] == kNone ? 0 : least[i];
    else
      for (unsigned i = 0; i < kCount; ++i) overhead_[i] = least[i];
  }
  std::uint64_t overhead(unsigned i) const { return i < kCount ? overhead_[i] : 0; }

 private:
  // Width 31: the overflow condition is bit 31 of a 32-bit count, and acknowledging it clears
  // that bit (hal/core/driver.hpp, width rule). A driver with stopped_at_max: a fold writes a
  // counter held at its maximum back to 0.
  static constexpr bool kAckRewritesCount =
      ((B::width(Slots) < 32) || ...) || requires { B::stopped_at_max(0u, std::uint64_t{}); };

  // Per slot, at constant indices: the marks stay scalars (in registers), as in a region.
  template <std::size_t... I>
  [[gnu::always_inline]] static void keep_least(Diff* least, const Mark& a, const Mark& b, std::index_sequence<I...>) {
    ((least[I] = min_of(least[I], static_cast<Diff>(delta(a.v[I], b.v[I], B::width(kSlot[I]))))), ...);
  }
  static constexpr Diff min_of(Diff x, Diff y) { return y < x ? y : x; }

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

  // A driver whose reads take an operand from memory (the MIPS CM's GCR base) has it loaded again.
  [[gnu::always_inline]] static void forget_operands() {
    if constexpr (requires { B::template forget_operands<0>(); }) (B::template forget_operands<Slots>(), ...);
  }
  [[gnu::always_inline]] static void read_all(Mark& m) {
    unsigned i = 0;
    ((m.v[i++] = B::template read<Slots>()), ...);
  }
  // The first reads. Where the driver stores a read by its own instructions (read_to: NetBurst's
  // rdpmc into EDX:EAX, which the next read overwrites), the value goes to memory in the same two
  // stores in every region and in calibrate(), whatever the registers left free. Elsewhere each
  // read lands in a register the compiler keeps, and a use of it here pins it: it moves neither
  // later (a MIPS delay slot) nor past other code.
  [[gnu::always_inline]] static void read_all_first(Mark& m) {
    unsigned i = 0;
    if constexpr (!kStandalone && requires(std::uint64_t& v) { B::template read_to<0>(v); }) {
      (B::template read_to<Slots>(m.v[i++]), ...);
    } else {
      ((m.v[i] = B::template read<Slots>(), pmu::keep_before(static_cast<std::uint32_t>(m.v[i])), ++i), ...);
    }
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
    typename Regions::Mark now;
    Regions::second_reads(now);  // before anything of r_ is loaded
    r_.end_state(now);
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
