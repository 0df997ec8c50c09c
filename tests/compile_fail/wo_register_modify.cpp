// modify() needs a read: on a write-only register it must not compile.
#include "cf_regs.hpp"
void f() {
  cf::Bus::write(cf::field_wo_op(2));
#ifdef PMU_MISUSE
  cf::Bus::modify(cf::field_wo_op(3));
#endif
}
