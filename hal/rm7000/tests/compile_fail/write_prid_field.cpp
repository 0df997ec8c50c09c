// PRId identifies the core; it cannot be written.
#include "cf.hpp"

void misuse() {
  (void)R::read(rm::prid_imp);  // fine
#ifdef PMU_MISUSE
  R::write(rm::prid_imp(0x27));
#endif
}
