// The DWT has no overflow interrupt (ARMv7-M ARM C1.8: a wrap raises no exception): a sampler's
// PMU-interrupt entry for a compile-time slot does not compile; on_timer_tick (SysTick) does.
#include "cf.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

prof::Profiler<D> p;
prof::SampleRing<4> ring;
prof::Sampler<D, prof::SampleRing<4>> sampler{p, ring};

void systick() {
  sampler.on_timer_tick(0x100, 0x200);
#ifdef PMU_MISUSE
  sampler.on_pmu_interrupt<0>(0x100, 0x200);
#endif
}
