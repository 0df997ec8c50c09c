// configure<Slot, Ev>() on a core's driver: an event its Technical Reference Manual does not list
// is a compile error. The Cortex-A15 has no PC_WRITE_RETIRED (Cortex-A15 MPCore TRM, 11.6 Events,
// Table 11.7: it counts branches speculatively, PC_WRITE_SPEC 0x76).
#include "hal/armv7a/driver.hpp"
#include "hal/core/bus/mock.hpp"

using Pmu = pmu::armv7a::CortexA15<pmu::MockBus<>>;

pmu::Status use() {
  pmu::Status s = Pmu::configure<1, pmu::EventConfig{pmu::armv7a::event::a15::PC_WRITE_SPEC, 0, 0}>();
#ifdef PMU_MISUSE
  s = Pmu::configure<1, pmu::EventConfig{pmu::armv7a::event::PC_WRITE_RETIRED, 0, 0}>();
#endif
  return s;
}
