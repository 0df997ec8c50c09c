// Example firmware: the NetBurst (Pentium 4) PMU on QEMU's PC, with the CPU model set to a Pentium 4
// (-cpu qemu32,family=15,model=2,vendor=GenuineIntel; examples/pc/README.md).
//
// This board's part: CPUID says GenuineIntel family 0Fh, so the driver probes, and finds the PMU
// absent: IA32_MISC_ENABLE bit 7 (performance monitoring available) reads 0 under QEMU's TCG, whose
// MSRs outside its own list read 0 and ignore writes. It also shows rdpmc raising #UD there,
// caught as an expected fault. Then the shared measurement (examples/common/profile_run.hpp) runs
// on the PMU where it counts (global_power_events, its PMI through the local APIC for sampling),
// else on the time-stamp counter with PIT timer sampling. Under pmusim (tools/sim/) the PMU is the
// project's model and counts: the PMU path runs, with an exact expectation for the known region.
// Prints PROFILE PASS / PROFILE FAIL and exits through isa-debug-exit with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "pmu_sampling.h"
#include "examples/common/profile_run.hpp"
#include "hal/core/bus/msr.hpp"
#include "hal/core/fault.hpp"
#include "hal/netburst/driver.hpp"
#include "hal/netburst/metrics.hpp"
#include "profiler/clock_backend.hpp"

namespace {

namespace nb = pmu::netburst;
using Pmu = nb::Driver<nb::HwBus>;

// The time-stamp counter as a clock: 64 bits, never wraps in a run.
struct TscClock {
  static constexpr unsigned kWidth = 64;
  static constexpr const char* kId = "x86-tsc";
  static std::uint64_t now() { return board::tsc(); }
};
using TscBackend = prof::ClockBackend<TscClock>;

// 2n instructions in the loop (n >= 1); 2n + 7 with the argument store, the call, the frame
// (push %ebp, mov, the argument load), pop and ret: counted from this build's disassembly.
__attribute__((EXAMPLES_NOIPA, section("work_known"))) void spin_exact(std::uint32_t n) {
  asm volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n));
}

// PIT channel 0 every 12 input clocks: 10.06 us.
constexpr std::uint16_t kTickPeriod = 12;
// The fast path's period: 30 us, so that the sampled workloads fit its 256-sample ring.
constexpr std::uint16_t kFastPeriod = 3 * kTickPeriod;
extern "C" void handwritten_pc_pit();
// PMU overflow sampling's hand-written baseline (handwritten_pmu.S), against the board's fast vector.
extern "C" void handwritten_pmu();
extern "C" volatile std::uint32_t handwritten_pmu_head;
extern "C" volatile std::uint32_t handwritten_head;
constexpr std::uint64_t kTickPeriodNs = std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kPitHz;

// The adaptor examples::profile() takes.
struct Board {
  // The multiplexer's clock (examples/common/multiplex_check.hpp): the TSC, 1 GHz here.
  using Clock = TscClock;
  static std::uint64_t clock_hz() { return board::kQemuTscHz; }
  static const examples::Console& console() { return board::console; }
  static void putc(char c) { board::putc(c); }
  static void spin_exact(std::uint32_t n) { ::spin_exact(n); }
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) {
    board::timer_start(kTickPeriod, tick);
    return true;
  }
  static void timer_stop() { board::timer_stop(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
  // Built with -fno-omit-frame-pointer (CMakeLists.txt): the EBP chain can be walked on the target.
  static constexpr bool kFrameChainKept = true;
  static std::uintptr_t stack_bottom() { return board::stack_bottom(); }
  // The PMI: the board routes the APIC vector, the driver owns the LVT entry (its mask is set by
  // every PMI and cleared by the driver's clear_overflow).
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) {
    if (!board::set_perf_handler(irq)) return false;
    Pmu::set_apic_base(board::apic_base());
    Pmu::set_pmi_vector(board::kPmiVector);
    return true;
  }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  // The fast path: IRQ 0 straight into the ring (board.hpp, fast_sampling_start), and its
  // hand-written baseline (handwritten_pit.S), on the same PIT period.
  static bool fast_sampling_start(bool handwritten) {
    if (handwritten)
      board::timer_vector_start(kFastPeriod, &handwritten_pc_pit);
    else
      board::fast_sampling_start(kFastPeriod, examples::fast_ring);
    board::irq_enable();
    return true;
  }
  static void fast_sampling_stop() {
    board::irq_disable();
    board::timer_stop();
  }
  static std::uint32_t handwritten_samples() { return handwritten_head; }
  static std::uint64_t fast_sampling_period_ns() {
    return std::uint64_t{kFastPeriod} * 1'000'000'000u / board::kPitHz;
  }
  // PMU overflow sampling through the board's fast vector (board/pmu_fast.S: the PMI into the fast
  // ring) and its hand-written baseline (examples/common/pmu_fast_vector.hpp). The driver owns the
  // LVT entry (its vector, its unmask), as for the general entry.
  static bool pmu_fast_start(std::uint32_t period, volatile std::uint32_t* folds) {
    Pmu::set_apic_base(board::apic_base());
    Pmu::set_pmi_vector(board::kPmiVector);
    if (!board::pmu_fast_start(period, examples::fast_ring, folds)) return false;
    board::irq_enable();
    return true;
  }
  static bool pmu_handwritten_start() {
    Pmu::set_apic_base(board::apic_base());
    Pmu::set_pmi_vector(board::kPmiVector);
    if (!board::pmi_vector_start(&handwritten_pmu)) return false;
    board::irq_enable();
    return true;
  }
  static void pmu_fast_stop() {
    board::irq_disable();
    board::pmi_vector_stop();
  }
  static std::uint32_t pmu_handwritten_samples() { return handwritten_pmu_head; }
  static constexpr std::uint32_t kPmuHandwrittenPeriod = PMU_HANDWRITTEN_PERIOD;
  // The spin loop is `dec; jnz` inside spin_exact's frame (its first 16 bytes). x86's fast timer
  // path records no caller (lr 0); the PMU fast vector records spin_exact's return address, after a
  // `call rel32` (E8, then the displacement from the return address) to spin_exact.
  static bool in_known_loop(prof::Sample smp) {
    const auto fn = reinterpret_cast<std::uint32_t>(&::spin_exact);
    if (smp.pc - fn >= 16) return false;
    if (smp.lr == 0) return true;
    const auto* call = reinterpret_cast<const volatile std::uint8_t*>(smp.lr - 5);
    const std::uint32_t disp = call[1] | call[2] << 8 | call[3] << 16 | std::uint32_t{call[4]} << 24;
    return call[0] == 0xE8 && smp.lr + disp == fn;
  }
};

// Multiplexed under pmusim, whose NetBurst counts these (tools/sim/README.md). The three
// branch_retired set-ups share CRU_ESCR2/3 (Intel SDM Vol. 3B, the event's ESCR list): two ESCRs,
// so they cannot all count in one group. A rotation costs thousands of instructions here (no
// global freeze: every CCCR is stopped and started on its own, and each event's ESCR is found and
// written), and the counters stopped last count the stop loop itself: rotating every 8th tick
// (80 us) keeps that under the goal. Events only the interrupt path produces (calls, returns) are
// left out: a steady workload is what scaling estimates.
constexpr const char* kMuxNames[] = {
    "global_power_events:RUNNING", "instr_retired:NBOGUSNTAG", "branch_retired:MMTP",
    "branch_retired:MMNP",         "branch_retired:MMTP:MMNP", "retired_branch_type:CONDITIONAL",
};
constexpr pmu::EventConfig kMuxEvents[] = {
    nb::config_of(nb::parse(kMuxNames[0])), nb::config_of(nb::parse(kMuxNames[1])),
    nb::config_of(nb::parse(kMuxNames[2])), nb::config_of(nb::parse(kMuxNames[3])),
    nb::config_of(nb::parse(kMuxNames[4])), nb::config_of(nb::parse(kMuxNames[5])),
};
constexpr examples::MuxSetup kMux{kMuxEvents, sizeof kMuxEvents / sizeof kMuxEvents[0], 2'400'000, 8, kMuxNames,
                                  &nb::metrics, "branch"};

// On silicon: global_power_events:RUNNING (cycles the processor is not halted), no expectation for
// the known region; sampling from the PMI.
constexpr examples::Setup kPmuSetup{
    .target = "netburst", .unit = "cycles", .counter_hz = 0,
    .known_iters = 10'000, .known_per_iter = 2, .known_extra = 7,
    .per_instr_num = 0, .per_instr_den = 0, .resolution = 0,
    .tolerance_permille = 1, .tolerance_abs = 0,
    .pmu_interrupt = true, .pmu_period = 100'000, .tick_period_ns = kTickPeriodNs};
// QEMU's TSC under -icount shift=0: one tick per instruction.
constexpr examples::Setup kTscSetup{
    .target = "netburst", .unit = "TSC ticks", .counter_hz = board::kQemuTscHz,
    .known_iters = 10'000, .known_per_iter = 2, .known_extra = 7,
    .per_instr_num = 1, .per_instr_den = 1, .resolution = 0,
    .tolerance_permille = 1, .tolerance_abs = 0,
    .pmu_interrupt = false, .pmu_period = 0, .tick_period_ns = kTickPeriodNs};

}  // namespace

// extern "C": the board's start-up code calls main, and clang (unlike GCC) mangles it under
// -ffreestanding.
extern "C" int main() {
  board::init();
  examples::work::fill();
  const examples::Console& out = board::console;
  out.line("pmukit netburst profile (QEMU pc, -cpu qemu32,family=15,model=2,vendor=GenuineIntel)");
  examples::Checks checks{out};

  prof::Profiler<Pmu>& profiler = examples::Bench<Pmu>::profiler;
  const pmu::ProbeResult probe = profiler.probe();
  out.put("CPUID: family 0x");
  out.hex(Pmu::identity().family, 2);
  out.put(" model 0x");
  out.hex(Pmu::identity().model, 2);
  out.line(Pmu::identity().hyper_threading ? ", Hyper-Threading" : ", one logical processor");
  out.put("probe: ");
  out.line(pmu::status_name(probe.status));
  checks.check(probe.status != pmu::Status::unsupported_core, "a family 0Fh GenuineIntel core");

  if (probe.status == pmu::Status::pmu_absent) {
    // Why: the availability bit, and whether rdpmc exists at all.
    std::uint64_t misc = 0;
    const bool misc_traps = pmu::fault::traps(
        [&] { misc = pmu::Regs<nb::HwBus>::read_raw<nb::IA32_MISC_ENABLE>(); });
    out.put("IA32_MISC_ENABLE: ");
    if (misc_traps) {
      out.line("#GP (a hypervisor that hides the MSR), caught");
    } else {
      out.put("0x");
      out.hex(misc, 16);
      out.line(nb::misc_perfmon_available.extract(misc) ? ", bit 7 (performance monitoring available) set"
                                                        : ", bit 7 (performance monitoring available) clear");
    }
    const std::uint32_t caught = pmu::fault::state.caught;
    const bool rdpmc_traps = pmu::fault::traps([] { (void)pmu::PmcBus::rdpmc(0); });
    out.line(rdpmc_traps ? "rdpmc 0: faulted (no counters behind it), caught"
                         : "rdpmc 0: did not fault");
    checks.check(rdpmc_traps && pmu::fault::state.caught == caught + 1, "rdpmc fault caught once");
  }
  const bool present = probe.status == pmu::Status::ok;
  out.line(present ? "NetBurst PMU: present -> global_power_events for regions, its PMI for sampling"
                   : "NetBurst PMU: absent -> TSC for cycle regions, PIT timer for sampling");
  const bool sim = board::under_pmusim();
  if (sim) out.line("pmusim: the PMU is the project's model; one clock per instruction");

  examples::Setup pmu_setup = sim ? examples::under_pmusim(kPmuSetup) : kPmuSetup;
  if (sim) pmu_setup.mux = &kMux;
  const int failed = checks.failures + (present ? examples::profile<Board, Pmu>(pmu_setup)
                                                : examples::profile<Board, TscBackend>(kTscSetup));
  out.line(failed == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
