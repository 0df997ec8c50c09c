// PMSELR.SEL is 5 bits and 31 selects no event counter (B4.1 PMSELR): there are at most 31 event
// counters, PMXEVCNTR0..PMXEVCNTR30.
#include "hal/armv7a/regs.hpp"
#include "hal/core/bus/mock.hpp"

using R = pmu::Regs<pmu::MockBus<>>;
namespace a = pmu::armv7a;

pmu::u32 f() {
  pmu::u32 v = R::read_raw<a::PMXEVCNTR::reg<30>>();
#ifdef PMU_MISUSE
  v += R::read_raw<a::PMXEVCNTR::reg<31>>();
#endif
  return v;
}
