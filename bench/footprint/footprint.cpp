// What the profiler costs in a firmware image: one translation unit per configuration, compiled
// for each target (cmake/targets.cmake) by footprint.sh. PMU_FOOTPRINT_SAMPLING adds the sampler and its ring;
// PMU_FOOTPRINT_MINIMAL is the smallest useful job instead: one counter configured at compile time
// on a fixed slot, a standalone fast region (no Profiler), no probe, no sampling, no dump writer.
#include <cstdint>

#include "profiler/fast_region.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#if PMU_FOOTPRINT_SAMPLING
#include "profiler/sampler.hpp"
#endif

// Pmu: the target's driver on its silicon bus, from the header footprint.sh passes with -include
// (the PMU's PMU_SILICON_DRIVER, hal/<pmu>/pmu.cmake).

namespace {
#if PMU_FOOTPRINT_MINIMAL
// Unnamed, so all zero: in .bss, not .data (whose initial image takes flash too).
prof::RegionStats<Pmu> stats;
#else
prof::RegionStats<Pmu> stats{"work"};
#endif
#if !PMU_FOOTPRINT_MINIMAL
prof::Profiler<Pmu> profiler;
prof::Regions<Pmu> regions{profiler};
prof::Counter cycles;
#endif
#if PMU_FOOTPRINT_SAMPLING
prof::SampleRing<256> ring;
prof::Sampler<Pmu, prof::SampleRing<256>> sampler{profiler, ring};
#endif
}  // namespace

extern "C" void work();

#if PMU_FOOTPRINT_MINIMAL
// Slot 0 on every driver here: CCNT, PMC0, PC_CYCLE, PerfCount, and the first NetBurst counter.
// No Profiler: the driver's compile-time configure and a standalone fast region.
constexpr pmu::EventConfig kCycles{pmu::find_preset(Pmu::catalog, pmu::Preset::cycles)->code, 0, 0};
prof::StandaloneFastRegions<Pmu, 0> fast;

extern "C" std::uint64_t footprint_main() {
  if (Pmu::configure<0, kCycles>() != pmu::Status::ok) return 0;
  Pmu::start(1u);
  fast.calibrate();
  {
    prof::FastRegion r{fast, stats};
    work();
  }
  return stats.total[0];
}
#else
extern "C" std::uint64_t footprint_main() {
  profiler.probe();
  profiler.add<pmu::Preset::cycles>(cycles);
  profiler.start();
  regions.calibrate();
  {
    prof::Region<Pmu> r{regions, stats};
    work();
  }
#if PMU_FOOTPRINT_SAMPLING
  sampler.arm(cycles, 10000);
  work();
  sampler.disarm();
#endif
  profiler.stop();
  return profiler.read(cycles) + stats.total[0];
}
#endif

#if PMU_FOOTPRINT_SAMPLING
extern "C" void footprint_pmu_irq(std::uint32_t pc, std::uint32_t lr) { sampler.on_pmu_interrupt(pc, lr); }
#endif
