// Writing the user-mode copy of PMC0 (CRM 7.2.8) is a compile error.
#include "cf.hpp"

void misuse() {
  (void)R::read_raw<e5::UPMC0>();  // always fine: reading a user copy
#ifdef PMU_MISUSE
  R::write_raw<e5::UPMC0>(1);  // user-mode copy of PMC0: read-only (CRM 7.2.8)
#endif
}
