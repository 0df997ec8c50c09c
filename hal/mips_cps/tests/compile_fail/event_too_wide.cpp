// PC_EVENT's fields are 8 bits: the cycle counter's pseudo event (0x100) cannot be selected on an
// event counter.
#include "cf.hpp"
#include "hal/mips_cps/events.hpp"

void misuse() {
  R::modify(cm::pc_event_p0.val<cm::event::IOCU2_REQUESTS>());  // fine: event 17
#ifdef PMU_MISUSE
  R::modify(cm::pc_event_p0.val<cm::kCycleEvent>());
#endif
}
