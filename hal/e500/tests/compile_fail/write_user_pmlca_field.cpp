// Writing a field of the read-only UPMLCa0 (CRM 7.2.4) is a compile error.
#include "cf.hpp"

void misuse() {
  (void)R::read_raw<e5::UPMC0>();  // always fine: reading a user copy
#ifdef PMU_MISUSE
  R::write(e5::pmlca_fc<e5::UPMLCa0>(1));  // field of a read-only copy (CRM 7.2.4)
#endif
}
