// MIPS IV (RM7000) has no CP0 select field: a Cp0<reg, sel != 0> register must not compile there.
// Built with mips-linux-gnu-g++ -march=rm7000.
#include "hal/core/bus/cp0.hpp"
#include "hal/core/reg.hpp"

using PerfCount = pmu::Reg<"PerfCount", pmu::Cp0<25>, pmu::u32>;
using PerfCnt1 = pmu::Reg<"PerfCnt1", pmu::Cp0<25, 1>, pmu::u32>;  // MIPS32 select 1
using C0 = pmu::Regs<pmu::Cp0Bus>;

unsigned f() {
  unsigned v = C0::read_raw<PerfCount>();
#ifdef PMU_MISUSE
  v += C0::read_raw<PerfCnt1>();
#endif
  return v;
}
