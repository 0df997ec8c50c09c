// Naming a read-only field in a modify() must not compile either.
#include "cf_regs.hpp"
void f() {
  cf::Bus::modify(cf::field_b_enable(1));
#ifdef PMU_MISUSE
  cf::Bus::modify(cf::field_b_enable(1), cf::field_b_id(3));
#endif
}
