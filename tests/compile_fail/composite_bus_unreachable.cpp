// A location that no member of a CompositeBus reaches is a compile error that says so.
#include "hal/core/bus/composite.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/core/reg.hpp"

struct GcrBase;
using Bus = pmu::CompositeBus<pmu::Cp0Bus, pmu::MmioBus<pmu::RuntimeBase<GcrBase>>>;
using PMC0 = pmu::Reg<"PMC0", pmu::Pmr<16>, pmu::u32>;
using PC_CTL = pmu::Reg<"PC_CTL", pmu::Mmio<0x6000>, pmu::u32>;
void f() {
  pmu::Regs<Bus>::write_raw<PC_CTL>(0);  // fine: the MMIO member reaches it (not run here)
#ifdef PMU_MISUSE
  pmu::Regs<Bus>::write_raw<PMC0>(0);
#endif
}
