// MIDR is read-only.
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/regs.hpp"
using R = pmu::Regs<pmu::MockBus<>>;
unsigned f() {
  unsigned v = R::read_raw<pmu::xscale::MIDR>();
#ifdef PMU_MISUSE
  R::write_raw<pmu::xscale::MIDR>(0);
#endif
  return v;
}
