// A hardware bus used on the wrong architecture (here: the host) must not compile, and must say
// where it belongs rather than fail somewhere in inline asm. MockBus is what host code uses.
#include "cf_regs.hpp"
#include "hal/core/bus/arm_cp.hpp"
unsigned f() {
  unsigned v = cf::Bus::read_raw<cf::RegA>();
#ifdef PMU_MISUSE
  v += pmu::Regs<pmu::ArmCpBus>::read_raw<cf::RegA>();
#endif
  return v;
}
