// Firmware that only makes sense under pmusim (tools/sim/), where the Coherence Manager is the
// project's model behind CP0 and the GCR block: the decoder must catch a wrong CP0 encoding. The
// same driver on a bus whose mfc0 drops the select field (the MIPS IV form `mfc0 rt, $rd`, a
// plausible slip when one bus serves both ISA levels) reads Config for Config1-3 and PRId for
// CMGCRBase, so discovery must not find the CM's counters; the real bus must. And the CP0 timer
// pmusim runs on its instruction clock (timer_selftest.hpp), with MIPS32r2's Cause.TI.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/selftest.hpp"
#include "hal/mips_cps/driver.hpp"
#include "timer_selftest.hpp"

namespace {

namespace cm = pmu::mips_cps;
using Cm = cm::Driver<cm::HwBus>;

// Cp0Bus whose reads lose the select field: the deliberate mistake pmusim must expose.
struct NoSelectCp0Bus {
  static constexpr pmu::BusKind kind = pmu::BusKind::cp0;
  template <class Loc, class T>
  static T read() {
    T v;
    asm volatile("mfc0 %0, $%1" : "=r"(v) : "i"(Loc::reg) : "memory");
    return v;
  }
  template <class Loc, class T>
  static void write(T v) {
    pmu::Cp0Bus::write<Loc, T>(v);
  }
};
using WrongCm = cm::Driver<pmu::CompositeBus<NoSelectCp0Bus, pmu::MmioBus<cm::GcrBase>>>;

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  examples::SelfTest test{out, "pmukit pmusim self-test (MIPS CM)", board::under_pmusim(), "not under pmusim: nothing to test here",
                          board::exit, board::kExitFail};
  examples::Checks& checks = test.checks;
  checks.check(Cm::probe().status == pmu::Status::ok, "discovery finds the model's CM counters");
  malta_selftest::check_count_compare(checks, malta_selftest::CAUSE_IP7 | 1u << 30);  // IP7 and TI
  malta_selftest::check_interrupt_on_delay_slot(checks);

  const pmu::ProbeResult wrong = WrongCm::probe();
  out.put("wrong mfc0 encoding (select field dropped): probe ");
  out.put(pmu::status_name(wrong.status));
  out.put(", ");
  out.line(cm::finding_text(WrongCm::discovery().finding));
  checks.check(wrong.status != pmu::Status::ok, "a wrong mfc0 encoding is caught");
  checks.check(WrongCm::discovery().finding != cm::Finding::found, "discovery does not report the counters");
  checks.check(Cm::probe().status == pmu::Status::ok, "the real bus still finds the CM counters");

  test.finish();
}
