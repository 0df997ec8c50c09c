// A slot the variant does not have is a compile error at read<Slot>() (XSC2: slots 0-4).
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
using Pmu = pmu::xscale::Xsc2<pmu::MockBus<>>;
std::uint64_t f() {
  std::uint64_t v = Pmu::read<4>();
#ifdef PMU_MISUSE
  v += Pmu::read<5>();
#endif
  return v;
}
