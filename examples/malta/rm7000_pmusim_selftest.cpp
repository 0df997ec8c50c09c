// Firmware that only makes sense under pmusim (tools/sim/), where the RM7000 counter is the
// project's model on executing code: the decoder must catch a wrong CP0 encoding. The same driver on
// a bus whose mtc0 has its operands in the wrong order (`mtc0 $rd, rt`: a plausible inline-asm slip,
// since most assemblers put the destination first and MIPS puts the GPR first) must not find a
// working counter: its writes land in CP0 register 2 (EntryLo0) from GPR 22/25, so PerfControl is
// never programmed, on pmusim as on silicon. The real bus must still find the counter.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/checks.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/rm7000/driver.hpp"

namespace {

namespace rm = pmu::rm7000;
using Pmu = rm::Driver<pmu::Cp0Bus>;

// Cp0Bus with mtc0's operands swapped: the deliberate mistake pmusim must expose. `mtc0 $22, $2`
// assembles as rt = 22 (the GPR read), rd = 2 (the CP0 register written). Reads are the real bus's.
struct SwappedMtc0Bus {
  static constexpr pmu::BusKind kind = pmu::BusKind::cp0;
  template <class Loc, class T>
  static T read() {
    return pmu::Cp0Bus::read<Loc, T>();
  }
  template <class Loc, class T>
  static void write(T v) {
    if constexpr (Loc::control) {
      pmu::Cp0Bus::write<Loc, T>(v);
    } else {
      asm volatile(".set push\n\t.set noreorder\n\tmtc0 $%1, %z0\n\t.rept 8\n\tnop\n\t.endr\n\t.set pop"
                   :
                   : "dJ"(v), "i"(Loc::reg)
                   : "memory");
    }
  }
};
using WrongPmu = rm::Driver<SwappedMtc0Bus>;

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  out.line("pmukit pmusim self-test (RM7000)");
  examples::Checks checks{out};
  if (!board::under_pmusim()) {
    out.line("not under pmusim: nothing to test here");
    out.line("SELFTEST FAIL");
    board::exit(board::kExitFail);
  }
  checks.check(Pmu::probe().status == pmu::Status::ok, "probe finds the model's counter");

  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong mtc0 encoding (rt and rd swapped): probe ");
  out.line(pmu::status_name(wrong.status));
  checks.check(wrong.status != pmu::Status::ok, "a wrong mtc0 encoding is caught");
  checks.check(Pmu::probe().status == pmu::Status::ok, "the real bus still finds the counter");

  out.line(checks.failures == 0 ? "SELFTEST PASS" : "SELFTEST FAIL");
  board::exit(checks.failures == 0 ? 0 : board::kExitFail);
}
