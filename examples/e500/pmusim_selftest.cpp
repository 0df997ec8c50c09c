// Firmware that only makes sense under pmusim (tools/sim/), where the e500 performance monitor is
// the project's model on executing code. It checks what no emulator can show:
//  1. A running chain (PMC0 -> PMC1: PMC1 counts event 82, PMC0's rollovers, CRM 7.6.1) read
//     through the profiler while PMC0 rolls over 2^32 (examples/common/linked_rollover.hpp).
//  2. The decoder catches a wrong encoding: the same driver on a bus that hand-encodes mfpmr and
//     mtpmr with PMRN's two halves not swapped (the split field of CRM 3.3.2, a plausible slip in
//     a `.long` encoding for assemblers without the e500 mnemonics) must not find a working PMU,
//     while the real bus does.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict (its last line, "EXIT <code>").
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/selftest.hpp"
#include "examples/common/linked_rollover.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/core/fault.hpp"
#include "hal/e500/driver.hpp"
#include "profiler/profiler.hpp"

namespace {

namespace e5 = pmu::e500;
using Pmu = e5::Driver<pmu::PmrBus>;

// mfpmr rD,PMRN is 31 | rD | PMRN[5-9] | PMRN[0-4] | 334 | 0: this bus writes PMRN unsplit.
struct UnsplitPmrBus {
  static constexpr pmu::BusKind kind = pmu::BusKind::pmr;
  template <class Loc, class T>
  static T read() {
    if constexpr (pmu::LocationOf<Loc, pmu::BusKind::spr>) {
      return pmu::PmrBus::read<Loc, T>();
    } else {
      register std::uint32_t v asm("r3");
      asm volatile(".long %c1" : "=r"(v) : "i"(0x7C60029Cu | (Loc::number << 11)) : "memory");
      return v;
    }
  }
  template <class Loc, class T>
  static void write(T v) {
    if constexpr (pmu::LocationOf<Loc, pmu::BusKind::spr>) {
      pmu::PmrBus::write<Loc, T>(v);
    } else {
      register std::uint32_t r asm("r3") = v;
      asm volatile(".long %c1\n\tisync" : : "r"(r), "i"(0x7C60039Cu | (Loc::number << 11)) : "memory");
    }
  }
};
using WrongPmu = e5::Driver<UnsplitPmrBus>;

prof::Profiler<Pmu> profiler;

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  examples::SelfTest test{out, "pmukit pmusim self-test (e500)", board::under_pmusim(), "not under pmusim: nothing to test here",
                          board::exit, board::kExitFail};
  examples::Checks& checks = test.checks;
  checks.check(profiler.probe().status == pmu::Status::ok, "probe finds the model's PMU");

  examples::check_linked_rollover(profiler, {"chain", 0, 1, {.code = 2}, std::uint64_t{1} << 32}, checks);  // INSTR_COMPLETED

  const std::uint32_t caught = pmu::fault::state.caught;
  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong mfpmr/mtpmr encoding (PMRN halves not swapped): probe ");
  out.line(pmu::status_name(wrong.status));
  checks.check(wrong.status != pmu::Status::ok, "a wrong PMRN encoding is caught");
  checks.check(pmu::fault::state.caught != caught, "its accesses raise program interrupts");
  checks.check(profiler.probe().status == pmu::Status::ok, "the real bus still finds the PMU");

  test.finish();
}
