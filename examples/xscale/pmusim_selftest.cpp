// Firmware that only makes sense under pmusim (tools/sim/), where the XScale PMU is the project's
// model on executing code: the decoder must catch a wrong CP14 encoding. The same XSC2 driver on a
// bus whose MRC/MCR swap CRn and CRm (a plausible inline-asm slip: the operands are adjacent and
// both are c-registers) must not find a working PMU, while the real bus does. QEMU's PMU runs the
// wrong encoding too, so this image refuses to judge anywhere the probe does not see a complete PMU.
// It also checks what pmusim derives from the executed code and its board's clocks:
//  - a loop of known shape (xs_known_loop below: LDM, STM, LDRD, STRD, LDR, a B never taken, two
//    BLs, BX, a pop of the PC, the loop's BNE) counted for two trip counts on INSTR, BRANCH,
//    DC_ACCESS and PC_CHANGE: the difference must be exactly the manual's per-trip count times
//    the extra trips (core manual 8.4, Table 8-12; DC_ACCESS per register: 8.4.2);
//  - the OS timer: OSCR0 at 3.25 MHz against CCNT (13 ticks per 4000 clocks on pmusim's one
//    instruction per nanosecond), match 0 interrupts through source 26 at its period, and a match
//    sets its OSSR bit only while OIER enables it (PXA255 Developer's Manual 4.4.2).
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/selftest.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"

namespace {

namespace xs = pmu::xscale;
using Pmu = xs::Xsc2<pmu::Cp14Bus>;

// ArmCpBus with CRn and CRm swapped: the deliberate mistake pmusim must expose.
struct SwappedCrBus {
  static constexpr pmu::BusKind kind = pmu::BusKind::arm_cp;
  template <class Loc, class T>
  static T read() {
    T v;
    asm volatile("mrc p%c1, %c2, %0, c%c3, c%c4, %c5"
                 : "=r"(v)
                 : "i"(Loc::coproc), "i"(Loc::opc1), "i"(Loc::crm), "i"(Loc::crn), "i"(Loc::opc2)
                 : "memory");
    return v;
  }
  template <class Loc, class T>
  static void write(T v) {
    asm volatile("mcr p%c1, %c2, %0, c%c3, c%c4, %c5"
                 :
                 : "r"(v), "i"(Loc::coproc), "i"(Loc::opc1), "i"(Loc::crm), "i"(Loc::crn), "i"(Loc::opc2)
                 : "memory");
  }
};
using WrongPmu = xs::Xsc2<SwappedCrBus>;

// `trips` (r0, at least 1) passes over the 8-byte-aligned words at `cell` (r1) of:
//   ldm (4 registers), stm (2), ldrd, strd, ldr, cmp, beq never taken, bl to a bx lr, bl to a
//   stmfd {lr} / ldmfd {pc}, subs, bne (taken on every pass but the last).
// Per extra trip: 14 instructions; BRANCH (B and BL only) 4: beq, bl, bl, bne; DC_ACCESS 13:
// 4 + 2 + 2 + 2 + 1 and the leaf's stmfd and ldmfd; PC_CHANGE 5: bl, bx, bl, ldmfd {pc}, bne.
asm(R"(
    .text
    .arm
    .balign 4
    .global xs_known_loop
    .type   xs_known_loop, %function
xs_known_loop:
    stmfd   sp!, {r4, r5, lr}
1:  ldmia   r1, {r2-r5}
    stmia   r1, {r2, r3}
    ldrd    r2, r3, [r1]
    strd    r2, r3, [r1]
    ldr     r2, [r1]
    cmp     r0, #0
    beq     2f
    bl      xs_leaf_bx
    bl      xs_leaf_pop
    subs    r0, r0, #1
    bne     1b
2:  ldmfd   sp!, {r4, r5, pc}
xs_leaf_bx:
    bx      lr
xs_leaf_pop:
    stmfd   sp!, {lr}
    ldmfd   sp!, {pc}
    .size   xs_known_loop, . - xs_known_loop
)");
extern "C" void xs_known_loop(std::uint32_t trips, std::uint32_t* cell);

alignas(8) std::uint32_t cell[4];

// The event's count over xs_known_loop(trips) on PMN0; ~0 if it cannot be counted.
std::uint64_t count(std::uint32_t code, std::uint32_t trips) {
  Pmu::stop(0x1F);
  Pmu::write(1, 0);
  if (Pmu::configure(1, {code}) != pmu::Status::ok) return ~std::uint64_t{0};
  Pmu::start(0x02);
  xs_known_loop(trips, cell);
  Pmu::stop(0x02);
  return Pmu::read(1);
}

struct Expect {
  const char* name;
  std::uint32_t code, per_trip;
};
constexpr Expect kExpect[] = {
    {"INSTR", xs::event::INSTR, 14},
    {"BRANCH (B and BL, taken or not: core manual Table 8-12)", xs::event::BRANCH, 4},
    {"DC_ACCESS (one per register of LDM/STM, two per LDRD/STRD: core manual 8.4.2)", xs::event::DC_ACCESS, 13},
    {"PC_CHANGE (b, bl, bx, pc loads: core manual Table 8-12)", xs::event::PC_CHANGE, 5}};

// The OS timer's registers (PXA255 Developer's Manual 4.4.3) and the interrupt controller's
// pending register (4.2.2); the board owns channel 0, this test borrows channel 1.
volatile std::uint32_t& reg(std::uintptr_t a) { return *reinterpret_cast<volatile std::uint32_t*>(a); }
constexpr std::uintptr_t OSMR1 = 0x40A00004, OSCR0 = 0x40A00010, OSSR = 0x40A00014, OIER = 0x40A0001C,
                         ICPR = 0x40D00010;
constexpr std::uint32_t kM1 = 1u << 1, kSourceOst1 = 1u << 27;

// Spins until CCNT has counted `clocks` (about), and returns how many it counted.
std::uint32_t spin_clocks(std::uint32_t clocks) {
  const std::uint32_t c0 = Pmu::ccnt();
  while (Pmu::ccnt() - c0 < clocks) {
  }
  return Pmu::ccnt() - c0;
}

volatile std::uint32_t g_ticks = 0;
void on_tick(std::uint32_t, std::uint32_t) { g_ticks = g_ticks + 1; }

void check_os_timer(examples::Checks& checks) {
  const examples::Console& out = checks.out;
  Pmu::stop(0x1F);
  Pmu::write(0, 0);
  Pmu::start(0x01);  // CCNT: one clock per instruction here
  // OSCR0 against CCNT over ~400k clocks: 13 ticks per 4000 clocks, +-1 at the ends.
  const std::uint32_t c0 = Pmu::ccnt(), t0 = board::timebase();
  spin_clocks(400'000);
  const std::uint32_t t1 = board::timebase(), c1 = Pmu::ccnt();
  const std::uint64_t clocks = c1 - c0, ticks = t1 - t0, expect = clocks * 13 / 4000;
  out.put("OS timer: OSCR0 ");
  out.dec(static_cast<std::uint32_t>(ticks));
  out.put(" ticks in ");
  out.dec(static_cast<std::uint32_t>(clocks));
  out.put(" clocks, expected ");
  out.dec(static_cast<std::uint32_t>(expect));
  out.line(" +-1 (3.25 MHz, one clock per ns)");
  checks.check(ticks + 1 >= expect && ticks <= expect + 1, "OSCR0 counts 3.25 MHz on the instruction clock");

  // Match 0 through interrupt source 26, one tick per period.
  constexpr std::uint32_t kPeriod = 325;  // 100 us: 100k clocks
  g_ticks = 0;
  checks.check(board::timer_start(kPeriod, &on_tick), "timer started");
  board::irq_enable();
  const std::uint32_t spun = spin_clocks(2'000'000);
  board::irq_disable();
  board::timer_stop();
  const std::uint32_t want = spun / 100'000;
  out.put("OS timer: match 0 interrupts ");
  out.dec(g_ticks);
  out.put(" in ");
  out.dec(spun);
  out.put(" clocks, expected ");
  out.dec(want);
  out.line(" +-1 (period 325 ticks)");
  checks.check(g_ticks + 1 >= want && g_ticks <= want + 1, "OS timer match 0 interrupts at its period (source 26)");

  // A match sets OSSR only while OIER enables its channel; OSSR is write-1-to-clear.
  reg(OIER) = reg(OIER) & ~kM1;
  reg(OSSR) = kM1;
  reg(OSMR1) = reg(OSCR0) + 10;
  spin_clocks(10'000);  // ~32 ticks: past the match
  const bool silent = (reg(OSSR) & kM1) == 0;
  reg(OIER) = reg(OIER) | kM1;
  reg(OSMR1) = reg(OSCR0) + 10;
  spin_clocks(10'000);
  const bool matched = (reg(OSSR) & kM1) != 0 && (reg(ICPR) & kSourceOst1) != 0;
  reg(OSSR) = kM1;
  const bool cleared = (reg(OSSR) & kM1) == 0 && (reg(ICPR) & kSourceOst1) == 0;
  reg(OIER) = reg(OIER) & ~kM1;
  out.put("OS timer: match 1 with OIER clear sets OSSR: ");
  out.put(silent ? "no" : "yes");
  out.put("; with OIER set: ");
  out.put(matched ? "yes (source 27 pending)" : "no");
  out.put("; OSSR write 1 clears it: ");
  out.line(cleared ? "yes" : "no");
  checks.check(silent && matched && cleared,
               "a match sets OSSR only while OIER enables it, OSSR is write-1-to-clear (PXA255 manual 4.4.2)");
  Pmu::stop(0x1F);
}

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  const pmu::ProbeResult real = Pmu::probe();
  const bool complete = real.status == pmu::Status::ok && Pmu::probe_report().inten_holds &&
                        Pmu::probe_report().ccnt_overflow;
  examples::SelfTest test{out, "pmukit pmusim self-test (XScale XSC2)", complete,
                          "no complete PMU here (not pmusim?): nothing to test", board::exit, board::kExitFail};
  examples::Checks& checks = test.checks;
  checks.check(true, "probe finds the model's complete PMU");

  for (const Expect& e : kExpect)
    examples::check_per_trip(checks, e.name, e.per_trip, [&](std::uint32_t trips) { return count(e.code, trips); });
  check_os_timer(checks);

  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong CP14 encoding (CRn and CRm swapped): probe ");
  out.put(pmu::status_name(wrong.status));
  out.put(", trapped registers 0x");
  out.hex(WrongPmu::probe_report().trapped, 2);
  out.put('\n');
  checks.check(wrong.status != pmu::Status::ok, "a wrong CP14 encoding is caught");
  checks.check(WrongPmu::probe_report().trapped != 0, "its accesses trap as undefined instructions");
  checks.check(Pmu::probe().status == pmu::Status::ok, "the real bus still finds the PMU");

  test.finish();
}
