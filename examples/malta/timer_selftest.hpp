#pragma once
// The CP0 timer under pmusim (tools/sim/timers.hpp, CountCompare), for both Malta self-tests
// (rm7000_pmusim_selftest.cpp, cps_pmusim_selftest.cpp): Count at half the pipeline clock, which
// pmusim runs at one clock per instruction (R4000 User's Manual, Count register: half the maximum
// instruction issue rate; MIPS32 PRA, Count register 9); Count stepping onto Compare requests the
// timer interrupt (Cause.IP7, and Cause.TI on MIPS32r2), a write of Compare withdraws it (MIPS32
// PRA, Compare register 11), and the board's tick arrives at its period.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/checks.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/core/location.hpp"

namespace malta_selftest {

using u32 = std::uint32_t;
template <unsigned Reg>
u32 mfc0() {
  return pmu::Cp0Bus::read<pmu::Cp0<Reg>, u32>();
}
template <unsigned Reg>
void mtc0(u32 v) {
  pmu::Cp0Bus::write<pmu::Cp0<Reg>, u32>(v);
}
inline constexpr unsigned kCount = 9, kCompare = 11, kCause = 13;
inline constexpr u32 CAUSE_IP7 = 1u << 15;

// Count read just before and just after a loop of 2 * (n + 1) instructions (bnez and its delay
// slot): the reads are 2n + 3 instructions apart, the second read included.
inline void count_around_loop(u32 n, u32& before, u32& after) {
  asm volatile(
      ".set push\n\t.set noreorder\n"
      "\tmfc0 %1, $9\n"
      "1:\tbnez %0, 1b\n\taddiu %0, %0, -1\n"
      "\tmfc0 %2, $9\n"
      "\t.set pop"
      : "+r"(n), "=&r"(before), "=&r"(after));
}

inline volatile u32 g_ticks = 0;
inline void on_tick(u32, u32) { g_ticks = g_ticks + 1; }

// `timer_bits`: what Cause shows while the timer interrupt is requested (IP7; with TI on MIPS32r2).
inline void check_count_compare(examples::Checks& checks, u32 timer_bits) {
  const examples::Console& out = checks.out;
  // Count against the instruction clock: 2n + 3 instructions are n + 1 or n + 2 Count ticks.
  constexpr u32 kN = 100'000;
  u32 before = 0, after = 0;
  count_around_loop(kN, before, after);
  out.put("Count: ");
  out.dec(after - before);
  out.put(" ticks over ");
  out.dec(2 * kN + 3);
  out.line(" instructions (half the pipeline clock, one clock per instruction)");
  checks.check(after - before >= kN + 1 && after - before <= kN + 2, "Count runs at half the instruction clock");

  // The request, seen in Cause with interrupts off, and Compare's write withdrawing it.
  board::irq_disable();
  mtc0<kCompare>(mfc0<kCount>() + 20);
  count_around_loop(100, before, after);
  const u32 raised = mfc0<kCause>() & timer_bits;
  mtc0<kCompare>(mfc0<kCount>() - 1);  // the next match a whole wrap away
  const u32 withdrawn = mfc0<kCause>() & timer_bits;
  out.put("Count/Compare: Cause timer bits 0x");
  out.hex(raised);
  out.put(" once Count passed Compare, 0x");
  out.hex(withdrawn);
  out.line(" after Compare was written");
  checks.check(raised == timer_bits && withdrawn == 0,
               "Count stepping onto Compare requests the timer interrupt, a Compare write withdraws it (MIPS32 PRA)");

  // The board's tick (IP7 with Status.IM7) at its period.
  constexpr u32 kPeriod = 5'000;  // Count ticks: 10k instructions
  g_ticks = 0;
  board::timer_start(kPeriod, &on_tick);
  const u32 c0 = mfc0<kCount>();
  board::irq_enable();
  count_around_loop(100'000, before, after);
  board::irq_disable();
  const u32 elapsed = mfc0<kCount>() - c0;
  board::timer_stop();
  const u32 want = elapsed / kPeriod;
  out.put("Count/Compare: ");
  out.dec(g_ticks);
  out.put(" timer interrupts in ");
  out.dec(elapsed);
  out.put(" Count ticks, expected ");
  out.dec(want);
  out.line(" +-1 (period 5000)");
  checks.check(want >= 10 && g_ticks + 1 >= want && g_ticks <= want + 1, "the Count/Compare interrupt arrives at its period");
}

// An interrupt that falls on a branch's delay slot (MIPS32 PRA, Cause register BD and EPC register;
// R4000 User's Manual, the same): EPC is the branch, Cause.BD is set, and the return runs the branch
// again, so execution goes on at its target. A chain of unconditional branches, each followed by
// its delay slot and by an instruction only a wrong return reaches, runs under the timer at
// Compare offsets of 1 to 80 ticks and with 0 or 1 extra instruction before it, so that the first
// tick in the chain falls on a branch in some runs and on a delay slot in others.
inline volatile u32 g_on_slot = 0, g_on_branch = 0, g_bad_epc = 0;
inline volatile u32 g_chain_begin = 0, g_chain_end = 0;
inline void on_chain_tick(u32 epc, u32) {
  board::timer_stop();  // one tick per run
  if (epc - g_chain_begin >= g_chain_end - g_chain_begin) return;  // before the chain: not counted
  const u32 word = *reinterpret_cast<const volatile u32*>(epc);
  const bool branch = (word >> 16) == 0x1000u;  // beq $0, $0: the chain's `b`
  if (mfc0<kCause>() & 0x80000000u) {  // BD stays as the exception set it while EXL is set
    g_on_slot = g_on_slot + 1;
    g_bad_epc = g_bad_epc + !branch;  // EPC must be the branch, not its slot
  } else {
    g_on_branch = g_on_branch + 1;
    g_bad_epc = g_bad_epc + !branch;  // the chain's other instructions are slots
  }
}
// 32 x (b to after the next word; its delay slot; `wrong + 1`, reached only by a return into the
// slot's successor); `pad` adds one instruction before the chain. Returns `wrong`.
[[gnu::noinline]] inline u32 branch_chain(u32 pad) {
  u32 wrong = 0, begin = 0, end = 0;
  asm volatile(
      ".set push\n\t.set noreorder\n"
      "\tla %1, 7f\n\tla %2, 8f\n"
      "\tsw %1, 0(%4)\n\tsw %2, 0(%5)\n"
      "\tbeqz %3, 7f\n\tnop\n\tnop\n"
      "7:\n\t.rept 32\n\tb 9f\n\tnop\n\taddiu %0, %0, 1\n9:\n\t.endr\n"
      "8:\n\t.set pop"
      : "+r"(wrong), "=&r"(begin), "=&r"(end)
      : "r"(pad), "r"(&g_chain_begin), "r"(&g_chain_end)
      : "memory");
  return wrong;
}

inline void check_interrupt_on_delay_slot(examples::Checks& checks) {
  const examples::Console& out = checks.out;
  g_on_slot = 0;
  g_on_branch = 0;
  g_bad_epc = 0;
  u32 wrong = 0;
  for (u32 pad = 0; pad < 2; ++pad) {
    for (u32 k = 1; k <= 80; ++k) {
      board::timer_start(k, &on_chain_tick);
      board::irq_enable();
      wrong += branch_chain(pad);
      board::irq_disable();
      board::timer_stop();
    }
  }
  out.put("timer interrupts in a branch chain: ");
  out.dec(g_on_slot);
  out.put(" on a delay slot (Cause.BD), ");
  out.dec(g_on_branch);
  out.put(" on a branch, ");
  out.dec(g_bad_epc);
  out.put(" with EPC not the branch, ");
  out.dec(wrong);
  out.line(" returns past a branch");
  checks.check(g_on_slot > 0 && g_on_branch > 0 && g_bad_epc == 0 && wrong == 0,
               "an interrupt on a delay slot has EPC = the branch and Cause.BD, and the branch runs again (MIPS32 PRA)");
}

}  // namespace malta_selftest
