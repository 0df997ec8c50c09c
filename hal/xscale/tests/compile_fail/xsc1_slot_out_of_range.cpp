// XSC1 has slots 0-2 (CCNT, PMN0, PMN1): PMN2's slot does not exist there.
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
using Pmu = pmu::xscale::Xsc1<pmu::MockBus<>>;
std::uint64_t f() {
  std::uint64_t v = Pmu::read<2>();
#ifdef PMU_MISUSE
  v += Pmu::read<3>();
#endif
  return v;
}
