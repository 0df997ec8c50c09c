// An event name the SDM's NetBurst tables do not have is refused at compile time.
#include "hal/netburst/encode.hpp"

void misuse() {
  constexpr auto ok = pmu::netburst::checked("INSTR_RETIRED:NBOGUSNTAG");  // names are case-insensitive
  (void)ok;
#ifdef PMU_MISUSE
  constexpr auto bad = pmu::netburst::checked("instructions_retired");
  (void)bad;
#endif
}
