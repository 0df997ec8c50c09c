// Example firmware: profile real code on QEMU "virt" with a Cortex-A15 (ARMv7-A) with pmukit.
//
// This board's part: identify the core (MIDR), probe its PMU, and hand the shared measurement
// (examples/common/profile_run.hpp) this board's loop of known length, timer and console. The
// samples come from PMCCNTR's overflow interrupt on QEMU's emulated PMU (GIC INTID 23), no pmusim;
// the stacks from the generic timer's interrupt. Exits 0 only if every check passed.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "hal/armv7a/driver.hpp"
#include "hal/armv7a/regs.hpp"
#include "hal/core/bus/arm_cp.hpp"

namespace {

using Pmu = pmu::armv7a::CortexA15<pmu::ArmCpBus>;

// Exactly 2 * n instructions (subs + bne per iteration), 2n + 3 with the call: the region of known
// length. Its own section, like the shared workloads (examples/common/workloads.hpp).
__attribute__((EXAMPLES_NOIPA, section("work_known"))) void spin_exact(std::uint32_t n) {
  asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
}

// The timer's sampling rate: 100 kHz, 625 ticks of QEMU's 62.5 MHz CNTFRQ, 10,000 instructions
// under -icount shift=0.
constexpr std::uint32_t kTickHz = 100'000;

struct Virt {
  static const examples::Console& console() { return virt::Board::console(); }
  static void putc(char c) { virt::Board::putc(c); }
  static void spin_exact(std::uint32_t n) { ::spin_exact(n); }
  static bool timer_start(void (*tick)(std::uint32_t, std::uint32_t)) { return virt::Board::timer_start(tick, kTickHz); }
  static void timer_stop() { virt::Board::timer_stop(); }
  static bool pmu_interrupt(void (*irq)(std::uint32_t, std::uint32_t)) { return virt::Board::pmu_interrupt(irq); }
  static void irq_enable() { virt::Board::irq_enable(); }
  static void irq_disable() { virt::Board::irq_disable(); }
  // Stack capture from the timer IRQ (profile_run's stack sampling phase).
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { virt::Board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return virt::Board::stack_top(); }
  // The board's clock (examples/common/multiplex_check.hpp's BoardClock): the generic timer's
  // virtual count CNTVCT (ARM ARM ARMv7-A/R, B8.1), 64 bits at CNTFRQ (QEMU: 62.5 MHz, 16
  // instructions a tick under -icount shift=0): it times the PMU's general entry whole.
  struct Clock {
    static constexpr unsigned kWidth = 64;
    static std::uint64_t now() { return virt::Board::timer_count(); }
  };
  static std::uint64_t clock_hz() { return virt::Board::timer_frequency(); }
};

// PMCCNTR counts QEMU's virtual clock at 1 GHz: one per instruction under -icount shift=0, so
// resolution 0, as the PXA270's CCNT under QEMU.
constexpr examples::Setup kSetup{
    .target = "armv7a", .unit = "PMCCNTR cycles", .counter_hz = 0,
    .known_iters = 1000, .known_per_iter = 2, .known_extra = 3,
    .per_instr_num = 1, .per_instr_den = 1, .resolution = 0,
    .tolerance_permille = 10, .tolerance_abs = 4,
    .pmu_interrupt = true, .pmu_period = 10'000,
    .tick_period_ns = 1'000'000'000u / kTickHz};

}  // namespace

extern "C" int main() {
  examples::work::fill();
  const examples::Console& out = virt::Board::console();
  out.line("pmukit ARMv7-A profile (QEMU virt)");
  const std::uint32_t midr = pmu::Regs<pmu::ArmCpBus>::read_raw<pmu::armv7a::MIDR>();
  out.put("cpu: MIDR 0x");
  out.hex(midr);
  out.line((midr & 0xFF0FFFF0u) == 0x410FC0F0u ? " -> Cortex-A15" : (midr & 0xFF0FFFF0u) == 0x410FC070u ? " -> Cortex-A7" : " -> not a Cortex-A15 or A7");
  const pmu::ProbeResult probe = examples::Bench<Pmu>::profiler.probe();
  const auto& report = Pmu::probe_report();
  out.put("probe: ");
  out.put(pmu::status_name(probe.status));
  out.put(", counting slots 0x");
  out.hex(probe.working_slots, 2);
  out.put(" (slot 0 = PMCCNTR, 1.. = event counters), PMCR.N ");
  out.dec(report.counters);
  out.put('\n');
  const int failed = examples::profile<Virt, Pmu>(kSetup);
  out.line(failed == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  virt::Board::exit(failed == 0 ? 0 : 1);
}
