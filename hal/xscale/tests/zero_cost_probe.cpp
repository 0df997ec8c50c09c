// Zero-cost probe, XScale (PXA2xx): the register engine on ArmCpBus against hand-written MRC/MCR.
//
// Each operation is a pair of extern "C" functions: ours_<op> goes through pmu::Regs<ArmCpBus>
// (or the XScale driver), hand_<op> is what an expert writes by hand for the same effect (same
// coprocessor encoding, same write-as-zero masking, same W1C handling). check.py disassembles this
// object and requires ours <= hand in instruction count and the same coprocessor accesses in the
// same order. Pairs named ours_info_* / hand_info_* are reported but not gated (README.md).
//
// Descriptors: the real ones, hal/xscale/regs.hpp (Intel XScale Core Developer's Manual,
// chapter 8). The hand-written side spells the encodings and masks out from the manual.
#include <cstdint>

#include "bench/zero_cost/window.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/core/reg.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/regs.hpp"

#if !defined(__arm__) || defined(__thumb__)
#error "the xscale zero-cost probe is built for ARM state only (-marm)"
#endif

namespace {
using pmu::u32;
using Bus = pmu::Regs<pmu::ArmCpBus>;
using Xsc2 = pmu::xscale::Xsc2<pmu::ArmCpBus>;
namespace xsc1 = pmu::xscale::xsc1;
namespace xsc2 = pmu::xscale::xsc2;
namespace midr = pmu::xscale::midr;
}  // namespace

#define HAND_MRC(crn, crm, v) \
  asm volatile("mrc p14, 0, %0, c" #crn ", c" #crm ", 0" : "=r"(v) : : "memory")
#define HAND_MCR(crn, crm, v) \
  asm volatile("mcr p14, 0, %0, c" #crn ", c" #crm ", 0" : : "r"(v) : "memory")

extern "C" {

// --- read_raw: CCNT (c1, c1) ---
u32 ours_read_raw() { return Bus::read_raw<xsc2::CCNT>(); }
u32 hand_read_raw() {
  u32 v;
  HAND_MRC(1, 1, v);
  return v;
}

// --- read_snapshot: one read of PMNC, E and D decoded from the copy ---
u32 ours_read_snapshot() {
  const auto s = Bus::read<xsc2::PMNC>();
  return s.get(xsc2::pmnc::E) + s.get(xsc2::pmnc::D);
}
u32 hand_read_snapshot() {
  u32 v;
  HAND_MRC(0, 1, v);
  return (v & 1u) + ((v >> 3) & 1u);
}

// --- read_field: EVTSEL.evtCount1 ---
u32 ours_read_field() { return Bus::read(xsc2::evtsel::evtCount1); }
u32 hand_read_field() {
  u32 v;
  HAND_MRC(8, 1, v);
  return (v >> 8) & 0xFFu;
}

// --- read_field_cp15: MIDR core generation (CP15 c0, c0; read-only register) ---
u32 ours_read_field_cp15() { return Bus::read(midr::CoreGen); }
u32 hand_read_field_cp15() {
  u32 v;
  asm volatile("mrc p15, 0, %0, c0, c0, 0" : "=r"(v) : : "memory");
  return (v >> 13) & 7u;
}

// --- write_const: PMNC = E | P | C in one write (D takes its reset value 0) ---
void ours_write_const() {
  Bus::write(xsc2::pmnc::E.val<1>(), xsc2::pmnc::P.val<1>(), xsc2::pmnc::C.val<1>());
}
void hand_write_const() {
  const u32 v = 0x7;
  HAND_MCR(0, 1, v);
}

// --- write_runtime: EVTSEL = two run-time event numbers (8-bit arguments fit the 8-bit fields) ---
void ours_write_runtime(std::uint8_t ev0, std::uint8_t ev1) {
  Bus::write(xsc2::evtsel::evtCount0.runtime(ev0), xsc2::evtsel::evtCount1.runtime(ev1));
}
void hand_write_runtime(std::uint8_t ev0, std::uint8_t ev1) {
  const u32 v = static_cast<u32>(ev0) | (static_cast<u32>(ev1) << 8);
  HAND_MCR(8, 1, v);
}

// --- write_raw: CCNT = v ---
void ours_write_raw(u32 v) { Bus::write_raw<xsc2::CCNT>(v); }
void hand_write_raw(u32 v) { HAND_MCR(1, 1, v); }

// --- modify: INTEN: CCNT and PMN0 interrupts on, the others kept (31:5 write-as-zero) ---
void ours_modify() { Bus::modify(xsc2::inten::C(1), xsc2::inten::P0(1)); }
void hand_modify() {
  u32 v;
  HAND_MRC(4, 1, v);
  v = (v | 0x3u) & 0x1Fu;
  HAND_MCR(4, 1, v);
}

// --- modify_w1c: XSC1 PMNC: E = 1, CCNT interrupt on, no overflow flag cleared by accident ---
void ours_modify_w1c() { Bus::modify(xsc1::pmnc::E(1), xsc1::pmnc::inten_ccnt(1)); }
void hand_modify_w1c() {
  u32 v;
  HAND_MRC(0, 0, v);
  v = ((v & ~0x700u) | 0x41u) & 0x0FFFF779u;  // flags (w1c) and P/C (actions, §8.3) written as 0
  HAND_MCR(0, 0, v);
}

// --- w1c_clear: FLAG: clear the CCNT overflow flag only ---
void ours_w1c_clear() { Bus::write(xsc2::flag::C(1)); }
void hand_w1c_clear() {
  const u32 v = 0x1;
  HAND_MCR(5, 1, v);
}

// --- w1c_clear_modify: XSC1 PMNC: clear the CCNT overflow flag, keep the control bits ---
void ours_w1c_clear_modify() { Bus::modify(xsc1::pmnc::flag_ccnt(1)); }
void hand_w1c_clear_modify() {
  u32 v;
  HAND_MRC(0, 0, v);
  v = ((v & ~0x700u) | 0x400u) & 0x0FFFF779u;
  HAND_MCR(0, 0, v);
}

// ---------------- the XScale driver (hal/xscale/driver.hpp) ----------------

// --- driver_read_ccnt: Xsc2::read<0>() (slot 0 = CCNT), 64-bit result ---
std::uint64_t ours_driver_read_ccnt() { return Xsc2::read<0>(); }
std::uint64_t hand_driver_read_ccnt() {
  u32 v;
  HAND_MRC(1, 1, v);
  return v;
}

// --- driver_read_pmn3: Xsc2::read<4>() (slot 4 = PMN3, c3, c2) ---
std::uint64_t ours_driver_read_pmn3() { return Xsc2::read<4>(); }
std::uint64_t hand_driver_read_pmn3() {
  u32 v;
  HAND_MRC(3, 2, v);
  return v;
}

// --- driver_enable: PMNC.E = 1 in one read and one write; the P and C reset actions (which read
// back unpredictable) are written as 0, so enabling never resets a counter by accident ---
void ours_driver_enable() { Xsc2::enable(); }
void hand_driver_enable() {
  u32 v;
  HAND_MRC(0, 1, v);
  v = ((v & ~0x7u) | 0x1u) & 0xFu;
  HAND_MCR(0, 1, v);
}

// --- driver_reset_counters: PMNC.P = PMNC.C = 1, E and D kept ---
void ours_driver_reset_counters() { Xsc2::reset_counters(); }
void hand_driver_reset_counters() {
  u32 v;
  HAND_MRC(0, 1, v);
  v = (v & 0x9u) | 0x6u;
  HAND_MCR(0, 1, v);
}

// --- info_write_unchecked (not gated): a run-time value of unknown range into an 8-bit field.
// The engine masks it, counts and reports it (pmu::report_narrowing); the hand version truncates
// silently. The difference is the price of the "no silent truncation" rule.
void ours_info_write_unchecked(u32 ev) { Bus::write(xsc2::evtsel::evtCount0.runtime(ev)); }
void hand_info_write_unchecked(u32 ev) {
  const u32 v = ev & 0xFFu;
  HAND_MCR(8, 1, v);
}

}  // extern "C"

// Fast-region windows (check.py, "Windows"): slot 0 = CCNT, 1 = PMN0.
// Counter reads: CP14 (mrc p14).
PMU_ZC_COUNTER_READ(R"(^mrc2? p?14,)");
PMU_ZC_WINDOW(Xsc2, 0)
PMU_ZC_WINDOW_REGION(Xsc2)
PMU_ZC_WINDOW_RUN_REGION(Xsc2, 4)
PMU_ZC_WINDOW_REGION_N(Xsc2, 2)
PMU_ZC_WINDOW_REGION_N(Xsc2, 3)
PMU_ZC_WINDOW_CALL(Xsc2, 0)
PMU_ZC_WINDOW_CALIBRATE(Xsc2, 0)
PMU_ZC_WINDOW2(Xsc2, 0, 1)
PMU_ZC_PMU_IRQ(Xsc2, 0, 1)
