// A user's Cortex-M firmware: its regions are timed by the DWT cycle counter (DWT_CYCCNT) through
// pmukit's driver for the ARMv7-M DWT (hal/cortex_m_dwt/), extended past 32 bits by a SysTick
// handler that polls it (Profiler::fold) and samples from the timer.
#include <cstdint>

#include "hal/core/bus/mmio.hpp"
#include "hal/cortex_m_dwt/driver.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"

namespace {
using Dwt = pmu::cortex_m_dwt::Driver<pmu::MmioBus<pmu::cortex_m_dwt::ScsBase>>;
prof::Profiler<Dwt> profiler;
prof::Regions<Dwt> regions{profiler};
prof::RegionStats<Dwt> work_stats{"work"};
prof::SampleRing<64> samples;
prof::Sampler<Dwt, prof::SampleRing<64>> sampler{profiler, samples};
}  // namespace

extern "C" void work(void);

// Cycles of the fastest of n calls of work(), the region's own cost calibrated away.
extern "C" std::uint64_t measure_work(unsigned n) {
  prof::Counter cycles;
  if (profiler.probe().status != pmu::Status::ok) return 0;
  if (profiler.add<pmu::Preset::cycles>(cycles) != pmu::Status::ok) return 0;
  profiler.start();
  regions.calibrate();
  for (unsigned i = 0; i < n; ++i) {
    prof::Region<Dwt> r{regions, work_stats};
    work();
  }
  return work_stats.min[0];
}

// The SysTick handler: at least once per 2^32 cycles, poll CYCCNT (its 64-bit extension) and
// take a timer sample of the interrupted pc and lr.
extern "C" void pmukit_systick(std::uint32_t pc, std::uint32_t lr) {
  profiler.fold();
  sampler.on_timer_tick(pc, lr);
}
