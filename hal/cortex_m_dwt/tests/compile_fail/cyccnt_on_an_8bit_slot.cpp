// Each DWT counter counts its one thing (ARMv7-M ARM C1.8.8 .. C1.8.13): CYCCNT is slot 0 only, so
// configure<1, CYCCNT> (slot 1 is DWT_CPICNT) does not compile.
#include "cf.hpp"

pmu::Status f() {
  pmu::Status s = D::configure<0, pmu::EventConfig{dwt::kCycCntEvent, 0, 0}>();
#ifdef PMU_MISUSE
  s = D::configure<1, pmu::EventConfig{dwt::kCycCntEvent, 0, 0}>();
#endif
  return s;
}
