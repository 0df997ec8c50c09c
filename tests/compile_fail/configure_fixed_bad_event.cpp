// configure<Slot, Ev>(): the slot and event are known at compile time, so an event the counter
// cannot count is a compile error naming the rule, not a status found at run time.
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"

using Pmu = pmu::xscale::Xsc2<pmu::MockBus<>>;

pmu::Status use() {
  constexpr pmu::EventConfig kCycles{pmu::xscale::kCcntEvent, 0, 0};  // CCNT only: slot 0
  pmu::Status s = Pmu::configure<0, kCycles>();
#ifdef PMU_MISUSE
  s = Pmu::configure<1, kCycles>();  // PMN0 does not count the CCNT code
#endif
  return s;
}
