// A hardware bus used on the wrong architecture (here: the host) must not compile, and must say
// where it belongs rather than fail somewhere in inline asm. MockBus is what host code uses.
#include "cf_regs.hpp"
#include "hal/core/bus/cp0.hpp"
unsigned f() {
  unsigned v = cf::Bus::read_raw<cf::RegC0>();
#ifdef PMU_MISUSE
  v += pmu::Regs<pmu::Cp0Bus>::read_raw<cf::RegC0>();
#endif
  return v;
}
