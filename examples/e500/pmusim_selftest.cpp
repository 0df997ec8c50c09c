// Firmware that only makes sense under pmusim (tools/sim/), where the e500 performance monitor is
// the project's model on executing code. It checks what no emulator can show:
//  1. A running chain (PMC0 -> PMC1: PMC1 counts event 82, PMC0's rollovers, CRM 7.6.1) read
//     through the profiler while PMC0 rolls over 2^32: for 48 start offsets the rollover lands at a
//     different instruction of the read sequence, every value must be above the one before and no
//     more than one loop pass's worth of instructions above it, and no read may give up.
//  2. The decoder catches a wrong encoding: the same driver on a bus that hand-encodes mfpmr and
//     mtpmr with PMRN's two halves not swapped (the split field of CRM 3.3.2, a plausible slip in
//     a `.long` encoding for assemblers without the e500 mnemonics) must not find a working PMU,
//     while the real bus does.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict (its last line, "EXIT <code>").
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/checks.hpp"
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

// One chain run with PMC0 `before` events short of its rollover; false on any bad value.
bool chain_run(std::uint32_t before, const examples::Console& out) {
  constexpr std::uint64_t kSpan = std::uint64_t{1} << 32;
  constexpr std::uint64_t kPassBound = 20'000;  // instructions one read and the loop may take
  profiler.clear();
  prof::Counter lo, hi;
  const pmu::EventConfig ev{.code = 2};  // INSTR_COMPLETED
  if (profiler.add_on(0, ev, lo) != pmu::Status::ok || profiler.add_on(1, ev, hi) != pmu::Status::ok ||
      profiler.link(lo, hi) != pmu::Status::ok) {
    out.line("chain: could not set up PMC0 -> PMC1");
    return false;
  }
  profiler.start();
  Pmu::stop(1u << 0);
  Pmu::write(0, static_cast<std::uint32_t>(kSpan - before));
  Pmu::start(1u << 0);
  std::uint64_t prev = profiler.read(hi);
  bool ok = true;
  for (int i = 0; i < 16 && ok; ++i) {
    const std::uint64_t v = profiler.read(hi);
    if (i == 0 && before == 1) {
      out.put("chain: one profiler read of a linked pair, loop included: ");
      out.dec(v - prev);
      out.line(" instructions");
    }
    if (v <= prev || v - prev > kPassBound) {
      out.put("chain: read ");
      out.dec(v);
      out.put(" after ");
      out.dec(prev);
      out.put(" (PMC0 started ");
      out.dec(before);
      out.line(" events before its rollover)");
      ok = false;
    }
    prev = v;
  }
  ok = ok && prev > kSpan && Pmu::read(1) > 0;  // PMC1 took the carry
  profiler.stop();
  return ok;
}

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  out.line("pmukit pmusim self-test (e500)");
  examples::Checks checks{out};
  if (!board::under_pmusim()) {
    out.line("not under pmusim: nothing to test here");
    out.line("SELFTEST FAIL");
    board::exit(board::kExitFail);
  }
  checks.check(profiler.probe().status == pmu::Status::ok, "probe finds the model's PMU");

  unsigned good = 0;
  const std::uint32_t giveups = profiler.read_giveups();
  for (std::uint32_t before = 1; before <= 48; ++before) good += chain_run(before, out);
  out.put("chain: ");
  out.dec(good);
  out.line(" of 48 runs read monotonic values across PMC0's rollover");
  checks.check(good == 48, "chained reads stay consistent while the low counter rolls over");
  checks.check(profiler.read_giveups() == giveups, "no chained read gave up");

  const std::uint32_t caught = pmu::fault::state.caught;
  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong mfpmr/mtpmr encoding (PMRN halves not swapped): probe ");
  out.line(pmu::status_name(wrong.status));
  checks.check(wrong.status != pmu::Status::ok, "a wrong PMRN encoding is caught");
  checks.check(pmu::fault::state.caught != caught, "its accesses raise program interrupts");
  checks.check(profiler.probe().status == pmu::Status::ok, "the real bus still finds the PMU");

  out.line(checks.failures == 0 ? "SELFTEST PASS" : "SELFTEST FAIL");
  board::exit(checks.failures == 0 ? 0 : board::kExitFail);
}
