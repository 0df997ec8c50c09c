// Example firmware: the MIPS CPS Coherence Manager counters on QEMU's Malta board with a P5600
// cluster (-cpu P5600 -smp 2; the second VP stays parked, examples/malta/README.md).
//
// This board's part: discover the CM through CP0 (Config3.CMGCR, CMGCRBase) and the GCR (GCR_BASE
// read-back, GCR_REV), print what was found, claim the counters on this VP, and say why they cannot
// be used here: QEMU reports CM3, whose counter layout is not published; forced past that (QEMU
// only: a silent block cannot be harmed), PC_CTL.Perf_Num_Cnt reads 0, so the block is absent. The
// Malta has no wiring for CM_PCInt either. Then the shared measurement (examples/common/
// profile_run.hpp) runs on the CM counters where they count (CM cycles), else on CP0 Count with
// Count/Compare timer sampling. Prints the GCR offsets the driver may touch, for the test that
// compares them with QEMU's `-d unimp` log. Prints PROFILE PASS / PROFILE FAIL and exits through
// UHI with the verdict. Under pmusim (tools/sim/) the CM is the project's model (CM2.5, counting
// one CM cycle per instruction) and its Malta wires CM_PCInt: the counters measure the regions and
// their overflow interrupt drives the sampler.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "hal/mips_cps/driver.hpp"
#include "hal/mips_cps/metrics.hpp"
#include "malta_profile.hpp"
#include "timer_fast_path.hpp"

namespace {

using Cm = pmu::mips_cps::Driver<pmu::mips_cps::HwBus>;
namespace cm = pmu::mips_cps;

// On silicon: CM clock cycles (not core cycles), no expectation for the known region; sampling from
// the Count/Compare timer (CM_PCInt is the SoC's to wire; a board that wires it routes it here).
constexpr examples::Setup kCmSetup{
    .target = "mips-cm", .unit = "CM cycles", .counter_hz = 0,
    .known_iters = 10'000, .known_per_iter = 2, .known_extra = 6,
    .per_instr_num = 0, .per_instr_den = 0, .resolution = 0,
    .tolerance_permille = 1, .tolerance_abs = 0,
    .pmu_interrupt = false, .pmu_period = 0, .tick_period_ns = malta::kTickPeriodNs};
constexpr examples::Setup kCountSetup = malta::count_setup("mips-cps");

// Multiplexed under pmusim: PC_CYCLE beside the "bus" metric group's request and data events on
// the two event counters, four groups. pmusim has no memory system, so those events count 0 there
// (tools/sim/README.md) and must be estimated 0: only the rotation and the cycles are checked for
// real.
constexpr pmu::EventConfig kMuxEvents[] = {
    {cm::kCycleEvent, 0, 0},
};
constexpr examples::MuxSetup kMux{kMuxEvents, sizeof kMuxEvents / sizeof kMuxEvents[0], 600'000, 1, nullptr,
                                  &cm::metrics, "bus"};

// The Malta adaptor, with CM_PCInt as the PMU interrupt where the board wires it.
struct CpsBoard : malta::Board {
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) { return board::set_cm_pcint_handler(irq); }
};

void print_discovery(const examples::Console& out) {
  const cm::Discovery& d = Cm::discovery();
  out.put("GCR: physical 0x");
  out.hex(static_cast<std::uint32_t>(d.gcr_phys));
  out.put(d.base_from_board ? " (board), GCR_REV 0x" : " (CMGCRBase), GCR_REV 0x");
  out.hex(d.gcr_rev);
  out.put(" = ");
  out.line(cm::revision_name(d.revision));
  out.put("CM counters: ");
  out.line(cm::finding_text(d.finding));
}

}  // namespace

// extern "C": the board's start-up code calls main, and clang (unlike GCC) mangles it under
// -ffreestanding.
extern "C" int main() {
  board::init();
  examples::work::fill();
  const examples::Console& out = board::console;
  out.line("pmukit mips-cm profile (QEMU malta, -cpu P5600 -smp 2)");
  examples::Checks checks{out};

  out.put("GCR offsets the driver may touch:");
  for (std::uint32_t off : cm::kTouchedOffsets) {
    out.put(" 0x");
    out.hex(off);
  }
  out.put('\n');

  prof::Profiler<Cm>& profiler = examples::Bench<Cm>::profiler;
  pmu::ProbeResult probe = profiler.probe();
  out.put("probe: ");
  out.line(pmu::status_name(probe.status));
  print_discovery(out);
  const cm::Discovery found = Cm::discovery();
  // Discovered and read back: whatever the revision and the block say after that.
  checks.check(found.finding == cm::Finding::found || found.finding == cm::Finding::layout_unpublished ||
                   found.finding == cm::Finding::unknown_revision || found.finding == cm::Finding::counters_absent,
               "GCR discovered and read back");
  if (found.finding == cm::Finding::layout_unpublished && found.revision == cm::Revision::cm3 &&
      found.gcr_phys == 0x1FBF8000u) {
    // QEMU's CPS (CM3 at 0x1FBF8000): its debug block is not emulated, so reading it is harmless.
    // Never force a revision on silicon without its manual.
    Cm::force_revision(cm::Revision::cm3);
    probe = profiler.probe();
    Cm::force_revision(cm::Revision::unknown);
    out.put("forced probe with the CM2.5 layout: ");
    out.put(pmu::status_name(probe.status));
    out.put(" (");
    out.put(cm::finding_text(Cm::discovery().finding));
    out.line(")");
    checks.check(Cm::discovery().finding == cm::Finding::counters_absent,
                 "silent debug block found absent");
  }
  // The ownership contract, on the boot VP.
  const bool claimed = Cm::claim() == pmu::Status::ok && Cm::owner() == 0;
  out.line(claimed ? "claim: VP 0 owns the CM counters" : "claim: refused");
  checks.check(claimed && Cm::release() == pmu::Status::ok && Cm::owner() == -1, "claim and release");
  const bool sim = board::under_pmusim();
  if (sim) Cm::set_pcint_source(board::kCmPcintSource);
  out.line(Cm::pcint_wired() ? "CM_PCInt: wired (hardware interrupt 4)"
                             : "CM_PCInt: not wired on this board (no GIC source for it)");

  const bool present = probe.status == pmu::Status::ok && Cm::claim() == pmu::Status::ok;
  if (present)
    out.line(Cm::pcint_wired() ? "CM counters: present -> CM cycles for regions, CM_PCInt for sampling"
                               : "CM counters: present -> CM cycles for regions, the timer for sampling");
  else
    out.line("CM counters: absent -> CP0 Count for cycle regions, Count/Compare timer for sampling");
  if (sim) out.line("pmusim: the CM counters are the project's model; one CM cycle per instruction");

  examples::Setup cm_setup = sim ? examples::under_pmusim(kCmSetup) : kCmSetup;
  cm_setup.pmu_interrupt = Cm::pcint_wired();
  cm_setup.pmu_period = 10'000;
  if (sim) cm_setup.mux = &kMux;
  // The fast PMU vector rewinds PC_CYCLE at its discovered address (malta_profile.hpp).
  if (present) malta::Board::pmu_counter = cm::GcrBase::address() + cm::PC_CYCLE::location::offset;
  int failed = checks.failures + (present ? examples::profile<CpsBoard, Cm>(cm_setup)
                                          : examples::profile<malta::Board, malta::CountBackend>(kCountSetup));
  // The fast timer path's branch re-runs under pmusim (the PMU's fast vector: in profile()).
  if (present && Cm::pcint_wired()) failed += malta::timer_fast_path_rerun<CpsBoard>();
  out.line(failed == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
