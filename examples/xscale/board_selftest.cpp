// Self-test of the mainstone board layer under QEMU (-M mainstone -semihosting -icount shift=0):
// UART and exit, OS timer timebase and tick interrupt (interrupted PC and LR seen by the callback),
// critical sections, fault catching of a trapping CP14 access, and the IRQ path cost.
// Prints "SELFTEST PASS" and exits 0, or "SELFTEST FAIL: <reason>" and exits 1. Without -icount the
// checks that need instruction-exact time (tick PC placement, IRQ cost) are reported as skipped.
#include <cstdint>

#include "board/board.hpp"
#include "hal/core/fault.hpp"

// A busy loop with a known shape: 2 + 2*n + 1 instructions. It records its own return address so a
// tick taken inside the loop can be checked against the interrupted mode's LR.
// selftest_null_tick is a callback that is exactly one instruction (for the IRQ cost measurement).
asm(R"(
    .text
    .arm
    .global selftest_spin, selftest_spin_loop, selftest_spin_end, selftest_null_tick
    .type   selftest_spin, %function
selftest_spin:
    ldr     r1, =selftest_spin_lr
    str     lr, [r1]
selftest_spin_loop:
    subs    r0, r0, #1
    bne     selftest_spin_loop
    bx      lr
selftest_spin_end:
    .size   selftest_spin, . - selftest_spin
    .ltorg
    .type   selftest_null_tick, %function
selftest_null_tick:
    bx      lr
    .size   selftest_null_tick, . - selftest_null_tick
)");

extern "C" {
void selftest_spin(std::uint32_t iterations);
void selftest_null_tick(std::uint32_t pc, std::uint32_t lr);
extern const char selftest_spin_loop[];
extern const char selftest_spin_end[];
volatile std::uint32_t selftest_spin_lr = 0;
}

namespace {

const examples::Console& out = board::console;

[[noreturn]] void fail(const char* reason) {
  out.put("SELFTEST FAIL: ");
  out.line(reason);
  board::exit(board::kExitFail);
}

void check(bool ok, const char* reason) {
  if (!ok) fail(reason);
}

// CP14 PMU accesses used only here (the real driver lives in hal/xscale/).
inline void pmnc_write(std::uint32_t v) { asm volatile("mcr p14, 0, %0, c0, c1, 0" : : "r"(v)); }
inline std::uint32_t ccnt_read() {
  std::uint32_t v;
  asm volatile("mrc p14, 0, %0, c1, c1, 0" : "=r"(v));
  return v;
}

// True when CCNT counts exactly one per instruction, i.e. QEMU runs with -icount shift=0. Without it
// TCG delivers the timer interrupt only where the guest touches MMIO, so tick PCs cluster there.
bool instruction_exact_time() {
  constexpr std::uint32_t kIter = 10000;
  pmnc_write(1);  // PMNC.E: CCNT counts
  const std::uint32_t c0 = ccnt_read();
  selftest_spin(kIter);
  const std::uint32_t c1 = ccnt_read();
  pmnc_write(0);
  const std::uint32_t n = c1 - c0;  // 2*kIter + 3 in the loop, a few around it
  return n >= 2 * kIter + 3 && n < 2 * kIter + 16;
}

// Tick samples.
volatile std::uint32_t g_in_spin = 0;   // ticks whose PC was inside the busy loop
volatile std::uint32_t g_lr_ok = 0;     // ... whose LR was the busy loop's return address
volatile std::uint32_t g_outside = 0;   // ticks elsewhere (the loop around selftest_spin)
volatile std::uint32_t g_bad_pc = 0;    // a PC outside the image: the handler reports garbage

void on_tick(std::uint32_t pc, std::uint32_t lr) {
  const auto lo = reinterpret_cast<std::uint32_t>(selftest_spin_loop);
  const auto hi = reinterpret_cast<std::uint32_t>(selftest_spin_end);
  if (pc >= lo && pc < hi) {
    g_in_spin = g_in_spin + 1;
    if (lr == selftest_spin_lr) g_lr_ok = g_lr_ok + 1;
  } else if (pc >= 0xa0008000u && pc < 0xa4000000u) {
    g_outside = g_outside + 1;
  } else {
    g_bad_pc = g_bad_pc + 1;
  }
}

// Spins until `ticks` timer ticks arrived or `limit` timebase ticks passed.
void spin_until_ticks(std::uint32_t ticks, std::uint32_t limit) {
  const std::uint32_t t0 = board::timebase();
  while (board::timer_ticks() < ticks && board::timebase() - t0 < limit) selftest_spin(1000);
}

void test_timebase() {
  const std::uint32_t t0 = board::timebase();
  selftest_spin(20000);
  const std::uint32_t t1 = board::timebase();
  check(t1 != t0, "OSCR0 does not advance");
  out.put("timebase: ");
  out.dec(t1 - t0);
  out.put(" ticks at ");
  out.dec(board::timer_hz());
  out.line(" Hz over a 40k-instruction loop");
}

void test_timer(bool exact) {
  constexpr std::uint32_t kPeriod = 64;  // ~19.7 us; ~19.7k instructions under -icount shift=0
  constexpr std::uint32_t kTicks = 50;
  check(!board::timer_start(board::kMinPeriodTicks - 1, on_tick), "timer_start accepted a too-short period");
  check(!board::timer_start(kPeriod, nullptr), "timer_start accepted a null callback");
  check(board::timer_start(kPeriod, on_tick), "timer_start refused a valid period");
  check(board::timer_ticks() == 0, "tick count not reset by timer_start");
  selftest_spin(100000);
  check(board::timer_ticks() == 0, "tick delivered while the CPU masks IRQ");

  const std::uint32_t t0 = board::timebase();
  board::irq_enable();
  spin_until_ticks(kTicks, kTicks * kPeriod * 4);
  board::irq_disable();
  const std::uint32_t elapsed = board::timebase() - t0;
  const std::uint32_t ticks = board::timer_ticks();
  out.put("timer: ");
  out.dec(ticks);
  out.put(" ticks in ");
  out.dec(elapsed);
  out.put(" timebase ticks; in busy loop ");
  out.dec(g_in_spin);
  out.put(" (LR right ");
  out.dec(g_lr_ok);
  out.put("), elsewhere ");
  out.dec(g_outside);
  out.put(", bad PC ");
  out.dec(g_bad_pc);
  out.put("\n");
  check(ticks >= kTicks, "timer interrupt did not fire N times");
  check(elapsed >= (ticks - 1) * kPeriod, "ticks arrive faster than the period");
  check(g_bad_pc == 0, "callback saw a PC outside the image");
  check(g_lr_ok == g_in_spin, "callback LR is not the interrupted mode's LR");
  if (exact) {
    check(g_in_spin >= ticks / 2, "callback PCs are not inside the busy loop");
  } else {
    out.line("timer: PC placement not checked (no -icount shift=0: TCG takes interrupts at MMIO accesses)");
  }

  // Masked for several periods inside a critical section: nothing is delivered until it ends, then
  // the pending tick is taken at once.
  board::irq_enable();
  std::uint32_t before, inside;
  {
    board::CriticalSection cs;
    check(!board::irq_enabled(), "CriticalSection did not mask IRQ");
    before = board::timer_ticks();
    selftest_spin(4 * kPeriod * 200);
    inside = board::timer_ticks() - before;
  }
  check(board::irq_enabled(), "CriticalSection did not restore IRQ");
  selftest_spin(10);
  check(inside == 0, "tick delivered inside a CriticalSection");
  check(board::timer_ticks() != before, "pending tick not delivered when the CriticalSection ended");

  board::timer_stop();
  const std::uint32_t stopped = board::timer_ticks();
  selftest_spin(4 * kPeriod * 400);
  board::irq_disable();
  check(board::timer_ticks() == stopped, "tick delivered after timer_stop");
}

void test_fault_catch() {
  // A permanently undefined encoding must trap on any core; execution resumes after it.
  volatile std::uint32_t resumed = 0;
  const std::uint32_t caught0 = pmu::fault::state.caught;
  const bool udf = pmu::fault::traps([&] {
    std::uint32_t marker;
    asm volatile(
        "mov %0, #0\n\t"
        ".word 0xe7f000f0\n\t"  // architecturally undefined on every ARM (the later UDF encoding)
        "mov %0, #1"
        : "=&r"(marker));
    resumed = marker;
  });
  check(udf, "permanently undefined instruction was not caught");
  check(resumed == 1, "handler did not resume at the instruction after the fault");
  check(pmu::fault::state.caught == caught0 + 1, "one fault was not counted once");

  // QEMU 7.2 registers PMN3 at the wrong encoding, so MRC p14,0,r,c3,c2,0 traps there.
  std::uint32_t pmn3 = 0;
  const bool pmn3_traps = pmu::fault::traps([&] { asm volatile("mrc p14, 0, %0, c3, c2, 0" : "=r"(pmn3)); });
  // PMNC exists everywhere: probing it must not report a trap.
  std::uint32_t pmnc = 0;
  const bool pmnc_traps = pmu::fault::traps([&] { asm volatile("mrc p14, 0, %0, c0, c1, 0" : "=r"(pmnc)); });
  out.put("fault catch: UDF caught, PMN3 ");
  out.put(pmn3_traps ? "traps" : "reads");
  out.put(", PMNC ");
  out.line(pmnc_traps ? "traps" : "reads");
  check(pmn3_traps, "MRC PMN3 (p14 c3,c2) did not trap (QEMU 7.2 traps it)");
  check(!pmnc_traps, "MRC PMNC (p14 c0,c1) trapped");
  check(pmu::fault::state.armed == 0, "fault catching left armed");
}

// Instructions per timer interrupt: the same busy loop with and without a tick whose callback is a
// single `bx lr`. Under -icount shift=0 CCNT counts virtual nanoseconds = instructions.
void test_irq_cost(bool exact) {
  if (!exact) {
    out.line("irq cost: not measured (CCNT counts instructions only under -icount shift=0)");
    return;
  }
  pmnc_write(1);  // PMNC.E: CCNT counts
  constexpr std::uint32_t kIter = 200000;
  auto window = [](std::uint32_t& cycles, std::uint32_t& ticks) {
    std::uint32_t c0, c1, t0, t1;
    {
      board::CriticalSection cs;
      c0 = ccnt_read();
      t0 = board::timer_ticks();
    }
    selftest_spin(kIter);
    {
      board::CriticalSection cs;
      c1 = ccnt_read();
      t1 = board::timer_ticks();
    }
    cycles = c1 - c0;
    ticks = t1 - t0;
  };
  std::uint32_t base, base_ticks, with, n;
  window(base, base_ticks);
  check(base != 0, "CCNT does not count with PMNC.E=1");
  check(board::timer_start(64, selftest_null_tick), "timer_start failed");
  board::irq_enable();
  window(with, n);
  board::irq_disable();
  board::timer_stop();
  pmnc_write(0);
  check(n != 0, "no tick during the IRQ cost window");

  out.put("irq cost: loop ");
  out.dec(base);
  out.put(" CCNT, with ");
  out.dec(n);
  out.put(" ticks ");
  out.dec(with);
  const std::uint32_t extra = with - base;
  out.put(" -> ");
  out.dec(extra / n);
  out.put(" instructions per interrupt (remainder ");
  out.dec(extra % n);
  out.put("): board path ");
  out.dec(extra / n - 1);
  out.put(" + 1-instruction callback; board::kIrqPathInstructions = ");
  out.dec(board::kIrqPathInstructions);
  out.put("\n");
  check(extra % n == 0 && extra / n == board::kIrqPathInstructions + 1,
        "IRQ path cost differs from board::kIrqPathInstructions");
}

}  // namespace

int main() {
  board::init();
  std::uint32_t midr;
  asm volatile("mrc p15, 0, %0, c0, c0, 0" : "=r"(midr));
  out.put("pmukit xscale board self-test (PXA270 mainstone), MIDR 0x");
  out.hex(midr);
  out.put("\n");
  check(!board::irq_enabled(), "main entered with IRQ unmasked");

  const bool exact = instruction_exact_time();
  out.put("instruction-exact time (-icount shift=0): ");
  out.line(exact ? "yes" : "no");

  test_timebase();
  test_timer(exact);
  test_fault_catch();
  test_irq_cost(exact);

  out.line("SELFTEST PASS");
  return 0;
}
