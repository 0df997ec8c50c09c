// configure<Slot, Ev>(): PMXEVTYPER.evtCount is 8 bits (B4.1 PMXEVTYPER), so an event number above
// 0xFF is a compile error naming the rule, not a code silently truncated into another event.
#include "hal/armv7a/driver.hpp"
#include "hal/core/bus/mock.hpp"

using Pmu = pmu::armv7a::CortexA15<pmu::MockBus<>>;

pmu::Status use() {
  pmu::Status s = Pmu::configure<1, pmu::EventConfig{pmu::armv7a::event::INST_RETIRED, 0, 0}>();
#ifdef PMU_MISUSE
  s = Pmu::configure<1, pmu::EventConfig{0x108, 0, 0}>();  // INST_RETIRED + 0x100: out of range
#endif
  return s;
}
