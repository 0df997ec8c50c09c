// The RM7000 driver's own rules against the model: the core check, the probe on a counting, an
// inert and an absent counter, event and mode programming, the bit-31 condition and its clearing,
// the interrupt path (IM13, Cause.IP13), and the profiler and sampler on the one 31-bit counter
// with an event injected after every register access of their sequences.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace {

using namespace pmu;
using namespace pmu::rm7000;
struct Tag;
using rm7000Driver = rm7000test::Fixture<Tag>;

// --- probe ---------------------------------------------------------------------------------

TEST_F(rm7000Driver, ProbeOnAnRm7000FindsTheCounterCountingAndLeavesItReset) {
  model.set_cycles_per_access(1);
  const ProbeResult r = D::probe();
  EXPECT_EQ(r.status, pmu::Status::ok);
  EXPECT_EQ(r.working_slots, 1u);
  EXPECT_EQ(D::core(), Core::rm7000);
  EXPECT_EQ(model.perfcontrol(), 0u) << "counting off after the probe";
  EXPECT_EQ(model.perfcount(), 0u);
  EXPECT_EQ(Bus::count(InterruptControl::location::key, MockOp::write), 0u);
}

TEST_F(rm7000Driver, ProbeOnAnotherCoreTouchesNeitherRegister) {
  // QEMU's 5Kc (MIPS64: $25 is PerfCtl0 there), RM5200 (no counter), RM9000 (another PMU).
  for (const u32 prid : {0x00018100u, 0x00002820u, 0x00003410u}) {
    SCOPED_TRACE(prid);
    Bus::clear_log();
    model.set_prid(prid);
    const ProbeResult r = D::probe();
    EXPECT_EQ(r.status, pmu::Status::unsupported_core);
    EXPECT_EQ(r.working_slots, 0u);
    EXPECT_EQ(pmu_accesses(), 0u);
  }
  model.set_prid(0x00003410u);
  (void)D::probe();
  EXPECT_EQ(D::core(), Core::rm9000);
  EXPECT_STREQ(core_name(D::core()), "RM9000");
}

TEST_F(rm7000Driver, ForcedProbeOnAnInertCounterSaysAbsentWithoutTrapping) {
  model.set_prid(0x00018100u);
  model.set_inert(true);
  model.set_cycles_per_access(1);
  D::force_core(Core::rm7000);
  const auto caught = pmu::fault::state.caught;
  const ProbeResult r = D::probe();
  EXPECT_EQ(r.status, pmu::Status::pmu_absent) << "the count never advances";
  EXPECT_EQ(D::core(), Core::rm7000) << "a forced core stays forced";
  EXPECT_EQ(pmu::fault::state.caught, caught) << "nothing trapped";
  EXPECT_EQ(Bus::count(InterruptControl::location::key, MockOp::read), 0u) << "no cfc0: it traps there";
  D::force_core(Core::unknown);
  EXPECT_EQ(D::probe().status, pmu::Status::unsupported_core) << "back to detection";
}

// A forced core whose $25 ignores writes and holds a non-zero constant (a MIPS32/64 PerfCtl0 reads
// with bit 31 set): not a counter.
TEST_F(rm7000Driver, ProbeOnARegisterHoldingAConstantSaysAbsent) {
  model.set_prid(0x00018100u);
  model.set_inert(true);
  model.set_perfcount(0x7FFu);  // inert: keeps value & 0x7ff, writes of 0 then hold 0...
  D::force_core(Core::rm7000);
  struct Hold {
    static void again(void* m) {  // ...so put the constant back after every access
      static_cast<Model*>(m)->set_perfcount(0x7FFu);
      static_cast<Model*>(m)->after_access(1, &again, m);
    }
  };
  model.after_access(1, &Hold::again, &model);
  EXPECT_EQ(D::probe().status, pmu::Status::pmu_absent);
  model.after_access(0, nullptr, nullptr);
  D::force_core(Core::unknown);
}

TEST_F(rm7000Driver, ProbeOnATrappingCounterSaysAbsent) {
  model.set_absent(true);
  const auto caught = pmu::fault::state.caught;
  EXPECT_EQ(D::probe().status, pmu::Status::pmu_absent);
  EXPECT_GT(pmu::fault::state.caught, caught);
}

// --- configure, start, stop ------------------------------------------------------------------

TEST_F(rm7000Driver, ConfigureProgramsEventAndModesWithCountingOff) {
  ASSERT_EQ(D::configure(0, {0x0C}), pmu::Status::ok);
  EXPECT_EQ(model.perfcontrol(), 0x0Cu | kKernelMode | kUserMode) << "no mode given: both";
  ASSERT_EQ(D::configure(0, {0x1E, 0, kKernelMode}), pmu::Status::ok);
  EXPECT_EQ(model.perfcontrol(), 0x1Eu | kKernelMode);
  ASSERT_EQ(D::configure(0, {0x00, 0, kUserMode}), pmu::Status::ok);
  EXPECT_EQ(model.perfcontrol(), kUserMode);
  ASSERT_EQ(D::configure(0, {0x01, 0, kUserMode | kKernelMode}), pmu::Status::ok);
  EXPECT_EQ(model.perfcontrol(), 0x01u | kKernelMode | kUserMode);
}

TEST_F(rm7000Driver, ConfigureRefusesWhatTheCounterCannotDo) {
  EXPECT_EQ(D::configure(0, {0x1F}), pmu::Status::unsupported_event) << "Table 10 ends at 0x1E";
  EXPECT_EQ(D::configure(0, {0x20}), pmu::Status::unsupported_event);
  EXPECT_EQ(D::configure(1, {0x00}), pmu::Status::bad_argument) << "one counter";
  EXPECT_EQ(D::configure(0, {0x00, 1, 0}), pmu::Status::bad_argument) << "no qualifier";
  EXPECT_EQ(D::configure(0, {0x00, 0, kCountEnable}), pmu::Status::bad_argument) << "options are KM/UM";
  EXPECT_EQ(D::configure(0, {0x00, 0, 0x80}), pmu::Status::bad_argument) << "reserved bit 7";
  EXPECT_EQ(model.perfcontrol(), 0u) << "nothing written";
  EXPECT_EQ(D::slots_for(0x1E), 1u);
  EXPECT_EQ(D::slots_for(0x1F), 0u);
}

TEST_F(rm7000Driver, ConfigureWhileCountingIsBusy) {
  ASSERT_EQ(D::configure(0, {0x01}), pmu::Status::ok);
  D::start(1);
  EXPECT_EQ(D::configure(0, {0x02}), pmu::Status::busy);
  EXPECT_EQ(model.perfcontrol() & 0x1Fu, 0x01u);
  D::stop(1);
  EXPECT_EQ(D::configure(0, {0x02}), pmu::Status::ok);
}

TEST_F(rm7000Driver, StartAndStopToggleCountEnableOnly) {
  ASSERT_EQ(D::configure(0, {0x01, 0, kUserMode}), pmu::Status::ok);
  D::start(0);  // no slot named: nothing happens
  EXPECT_EQ(model.perfcontrol() & kCountEnable, 0u);
  D::start(1);
  EXPECT_EQ(model.perfcontrol(), 0x01u | kUserMode | kCountEnable);
  model.event(0x01, 10, Mode::user);
  D::stop(1);
  EXPECT_EQ(model.perfcontrol(), 0x01u | kUserMode);
  model.event(0x01, 10, Mode::user);
  EXPECT_EQ(D::read(0), 10u);
}

// --- the bit-31 condition and the interrupt ------------------------------------------------------

TEST_F(rm7000Driver, ClearOverflowClearsBit31AndKeepsTheLowBits) {
  model.set_perfcount(0x80000123u);
  EXPECT_EQ(D::overflow_status(), 1u);
  EXPECT_TRUE(D::interrupt_pending());
  D::clear_overflow(0);  // not this slot
  EXPECT_EQ(model.perfcount(), 0x80000123u);
  D::clear_overflow(1);
  EXPECT_EQ(model.perfcount(), 0x00000123u);
  EXPECT_EQ(D::overflow_status(), 0u);
  EXPECT_FALSE(D::interrupt_pending()) << "IP13 follows bit 31";
  Bus::clear_log();
  D::clear_overflow(1);
  EXPECT_EQ(Bus::count(PerfCount::location::key, MockOp::write), 0u) << "nothing to clear: no write";
}

TEST_F(rm7000Driver, PresetForSamplingRaisesTheConditionAfterExactlyPeriodEvents) {
  ASSERT_EQ(D::configure(0, {0x01}), pmu::Status::ok);
  ASSERT_EQ(D::preset_for_sampling(0, 1000), pmu::Status::ok);
  EXPECT_EQ(model.perfcount(), 0x80000000u - 1000);
  D::start(1);
  model.event(0x01, 999);
  EXPECT_EQ(D::overflow_status(), 0u);
  model.event(0x01, 1);
  EXPECT_EQ(D::overflow_status(), 1u);
  EXPECT_EQ(D::preset_for_sampling(0, 0), pmu::Status::bad_argument);
  EXPECT_EQ(D::preset_for_sampling(0, 0x80000001u), pmu::Status::bad_argument);
  EXPECT_EQ(D::preset_for_sampling(1, 10), pmu::Status::bad_argument);
  EXPECT_EQ(D::preset_for_sampling(0, 0x80000000u), pmu::Status::ok);
  EXPECT_EQ(model.perfcount(), 0u);
}

// Decision (README): IM13 = 1 enables the performance interrupt, whatever the datasheet's "not set".
TEST_F(rm7000Driver, TheInterruptIsEnabledBySettingIm13) {
  static unsigned calls;
  calls = 0;
  model.on_interrupt([](void*) { ++calls; D::clear_overflow(1); }, nullptr);
  model.set_perfcount(0x80000000u);
  EXPECT_EQ(calls, 0u) << "IM13 clear after reset: masked";
  D::set_overflow_interrupt(1, true);
  EXPECT_EQ(model.icr(), Model::kIm13);
  EXPECT_TRUE(D::interrupt_enabled());
  EXPECT_EQ(calls, 1u) << "the pending request is taken once IM13 is set";
  D::set_overflow_interrupt(1, false);
  EXPECT_EQ(model.icr(), 0u);
  model.set_perfcount(0x80000000u);
  EXPECT_EQ(calls, 1u);
  model.set_perfcount(0);
  model.on_interrupt(nullptr, nullptr);
}

TEST_F(rm7000Driver, SetOverflowInterruptKeepsTheOtherInterruptMasks) {
  put<InterruptControl>(0x1F00u | 0x80u | 0x04u);  // IM8..12, TE, spacing 4
  D::set_overflow_interrupt(1, true);
  EXPECT_EQ(model.icr(), 0x3F84u);
  D::set_overflow_interrupt(1, false);
  EXPECT_EQ(model.icr(), 0x1F84u);
}

// An interrupt whose handler changes another mask in Interrupt Control, injected after every
// access of set_overflow_interrupt: the handler's change survives (the read-modify-write runs with
// interrupts masked, so the handler runs after it).
TEST_F(rm7000Driver, AHandlerChangingInterruptControlIsNotUndoneByTheDriver) {
  struct Ctx {
    Model* m;
  };
  static Ctx ctx;
  ctx.m = &model;
  for (unsigned at = 1; at <= 2; ++at) {
    SCOPED_TRACE(at);
    put<InterruptControl>(Model::kIm13);
    model.set_perfcount(0);
    model.on_interrupt(
        [](void*) {
          pmu::Regs<Bus>::modify(icr_im13(0));  // a handler masking the counter itself...
          pmu::Regs<Bus>::template write_raw<InterruptControl>(
              pmu::Regs<Bus>::template read_raw<InterruptControl>() | 0x0100u);  // ...and unmasking Int8
          ctx.m->set_perfcount(0);
        },
        nullptr);
    model.reset_access_count();
    model.after_access(at, [](void*) { ctx.m->set_perfcount(0x80000000u); }, nullptr);
    D::set_overflow_interrupt(1, true);
    EXPECT_EQ(model.icr() & 0x0100u, 0x0100u) << "Int8's mask set by the handler is kept";
    EXPECT_EQ(model.icr() & Model::kIm13, 0u) << "the handler's masking ran last";
    model.on_interrupt(nullptr, nullptr);
  }
}

TEST_F(rm7000Driver, NotLinkable) {  // one counter
  EXPECT_EQ(D::kLink, LinkKind::none);
  EXPECT_EQ(D::link(0, 0), pmu::Status::not_linkable);
  EXPECT_EQ(D::link(0, 1), pmu::Status::not_linkable);
}

// --- the profiler on the 31-bit counter -----------------------------------------------------------

TEST_F(rm7000Driver, ProfilerKeepsTheHighPartAcrossFolds) {
  static prof::Profiler<D> p;
  p.clear();
  prof::Counter c;
  ASSERT_EQ(p.add<Preset::instructions>(c), pmu::Status::ok);
  p.start();
  std::uint64_t total = 0;
  for (int i = 0; i < 9; ++i) {  // 9 x 2^30 + 5 events: past 2^33, folded every 2^30
    model.event(event::INSTR_ISSUED, (1ull << 30) + (i == 0 ? 5 : 0));
    total += (1ull << 30) + (i == 0 ? 5 : 0);
    p.fold();
    EXPECT_EQ(p.read(c), total);
  }
  p.stop();
  EXPECT_EQ(p.read(c), total);
  EXPECT_EQ(p.read_giveups(), 0u);
  p.clear();
}

// One event injected after every register access of a read of the running counter, with the
// count one short of bit 31: the value read is the value before or after the event, never off by
// 2^31.
TEST_F(rm7000Driver, AnEventLandingInsideARunningReadIsNeverLostOrDoubled) {
  static prof::Profiler<D> p;
  for (unsigned at = 1; at <= 8; ++at) {
    SCOPED_TRACE(at);
    p.clear();
    prof::Counter c;
    ASSERT_EQ(p.add<Preset::instructions>(c), pmu::Status::ok);
    p.start();
    model.event(event::INSTR_ISSUED, 0x7FFFFFFFu);
    model.reset_access_count();
    static bool injected;
    injected = false;
    model.after_access(
        at,
        [](void* m) {
          static_cast<Model*>(m)->event(event::INSTR_ISSUED, 1);
          injected = true;
        },
        &model);
    const std::uint64_t v = p.read(c);
    EXPECT_TRUE(v == 0x7FFFFFFFu || v == 0x80000000u) << v;
    model.after_access(0, nullptr, nullptr);
    if (!injected) {
      EXPECT_EQ(v, 0x7FFFFFFFu);
      model.event(event::INSTR_ISSUED, 1);  // past the read's accesses: lands after it
    }
    EXPECT_EQ(p.read(c), 0x80000000u);
    p.fold();
    EXPECT_EQ(p.read(c), 0x80000000u);
    p.stop();
  }
  p.clear();
}

// The sampler on the PMU interrupt: one sample per period (plus at most one per period's worth of
// injected events), none dropped, with an extra event injected after every access of the
// interrupt handler's sequence.
TEST_F(rm7000Driver, SamplerTakesOneSamplePerPeriodWithEventsInsideItsHandler) {
  static prof::Profiler<D> p;
  static prof::SampleRing<64> ring;
  static prof::Sampler<D, prof::SampleRing<64>> s{p, ring};
  static Model* m;
  m = &model;
  static unsigned injected;
  for (unsigned at = 0; at <= 12; ++at) {
    SCOPED_TRACE(at);
    static unsigned inject_at;
    inject_at = at;
    injected = 0;
    p.clear();
    ring = {};
    prof::Counter c;
    ASSERT_EQ(p.add<Preset::instructions>(c), pmu::Status::ok);
    model.on_interrupt(
        [](void*) {
          m->reset_access_count();
          if (inject_at)
            m->after_access(
                inject_at,
                [](void*) {
                  ++injected;
                  m->event(event::INSTR_ISSUED, 1);
                },
                nullptr);
          s.on_pmu_interrupt(0x1000, 0x2000);
          m->after_access(0, nullptr, nullptr);
        },
        nullptr);
    p.start();
    ASSERT_EQ(s.arm(c, 100), pmu::Status::ok);
    std::uint64_t n = 0;
    while (n < 1000) {
      model.event(event::INSTR_ISSUED, 10);
      n += 10;
    }
    if (at >= 1 && at <= 4) {
      EXPECT_GT(injected, 0u) << "the handler's sequence has this many accesses";
    }
    if (at == 0) {
      EXPECT_EQ(ring.size(), 10u);
    }
    EXPECT_GE(ring.size(), 10u);
    EXPECT_LE(ring.size(), 10u + (injected + 99) / 100);
    EXPECT_EQ(ring.dropped(), 0u);
    s.disarm();
    p.clear();
    model.on_interrupt(nullptr, nullptr);
  }
}

}  // namespace
