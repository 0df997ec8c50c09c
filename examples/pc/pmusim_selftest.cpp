// Firmware that only makes sense under pmusim (tools/sim/), where the NetBurst PMU is the project's
// model on executing code. It checks what no emulator can show:
//  1. A running cascade (IQ counters 12 -> 14, instr_retired) read through the profiler while the
//     low counter rolls over 2^40 (examples/common/linked_rollover.hpp); the rollover lands on each
//     step of the read sequence (low, high, the low counter's overflow condition).
//  2. The decoder catches a wrong encoding: the same driver on a bus whose wrmsr swaps EDX and EAX
//     (a plausible inline-asm slip) must not find a working PMU, while the real bus does.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/checks.hpp"
#include "examples/common/linked_rollover.hpp"
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

  examples::check_linked_rollover(
      profiler, {"cascade", 12, 14, nb::config_of(nb::checked("instr_retired:NBOGUSNTAG")), std::uint64_t{1} << 40},
      checks);

  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong wrmsr encoding (EDX and EAX swapped): probe ");
  out.line(pmu::status_name(wrong.status));
  checks.check(wrong.status != pmu::Status::ok, "a wrong wrmsr encoding is caught");
  checks.check(profiler.probe().status == pmu::Status::ok, "the real bus still finds the PMU");

  out.line(checks.failures == 0 ? "SELFTEST PASS" : "SELFTEST FAIL");
  board::exit(checks.failures == 0 ? 0 : board::kExitFail);
}
