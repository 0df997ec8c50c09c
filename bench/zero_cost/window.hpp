#pragma once
// Fast-region windows for the zero-cost gate (check.py, "Windows"): one function per slot count,
// each a prof::FastRegion around an empty body, as firmware writes it. check.py counts the
// instructions between each counter's two reads.
//   PMU_ZC_WINDOW(Pmu, slot)          window_1slot: the region on one slot, gated (WINDOW_LIMIT)
//   PMU_ZC_WINDOW2(Pmu, slot, slot2)  window_info_2slots: on two, reported (the other counter's
//                                     read sits in each window)
// And the PMU sampling interrupt for a counter known at compile time (check.py, "Branches"):
//   PMU_ZC_PMU_IRQ(Pmu, slot, tests)  branches_pmu_irq_<tests>: Sampler::on_pmu_interrupt<slot>
//                                     into a keep-newest ring, gated on at most `tests` conditional
//                                     branches (1: the test for the common case)
#include "profiler/fast_region.hpp"
#include "profiler/sampler.hpp"

namespace zc {
template <class Pmu>
inline prof::Profiler<Pmu> profiler;
template <class Pmu>
inline prof::RegionStats<Pmu> stats{"window"};
template <class Pmu, unsigned... Slots>
inline const prof::FastRegions<Pmu, Slots...> fast{profiler<Pmu>};

using Ring = prof::SampleRing<256, prof::RingFull::keep_newest>;
template <class Pmu>
inline Ring ring;
template <class Pmu>
inline prof::Sampler<Pmu, Ring> sampler{profiler<Pmu>, ring<Pmu>};

template <class Pmu, unsigned... Slots>
[[gnu::always_inline]] inline void window() {
  prof::FastRegion r{fast<Pmu, Slots...>, stats<Pmu>};
  asm volatile("" ::: "memory");  // the region's body: nothing
}
}  // namespace zc

#define PMU_ZC_WINDOW(Pmu, a) \
  extern "C" void window_1slot() { zc::window<Pmu, a>(); }
#define PMU_ZC_WINDOW2(Pmu, a, b) \
  extern "C" void window_info_2slots() { zc::window<Pmu, a, b>(); }
#define PMU_ZC_PMU_IRQ(Pmu, slot, tests)                                                 \
  extern "C" void branches_pmu_irq_##tests(std::uint32_t pc, std::uint32_t lr) {         \
    zc::sampler<Pmu>.template on_pmu_interrupt<slot>(pc, lr);                            \
  }
