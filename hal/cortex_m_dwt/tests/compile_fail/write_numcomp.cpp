// DWT_CTRL.NUMCOMP (and NOCYCCNT, NOPRFCNT) say what is implemented: read-only (C1.8.7).
#include "cf.hpp"

unsigned f() {
  unsigned n = R::read(dwt::ctrl_numcomp);  // fine: reading it
#ifdef PMU_MISUSE
  R::write(dwt::ctrl_numcomp(2));
#endif
  return n;
}
