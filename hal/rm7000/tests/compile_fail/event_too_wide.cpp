// An event code wider than PerfControl's Event Type (5 bits, datasheet Table 10) is a compile error.
#include "cf.hpp"

void misuse() {
  R::write(rm::perfcontrol_event.val<0x1E>());  // fine: the last event
#ifdef PMU_MISUSE
  R::write(rm::perfcontrol_event.val<0x20>());  // Event Type is bits 4..0
#endif
}
