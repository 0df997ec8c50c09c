// Reading a write-only register must not compile.
#include "cf_regs.hpp"
unsigned f() {
  cf::Bus::write(cf::field_wo_op(2));
  unsigned v = 0;
#ifdef PMU_MISUSE
  v = cf::Bus::read_raw<cf::RegWO>();
#endif
  return v;
}
