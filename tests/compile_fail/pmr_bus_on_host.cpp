// A hardware bus used on the wrong architecture (here: the host) must not compile, and must say
// where it belongs rather than fail somewhere in inline asm. MockBus is what host code uses.
#include "cf_regs.hpp"
#include "hal/core/bus/pmr.hpp"
unsigned f() {
  unsigned v = cf::Bus::read_raw<cf::RegW>();
#ifdef PMU_MISUSE
  v += pmu::Regs<pmu::PmrBus>::read_raw<cf::RegW>();
#endif
  return v;
}
