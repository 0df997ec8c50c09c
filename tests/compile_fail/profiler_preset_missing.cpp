// Asking a PMU for a preset it has no event for is a compile error, not a run-time surprise.
// The XSC2 catalog has every preset, so the misuse asks for a reserved event code instead.
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
#include "profiler/profiler.hpp"

using Pmu = pmu::xscale::Xsc2<pmu::MockBus<>>;

void use(prof::Profiler<Pmu>& p, prof::Counter& c) {
  (void)p.add<pmu::Preset::cycles>(c);
#ifdef PMU_MISUSE
  (void)p.add_event<0x0E>(c);  // 0x0E is reserved in the XScale event table (Table 8-12)
#endif
}
