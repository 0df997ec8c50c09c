// Example firmware: profile real code on the XScale PXA270 (QEMU -M mainstone) with pmukit.
//
// This board's part: identify the core (MIDR), probe what its PMU really implements, and hand the
// shared measurement (examples/common/profile_run.hpp) this board's loop of known length, timer
// and console. Nothing here knows it runs on an emulator: every gap is found by probe() at run
// time. Exits 0 only if every check passed (semihosting exit status).
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "fast_sampling.h"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/metrics.hpp"
#include "hal/xscale/regs.hpp"
#include "profiler/dump/debugger_capture.hpp"
#include "profiler/dump/semihosting_sink.hpp"

// The dump also stays in memory for a debugger (docs/capture.md): pmukit_dump_buffer, 128 KiB
// (the stack samples are most of it).
PMUKIT_DEFINE_DEBUGGER_CAPTURE(128 * 1024)

namespace {

using Pmu = pmu::xscale::Xsc2<pmu::Cp14Bus>;

// Exactly 2 * n instructions (subs + bne per iteration), 2n + 3 with the call: the region of known
// length. Its own section, like the shared workloads (examples/common/workloads.hpp).
__attribute__((EXAMPLES_NOIPA, section("work_known"))) void spin_exact(std::uint32_t n) {
  asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
}

constexpr std::uint32_t kTickPeriod = board::kMinPeriodTicks;  // 3.25 MHz ticks: ~9.8 us

// The fast sampling path: the OS timer's FIQ straight into the ring (board.hpp, "Fast interrupt").
// GCC only: the board's FIQ vector jumps through r8_fiq, which GCC's FIQ handler leaves alone and
// clang's uses (clang has no -ffixed-r8), and clang's entry does not take 4 off LR as
// fiq_interrupted_pc() expects. A clang build samples through the general IRQ path.
#if !defined(__clang__)
#define EXAMPLE_FAST_FIQ 1
extern "C" [[gnu::interrupt("FIQ")]] void profile_sample_fiq() {
  board::fiq_timer_rearm<FAST_SAMPLING_PERIOD>();
  examples::fast_ring.record(board::fiq_interrupted_pc(), board::fiq_interrupted_lr());
}

// Its hand-written baseline (handwritten_fiq.S).
extern "C" void handwritten_pc_fiq();
extern "C" volatile std::uint32_t handwritten_head;
// The PMU overflow's hand-written baseline (handwritten_pmu_fiq.S), against the board's fast vector.
extern "C" void handwritten_pmu_fiq();
extern "C" volatile std::uint32_t handwritten_pmu_head;
#endif

struct Mainstone {
  static const examples::Console& console() { return board::console; }
  static void putc(char c) { board::putc(c); }
  static void spin_exact(std::uint32_t n) { ::spin_exact(n); }
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) {
    return board::timer_start(kTickPeriod, tick);
  }
  static void timer_stop() { board::timer_stop(); }
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) { return board::pmu_irq_start(irq); }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
#if EXAMPLE_FAST_FIQ
  static bool fast_sampling_start(bool handwritten) {
    board::fiq_set_handler(handwritten ? &handwritten_pc_fiq : &profile_sample_fiq);
    if (!board::fiq_timer_start(FAST_SAMPLING_PERIOD)) return false;
    board::fiq_enable();
    return true;
  }
  static void fast_sampling_stop() { board::fiq_timer_stop(); }
  static std::uint32_t handwritten_samples() { return handwritten_head; }
  // PMU overflow sampling through the board's fast vector (board/pmu_fast.S) into the fast ring,
  // and its hand-written baseline (examples/common/pmu_fast_vector.hpp).
  static_assert(examples::FastRing::kCapacity == board::kPmuFastRingSize, "the fast vector's ring layout");
  static bool pmu_fast_start(std::uint32_t period, volatile std::uint32_t* folds) {
    if (!board::pmu_fast_start(&examples::fast_ring, period, folds)) return false;
    board::fiq_enable();
    return true;
  }
  static bool pmu_handwritten_start() {
    if (!board::pmu_fiq_start(&handwritten_pmu_fiq)) return false;
    board::fiq_enable();
    return true;
  }
  static void pmu_fast_stop() { board::pmu_fiq_stop(); }
  static std::uint32_t pmu_handwritten_samples() { return handwritten_pmu_head; }
  static constexpr std::uint32_t kPmuHandwrittenPeriod = PMU_HANDWRITTEN_PERIOD;
  // spin_exact is `subs; bne` then the return; LR - 4 must be an ARM BL (cond AL, 0b1011) whose
  // target, LR - 4 + 8 + 4 * signed imm24 (ARM ARM A4.1.5), is spin_exact.
  static bool in_known_loop(prof::Sample smp) {
    const auto loop = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&::spin_exact));
    if (smp.pc != loop && smp.pc != loop + 4) return false;
    const std::uint32_t bl = *reinterpret_cast<const volatile std::uint32_t*>(smp.lr - 4);
    const std::uint32_t target = smp.lr + 4 + (static_cast<std::uint32_t>(static_cast<std::int32_t>(bl << 8) >> 6));
    return (bl >> 24) == 0xEB && target == loop;
  }
  static std::uint64_t fast_sampling_period_ns() {
    return std::uint64_t{FAST_SAMPLING_PERIOD} * 1'000'000'000u / board::timer_hz();
  }
#endif
  // Capture besides the console (docs/capture.md): the debugger's buffer, and a file on the host
  // through semihosting where the emulator serves SYS_OPEN (QEMU -semihosting; pmusim does not).
  static inline pmu::dump::DebuggerCaptureSink debugger;
  static inline pmu::dump::SemihostingFileSink file;
  static inline pmu::dump::TeeSink both{};
  static pmu::dump::Sink capture_sink() {
    both = pmu::dump::TeeSink{debugger.sink()};
    if (file.open(kCaptureFile)) both.secondary = file.sink();
    return both.sink();
  }
  // Stack capture from the general timer IRQ (profile_run's stack sampling phase).
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  static void capture_done(bool written) {
    board::console.put("capture: debugger buffer pmukit_dump_buffer, ");
    board::console.dec(written ? pmukit_dump_size : 0);
    board::console.put(" bytes; semihosting file ");
    board::console.put(kCaptureFile);
    board::console.line(both.secondary.write == nullptr ? ": not served here"
                        : both.secondary_failed()       ? ": write failed"
                                                        : ": written");
  }
  static constexpr const char* kCaptureFile = "xscale_profile.elf.semihosting.pmud";
  // The multiplexer's clock (examples/common/multiplex_check.hpp): OSCR0, 3.25 MHz.
  struct Clock {
    static constexpr unsigned kWidth = 32;
    static std::uint64_t now() { return board::timebase(); }
  };
  static std::uint64_t clock_hz() { return board::timer_hz(); }
};

// Multiplexed under pmusim, whose XScale counts these (tools/sim/README.md): CCNT beside six
// events on four PMNs, two groups; DC_MISS and BRANCH_MISPRED stay 0 there (no caches, no
// prediction) and must be estimated 0.
namespace xev = pmu::xscale::event;
constexpr pmu::EventConfig kMuxEvents[] = {
    {pmu::xscale::kCcntEvent, 0, 0}, {xev::INSTR, 0, 0},   {xev::BRANCH, 0, 0},         {xev::DC_ACCESS, 0, 0},
    {xev::PC_CHANGE, 0, 0},          {xev::DC_MISS, 0, 0}, {xev::BRANCH_MISPRED, 0, 0},
};
constexpr examples::MuxSetup kMux{kMuxEvents, sizeof kMuxEvents / sizeof kMuxEvents[0], 600'000, 1, nullptr,
                                  &pmu::xscale::metrics, "branch"};

// CCNT counts instructions under -icount shift=0 (cycles on silicon): exact, so resolution 0.
constexpr examples::Setup kSetup{
    .target = "xscale", .unit = "CCNT cycles", .counter_hz = 0,
    .known_iters = 1000, .known_per_iter = 2, .known_extra = 3,
    .per_instr_num = 1, .per_instr_den = 1, .resolution = 0,
    .tolerance_permille = 10, .tolerance_abs = 4,
    .pmu_interrupt = false, .pmu_period = 10'000,
    .tick_period_ns = std::uint64_t{kTickPeriod} * 1'000'000'000u / board::timer_hz()};

}  // namespace

// extern "C": startup.S calls main, and clang (unlike GCC) mangles it under -ffreestanding.
extern "C" int main() {
  board::init();
  examples::work::fill();
  const examples::Console& out = board::console;
  out.line("pmukit XScale profile (PXA270 mainstone)");

  const std::uint32_t midr = pmu::Regs<pmu::ArmCpBus>::read_raw<pmu::xscale::MIDR>();
  const pmu::xscale::Identity id = pmu::xscale::identify(midr);
  const auto variant = id.variant;
  out.put("cpu: MIDR 0x");
  out.hex(midr);
  out.put(" -> ");
  out.put(id.part ? id.part : "unlisted part");
  out.put(", ");
  out.line(pmu::xscale::variant_name(variant));
  if (variant != pmu::xscale::Variant::xsc2) {
    out.line("this image is built for the XSC2 PMU; refusing to program another variant");
    board::exit(2);
  }
  const pmu::ProbeResult probe = examples::Bench<Pmu>::profiler.probe();
  const auto& report = Pmu::probe_report();
  out.put("probe: ");
  out.put(pmu::status_name(probe.status));
  out.put(", counting slots 0x");
  out.hex(probe.working_slots, 2);
  out.put(" (slot 0 = CCNT, 1..4 = PMN0..3), trapped registers 0x");
  out.hex(report.trapped, 2);
  out.put(report.inten_holds ? ", INTEN holds" : ", INTEN does not hold");
  out.line(report.ccnt_overflow ? ", CCNT overflow sets FLAG" : ", CCNT overflow flag not seen");

  // Sample from CCNT's overflow interrupt where the probe saw the interrupt enables hold and CCNT's
  // overflow set its flag (pmusim); QEMU's PMU does neither, and never interrupts: the OS timer.
  examples::Setup setup = kSetup;
  setup.pmu_interrupt = report.inten_holds && report.ccnt_overflow;
  if (setup.pmu_interrupt) setup.mux = &kMux;  // pmusim: every event exact
  const int failed = examples::profile<Mainstone, Pmu>(setup);
  out.line(failed == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
