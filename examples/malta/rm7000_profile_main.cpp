// Example firmware: profile real code built for the RM7000 (-march=rm7000) with pmukit, on QEMU's
// Malta board with a 5Kc core (QEMU has no RM7000; examples/malta/README.md).
//
// This board's part: read PRId and probe the RM7000 counter through prof::Profiler. On QEMU the
// PRId is the 5Kc's, so the driver leaves CP0 $22/$25 alone (unsupported_core); because those
// encodings are inert storage on every QEMU MIPS CPU, the example then forces the core to show the
// probe's second line of defence: PerfCount never advances (pmu_absent). It also checks that the
// Interrupt Control register's cfc0 is caught as a reserved instruction there. Then the shared
// measurement (examples/common/profile_run.hpp) runs on the counter where it counts, else on CP0
// Count (prof::ClockBackend) with Count/Compare timer sampling. Under pmusim (tools/sim/) PRId is an
// RM7000's and the counter is the project's model: the PMU path runs, sampling from interrupt 13.
// Prints PROFILE PASS / PROFILE FAIL and exits through UHI with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/core/fault.hpp"
#include "hal/rm7000/driver.hpp"
#include "hal/rm7000/metrics.hpp"
#include "malta_profile.hpp"
#include "timer_fast_path.hpp"

namespace {

using Pmu = pmu::rm7000::Driver<pmu::Cp0Bus>;

// On silicon: core cycles (event 0x00), no expectation for the known region; PMU overflow sampling.
constexpr examples::Setup kPmuSetup{
    .target = "rm7000", .unit = "cycles", .counter_hz = 0,
    .known_iters = 10'000, .known_per_iter = 2, .known_extra = 6,
    .per_instr_num = 0, .per_instr_den = 0, .resolution = 0,
    .tolerance_permille = 1, .tolerance_abs = 0,
    .pmu_interrupt = true, .pmu_period = 10'000, .tick_period_ns = malta::kTickPeriodNs};
constexpr examples::Setup kCountSetup = malta::count_setup("rm7000");

// Multiplexed under pmusim, whose RM7000 counts these (tools/sim/README.md): six events on the one
// counter, six groups.
constexpr pmu::EventConfig kMuxEvents[] = {
    {0x00, 0, 0}, {0x01, 0, 0}, {0x04, 0, 0}, {0x05, 0, 0}, {0x11, 0, 0}, {0x12, 0, 0},
};
constexpr examples::MuxSetup kMux{kMuxEvents, sizeof kMuxEvents / sizeof kMuxEvents[0], 1'200'000, 1, nullptr,
                                  &pmu::rm7000::metrics, "branch"};

}  // namespace

// extern "C": the board's start-up code calls main, and clang (unlike GCC) mangles it under
// -ffreestanding.
extern "C" int main() {
  board::init();
  examples::work::fill();
  const examples::Console& out = board::console;
  out.line("pmukit rm7000 profile (QEMU malta, -cpu 5Kc)");
  examples::Checks checks{out};

  const std::uint32_t prid = board::prid();
  out.put("PRId 0x");
  out.hex(prid);
  out.put(": ");
  out.line(pmu::rm7000::core_name(pmu::rm7000::core_of_prid(prid)));

  prof::Profiler<Pmu>& profiler = examples::Bench<Pmu>::profiler;
  pmu::ProbeResult probe = profiler.probe();
  out.put("probe: ");
  out.line(pmu::status_name(probe.status));
  if (probe.status == pmu::Status::unsupported_core) {
    out.line("RM7000 counter: not probed (not an RM7000): CP0 $22/$25 are other registers on this core");
    // This image runs on QEMU, whose MIPS CPUs keep $22/$25 as inert storage (examples/malta/README.md):
    // safe to show the probe's second check there, never on an unknown silicon core.
    Pmu::force_core(pmu::rm7000::Core::rm7000);
    probe = profiler.probe();
    Pmu::force_core(pmu::rm7000::Core::unknown);
    out.put("forced probe as an RM7000: ");
    out.put(pmu::status_name(probe.status));
    out.line(probe.status == pmu::Status::pmu_absent ? " (PerfCount does not advance: the counter is inert)"
                                                     : "");
    checks.check(probe.status == pmu::Status::pmu_absent, "inert counter found absent");
    const std::uint32_t caught = pmu::fault::state.caught;
    const bool trapped = pmu::fault::traps([] { (void)Pmu::interrupt_enabled(); });
    out.line(trapped ? "cfc0 $20 (Interrupt Control): reserved instruction here, caught"
                     : "cfc0 $20 (Interrupt Control): did not trap");
    checks.check(trapped && pmu::fault::state.caught == caught + 1, "cfc0 fault caught once");
  }
  const bool present = probe.status == pmu::Status::ok;
  out.line(present ? "RM7000 counter: present -> PerfCount cycles for regions, its interrupt for sampling"
                   : "RM7000 counter: absent -> CP0 Count for cycle regions, Count/Compare timer for sampling");

  const bool sim = board::under_pmusim();
  if (sim) out.line("pmusim: the RM7000 counter is the project's model; one clock per instruction");
  examples::Setup pmu_setup = sim ? examples::under_pmusim(kPmuSetup) : kPmuSetup;
  if (sim) pmu_setup.mux = &kMux;
  int failed = checks.failures + (present ? examples::profile<malta::Board, Pmu>(pmu_setup)
                                          : examples::profile<malta::Board, malta::CountBackend>(kCountSetup));
  // The fast timer path's branch re-runs under pmusim (the PMU's fast vector: in profile()).
  if (present) failed += malta::timer_fast_path_rerun<malta::Board>();
  out.line(failed == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
