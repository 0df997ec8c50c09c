// Writing a read-only register (whole value) must not compile.
#include "cf_regs.hpp"
unsigned f() {
  const unsigned v = cf::Bus::read_raw<cf::RegRO>();
#ifdef PMU_MISUSE
  cf::Bus::write_raw<cf::RegRO>(v);
#endif
  return v;
}
