// Writing a read-only field must not compile, and the error must name register and field.
#include "cf_regs.hpp"
void f() {
  cf::Bus::write(cf::field_b_enable(1));
#ifdef PMU_MISUSE
  cf::Bus::write(cf::field_b_id(1));
#endif
}
