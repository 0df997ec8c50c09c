// Fields of two registers in one write() must not compile.
#include "cf_regs.hpp"
void f() {
  cf::Bus::write(cf::field_a0(1), cf::field_a1(2));
#ifdef PMU_MISUSE
  cf::Bus::write(cf::field_a0(1), cf::field_b_enable(1));
#endif
}
