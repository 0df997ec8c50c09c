// A mask of another event (NBOGUS is uops_retired's, not global_power_events') is refused.
#include "hal/netburst/encode.hpp"

void misuse() {
  constexpr auto ok = pmu::netburst::checked("uops_retired:NBOGUS");
  (void)ok;
#ifdef PMU_MISUSE
  constexpr auto bad = pmu::netburst::checked("global_power_events:NBOGUS");
  (void)bad;
#endif
}
