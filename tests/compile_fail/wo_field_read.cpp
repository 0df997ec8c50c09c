// Reading a write-only field must not compile (its register is readable).
#include "cf_regs.hpp"
unsigned f() {
  unsigned v = cf::Bus::read(cf::field_w_thresh);
  cf::Bus::write(cf::field_w_kick(1));
#ifdef PMU_MISUSE
  v += cf::Bus::read(cf::field_w_kick);
#endif
  return v;
}
