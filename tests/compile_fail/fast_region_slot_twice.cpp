// A fast region that lists a slot twice would read the same counter in two places of its window.
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
#include "profiler/fast_region.hpp"

using Pmu = pmu::xscale::Xsc2<pmu::MockBus<>>;

void use(const prof::Profiler<Pmu>& p) {
  prof::FastRegions<Pmu, 1, 2> ok{p};
  (void)ok;
#ifdef PMU_MISUSE
  prof::FastRegions<Pmu, 1, 1> twice{p};
  (void)twice;
#endif
}
