// PMUKIT_REGION_SLOTS is how many Regions may be open at once (profiler/region.hpp): with 0 every
// region would be voided, above 32 a slot has no bit in the claim mask. Either is a compile error
// naming the rule, not regions that silently measure nothing.
#ifdef PMU_MISUSE
#define PMUKIT_REGION_SLOTS 0
#endif
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
#include "profiler/region.hpp"

using Pmu = pmu::xscale::Xsc2<pmu::MockBus<>>;

unsigned busy(const prof::Regions<Pmu>& r) { return r.slots_busy(); }
