// An event code wider than PMLCa[EVENT] (7 bits, Table 7-4) is a compile error.
#include "cf.hpp"

void misuse() {
  (void)R::read_raw<e5::UPMC0>();  // always fine: reading a user copy
#ifdef PMU_MISUSE
  R::write(e5::pmlca_event<e5::PMLCa0>.val<128>());  // EVENT is 7 bits (Table 7-4)
#endif
}
