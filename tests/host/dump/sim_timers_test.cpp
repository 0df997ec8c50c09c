// pmusim's board timers (tools/sim/timers.hpp) on their own: each a function of the instruction
// count, at one instruction per nanosecond. The firmware self-tests run the same rules under
// pmusim (examples/*/pmusim_selftest.cpp, examples/pc/pmusim_timers.cpp).
#include <gtest/gtest.h>

#include <cstdint>

#include "tools/sim/timers.hpp"

namespace {

using namespace pmusim::timers;

TEST(SimTimers, ARateAndItsInverseAgree) {
  const Rate r = PxaOsTimer::kRate;  // 13 ticks per 4000 instructions
  EXPECT_EQ(r.ticks(4000), 13u);
  EXPECT_EQ(r.ticks(307), 0u);
  EXPECT_EQ(r.ticks(308), 1u);
  for (u64 t : {u64{1}, u64{13}, u64{1000}, u64{1} << 32}) {
    const u64 n = r.instruction_of(t);
    EXPECT_GE(r.ticks(n), t);
    EXPECT_LT(r.ticks(n - 1), t);
  }
}

// PXA255 Developer's Manual 4.4.2.4 (OSCR) on the PXA27x's 3.25 MHz.
TEST(SimTimers, PxaOscrCounts3_25MHzOnTheInstructionClock) {
  PxaOsTimer ost;
  EXPECT_EQ(ost.read(0x10, 4'000'000), 13'000u);
  ost.write(0x10, 0xFFFFFFF0u, 4'000'000);  // OSCR0 written: counts on from the value
  EXPECT_EQ(ost.read(0x10, 4'004'000), 0xFFFFFFFDu);
}

// 4.4.2.1, 4.4.2.2, 4.4.2.5: a match sets OSSR only while OIER enables it; OSSR is write-1-to-clear.
TEST(SimTimers, PxaMatchSetsOssrOnlyWhileOierEnablesItAndOssrIsWriteOneToClear) {
  PxaOsTimer ost;
  ost.write(0x04, 100, 0);  // OSMR1: tick 100, instruction 30770
  EXPECT_EQ(ost.due(), PxaOsTimer::kRate.instruction_of(100));
  ost.update(40'000);
  EXPECT_EQ(ost.ossr(), 0u) << "OIER clear: no status";
  ost.write(0x1C, 0x2, 40'000);
  ost.write(0x04, ost.read(0x10, 40'000) + 10, 40'000);
  ost.update(ost.due() - 1);
  EXPECT_EQ(ost.ossr(), 0u) << "one instruction before the match";
  ost.update(ost.due());
  EXPECT_EQ(ost.ossr(), 0x2u);
  ost.write(0x14, 0x1, 50'000);
  EXPECT_EQ(ost.ossr(), 0x2u) << "writing 1 to another bit leaves M1";
  ost.write(0x14, 0x2, 50'000);
  EXPECT_EQ(ost.ossr(), 0u);
}

// A match register written equal to the counter matches when the counter steps onto it: a wrap later.
TEST(SimTimers, PxaAMatchEqualToTheCountComesAfterAFullWrap) {
  PxaOsTimer ost;
  const Rate r = PxaOsTimer::kRate;
  ost.write(0x1C, 0x1, 1000);
  ost.write(0x00, ost.read(0x10, 1000), 1000);
  const u64 wrap = r.instruction_of(r.ticks(1000) + (u64{1} << 32));
  ost.update(wrap - 1);
  EXPECT_EQ(ost.ossr(), 0u);
  ost.update(wrap);
  EXPECT_EQ(ost.ossr(), 1u);
}

// 4.4.1: with OWER's WME set, an OSMR3 match resets the processor (pmusim ends the run).
TEST(SimTimers, PxaOwerMakesAnOsmr3MatchAWatchdogReset) {
  PxaOsTimer ost;
  ost.write(0x0C, 5, 0);
  ost.update(ost.due());
  EXPECT_FALSE(ost.watchdog_reset());
  ost.write(0x18, 1, 0);
  ost.write(0x18, 0, 0);  // set-only
  ost.write(0x0C, ost.read(0x10, 10'000) + 5, 10'000);
  ost.update(ost.due());
  EXPECT_TRUE(ost.watchdog_reset());
}

// MIPS Count at half the pipeline clock, one clock per instruction; Count onto Compare requests the
// timer interrupt until Compare is written (MIPS32 PRA, Count and Compare registers).
TEST(SimTimers, MipsCountAtHalfTheClockAndCompareWriteWithdrawsTheRequest) {
  CountCompare t;
  EXPECT_EQ(t.count(1001), 500u);
  t.set_compare(t.count(1001) + 10, 1001);
  EXPECT_FALSE(t.pending(1019));
  EXPECT_TRUE(t.pending(1020)) << "Count steps onto 510 with instruction 1020";
  EXPECT_TRUE(t.pending(5000)) << "a level until Compare is written";
  t.set_compare(0, 5000);
  EXPECT_FALSE(t.pending(5001));
  t.set_count(0xFFFFFFFFu, 6000);
  EXPECT_FALSE(t.pending(6001));
  EXPECT_TRUE(t.pending(6002)) << "Count wrapped onto Compare 0";
}

// e500 CRM 2.6.4, 2.6.5: DEC at the time base's rate, 1 -> 0 sets DIS, ARE reloads DECAR.
TEST(SimTimers, E500DecrementerStepsToZeroIntoDisAndReloadsDecarWithAre) {
  Decrementer d{Rate{2, 5}};
  d.set_dec(10, 0);
  EXPECT_EQ(d.dec(2), 10u) << "not yet a tick";
  EXPECT_EQ(d.dec(3), 9u);
  EXPECT_FALSE(d.dis(24));
  EXPECT_TRUE(d.dis(25)) << "tick 10 at instruction 25";
  EXPECT_EQ(d.dec(1000), 0u) << "without ARE it stays at 0";
  d.clear_dis(1000);
  d.set_auto_reload(true, 1000);
  d.set_decar(100, 1000);
  d.set_dec(10, 1000);
  EXPECT_TRUE(d.dis(1025));
  EXPECT_EQ(d.dec(1025), 100u) << "DECAR instead of 0";
  EXPECT_EQ(d.dec(1028), 99u);
  d.clear_dis(1028);
  EXPECT_TRUE(d.dis(1025 + 250)) << "again 100 ticks later";
  d.set_dec(0, 2000);
  d.clear_dis(2000);
  EXPECT_FALSE(d.dis(1'000'000)) << "writing 0 raises nothing";
}

// Intel 8254: mode 2 (rate generator) gives a rising edge every N ticks from the tick after the
// count is written; a control word stops the channel; a counter latch holds the count.
TEST(SimTimers, Pit8254Mode2EdgeEveryPeriodAndLatchedReadBack) {
  Pit8254 pit;
  const Rate r = Pit8254::kRate;
  pit.write(0x43, 0x34, 0);  // channel 0, low then high, mode 2
  pit.write(0x40, 100, 0);
  pit.write(0x40, 0, 0);
  EXPECT_EQ(pit.due(), r.instruction_of(1 + 100));
  EXPECT_FALSE(pit.edges(pit.due() - 1));
  EXPECT_TRUE(pit.edges(pit.due()));
  EXPECT_EQ(pit.due(), r.instruction_of(1 + 200));
  const u64 at = r.instruction_of(1 + 230);
  pit.write(0x43, 0x00, at);  // latch: 70 left of the third period
  EXPECT_EQ(pit.read(at + 100'000), 70);
  EXPECT_EQ(pit.read(at + 100'000), 0);
  pit.write(0x43, 0x30, at);  // mode 0 with no count: the channel waits
  EXPECT_EQ(pit.due(), kNever);
}

// Intel 8259A: initialization, mask, in-service priority until EOI, automatic EOI.
TEST(SimTimers, Pic8259ServicesOneRequestUntilEoi) {
  Pic8259 pic;
  pic.write(false, 0x11);  // ICW1: ICW4 needed, cascade
  pic.write(true, 32);     // ICW2: vectors 32-39
  pic.write(true, 0x04);   // ICW3
  pic.write(true, 0x01);   // ICW4: 8086 mode
  pic.write(true, 0xFF);   // OCW1: all masked
  pic.raise(0);
  EXPECT_EQ(pic.pending(), -1) << "masked";
  pic.write(true, 0xFE);
  EXPECT_EQ(pic.pending(), 0);
  EXPECT_EQ(pic.acknowledge(), 32u);
  pic.raise(0);
  EXPECT_EQ(pic.pending(), -1) << "IR0 in service";
  pic.write(false, 0x0B);  // OCW3: read ISR
  EXPECT_EQ(pic.read(false), 0x01);
  pic.write(false, 0x20);  // OCW2: non-specific EOI
  EXPECT_EQ(pic.read(false), 0x00);
  EXPECT_EQ(pic.pending(), 0);
  pic.write(false, 0x11);
  pic.write(true, 0x08);
  pic.write(true, 0x04);
  pic.write(true, 0x03);  // ICW4: automatic EOI
  pic.raise(0);
  EXPECT_EQ(pic.acknowledge(), 8u);
  pic.raise(0);
  EXPECT_EQ(pic.pending(), 0) << "automatic EOI: nothing in service";
}

// The PC's TSC is the instruction count, and IA32_TIME_STAMP_COUNTER writes move it (Intel SDM
// Vol. 3B, 17.17); the PIT's edges reach the master 8259A's IR0.
TEST(SimTimers, PcTscIsTheInstructionClockAndThePitRaisesIrq0) {
  PcTimers pc;
  EXPECT_EQ(pc.tsc(12345), 12345u);
  pc.set_tsc(u64{1} << 40, 1000);
  EXPECT_EQ(pc.tsc(1010), (u64{1} << 40) + 10);
  for (const std::uint8_t v : {0x11, 32, 4, 1}) pc.out(v == 0x11 ? 0x20 : 0x21, v, 0);  // ICW1-4: vectors 32-39
  pc.out(0x21, 0xFE, 0);                                                              // IR0 unmasked
  pc.out(0x43, 0x34, 0);
  pc.out(0x40, 12, 0);
  pc.out(0x40, 0, 0);
  EXPECT_FALSE(pc.requesting());
  pc.update(pc.due());
  EXPECT_TRUE(pc.requesting());
  EXPECT_EQ(pc.acknowledge(), 32u);
}

}  // namespace
