// Zero-cost probe, RM7000 (MIPS IV): the register engine and the RM7000 driver on Cp0Bus (no sel;
// mtc0 and ctc0 followed by the CP0 write hazard, PMU_MIPS4_CP0_HAZARD_NOPS nops) against
// hand-written mfc0/mtc0/cfc0/ctc0. Same rules as hal/xscale/tests/zero_cost_probe.cpp: every register access the
// driver makes has a pair here.
//
// Descriptors: the real ones, hal/rm7000/regs.hpp (RM7000 datasheet Table 10: PerfControl is CP0
// $22, PerfCount $25; Interrupt Control is CP0 control register 20; Cause $13, PRId $15). The
// hand-written side spells the encodings and masks out.
#include <cstdint>

#include "bench/zero_cost/window.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/core/reg.hpp"
#include "hal/rm7000/driver.hpp"
#include "hal/rm7000/regs.hpp"

#if !defined(__mips__) || (defined(__mips_isa_rev) && __mips_isa_rev >= 2)
#error "the rm7000 zero-cost probe is built for MIPS IV (-DPMU_MIPS_ARCH=rm7000)"
#endif

namespace {
using pmu::u32;
using C0 = pmu::Regs<pmu::Cp0Bus>;
using Driver = pmu::rm7000::Driver<pmu::Cp0Bus>;
namespace rm = pmu::rm7000;
static_assert(!pmu::Cp0Bus::has_select);
}  // namespace

#define PMU_STR2(x) #x
#define PMU_STR(x) PMU_STR2(x)
#define HAND_HAZARD ".rept " PMU_STR(PMU_MIPS4_CP0_HAZARD_NOPS) "\n\tnop\n\t.endr\n\t"
#define HAND_MFC0(reg, v) asm volatile("mfc0 %0, $" #reg : "=r"(v) : : "memory")
#define HAND_MTC0(reg, v)                                                                          \
  asm volatile(".set push\n\t.set noreorder\n\tmtc0 %z0, $" #reg "\n\t" HAND_HAZARD ".set pop" \
               :                                                                                  \
               : "dJ"(v)                                                                          \
               : "memory")
#define HAND_CFC0(reg, v) asm volatile("cfc0 %0, $" #reg : "=r"(v) : : "memory")
#define HAND_CTC0(reg, v)                                                                          \
  asm volatile(".set push\n\t.set noreorder\n\tctc0 %z0, $" #reg "\n\t" HAND_HAZARD ".set pop" \
               :                                                                                  \
               : "dJ"(v)                                                                          \
               : "memory")

extern "C" {

// --- read_raw: PerfCount ---
u32 ours_read_raw() { return C0::read_raw<rm::PerfCount>(); }
u32 hand_read_raw() {
  u32 v;
  HAND_MFC0(25, v);
  return v;
}

// --- read_snapshot: PerfControl, Event Type and Count Enable from one read ---
u32 ours_read_snapshot() {
  const auto s = C0::read<rm::PerfControl>();
  return s.get(rm::perfcontrol_event) + s.get(rm::perfcontrol_ce);
}
u32 hand_read_snapshot() {
  u32 v;
  HAND_MFC0(22, v);
  return (v & 0x1Fu) + ((v >> 10) & 1u);
}

// --- read_field: PerfCount bit 31 (Driver::overflow_status) ---
u32 ours_read_field() { return C0::read(rm::perfcount_bit31); }
u32 hand_read_field() {
  u32 v;
  HAND_MFC0(25, v);
  return v >> 31;
}

// --- write_const: PerfControl = event 0x0B (I-cache misses), kernel + user, enabled ---
void ours_write_const() {
  C0::write(rm::perfcontrol_event.val<0x0B>(), rm::perfcontrol_km(1), rm::perfcontrol_um(1),
            rm::perfcontrol_ce(1));
}
void hand_write_const() {
  const u32 v = 0x0Bu | (1u << 8) | (1u << 9) | (1u << 10);
  HAND_MTC0(22, v);
}

// --- write_raw: PerfCount = v (e.g. a sampling preset 0x80000000 - N) ---
void ours_write_raw(u32 v) { C0::write_raw<rm::PerfCount>(v); }
void hand_write_raw(u32 v) { HAND_MTC0(25, v); }

// --- modify: PerfControl: stop counting (CE = 0) and drop user mode, rest kept ---
void ours_modify() { C0::modify(rm::perfcontrol_ce(0), rm::perfcontrol_um(0)); }
void hand_modify() {
  u32 v;
  HAND_MFC0(22, v);
  v = (v & ~0x600u) & 0x71Fu;
  HAND_MTC0(22, v);
}

// --- modify_runtime: PerfControl.Event Type = run-time event (already masked by the caller) ---
void ours_modify_runtime(u32 ev) { C0::modify(rm::perfcontrol_event.runtime(ev & 0x1Fu)); }
void hand_modify_runtime(u32 ev) {
  u32 v;
  HAND_MFC0(22, v);
  v = ((v & ~0x1Fu) | (ev & 0x1Fu)) & 0x71Fu;
  HAND_MTC0(22, v);
}

// (w1c: the RM7000 performance counter has no write-1-to-clear register.)

// ---------------- the RM7000 driver (hal/rm7000/driver.hpp) ----------------

// --- driver_read: Driver::read<0>() (PerfCount), 64-bit result ---
std::uint64_t ours_driver_read() { return Driver::read<0>(); }
std::uint64_t hand_driver_read() {
  u32 v;
  HAND_MFC0(25, v);
  return v;
}

// --- driver_write: Driver::write<0>(v) of a 32-bit value (the narrowing check folds away) ---
void ours_driver_write(u32 v) { Driver::write<0>(v); }
void hand_driver_write(u32 v) { HAND_MTC0(25, v); }

// --- driver_start: Driver::start(1): PerfControl.CE = 1, one read and one write ---
void ours_driver_start() { Driver::start(1); }
void hand_driver_start() {
  u32 v;
  HAND_MFC0(22, v);
  v = (v | 0x400u) & 0x71Fu;
  HAND_MTC0(22, v);
}

// --- driver_stop: Driver::stop(1): PerfControl.CE = 0 ---
void ours_driver_stop() { Driver::stop(1); }
void hand_driver_stop() {
  u32 v;
  HAND_MFC0(22, v);
  v &= 0x31Fu;
  HAND_MTC0(22, v);
}

// --- driver_clear_overflow: Driver::clear_overflow(1): bit 31 of PerfCount cleared if set ---
void ours_driver_clear_overflow() { Driver::clear_overflow(1); }
void hand_driver_clear_overflow() {
  u32 v;
  HAND_MFC0(25, v);
  if (v & 0x80000000u) {
    v &= 0x7FFFFFFFu;
    HAND_MTC0(25, v);
  }
}

// --- driver_interrupt_pending: Cause.IP13 (bit 21), one mfc0 ---
bool ours_driver_interrupt_pending() { return Driver::interrupt_pending(); }
bool hand_driver_interrupt_pending() {
  u32 v;
  HAND_MFC0(13, v);
  return (v >> 21) & 1u;
}

// --- driver_interrupt_enabled: Interrupt Control IM13, one cfc0 ---
bool ours_driver_interrupt_enabled() { return Driver::interrupt_enabled(); }
bool hand_driver_interrupt_enabled() {
  u32 v;
  HAND_CFC0(20, v);
  return (v >> 13) & 1u;
}

// --- driver_enable_interrupt: Driver::set_overflow_interrupt(1, true): Interrupt Control IM13 = 1
// by cfc0/ctc0 with Status.IE cleared around it (the board's handlers change the other masks) ---
void ours_driver_enable_interrupt() { Driver::set_overflow_interrupt(1, true); }
void hand_driver_enable_interrupt() {
  u32 s, t, v;
  asm volatile(".set push\n\t.set noreorder\n\tmfc0 %0, $12\n\tnop\n\tori %1, %0, 1\n\txori %1, %1, 1\n\t"
               "mtc0 %1, $12\n\t" HAND_HAZARD ".set pop"
               : "=r"(s), "=r"(t) : : "memory");
  HAND_CFC0(20, v);
  v = (v | 0x2000u) & 0xFF9Fu;
  HAND_CTC0(20, v);
  asm volatile(".set push\n\t.set noreorder\n\tmfc0 %0, $12\n\tnop\n\tori %0, %0, 1\n\txori %0, %0, 1\n\t"
               "or %0, %0, %1\n\tmtc0 %0, $12\n\t" HAND_HAZARD ".set pop"
               : "=&r"(t) : "r"(s & 1u) : "memory");
}

// --- driver_read_prid: the core check's PRId read, one mfc0 ---
u32 ours_driver_read_prid() { return C0::read_raw<rm::PRId>(); }
u32 hand_driver_read_prid() {
  u32 v;
  HAND_MFC0(15, v);
  return v;
}

// --- info_write_unchecked (not gated): run-time value of unknown range into the 5-bit Event Type ---
void ours_info_write_unchecked(u32 ev) { C0::write(rm::perfcontrol_event.runtime(ev)); }
void hand_info_write_unchecked(u32 ev) {
  const u32 v = ev & 0x1Fu;
  HAND_MTC0(22, v);
}

}  // extern "C"

// Fast-region windows (check.py, "Windows"): PerfCount: the one counter.
// Counter reads: PerfCount (mfc0).
PMU_ZC_COUNTER_READ(R"(^mfc0 )");
PMU_ZC_WINDOW(Driver, 0)
PMU_ZC_WINDOW_REGION(Driver)
PMU_ZC_WINDOW_RUN_REGION(Driver, 1)
PMU_ZC_WINDOW_CALL(Driver, 0)
PMU_ZC_WINDOW_CALIBRATE(Driver, 0)
PMU_ZC_PMU_IRQ(Driver, 0, 1)
