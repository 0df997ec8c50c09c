// Modifying UPMGC0, the read-only copy of PMGC0 (CRM 7.2.2), is a compile error.
#include "cf.hpp"

void misuse() {
  (void)R::read_raw<e5::UPMC0>();  // always fine: reading a user copy
#ifdef PMU_MISUSE
  R::modify(e5::pmgc0_fac<e5::UPMGC0>(0));  // UPMGC0 (CRM 7.2.2)
#endif
}
