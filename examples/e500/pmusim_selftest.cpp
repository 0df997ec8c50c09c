// Firmware that only makes sense under pmusim (tools/sim/), where the e500 performance monitor is
// the project's model on executing code. It checks what no emulator can show:
//  1. A running chain (PMC0 -> PMC1: PMC1 counts event 82, PMC0's rollovers, CRM 7.6.1) read
//     through the profiler while PMC0 rolls over 2^32 (examples/common/linked_rollover.hpp).
//  2. The decoder catches a wrong encoding: the same driver on a bus that hand-encodes mfpmr and
//     mtpmr with PMRN's two halves not swapped (the split field of CRM 3.3.2, a plausible slip in
//     a `.long` encoding for assemblers without the e500 mnemonics) must not find a working PMU,
//     while the real bus does.
//  3. The decrementer counts down with the time base, steps from 1 to 0 into TSR[DIS] and reloads
//     DECAR with TCR[ARE] (CRM 2.6.4, 2.6.5), and the board's decrementer tick arrives at its period.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict (its last line, "EXIT <code>").
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/selftest.hpp"
#include "examples/common/linked_rollover.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/core/fault.hpp"
#include "hal/e500/driver.hpp"
#include "profiler/profiler.hpp"

namespace {

namespace e5 = pmu::e500;
using Pmu = e5::Driver<pmu::PmrBus>;

// mfpmr rD,PMRN is 31 | rD | PMRN[5-9] | PMRN[0-4] | 334 | 0: this bus writes PMRN unsplit.
struct UnsplitPmrBus {
  static constexpr pmu::BusKind kind = pmu::BusKind::pmr;
  template <class Loc, class T>
  static T read() {
    if constexpr (pmu::LocationOf<Loc, pmu::BusKind::spr>) {
      return pmu::PmrBus::read<Loc, T>();
    } else {
      register std::uint32_t v asm("r3");
      asm volatile(".long %c1" : "=r"(v) : "i"(0x7C60029Cu | (Loc::number << 11)) : "memory");
      return v;
    }
  }
  template <class Loc, class T>
  static void write(T v) {
    if constexpr (pmu::LocationOf<Loc, pmu::BusKind::spr>) {
      pmu::PmrBus::write<Loc, T>(v);
    } else {
      register std::uint32_t r asm("r3") = v;
      asm volatile(".long %c1\n\tisync" : : "r"(r), "i"(0x7C60039Cu | (Loc::number << 11)) : "memory");
    }
  }
};
using WrongPmu = e5::Driver<UnsplitPmrBus>;

prof::Profiler<Pmu> profiler;

// Spins `n` times round a two-instruction loop.
void spin(std::uint32_t n) {
  asm volatile("mtctr %0\n1:\tnop\n\tbdnz 1b" : : "r"(n) : "ctr");
}

volatile std::uint32_t g_ticks = 0;
void on_tick(std::uint32_t, std::uint32_t) { g_ticks = g_ticks + 1; }

void check_decrementer(examples::Checks& checks) {
  namespace e = board::e500;
  const examples::Console& out = checks.out;
  board::ee_disable();
  // DEC counts down at the time base's rate: over any stretch, exactly as many ticks as TBL counts.
  e::mtspr<e::TCR>(e::mfspr<e::TCR>() & ~(e::TCR_DIE | e::TCR_ARE));
  e::mtspr<e::DEC>(0x7FFFFFFFu);
  const std::uint32_t d0 = e::mfspr<e::DEC>(), t0 = board::timebase_lo();
  spin(50'000);
  const std::uint32_t t1 = board::timebase_lo(), d1 = e::mfspr<e::DEC>();
  out.put("decrementer: DEC went down ");
  out.dec(d0 - d1);
  out.put(" while TBL went up ");
  out.dec(t1 - t0);
  out.line(" (the time base's rate)");
  checks.check(t1 - t0 > 30'000 && (d0 - d1) - (t1 - t0) <= 2, "DEC counts down at the time base's rate (CRM 2.6.4)");

  // 1 -> 0: TSR[DIS]; without ARE DEC stays at 0, with ARE it reloads DECAR (CRM 2.6.5).
  e::mtspr<e::TSR>(e::TSR_DIS);
  e::mtspr<e::DEC>(100);
  spin(500);  // ~400 ticks
  const bool stopped = e::mfspr<e::DEC>() == 0 && (e::mfspr<e::TSR>() & e::TSR_DIS);
  e::mtspr<e::TSR>(e::TSR_DIS);
  e::mtspr<e::DECAR>(100'000);
  e::mtspr<e::TCR>(e::mfspr<e::TCR>() | e::TCR_ARE);
  e::mtspr<e::DEC>(100);
  spin(500);
  const std::uint32_t reloaded = e::mfspr<e::DEC>();
  const bool dis = (e::mfspr<e::TSR>() & e::TSR_DIS) != 0;
  e::mtspr<e::TCR>(e::mfspr<e::TCR>() & ~e::TCR_ARE);
  e::mtspr<e::DEC>(0);
  e::mtspr<e::TSR>(e::TSR_DIS);
  out.put("decrementer: 1 -> 0 without ARE stops at 0 with DIS: ");
  out.put(stopped ? "yes" : "no");
  out.put("; with ARE DEC reads ");
  out.dec(reloaded);
  out.put(" (DECAR 100000) with DIS: ");
  out.line(dis ? "yes" : "no");
  checks.check(stopped && dis && reloaded < 100'000 && reloaded > 99'000,
               "DEC stepping from 1 to 0 sets TSR[DIS] and, with TCR[ARE], reloads DECAR (CRM 2.6.5)");

  // The board's tick through IVOR10.
  constexpr std::uint32_t kPeriod = 4'000;  // time-base ticks: 10k instructions
  g_ticks = 0;
  board::decrementer_start(kPeriod, &on_tick);
  const std::uint32_t tb0 = board::timebase_lo();
  board::ee_enable();
  spin(100'000);
  board::ee_disable();
  const std::uint32_t elapsed = board::timebase_lo() - tb0;
  board::decrementer_stop();
  const std::uint32_t want = elapsed / kPeriod;
  out.put("decrementer: ");
  out.dec(g_ticks);
  out.put(" interrupts in ");
  out.dec(elapsed);
  out.put(" time-base ticks, expected ");
  out.dec(want);
  out.line(" +-1 (period 4000)");
  checks.check(want >= 10 && g_ticks + 1 >= want && g_ticks <= want + 1,
               "the decrementer interrupt arrives at its period (IVOR10)");
}

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  examples::SelfTest test{out, "pmukit pmusim self-test (e500)", board::under_pmusim(), "not under pmusim: nothing to test here",
                          board::exit, board::kExitFail};
  examples::Checks& checks = test.checks;
  checks.check(profiler.probe().status == pmu::Status::ok, "probe finds the model's PMU");
  check_decrementer(checks);

  examples::check_linked_rollover(profiler, {"chain", 0, 1, {.code = 2}, std::uint64_t{1} << 32}, checks);  // INSTR_COMPLETED

  const std::uint32_t caught = pmu::fault::state.caught;
  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong mfpmr/mtpmr encoding (PMRN halves not swapped): probe ");
  out.line(pmu::status_name(wrong.status));
  checks.check(wrong.status != pmu::Status::ok, "a wrong PMRN encoding is caught");
  checks.check(pmu::fault::state.caught != caught, "its accesses raise program interrupts");
  checks.check(profiler.probe().status == pmu::Status::ok, "the real bus still finds the PMU");

  test.finish();
}
