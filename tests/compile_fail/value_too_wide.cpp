// A compile-time value too wide for its field must not compile, and the diagnostic must name the
// register ("EVTSEL") and the field ("evtCount0").
#include "cf_regs.hpp"
void f() {
  cf::Bus::write(cf::field_a0.val<0xFF>());
#ifdef PMU_MISUSE
  cf::Bus::write(cf::field_a0.val<0x1FF>());
#endif
}
