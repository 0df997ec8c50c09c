// configure<Slot, Ev>() on the Cortex-A9: INST_RETIRED (0x08) is not implemented (Cortex-A9 TRM,
// 11.4, Table 11-5; the renaming stage's count 0x68 is the core's nearest), a compile error.
#include "hal/armv7a/driver.hpp"
#include "hal/core/bus/mock.hpp"

using Pmu = pmu::armv7a::CortexA9<pmu::MockBus<>>;

pmu::Status use() {
  pmu::Status s = Pmu::configure<1, pmu::EventConfig{pmu::armv7a::event::a9::INST_RENAMED, 0, 0}>();
#ifdef PMU_MISUSE
  s = Pmu::configure<1, pmu::EventConfig{pmu::armv7a::event::INST_RETIRED, 0, 0}>();
#endif
  return s;
}
