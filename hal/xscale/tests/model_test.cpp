// The behavioural models on their own, through raw register accesses (no driver): the driver tests
// rely on these behaviours, so each is pinned here first.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "hal/core/bus/irq.hpp"

namespace {

using namespace pmu;
using namespace pmu::xscale;
using xs_test::Fixture;
using xs_test::Xsc1Case;
using xs_test::Xsc2Case;

class xscaleModel2 : public Fixture<Xsc2Case> {
 protected:
  using R = Regs<Bus>;
};
class xscaleModel1 : public Fixture<Xsc1Case> {
 protected:
  using R = Regs<Bus>;
};

struct IrqLog {
  int calls = 0;
  static void on(void* ctx) { ++static_cast<IrqLog*>(ctx)->calls; }
};

TEST_F(xscaleModel2, CountsOnlyWhileEnabled) {
  R::write_raw<xsc2::EVTSEL>(0x0B0A0907);  // PMN0 INSTR, PMN1 DC_FULL_CONTIG, PMN2 DC_ACCESS, PMN3 DC_MISS
  model.cycles(100);
  model.event(event::INSTR, 5);
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 0u);
  EXPECT_EQ(R::read_raw<xsc2::PMN0>(), 0u);
  R::write_raw<xsc2::PMNC>(1);
  model.cycles(100);
  model.event(event::INSTR, 5);
  model.event(event::DC_MISS, 2);
  model.event(event::DTLB_MISS, 9);  // selected by nobody
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 100u);
  EXPECT_EQ(R::read_raw<xsc2::PMN0>(), 5u);
  EXPECT_EQ(R::read_raw<xsc2::PMN1>(), 0u);
  EXPECT_EQ(R::read_raw<xsc2::PMN3>(), 2u);
  R::write_raw<xsc2::PMNC>(0);
  model.cycles(100);
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 100u);
}

TEST_F(xscaleModel2, DividerKeepsRemainder) {
  R::write_raw<xsc2::PMNC>(xsc2::pmnc::E.mask | xsc2::pmnc::D.mask);
  model.cycles(63);
  EXPECT_EQ(model.ccnt(), 0u);
  model.cycles(1);
  EXPECT_EQ(model.ccnt(), 1u);
  model.cycles(130);  // 2 ticks, 2 cycles left over
  EXPECT_EQ(model.ccnt(), 3u);
  model.cycles(62);
  EXPECT_EQ(model.ccnt(), 4u);
  // C resets CCNT and the divider's count.
  model.cycles(40);
  R::write_raw<xsc2::PMNC>(xsc2::pmnc::E.mask | xsc2::pmnc::D.mask | xsc2::pmnc::C.mask);
  EXPECT_EQ(model.ccnt(), 0u);
  model.cycles(63);
  EXPECT_EQ(model.ccnt(), 0u);
}

TEST_F(xscaleModel2, WrapSetsFlagAndInterruptsOnlyWhenEnabled) {
  R::write_raw<xsc2::EVTSEL>(0x07070707);
  model.set_counter(0, 0xFFFFFFFE);
  model.set_counter(3, 0xFFFFFFFF);  // PMN2
  R::write_raw<xsc2::PMNC>(1);
  model.cycles(1);
  EXPECT_EQ(R::read_raw<xsc2::FLAG>(), 0u);
  model.cycles(1);  // 0xFFFFFFFF -> 0
  EXPECT_EQ(model.ccnt(), 0u);
  EXPECT_EQ(R::read_raw<xsc2::FLAG>(), 0x1u);
  EXPECT_EQ(model.irq_count(), 0u) << "INTEN is 0";
  R::write_raw<xsc2::INTEN>(0x8);  // PMN2 only
  model.event(event::INSTR, 3);
  EXPECT_EQ(R::read_raw<xsc2::FLAG>(), 0x9u);
  EXPECT_EQ(model.pmn(2), 2u);
  EXPECT_EQ(model.irq_count(), 1u);
  EXPECT_TRUE(model.irq_line());
  model.cycles(0x100000000ull);  // another CCNT wrap: line already high, no new edge
  EXPECT_EQ(model.irq_count(), 1u);
  EXPECT_EQ(model.overflows(0), 2u);
  // W1C: writing 1 clears that flag only; 0s leave the others.
  R::write_raw<xsc2::FLAG>(0x8);
  EXPECT_EQ(R::read_raw<xsc2::FLAG>(), 0x1u);
  EXPECT_FALSE(model.irq_line());
  R::write_raw<xsc2::FLAG>(0);
  EXPECT_EQ(R::read_raw<xsc2::FLAG>(), 0x1u);
  // Enabling an interrupt for a pending flag raises the line.
  R::write_raw<xsc2::INTEN>(0x9);
  EXPECT_EQ(model.irq_count(), 2u);
}

// The PXA27x's PMU interrupt is a level, (flags & enables) != 0, not an edge: a handler that
// returns with a flag still set is entered again at once, and a flag cleared while the CPU masks
// interrupts takes the request away before anyone sees it (issue 31, item 5).
TEST_F(xscaleModel2, TheInterruptIsALevel) {
  int calls = 0;  // the handler clears the flag on its second call
  model.on_interrupt(
      [](void* c) {
        if (++*static_cast<int*>(c) == 2) R::write_raw<xsc2::FLAG>(0x1);
      },
      &calls);
  R::write_raw<xsc2::INTEN>(0x1);
  model.set_counter(0, 0xFFFFFFFF);
  R::write_raw<xsc2::PMNC>(1);
  model.cycles(1);
  EXPECT_EQ(calls, 2) << "the flag left set by the first call asks again";
  EXPECT_FALSE(model.irq_line());
  model.set_counter(0, 0xFFFFFFFF);
  {
    IrqGuard masked;
    model.cycles(1);
    EXPECT_TRUE(model.irq_line());
    R::write_raw<xsc2::FLAG>(0x1);
  }
  EXPECT_EQ(calls, 2) << "nothing asks once the flag is clear";
  EXPECT_FALSE(model.interrupt_storm());
}

TEST_F(xscaleModel2, ResetBitsAndWriteAsZero) {
  model.set_counter(0, 10);
  for (unsigned s = 1; s < 5; ++s) model.set_counter(s, 20 + s);
  R::write_raw<xsc2::PMNC>(xsc2::pmnc::P.mask);
  EXPECT_EQ(model.ccnt(), 10u);
  for (unsigned s = 1; s < 5; ++s) EXPECT_EQ(model.counter(s), 0u);
  R::write_raw<xsc2::PMNC>(xsc2::pmnc::C.mask);
  EXPECT_EQ(model.ccnt(), 0u);
  // P/C read back 0; write-as-zero bits and the read-only ID are not stored.
  Bus::write<xsc2::PMNC::location, u32>(0xFFFFFFFF);  // bypasses the descriptor's mask
  EXPECT_EQ(R::read_raw<xsc2::PMNC>(), 0x9u);         // E | D
  Bus::write<xsc2::INTEN::location, u32>(0xFFFFFFFF);
  EXPECT_EQ(R::read_raw<xsc2::INTEN>(), 0x1Fu);
}

TEST_F(xscaleModel2, OptionsIdAndUnpredictableActions) {
  attach({.actions_read_as_one = true, .pmu_id = 0x14});
  EXPECT_EQ(R::read_raw<xsc2::PMNC>(), 0x14000006u);
}

TEST_F(xscaleModel2, AStepErratumLosesEarlierFlag) {
  attach({.a_step_erratum = true});
  R::write_raw<xsc2::EVTSEL>(0x07);
  model.set_counter(0, 0xFFFFFFFF);
  model.set_counter(1, 0xFFFFFFFF);
  R::write_raw<xsc2::PMNC>(1);
  model.cycles(1);
  EXPECT_EQ(model.flags(), 0x1u);
  model.event(event::INSTR, 1);
  EXPECT_EQ(model.flags(), 0x2u) << "the second overflow cleared the first flag";
  attach({});  // without the erratum both stay
  R::write_raw<xsc2::EVTSEL>(0x07);
  model.set_counter(0, 0xFFFFFFFF);
  model.set_counter(1, 0xFFFFFFFF);
  R::write_raw<xsc2::PMNC>(1);
  model.cycles(1);
  model.event(event::INSTR, 1);
  EXPECT_EQ(model.flags(), 0x3u);
}

// hw/arm/pxa2xx.c (QEMU 7.2): CCNT returns the virtual clock while PMNC.E=1 and 0 while E=0.
TEST_F(xscaleModel2, QemuModeIsPartial) {
  attach({.mode = ModelMode::qemu, .qemu_clock = 1000});
  IrqLog irq;
  model.on_interrupt(&IrqLog::on, &irq);
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 0u) << "E=0 reads 0";
  model.cycles(50);                      // the clock runs with E=0 too
  R::write_raw<xsc2::CCNT>(0xFFFFFFF0);  // ignored
  R::write_raw<xsc2::PMNC>(0xF);         // PMNC keeps what is written; C and D ignored
  EXPECT_EQ(R::read_raw<xsc2::PMNC>(), 0xFu);
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 1050u);
  model.cycles(100);
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 1150u) << "no reset, no divider";
  R::write_raw<xsc2::PMNC>(0);
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 0u) << "a stopped CCNT reads 0";
  model.cycles(10);
  R::write_raw<xsc2::PMNC>(1);
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 1160u);
  R::write_raw<xsc2::EVTSEL>(0x07070707);
  R::write_raw<xsc2::INTEN>(0x1F);
  R::write_raw<xsc2::PMN0>(5);
  model.event(event::INSTR, 10);
  EXPECT_EQ(R::read_raw<xsc2::EVTSEL>(), 0u);
  EXPECT_EQ(R::read_raw<xsc2::INTEN>(), 0u);
  EXPECT_EQ(R::read_raw<xsc2::FLAG>(), 0u);
  EXPECT_EQ(R::read_raw<xsc2::PMN0>(), 0u);
  EXPECT_EQ(R::read_raw<xsc2::PMN2>(), 0u);
  model.cycles(0x100000000ull);  // the low 32 bits wrap; no flag, no interrupt
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 1160u);
  EXPECT_EQ(R::read_raw<xsc2::FLAG>(), 0u);
  EXPECT_EQ(irq.calls, 0);
  // PMN3 traps: inside a probe it is caught, outside it is an unexpected trap.
  EXPECT_TRUE(fault::traps([] { (void)R::read_raw<xsc2::PMN3>(); }));
  EXPECT_EQ(Bus::unexpected_traps, 0u);
  (void)R::read_raw<xsc2::PMN3>();
  EXPECT_EQ(Bus::unexpected_traps, 1u);
  Bus::unexpected_traps = 0;
}

TEST_F(xscaleModel2, AbsentTrapsEverythingButMidr) {
  attach({.mode = ModelMode::absent});
  EXPECT_TRUE(fault::traps([] { (void)R::read_raw<xsc2::PMNC>(); }));
  EXPECT_TRUE(fault::traps([] { R::write_raw<xsc2::CCNT>(1); }));
  EXPECT_FALSE(fault::traps([] { (void)R::read_raw<MIDR>(); }));
  EXPECT_EQ(R::read_raw<MIDR>(), 0x69054117u);
}

struct HookLog {
  const pmu::xscale::Xsc2Model* m = nullptr;
  unsigned at = 0;
  static void on(void* ctx) {
    auto* h = static_cast<HookLog*>(ctx);
    h->at = static_cast<unsigned>(h->m->accesses());
  }
};

TEST_F(xscaleModel2, HookRunsAfterTheNthAccess) {
  HookLog h;
  h.m = &model;
  model.after_access(2, &HookLog::on, &h);
  (void)R::read_raw<xsc2::PMNC>();
  EXPECT_EQ(h.at, 0u);
  (void)R::read_raw<xsc2::CCNT>();
  EXPECT_EQ(h.at, 2u);
  h.at = 0;
  (void)R::read_raw<xsc2::CCNT>();
  EXPECT_EQ(h.at, 0u) << "runs once";
  EXPECT_EQ(model.accesses(), 3u);
  (void)R::read_raw<MIDR>();
  EXPECT_EQ(model.accesses(), 3u) << "MIDR is not a PMU access";
}

TEST_F(xscaleModel2, TimePassesPerAccessWhenAsked) {
  attach({.cycles_per_access = 3});
  R::write_raw<xsc2::EVTSEL>(event::INSTR);
  R::write_raw<xsc2::PMNC>(1);                 // counting starts after this access
  EXPECT_EQ(R::read_raw<xsc2::CCNT>(), 3u);    // value read before this access's time
  EXPECT_EQ(R::read_raw<xsc2::PMN0>(), 6u);
}

// ---- XSC1: everything but the counters is PMNC ----
TEST_F(xscaleModel1, PmncHoldsEnablesFlagsAndEvents) {
  using namespace xsc1::pmnc;
  const u32 v = E.mask | inten_ccnt.mask | (event::INSTR << evtCount0.offset) |
                (event::DC_MISS << evtCount1.offset);
  R::write_raw<xsc1::PMNC>(v);
  EXPECT_EQ(R::read_raw<xsc1::PMNC>(), v);
  model.set_counter(0, 0xFFFFFFFF);
  model.set_counter(2, 0xFFFFFFFF);
  model.cycles(1);
  model.event(event::DC_MISS, 1);
  EXPECT_EQ(R::read_raw<xsc1::PMNC>(), v | flag_ccnt.mask | flag_pmn1.mask);
  EXPECT_EQ(model.irq_count(), 1u);  // CCNT's enable only
  // Writing the value read back clears every set flag (the hazard the driver avoids).
  R::write_raw<xsc1::PMNC>(v | flag_pmn1.mask);
  EXPECT_EQ(R::read_raw<xsc1::PMNC>(), v | flag_ccnt.mask);
  // Write-as-zero bits are not stored; P and C reset and read 0.
  model.set_counter(0, 7);
  model.set_counter(1, 8);
  Bus::write<xsc1::PMNC::location, u32>(0xF0000886 | v);
  EXPECT_EQ(R::read_raw<xsc1::PMNC>(), v | flag_ccnt.mask);
  EXPECT_EQ(model.ccnt(), 0u);
  EXPECT_EQ(model.pmn(0), 0u);
}

TEST_F(xscaleModel1, QemuModeFallsBackToFull) {
  attach({.mode = ModelMode::qemu});
  EXPECT_EQ(model.config().mode, ModelMode::full);
  EXPECT_EQ(R::read_raw<MIDR>(), 0x69052000u);
}

}  // namespace
