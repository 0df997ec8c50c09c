// PMXEVCNTR's location reaches whichever counter PMSELR selects (B4.1 PMSELR, PMXEVCNTR): alone it
// names no register, so a descriptor that uses it without the select does not compile.
#include "hal/armv7a/regs.hpp"
#include "hal/core/bus/mock.hpp"

using R = pmu::Regs<pmu::MockBus<>>;
namespace a = pmu::armv7a;
using Unselected = pmu::Reg<"PMXEVCNTR", a::PmxevcntrAccess, pmu::u32>;

pmu::u32 f() {
  pmu::u32 v = R::read_raw<a::PMXEVCNTR::reg<2>>();  // selected: PMSELR = 2, ISB, PMXEVCNTR
#ifdef PMU_MISUSE
  v += R::read_raw<Unselected>();
#endif
  return v;
}
