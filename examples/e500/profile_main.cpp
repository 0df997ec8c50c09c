// Example firmware: profile real code on an e500v2 (QEMU -M mpc8544ds) with pmukit.
//
// This board's part: probe the e500 performance monitor through prof::Profiler (QEMU 7.2 has none:
// every mfpmr is a program interrupt, which the board turns into a clean pmu_absent), then run the
// shared measurement (examples/common/profile_run.hpp) on whichever backend this part has: the PMU
// (pmu::e500::Driver, overflow-interrupt sampling) or, without one, the time base
// (prof::ClockBackend, decrementer sampling). Under pmusim (tools/sim/) the PMU is the project's
// model, one cycle per instruction, so the known region has an exact expectation there. The figures
// it checks hold under `-icount shift=0`
// (one instruction per virtual nanosecond), which is how its ctest runs it. Prints PROFILE PASS /
// PROFILE FAIL and exits through the board (GUTS RSTCR).
#include <cstdint>

#include "board/board.hpp"
#include "pmu_sampling.h"
#include "examples/common/profile_run.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/core/fault.hpp"
#include "hal/e500/driver.hpp"
#include "hal/e500/metrics.hpp"
#include "profiler/clock_backend.hpp"

namespace {

// The e500 time base as a clock: 64 bits, never wraps in practice.
struct Timebase {
  static constexpr unsigned kWidth = 64;
  static constexpr const char* kId = "e500-timebase";
  static std::uint64_t now() { return board::timebase(); }
};

using Pmu = pmu::e500::Driver<pmu::PmrBus>;
using Fallback = prof::ClockBackend<Timebase>;

// n + 2 instructions once called (mtctr, n x bdnz, blr), n + 4 with the call around it.
__attribute__((EXAMPLES_NOIPA, section("work_known"))) void spin_exact(std::uint32_t n) {
  asm volatile("mtctr %0\n1:\tbdnz 1b" : : "r"(n) : "ctr");
}

constexpr std::uint32_t kTickPeriod = board::kTimebaseHz / 100'000;  // decrementer: 10 us
// The fast path's period: 30 us, so that the sampled workloads fit its 256-sample ring.
constexpr std::uint32_t kFastPeriod = 3 * kTickPeriod;

extern "C" void handwritten_pc_dec();
extern "C" volatile std::uint32_t handwritten_head;
// PMU overflow sampling's hand-written baseline (handwritten_pmu.S), against the board's fast vector.
extern "C" void handwritten_pmu();
extern "C" volatile std::uint32_t handwritten_pmu_head;

struct Mpc8544ds {
  // The multiplexer's clock (examples/common/multiplex_check.hpp): the time base, 400 MHz here.
  using Clock = Timebase;
  static std::uint64_t clock_hz() { return board::kTimebaseHz; }
  static const examples::Console& console() { return board::console; }
  static void putc(char c) { board::putc(c); }
  static void spin_exact(std::uint32_t n) { ::spin_exact(n); }
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) {
    board::decrementer_start(kTickPeriod, tick);
    return true;
  }
  static void timer_stop() { board::decrementer_stop(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  // The SVR4 back chain is always kept: the target can walk it (profiler/frame_walk.hpp).
  static constexpr bool kFrameChainKept = true;
  static std::uintptr_t stack_bottom() { return board::stack_bottom(); }
  // IVOR35 is wired; untested on QEMU, which has no PMU.
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) {
    board::set_perfmon_handler(irq);
    return true;
  }
  static void irq_enable() { board::ee_enable(); }
  static void irq_disable() { board::ee_disable(); }
  // The fast path: IVOR10 straight into the ring (board.hpp, fast_sampling_start), and its
  // hand-written baseline (handwritten_dec.S), on the same decrementer period.
  static bool fast_sampling_start(bool handwritten) {
    const bool ok = handwritten ? board::decrementer_vector_start(kFastPeriod, &handwritten_pc_dec)
                                : board::fast_sampling_start(kFastPeriod, examples::fast_ring);
    if (ok) board::ee_enable();
    return ok;
  }
  static void fast_sampling_stop() {
    board::ee_disable();
    board::decrementer_stop();
  }
  static std::uint32_t handwritten_samples() { return handwritten_head; }
  // PMU overflow sampling through the board's fast vector (board/pmu_fast.S: IVOR35 into the fast
  // ring) and its hand-written baseline (examples/common/pmu_fast_vector.hpp). MSR[EE] set here.
  static bool pmu_fast_start(std::uint32_t period, volatile std::uint32_t* folds) {
    const bool ok = board::pmu_fast_start(period, examples::fast_ring, folds);
    if (ok) board::ee_enable();
    return ok;
  }
  static bool pmu_handwritten_start() {
    const bool ok = board::pmu_vector_start(&handwritten_pmu);
    if (ok) board::ee_enable();
    return ok;
  }
  static void pmu_fast_stop() {
    board::ee_disable();
    board::pmu_vector_stop();
  }
  static std::uint32_t pmu_handwritten_samples() { return handwritten_pmu_head; }
  static constexpr std::uint32_t kPmuHandwrittenPeriod = PMU_HANDWRITTEN_PERIOD;
  static std::uint64_t fast_sampling_period_ns() {
    return std::uint64_t{kFastPeriod} * 1'000'000'000u / board::kTimebaseHz;
  }
  // The spin loop is `mtctr; bdnz; blr`: PC the bdnz, and LR - 4 an I-form `bl` (opcode 18, AA 0,
  // LK 1) whose target, LR - 4 + the sign-extended LI || 0b00, is spin_exact.
  static bool in_known_loop(prof::Sample smp) {
    const auto fn = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&::spin_exact));
    if (smp.pc != fn + 4) return false;
    const std::uint32_t bl = *reinterpret_cast<const volatile std::uint32_t*>(smp.lr - 4);
    const auto disp = static_cast<std::uint32_t>(static_cast<std::int32_t>(bl << 6) >> 6) & ~3u;
    return (bl & 0xFC000003u) == 0x48000001u && smp.lr - 4 + disp == fn;
  }
};

// Multiplexed under pmusim, whose e500 counts these (tools/sim/README.md): ten events on four
// counters, three groups.
constexpr pmu::EventConfig kMuxEvents[] = {
    {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}, {8, 0, 0}, {9, 0, 0}, {10, 0, 0}, {12, 0, 0}, {13, 0, 0},
};
constexpr examples::MuxSetup kMux{kMuxEvents, sizeof kMuxEvents / sizeof kMuxEvents[0], 600'000, 1, nullptr,
                                  &pmu::e500::metrics, "branch"};

constexpr std::uint64_t kTickPeriodNs =
    std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kTimebaseHz;

// On silicon: core cycles, no expectation for the known region; PMU overflow sampling.
constexpr examples::Setup kPmuSetup{
    .target = "e500", .unit = "cycles", .counter_hz = 0,
    .known_iters = 10'000, .known_per_iter = 1, .known_extra = 4,
    .per_instr_num = 0, .per_instr_den = 0, .resolution = 0,
    .tolerance_permille = 1, .tolerance_abs = 0,
    .pmu_interrupt = true, .pmu_period = 10'000, .tick_period_ns = kTickPeriodNs};
// QEMU's time base runs at 400 MHz of virtual time and -icount shift=0 makes one instruction 1 ns:
// 0.4 ticks per instruction, and a reading is +-1 tick at each end. On silicon the time base runs
// at CCB/8 (CRM 9.3).
constexpr examples::Setup kTimebaseSetup{
    .target = "e500", .unit = "timebase ticks", .counter_hz = board::kTimebaseHz,
    .known_iters = 10'000, .known_per_iter = 1, .known_extra = 4,
    .per_instr_num = 2, .per_instr_den = 5, .resolution = 1,
    .tolerance_permille = 1, .tolerance_abs = 0,
    .pmu_interrupt = false, .pmu_period = 0, .tick_period_ns = kTickPeriodNs};

}  // namespace

// extern "C": the board's start-up code calls main, and clang (unlike GCC) mangles it under
// -ffreestanding.
extern "C" int main() {
  board::init();
  examples::work::fill();
  const examples::Console& out = board::console;
  out.line("pmukit e500 profile (QEMU mpc8544ds)");

  // The PMU, probed through the profiler. A trapping mfpmr is caught (pmu::fault) and counted.
  const std::uint32_t traps_before = pmu::fault::state.caught;
  const pmu::ProbeResult probe = examples::Bench<Pmu>::profiler.probe();
  const bool trapped = pmu::fault::state.caught != traps_before;
  const bool present = probe.status == pmu::Status::ok;
  out.put("probe: ");
  out.put(pmu::status_name(probe.status));
  out.put(", counting slots 0x");
  out.hex(probe.working_slots, 1);
  out.line(trapped ? ", mfpmr trapped" : "");
  if (present)
    out.line("e500 PMU: present -> PMU cycles for regions, PMU overflow interrupt for sampling");
  else if (trapped)
    out.line("e500 PMU: absent (mfpmr traps) -> timebase for cycle regions, decrementer for sampling");
  else
    out.line("e500 PMU: absent (counters do not advance) -> timebase for cycle regions, decrementer for sampling");

  const bool sim = board::under_pmusim();
  if (sim) out.line("pmusim: the e500 PMU is the project's model; one cycle per instruction");
  examples::Setup pmu_setup = sim ? examples::under_pmusim(kPmuSetup) : kPmuSetup;
  if (sim) pmu_setup.mux = &kMux;
  const int failed = present ? examples::profile<Mpc8544ds, Pmu>(pmu_setup)
                             : examples::profile<Mpc8544ds, Fallback>(kTimebaseSetup);
  out.line(failed == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
