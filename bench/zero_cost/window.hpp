#pragma once
// Fast-region windows for the zero-cost gate (check.py, "Windows"): one function per slot count,
// each a prof::FastRegion around an empty body, as firmware writes it. check.py counts the
// instructions between each counter's two reads.
//   PMU_ZC_WINDOW(Pmu, slot)          window_1slot: the region on one slot, gated (WINDOW_LIMIT)
//   PMU_ZC_WINDOW_CALL(Pmu, slot)     window_call_1slot: the region around a call, with values live
//                                     across it; its window must be calibrate()'s
//   PMU_ZC_WINDOW_CALIBRATE(Pmu, slot) window_calibrate_1slot: FastRegions::calibrate() itself,
//                                     whose window (in its loop) every region must have
//   (PMU_ZC_WINDOW_CALL and _CALIBRATE also make window_standalone_{1slot,call_1slot,
//   calibrate_1slot}: the same on prof::StandaloneFastRegions, no Profiler, gated alike)
//   PMU_ZC_WINDOW2(Pmu, slot, slot2)  window_info_2slots: on two, reported (the other counter's
//                                     read sits in each window)
//   PMU_ZC_WINDOW_REGION(Pmu)         window_region_1counter and window_region_call_1counter: a
//                                     prof::CounterRegion (one counter chosen at run time) around
//                                     nothing and around a call; its reads are in the per-slot
//                                     readers (zc_region_select makes them), which check.py
//                                     counts with the region (REGION_WINDOW_LIMIT); and
//                                     window_region_calibrate_1counter (CounterRegions::calibrate()
//                                     itself) and window_region_call_arg_1counter (a loop of regions
//                                     around a call with an argument kept in a register): both
//                                     regions' windows must be calibrate()'s, the second's plus its
//                                     argument's one instruction
//   PMU_ZC_WINDOW_REGION_N(Pmu, N)    window_region_<N>counters and window_region_call_<N>counters:
//                                     a prof::CounterRegion on N counters chosen at run time
//                                     (zc_region_select_<N>), reads nested; check.py gates the
//                                     innermost counter's window at REGION_WINDOW_LIMIT and each
//                                     nested read at a single read's length (REGION_NESTED_READ)
//   PMU_ZC_WINDOW_RUN_REGION(Pmu, N)  window_run_region_<N>counters and
//                                     window_run_region_call_<N>counters: a prof::Region (the
//                                     counters added, at run time) whose prepared sequence reads
//                                     N = Regions<Pmu>::kPositions positions; gated as
//                                     window_region_<N>counters (N = 1: as window_region_1counter);
//                                     and window_run_region_call_arg_<N>counters (a loop of Regions
//                                     around a call whose argument is loaded through a pointer
//                                     kept in a register): its window must be the empty region's
//                                     (calibrate()'s code) plus the argument's set-up; and
//                                     frame_run_region_with/_without: a caller with a Region and
//                                     without, whose stack frames check.py compares (FRAME_LIMIT)
// And the PMU sampling interrupt for a counter known at compile time (check.py, "Branches"):
//   PMU_ZC_PMU_IRQ(Pmu, slot, tests)  branches_pmu_irq_<tests>: Sampler::on_pmu_interrupt<slot>
//                                     into a keep-newest ring, gated on at most `tests` conditional
//                                     branches (1: the test for the common case)
// And what check.py must know of the PMU's code, declared by its probe (which names its PMU; the
// script names none) and carried in the object, one "key=value" string each in section .pmu_zc:
//   PMU_ZC_COUNTER_READ(R"(regex)")   a counter read, as a regular expression on check.py's access
//                                     text (e.g. `mfpmr R, 16`, `lw 24960(R)`, `rdpmc`); one per
//                                     kind of read the windows and readers hold
//   PMU_ZC_WINDOW_LIMIT(n)            the gate of window_1slot where it is not 2 (WINDOW_LIMIT)
#include "profiler/counter_region.hpp"
#include "profiler/fast_region.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"

namespace zc {
template <class Pmu>
inline prof::Profiler<Pmu> profiler;
template <class Pmu>
inline prof::RegionStats<Pmu> stats{"window"};
template <class Pmu, unsigned... Slots>
inline const prof::FastRegions<Pmu, Slots...> fast{profiler<Pmu>};
template <class Pmu, unsigned... Slots>
inline prof::FastRegions<Pmu, Slots...> calibrated{profiler<Pmu>};

template <class Pmu>
inline prof::CounterRegions<Pmu> counter_regions{profiler<Pmu>};
// The same regions without a Profiler (bench/footprint's minimal job).
template <class Pmu, unsigned... Slots>
inline const prof::StandaloneFastRegions<Pmu, Slots...> standalone{};
template <class Pmu, unsigned... Slots>
inline prof::StandaloneFastRegions<Pmu, Slots...> standalone_calibrated{};
template <class Pmu>
inline prof::RegionStats<Pmu> standalone_stats;

using Ring = prof::SampleRing<256, prof::RingFull::keep_newest>;
template <class Pmu>
inline Ring ring;
template <class Pmu>
inline prof::Sampler<Pmu, Ring> sampler{profiler<Pmu>, ring<Pmu>};

// A body out of line, with no argument (an argument's set-up would be the body's, not the
// region's): the compiler must assume it clobbers every register the ABI lets a callee clobber,
// and any memory. Values live across the region take the callee-saved registers and the stack, as
// in a real caller (the examples' profile()), and their loads may not sink into the window.
extern "C" void zc_window_body();
extern "C" unsigned zc_window_values[8];

template <class Regions, class Stats>
[[gnu::always_inline]] inline void window_call(const Regions& regions, Stats& st, unsigned n) {
  unsigned* const v = zc_window_values;
  const unsigned a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
  {
    prof::FastRegion r{regions, st};
    zc_window_body();
  }
  v[0] = a * b + c;
  v[1] = d * e + f;
  v[2] = g * h + n;
}

template <class Pmu>
[[gnu::always_inline]] inline void window_region_call(unsigned n) {
  unsigned* const v = zc_window_values;
  const unsigned a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
  {
    prof::CounterRegion r{counter_regions<Pmu>, stats<Pmu>};
    zc_window_body();
  }
  v[0] = a * b + c;
  v[1] = d * e + f;
  v[2] = g * h + n;
}

// A body that takes an argument, a caller's value kept in a register across the loop (the
// examples' known region: spin_exact(iters) in a loop of regions). Its set-up is the body's own
// one instruction (a store or a move into the argument register), counted in the window; a value
// the region's code pushed out of the caller's registers is loaded again there too.
extern "C" void zc_window_body_arg(unsigned);

template <class Pmu>
[[gnu::always_inline]] inline void window_region_call_arg(unsigned n) {
  asm volatile("" : "+r"(n));
#pragma GCC unroll 1
  for (unsigned i = 0; i < 8; ++i) {
    prof::CounterRegion r{counter_regions<Pmu>, stats<Pmu>};
    zc_window_body_arg(n);
  }
}

template <class Pmu, unsigned N>
inline prof::CounterRegions<Pmu, N> counter_regions_n{profiler<Pmu>};

template <class Pmu, unsigned N>
[[gnu::always_inline]] inline void window_region_call_n(unsigned n) {
  unsigned* const v = zc_window_values;
  const unsigned a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
  {
    prof::CounterRegion r{counter_regions_n<Pmu, N>, stats<Pmu>};
    zc_window_body();
  }
  v[0] = a * b + c;
  v[1] = d * e + f;
  v[2] = g * h + n;
}

// prof::Region (profiler/region.hpp) with the counters added chosen at run time (zc_run_region_add
// adds them): its prepared sequence reads Regions::kPositions positions, nested.
template <class Pmu>
inline prof::Regions<Pmu> regions{profiler<Pmu>};

template <class Pmu>
[[gnu::always_inline]] inline void window_run_region_call(unsigned n) {
  unsigned* const v = zc_window_values;
  const unsigned a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
  {
    prof::Region<Pmu> r{regions<Pmu>, stats<Pmu>};
    zc_window_body();
  }
  v[0] = a * b + c;
  v[1] = d * e + f;
  v[2] = g * h + n;
}

// A loop of Regions around a call whose argument is loaded through a pointer kept in a register
// (the examples' known region through Region: spin_exact(s.known_iters)). The region's code kept
// across the body must leave the caller's pointer its register, so that the body's set-up is its
// one load (on i386 a store more): calibrate()'s window plus that. Before, XScale's region kept
// four reader pointers (r4-r11 full: the pointer spilled, 2004 for 2003 in the example) and the
// MIPS targets' close() took the state by value (a copy loop's addresses kept across the loop).
template <class Pmu>
[[gnu::always_inline]] inline void window_run_region_call_arg(const unsigned* p) {
  asm volatile("" : "+r"(p));
#pragma GCC unroll 1
  for (unsigned i = 0; i < 8; ++i) {
    prof::Region<Pmu> r{regions<Pmu>, stats<Pmu>};
    zc_window_body_arg(p[1]);  // at an offset, as s.known_iters (a load at 0 would look like a read: MIPS CM)
  }
}

// A caller's frame with a Region and without (frame_run_region_with / _without; check.py,
// FRAME_LIMIT): the same values live across the same call; what the Region adds is what it keeps.
template <class Pmu, bool WithRegion>
[[gnu::always_inline]] inline void frame_run_region(unsigned n) {
  unsigned* const v = zc_window_values;
  const unsigned a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
  if constexpr (WithRegion) {
    prof::Region<Pmu> r{regions<Pmu>, stats<Pmu>};
    zc_window_body();
  } else {
    zc_window_body();
  }
  v[0] = a * b + c;
  v[1] = d * e + f;
  v[2] = g * h + n;
}

template <class Pmu, unsigned... Slots>
[[gnu::always_inline]] inline void window() {
  prof::FastRegion r{fast<Pmu, Slots...>, stats<Pmu>};
  asm volatile("" ::: "memory");  // the region's body: nothing
}
}  // namespace zc

#define PMU_ZC_WINDOW(Pmu, a) \
  extern "C" void window_1slot() { zc::window<Pmu, a>(); }
#define PMU_ZC_WINDOW_CALIBRATE(Pmu, a)                                                          \
  extern "C" [[gnu::flatten]] void window_calibrate_1slot() { zc::calibrated<Pmu, a>.calibrate(); } \
  extern "C" [[gnu::flatten]] void window_standalone_calibrate_1slot() {                         \
    zc::standalone_calibrated<Pmu, a>.calibrate();                                               \
  }
#define PMU_ZC_WINDOW_CALL(Pmu, a)                                                                 \
  extern "C" void window_call_1slot(unsigned n) { zc::window_call(zc::fast<Pmu, a>, zc::stats<Pmu>, n); } \
  extern "C" void window_standalone_call_1slot(unsigned n) {                                       \
    zc::window_call(zc::standalone<Pmu, a>, zc::standalone_stats<Pmu>, n);                         \
  }                                                                                                \
  extern "C" void window_standalone_1slot() {                                                      \
    prof::FastRegion r{zc::standalone<Pmu, a>, zc::standalone_stats<Pmu>};                         \
    asm volatile("" ::: "memory");                                                                 \
  }
#define PMU_ZC_WINDOW2(Pmu, a, b) \
  extern "C" void window_info_2slots() { zc::window<Pmu, a, b>(); }
#define PMU_ZC_WINDOW_REGION(Pmu)                                                            \
  extern "C" unsigned zc_region_select(unsigned i) {                                    \
    return static_cast<unsigned>(zc::counter_regions<Pmu>.select(prof::Counter{static_cast<std::uint8_t>(i)})); \
  }                                                                                          \
  extern "C" void window_region_1counter() {                                                \
    prof::CounterRegion r{zc::counter_regions<Pmu>, zc::stats<Pmu>};                         \
    asm volatile("" ::: "memory");                                                           \
  }                                                                                          \
  extern "C" void window_region_call_1counter(unsigned n) { zc::window_region_call<Pmu>(n); } \
  extern "C" void window_region_call_arg_1counter(unsigned n) { zc::window_region_call_arg<Pmu>(n); } \
  extern "C" [[gnu::flatten]] void window_region_calibrate_1counter() { zc::counter_regions<Pmu>.calibrate(); }
#define PMU_ZC_WINDOW_REGION_N(Pmu, N)                                                        \
  extern "C" unsigned zc_region_select_##N(const unsigned char* idx, unsigned n) {              \
    prof::Counter c[N];                                                                         \
    for (unsigned k = 0; k < N && k < n; ++k) c[k] = prof::Counter{idx[k]};                     \
    return static_cast<unsigned>(zc::counter_regions_n<Pmu, N>.select(c, n));                   \
  }                                                                                             \
  extern "C" void window_region_##N##counters() {                                               \
    prof::CounterRegion r{zc::counter_regions_n<Pmu, N>, zc::stats<Pmu>};                       \
    asm volatile("" ::: "memory");                                                              \
  }                                                                                             \
  extern "C" void window_region_call_##N##counters(unsigned n) { zc::window_region_call_n<Pmu, N>(n); }
#define PMU_ZC_WINDOW_RUN_REGION(Pmu, N)                                                           \
  static_assert(prof::Regions<Pmu>::kPositions == N, "N: Regions<Pmu>::kPositions");             \
  extern "C" unsigned zc_run_region_add(unsigned code) {                                           \
    prof::Counter c;                                                                               \
    return static_cast<unsigned>(zc::profiler<Pmu>.add(pmu::EventConfig{code, 0, 0}, c));          \
  }                                                                                                \
  extern "C" void window_run_region_##N##counters() {                                              \
    prof::Region<Pmu> r{zc::regions<Pmu>, zc::stats<Pmu>};                                         \
    asm volatile("" ::: "memory");                                                                 \
  }                                                                                                \
  extern "C" void window_run_region_call_##N##counters(unsigned n) { zc::window_run_region_call<Pmu>(n); } \
  extern "C" void window_run_region_call_arg_##N##counters(const unsigned* p) { zc::window_run_region_call_arg<Pmu>(p); } \
  extern "C" void frame_run_region_with(unsigned n) { zc::frame_run_region<Pmu, true>(n); }        \
  extern "C" void frame_run_region_without(unsigned n) { zc::frame_run_region<Pmu, false>(n); }
#define PMU_ZC_PMU_IRQ(Pmu, slot, tests)                                                 \
  extern "C" void branches_pmu_irq_##tests(std::uint32_t pc, std::uint32_t lr) {         \
    zc::sampler<Pmu>.template on_pmu_interrupt<slot>(pc, lr);                            \
  }

#define PMU_ZC_CAT2(a, b) a##b
#define PMU_ZC_CAT(a, b) PMU_ZC_CAT2(a, b)
#define PMU_ZC_DECLARE(text) \
  [[gnu::used, gnu::section(".pmu_zc")]] static const char PMU_ZC_CAT(zc_declared_, __LINE__)[] = text
#define PMU_ZC_COUNTER_READ(regex) PMU_ZC_DECLARE("counter_read=" regex)
#define PMU_ZC_WINDOW_LIMIT(n) PMU_ZC_DECLARE("window_limit=" #n)
