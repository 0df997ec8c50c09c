// Zero-cost probe, e500 (Book E): the register engine on PmrBus against hand-written mfpmr/mtpmr.
// Same rules as hal/xscale/tests/zero_cost_probe.cpp. Every hand-written mtpmr is followed by isync, as the bus does
// (e500 CRM 7.2: PMR changes take effect in order only after a context-synchronizing instruction).
//
// Descriptors: the real ones, hal/e500/regs.hpp (e500 CRM chapter 7). The hand-written
// side spells PMR numbers and masks out from the manual: PMC0 16, UPMC0 0, PMC1 17, PMC2 18,
// PMLCa0 144, PMGC0 400; writable bits PMGC0 0xE0001900, PMLCa 0xFC7F0000 (EVENT is 7 bits).
#include <cstdint>

#include "bench/zero_cost/window.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/core/reg.hpp"
#include "hal/e500/driver.hpp"
#include "hal/e500/regs.hpp"

#if !defined(__powerpc__)
#error "the e500 zero-cost probe is built for PowerPC only"
#endif

namespace {
using pmu::u32;
using Bus = pmu::Regs<pmu::PmrBus>;
using Driver = pmu::e500::Driver<pmu::PmrBus>;
namespace e5 = pmu::e500;
using PMLCa0 = e5::PMLCa<0>;
constexpr auto pmgc0_fac = e5::pmgc0_fac<>;
constexpr auto pmgc0_pmie = e5::pmgc0_pmie<>;
constexpr auto pmlca_fc = e5::pmlca_fc<PMLCa0>;
constexpr auto pmlca_fcs = e5::pmlca_fcs<PMLCa0>;
constexpr auto pmlca_ce = e5::pmlca_ce<PMLCa0>;
constexpr auto pmlca_event = e5::pmlca_event<PMLCa0>;
}  // namespace

#define HAND_MFPMR(n, v) asm volatile("mfpmr %0, " #n : "=r"(v) : : "memory")
#define HAND_MTPMR(n, v) asm volatile("mtpmr " #n ", %0\n\tisync" : : "r"(v) : "memory")

extern "C" {

// --- read_raw: PMC0 ---
u32 ours_read_raw() { return Bus::read_raw<e5::PMC0>(); }
u32 hand_read_raw() {
  u32 v;
  HAND_MFPMR(16, v);
  return v;
}

// --- read_raw_user: UPMC0 (user-mode read-only copy) ---
u32 ours_read_raw_user() { return Bus::read_raw<e5::UPMC0>(); }
u32 hand_read_raw_user() {
  u32 v;
  HAND_MFPMR(0, v);
  return v;
}

// --- read_snapshot: one read of PMGC0, FAC and PMIE decoded from the copy ---
u32 ours_read_snapshot() {
  const auto s = Bus::read<e5::PMGC0>();
  return s.get(pmgc0_fac) + s.get(pmgc0_pmie);
}
u32 hand_read_snapshot() {
  u32 v;
  HAND_MFPMR(400, v);
  return (v >> 31) + ((v >> 30) & 1u);
}

// --- read_field: PMLCa0.EVENT ---
u32 ours_read_field() { return Bus::read(pmlca_event); }
u32 hand_read_field() {
  u32 v;
  HAND_MFPMR(144, v);
  return (v >> 16) & 0x7Fu;
}

// --- write_const: PMLCa0 = event 1 (cycles) with CE, everything else at reset (0) ---
void ours_write_const() { Bus::write(pmlca_event.val<1>(), pmlca_ce(1)); }
void hand_write_const() {
  const u32 v = (1u << 16) | (1u << 26);
  HAND_MTPMR(144, v);
}

// --- write_runtime: PMLCa0 = run-time event (masked to 7 bits by the caller), frozen ---
void ours_write_runtime(u32 ev) { Bus::write(pmlca_event.runtime(ev & 0x7Fu), pmlca_fc(1)); }
void hand_write_runtime(u32 ev) {
  const u32 v = ((ev & 0x7Fu) << 16) | 0x80000000u;
  HAND_MTPMR(144, v);
}

// --- write_raw: PMC0 = v (e.g. a sampling preset 0x80000000 - N) ---
void ours_write_raw(u32 v) { Bus::write_raw<e5::PMC0>(v); }
void hand_write_raw(u32 v) { HAND_MTPMR(16, v); }

// --- modify: PMGC0: unfreeze (FAC = 0) and enable the interrupt (PMIE = 1), keep the rest ---
void ours_modify() { Bus::modify(pmgc0_fac(0), pmgc0_pmie(1)); }
void hand_modify() {
  u32 v;
  HAND_MFPMR(400, v);
  v = ((v & ~0xC0000000u) | 0x40000000u) & 0xE0001900u;
  HAND_MTPMR(400, v);
}

// --- modify_runtime: PMLCa0: new run-time event and FCS = 1, other bits kept ---
void ours_modify_runtime(u32 ev) { Bus::modify(pmlca_event.runtime(ev & 0x7Fu), pmlca_fcs(1)); }
void hand_modify_runtime(u32 ev) {
  u32 v;
  HAND_MFPMR(144, v);
  // EVENT inserted (rlwimi), then the writable bits kept (0xBC7F0000: FC, FCU, FCM1/0, CE and
  // EVENT; FCS is set), the reserved ones written as 0 (CRM 7.2.3, Table 7-4).
  v = (((v & ~0x007F0000u) | ((ev & 0x7Fu) << 16)) & 0xBC7F0000u) | 0x40000000u;
  HAND_MTPMR(144, v);
}

// (w1c: the e500 performance monitor has no write-1-to-clear register.)

// ---------------- the e500 driver (hal/e500/driver.hpp) ----------------

// --- driver_read_pmc2: Driver::read<2>() ---
std::uint64_t ours_driver_read_pmc2() { return Driver::read<2>(); }
std::uint64_t hand_driver_read_pmc2() {
  u32 v;
  HAND_MFPMR(18, v);
  return v;
}

// --- driver_freeze_all: PMGC0.FAC = 1, one read and one write with MSR[EE] cleared around them
// (the interrupt would clear PMIE between the two: e500 CRM Table 7-3) ---
void ours_driver_freeze_all() { Driver::freeze_all(); }
void hand_driver_freeze_all() {
  u32 msr, v;
  asm volatile("mfmsr %0\n\twrteei 0" : "=r"(msr) : : "memory");
  HAND_MFPMR(400, v);
  v = (v | 0x80000000u) & 0xE0001900u;
  HAND_MTPMR(400, v);
  asm volatile("wrtee %0" : : "r"(msr) : "memory");
}

// --- driver_read_pvr: the core check's PVR read (SPR 287), one mfspr ---
u32 ours_driver_read_pvr() { return Bus::read_raw<e5::PVR>(); }
u32 hand_driver_read_pvr() {
  u32 v;
  asm volatile("mfspr %0, 287" : "=r"(v) : : "memory");
  return v;
}

// --- driver_write_pmc1: Driver::write<1>(v), the kit's CounterDriver write of a 32-bit value:
// the narrowing check folds away when the value cannot be too wide. (The chained read is the
// profiler's own, prof::Profiler::read of a linked pair, not a driver operation.) ---
void ours_driver_write_pmc1(u32 v) { Driver::write<1>(v); }
void hand_driver_write_pmc1(u32 v) { HAND_MTPMR(17, v); }

// --- info_write_unchecked (not gated): run-time value of unknown range into the 7-bit EVENT ---
void ours_info_write_unchecked(u32 ev) { Bus::write(pmlca_event.runtime(ev)); }
void hand_info_write_unchecked(u32 ev) {
  const u32 v = (ev & 0x7Fu) << 16;
  HAND_MTPMR(144, v);
}

}  // extern "C"

// Fast-region windows (check.py, "Windows"): PMC0, PMC1.
// Counter reads: mfpmr.
PMU_ZC_COUNTER_READ(R"(^mfpmr )");
PMU_ZC_WINDOW(Driver, 0)
PMU_ZC_WINDOW_REGION(Driver)
PMU_ZC_WINDOW_REGION_N(Driver, 2)
PMU_ZC_WINDOW_REGION_N(Driver, 3)
PMU_ZC_WINDOW_RUN_REGION(Driver, 4)
PMU_ZC_WINDOW_CALL(Driver, 0)
PMU_ZC_WINDOW_CALIBRATE(Driver, 0)
PMU_ZC_WINDOW2(Driver, 0, 1)
PMU_ZC_PMU_IRQ(Driver, 0, 1)
