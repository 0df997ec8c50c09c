// PMNC.P reads back unpredictable (core manual §8.3): decoding it from a snapshot is an error.
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
using Pmu = pmu::xscale::Xsc2<pmu::MockBus<>>;
unsigned f() {
  const auto s = Pmu::pmnc();
  unsigned v = s.get(pmu::xscale::xsc2::pmnc::D);
#ifdef PMU_MISUSE
  v += s.get(pmu::xscale::xsc2::pmnc::P);
#endif
  return v;
}
