// A constant event string is checked at compile time: THRESHOLD is 4 bits (CCCR 23:20).
#include "hal/netburst/encode.hpp"

void misuse() {
  constexpr auto ok = pmu::netburst::checked("global_power_events:RUNNING:thr=15");
  (void)ok;
#ifdef PMU_MISUSE
  constexpr auto bad = pmu::netburst::checked("global_power_events:RUNNING:thr=16");
  (void)bad;
#endif
}
