// A literal too wide for EVENT is a compile error too, not a run-time mask.
#include "cf.hpp"

void misuse() {
  (void)R::read_raw<e5::UPMC0>();  // always fine: reading a user copy
#ifdef PMU_MISUSE
  R::write(e5::pmlca_event<e5::PMLCa0>(128));  // the call operator is consteval
#endif
}
