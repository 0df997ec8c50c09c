// Cause is read-only to this toolkit: IP13 follows PerfCount bit 31 and is cleared there.
#include "cf.hpp"

void misuse() {
  (void)R::read(rm::cause_ip13);  // fine: reading the pending bit
#ifdef PMU_MISUSE
  R::write_raw<rm::Cause>(0);
#endif
}
