// Decoding a snapshot with another register's field must not compile.
#include "cf_regs.hpp"
unsigned f() {
  const auto s = cf::Bus::read<cf::RegB>();
  unsigned v = s.get(cf::field_b_id);
#ifdef PMU_MISUSE
  v += s.get(cf::field_a0);
#endif
  return v;
}
