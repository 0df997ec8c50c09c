// PMC<4> does not exist: the family has four members (CRM 7.2.7).
#include "cf.hpp"

void misuse() {
  (void)R::read_raw<e5::UPMC0>();  // always fine: reading a user copy
#ifdef PMU_MISUSE
  R::write_raw<e5::PMC<4>>(0);  // there is no PMC4
#endif
}
