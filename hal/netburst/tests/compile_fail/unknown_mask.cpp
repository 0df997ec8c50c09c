// A mask another event has (NBOGUS is instr_retired's family, not global_power_events') is refused.
#include "hal/netburst/encode.hpp"

void misuse() {
  constexpr auto ok = pmu::netburst::checked("uops_retired:NBOGUS");
  (void)ok;
#ifdef PMU_MISUSE
  constexpr auto bad = pmu::netburst::checked("global_power_events:NBOGUS");
  (void)bad;
#endif
}
