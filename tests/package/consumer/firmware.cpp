// A user's Cortex-M firmware: no PMU pmukit drives, so its regions are timed by the DWT cycle
// counter (DWT_CYCCNT, 0xE0001004, ARMv7-M ARM C1.8) through prof::ClockBackend.
#include <cstdint>

#include "profiler/clock_backend.hpp"
#include "profiler/region.hpp"

namespace {
struct DwtCyccnt {
  static constexpr unsigned kWidth = 32;
  static constexpr const char* kId = "cortex-m-dwt";
  static std::uint64_t now() { return *reinterpret_cast<volatile std::uint32_t*>(0xE0001004u); }
};
using Clock = prof::ClockBackend<DwtCyccnt>;
prof::Profiler<Clock> profiler;
prof::Regions<Clock> regions{profiler};
prof::RegionStats<Clock> work_stats{"work"};
}  // namespace

extern "C" void work(void);

// Cycles of the fastest of n calls of work(), the region's own cost calibrated away.
extern "C" std::uint64_t measure_work(unsigned n) {
  prof::Counter cycles;
  if (profiler.add<pmu::Preset::cycles>(cycles) != pmu::Status::ok) return 0;
  profiler.start();
  regions.calibrate();
  for (unsigned i = 0; i < n; ++i) {
    prof::Region<Clock> r{regions, work_stats};
    work();
  }
  return work_stats.min[0];
}
