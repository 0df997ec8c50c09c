// The CCNT pseudo event (0x100) cannot be put into an 8-bit evtCount field.
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/events.hpp"
#include "hal/xscale/regs.hpp"
using R = pmu::Regs<pmu::MockBus<>>;
namespace x = pmu::xscale;
void f() {
  R::modify(x::xsc2::evtsel::evtCount0.val<x::event::DC_MISS>());
#ifdef PMU_MISUSE
  R::modify(x::xsc2::evtsel::evtCount0.val<x::kCcntEvent>());
#endif
}
