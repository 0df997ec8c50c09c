// Firmware that only makes sense under pmusim (tools/sim/): the PC board's clocks on pmusim's
// instruction clock (tools/sim/timers.hpp, PcTimers), which a benchmark's own timing and the
// board's timer sampling use (the same paths run on QEMU):
//  - the time-stamp counter counts one per instruction (QEMU's TCG under -icount shift=0 counts
//    virtual nanoseconds, one per instruction), and IA32_TIME_STAMP_COUNTER writes it (Intel SDM
//    Vol. 3B, 17.17);
//  - the 8254's channel 0 counts down at 1.193182 MHz (its count read back after a counter latch
//    command), and in mode 2 interrupts on IRQ 0 once per period through the master 8259A, whose
//    EOI lets the next one in (Intel 8254 and 8259A data sheets).
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/selftest.hpp"
#include "hal/core/bus/msr.hpp"

namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

void outb(std::uint16_t port, u8 v) { asm volatile("outb %0, %1" : : "a"(v), "Nd"(port) : "memory"); }
u8 inb(std::uint16_t port) {
  u8 v;
  asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port) : "memory");
  return v;
}

// TSC read just before and just after a loop of 2n instructions (dec, jnz): the reads are 2n + 2
// instructions apart, the second rdtsc and the mov between included.
u64 tsc_around_loop(u32 n) {
  u32 lo0, lo1, hi1;
  asm volatile(
      "rdtsc\n\tmovl %%eax, %0\n"
      "1:\tdecl %3\n\tjnz 1b\n"
      "\trdtsc"
      : "=&r"(lo0), "=a"(lo1), "=d"(hi1), "+c"(n)
      :
      : "cc");
  (void)hi1;
  return lo1 - lo0;  // the loop is far shorter than 2^32
}

void spin(u32 n) { asm volatile("1:\tdecl %0\n\tjnz 1b" : "+r"(n) : : "cc"); }

// Channel 0's count after a counter latch command (port 0x43, SC = 0, RW = 0), low byte first.
std::uint16_t pit_count() {
  outb(0x43, 0x00);
  const u8 lo = inb(0x40);
  return static_cast<std::uint16_t>(lo | inb(0x40) << 8);
}

volatile u32 g_ticks = 0;
void on_tick(u32, u32) { g_ticks = g_ticks + 1; }

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  examples::SelfTest test{out, "pmukit pmusim timer self-test (PC)", board::under_pmusim(),
                          "not under pmusim: nothing to test here", board::exit, board::kExitFail};
  examples::Checks& checks = test.checks;

  // The TSC: exactly one per instruction, and a write through its MSR takes.
  constexpr u32 kN = 100'000;
  const u64 tsc_gone = tsc_around_loop(kN);
  using Tsc = pmu::Msr<0x10>;
  pmu::MsrBus::write<Tsc, u64>(u64{1} << 40);
  const u64 written = board::tsc();
  out.put("TSC: ");
  out.dec(static_cast<u32>(tsc_gone));
  out.put(" over ");
  out.dec(2 * kN + 2);
  out.put(" instructions; after writing 2^40 through IA32_TIME_STAMP_COUNTER it reads 2^40 + ");
  out.dec(static_cast<u32>(written - (u64{1} << 40)));
  out.put('\n');
  checks.check(tsc_gone == 2 * kN + 2, "the TSC counts one per instruction (the instruction clock)");
  checks.check(written >= (u64{1} << 40) && written - (u64{1} << 40) < 100,
               "IA32_TIME_STAMP_COUNTER writes the TSC (Intel SDM Vol. 3B, 17.17)");

  // The PIT's count runs down at 1.193182 MHz: 1193 ticks per million instructions, +-1.
  board::irq_disable();
  board::timer_start(0xFFFF, &on_tick);  // mode 2; IRQ 0 unmasked, but IF is clear
  const u64 t0 = board::tsc();
  const std::uint16_t c0 = pit_count();
  spin(25'000);  // ~50k instructions: ~60 PIT ticks
  const std::uint16_t c1 = pit_count();
  const u64 t1 = board::tsc();
  board::timer_stop();
  const u32 pit_gone = static_cast<std::uint16_t>(c0 - c1);
  const u32 pit_want = static_cast<u32>((t1 - t0) * board::kPitHz / 1'000'000'000u);
  out.put("PIT: channel 0 counted down ");
  out.dec(pit_gone);
  out.put(" in ");
  out.dec(static_cast<u32>(t1 - t0));
  out.put(" instructions, expected ");
  out.dec(pit_want);
  out.line(" +-1 (1.193182 MHz)");
  checks.check(pit_want > 50 && pit_gone + 1 >= pit_want && pit_gone <= pit_want + 1,
               "the 8254 counts down at 1.193182 MHz (counter latch read-back)");

  // IRQ 0 once per period, through the 8259A and the board's EOI.
  constexpr std::uint16_t kPeriod = 12;  // PIT ticks: ~10k instructions
  g_ticks = 0;
  board::timer_start(kPeriod, &on_tick);
  const u64 s0 = board::tsc();
  board::irq_enable();
  spin(100'000);
  board::irq_disable();
  const u64 s1 = board::tsc();
  board::timer_stop();
  const u32 want = static_cast<u32>((s1 - s0) * board::kPitHz / 1'000'000'000u / kPeriod);
  out.put("PIT: ");
  out.dec(g_ticks);
  out.put(" IRQ 0 interrupts in ");
  out.dec(static_cast<u32>(s1 - s0));
  out.put(" instructions, expected ");
  out.dec(want);
  out.line(" +-1 (period 12 PIT ticks)");
  checks.check(want >= 10 && g_ticks + 1 >= want && g_ticks <= want + 1,
               "PIT channel 0 interrupts on IRQ 0 at its period through the 8259A");

  test.finish();
}
