// Firmware that only makes sense under pmusim (tools/sim/), where the NetBurst PMU is the project's
// model on executing code. It checks what no emulator can show:
//  1. A running cascade (IQ counters 12 -> 14, instr_retired) read through the profiler while the
//     low counter rolls over 2^40: for 48 start offsets the rollover lands at a different
//     instruction of the read sequence (low, high, the low counter's overflow condition), and every value must be larger than the
//     one before and no more than one loop pass's worth of instructions larger, and no read may
//     give up (kReadTries passes without a consistent set).
//  2. The decoder catches a wrong encoding: the same driver on a bus whose wrmsr swaps EDX and EAX
//     (a plausible inline-asm slip) must not find a working PMU, while the real bus does.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/checks.hpp"
#include "hal/core/bus/composite.hpp"
#include "hal/core/bus/cpuid.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/core/bus/msr.hpp"
#include "hal/netburst/driver.hpp"
#include "profiler/profiler.hpp"

namespace {

namespace nb = pmu::netburst;
using Pmu = nb::Driver<nb::HwBus>;

// MsrBus with wrmsr's value halves swapped: the deliberate mistake pmusim must expose.
struct SwappedWrmsrBus {
  static constexpr pmu::BusKind kind = pmu::BusKind::msr;
  template <class Loc, class T>
  static T read() {
    return pmu::MsrBus::read<Loc, T>();
  }
  template <class Loc, class T>
  static void write(T v) {
    asm volatile("wrmsr"
                 :
                 : "c"(Loc::address), "d"(static_cast<std::uint32_t>(v)), "a"(static_cast<std::uint32_t>(v >> 32))
                 : "memory");
  }
};
using WrongPmu = nb::Driver<pmu::CompositeBus<SwappedWrmsrBus, pmu::PmcBus, pmu::CpuidBus, pmu::MmioBus<nb::ApicBase>>>;

prof::Profiler<Pmu> profiler;

// One cascade run with the low counter `before` events short of its wrap; false on any bad value.
bool cascade_run(std::uint32_t before, const examples::Console& out) {
  constexpr std::uint64_t kSpan = std::uint64_t{1} << 40;
  constexpr std::uint64_t kPassBound = 20'000;  // instructions one read and the loop may take
  profiler.clear();
  prof::Counter lo, hi;
  const pmu::EventConfig ev = nb::config_of(nb::checked("instr_retired:NBOGUSNTAG"));
  if (profiler.add_on(12, ev, lo) != pmu::Status::ok || profiler.add_on(14, ev, hi) != pmu::Status::ok ||
      profiler.link(lo, hi) != pmu::Status::ok) {
    out.line("cascade: could not set up counters 12 -> 14");
    return false;
  }
  profiler.start();
  Pmu::stop(1u << 12);
  Pmu::write(12, kSpan - before);
  Pmu::start(1u << 12);
  std::uint64_t prev = profiler.read(hi);
  bool ok = true;
  for (int i = 0; i < 16 && ok; ++i) {
    const std::uint64_t v = profiler.read(hi);
    if (i == 0 && before == 1) {
      out.put("cascade: one profiler read of a linked pair, loop included: ");
      out.dec(v - prev);
      out.line(" instructions");
    }
    if (v <= prev || v - prev > kPassBound) {
      out.put("cascade: read ");
      out.dec(v);
      out.put(" after ");
      out.dec(prev);
      out.put(" (low counter started ");
      out.dec(before);
      out.line(" events before its wrap)");
      ok = false;
    }
    prev = v;
  }
  ok = ok && prev > kSpan && Pmu::read(14) > 0;  // the high counter took over
  profiler.stop();
  return ok;
}

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  out.line("pmukit pmusim self-test (NetBurst)");
  examples::Checks checks{out};
  if (!board::under_pmusim()) {
    out.line("not under pmusim: nothing to test here");
    out.line("SELFTEST FAIL");
    board::exit(board::kExitFail);
  }
  checks.check(profiler.probe().status == pmu::Status::ok, "probe finds the model's PMU");

  unsigned good = 0;
  const std::uint32_t giveups = profiler.read_giveups();
  for (std::uint32_t before = 1; before <= 48; ++before) good += cascade_run(before, out);
  out.put("cascade: ");
  out.dec(good);
  out.line(" of 48 runs read monotonic values across the low counter's rollover");
  checks.check(good == 48, "cascade reads stay consistent while the low counter rolls over");
  // The high counter moves on every instruction after the rollover: a read that waits for two
  // equal high values retries until it gives up (what this test first found).
  checks.check(profiler.read_giveups() == giveups, "no cascade read gave up");

  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong wrmsr encoding (EDX and EAX swapped): probe ");
  out.line(pmu::status_name(wrong.status));
  checks.check(wrong.status != pmu::Status::ok, "a wrong wrmsr encoding is caught");
  checks.check(profiler.probe().status == pmu::Status::ok, "the real bus still finds the PMU");

  out.line(checks.failures == 0 ? "SELFTEST PASS" : "SELFTEST FAIL");
  board::exit(checks.failures == 0 ? 0 : board::kExitFail);
}
