// Firmware that only makes sense under pmusim (tools/sim/), where the XScale PMU is the project's
// model on executing code: the decoder must catch a wrong CP14 encoding. The same XSC2 driver on a
// bus whose MRC/MCR swap CRn and CRm (a plausible inline-asm slip: the operands are adjacent and
// both are c-registers) must not find a working PMU, while the real bus does. QEMU's PMU runs the
// wrong encoding too, so this image refuses to judge anywhere the probe does not see a complete PMU.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/selftest.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"

namespace {

namespace xs = pmu::xscale;
using Pmu = xs::Xsc2<pmu::Cp14Bus>;

// ArmCpBus with CRn and CRm swapped: the deliberate mistake pmusim must expose.
struct SwappedCrBus {
  static constexpr pmu::BusKind kind = pmu::BusKind::arm_cp;
  template <class Loc, class T>
  static T read() {
    T v;
    asm volatile("mrc p%c1, %c2, %0, c%c3, c%c4, %c5"
                 : "=r"(v)
                 : "i"(Loc::coproc), "i"(Loc::opc1), "i"(Loc::crm), "i"(Loc::crn), "i"(Loc::opc2)
                 : "memory");
    return v;
  }
  template <class Loc, class T>
  static void write(T v) {
    asm volatile("mcr p%c1, %c2, %0, c%c3, c%c4, %c5"
                 :
                 : "r"(v), "i"(Loc::coproc), "i"(Loc::opc1), "i"(Loc::crm), "i"(Loc::crn), "i"(Loc::opc2)
                 : "memory");
  }
};
using WrongPmu = xs::Xsc2<SwappedCrBus>;

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  const pmu::ProbeResult real = Pmu::probe();
  const bool complete = real.status == pmu::Status::ok && Pmu::probe_report().inten_holds &&
                        Pmu::probe_report().ccnt_overflow;
  examples::SelfTest test{out, "pmukit pmusim self-test (XScale XSC2)", complete,
                          "no complete PMU here (not pmusim?): nothing to test", board::exit, board::kExitFail};
  examples::Checks& checks = test.checks;
  checks.check(true, "probe finds the model's complete PMU");

  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong CP14 encoding (CRn and CRm swapped): probe ");
  out.put(pmu::status_name(wrong.status));
  out.put(", trapped registers 0x");
  out.hex(WrongPmu::probe_report().trapped, 2);
  out.put('\n');
  checks.check(wrong.status != pmu::Status::ok, "a wrong CP14 encoding is caught");
  checks.check(WrongPmu::probe_report().trapped != 0, "its accesses trap as undefined instructions");
  checks.check(Pmu::probe().status == pmu::Status::ok, "the real bus still finds the PMU");

  test.finish();
}
