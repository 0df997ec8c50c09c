// A write-only field cannot be decoded from a snapshot either.
#include "cf_regs.hpp"
unsigned f() {
  const auto s = cf::Bus::read<cf::RegW>();
  unsigned v = s.get(cf::field_w_thresh);
#ifdef PMU_MISUSE
  v += s.get(cf::field_w_kick);
#endif
  return v;
}
