// Fields of two registers in one modify() must not compile.
#include "cf_regs.hpp"
void f() {
  cf::Bus::modify(cf::field_b_enable(1), cf::field_b_flag(1));
#ifdef PMU_MISUSE
  cf::Bus::modify(cf::field_b_enable(1), cf::field_a1(2));
#endif
}
