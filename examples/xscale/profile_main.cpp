// Example firmware: profile real code on the XScale PXA270 (QEMU -M mainstone) with pmukit.
//
// This board's part: identify the core (MIDR), probe what its PMU really implements, and hand the
// shared measurement (examples/common/profile_run.hpp) this board's loop of known length, timer
// and console. Nothing here knows it runs on an emulator: every gap is found by probe() at run
// time. Exits 0 only if every check passed (semihosting exit status).
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/regs.hpp"

namespace {

using Pmu = pmu::xscale::Xsc2<pmu::Cp14Bus>;

// Exactly 2 * n instructions (subs + bne per iteration), 2n + 3 with the call: the region of known
// length. Its own section, like the shared workloads (examples/common/workloads.hpp).
__attribute__((noipa, section("work_known"))) void spin_exact(std::uint32_t n) {
  asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
}

constexpr std::uint32_t kTickPeriod = board::kMinPeriodTicks;  // 3.25 MHz ticks: ~9.8 us

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
};

// CCNT counts instructions under -icount shift=0 (cycles on silicon): exact, so resolution 0.
constexpr examples::Setup kSetup{
    .target = "xscale", .unit = "CCNT cycles", .counter_hz = 0,
    .known_iters = 1000, .known_per_iter = 2, .known_extra = 3,
    .per_instr_num = 1, .per_instr_den = 1, .resolution = 0,
    .tolerance_permille = 10, .tolerance_abs = 4,
    .pmu_interrupt = false, .pmu_period = 10'000,
    .tick_period_ns = std::uint64_t{kTickPeriod} * 1'000'000'000u / board::timer_hz()};

}  // namespace

int main() {
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
  const int failed = examples::profile<Mainstone, Pmu>(setup);
  out.line(failed == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
