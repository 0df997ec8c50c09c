// A fast region's counters are template arguments: a slot the PMU does not have is a compile
// error naming the rule, not a read of some other register.
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
#include "profiler/fast_region.hpp"

using Pmu = pmu::xscale::Xsc2<pmu::MockBus<>>;  // slots 0 (CCNT) .. 4 (PMN3)

void use(const prof::Profiler<Pmu>& p) {
  prof::FastRegions<Pmu, 0, 4> ok{p};
  (void)ok;
#ifdef PMU_MISUSE
  prof::FastRegions<Pmu, 0, 5> bad{p};
  (void)bad;
#endif
}
