// The CM's hardware bus joins CP0 and MMIO: a register of another kind (an x86 MSR) does not compile.
#include "hal/mips_cps/driver.hpp"

using Msr = pmu::Reg<"IA32_MISC_ENABLE", pmu::Msr<0x1A0>, pmu::u32>;

void misuse() {
  using Hw = pmu::Regs<pmu::mips_cps::HwBus>;
  (void)&Hw::read_raw<pmu::mips_cps::PC_CYCLE>;  // fine: a GCR register
#ifdef PMU_MISUSE
  (void)Hw::read_raw<Msr>();
#endif
}
