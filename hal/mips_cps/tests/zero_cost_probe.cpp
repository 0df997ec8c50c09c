// Zero-cost probe, MIPS CPS (MIPS32 release 2): the register engine and the MIPS CM driver on
// Cp0Bus (with sel, mtc0 + ehb) and on MmioBus (the CM GCR debug block at a base found at run time)
// against hand-written mfc0/mtc0 and volatile loads/stores. Same rules as hal/xscale/tests/zero_cost_probe.cpp: every
// register access the driver makes has a pair here.
//
// Descriptors: the real ones, hal/mips_cps/regs.hpp (MIPS CPS training: debug block at GCR +
// 0x6000; MIPS32 PRA: CMGCRBase $15 sel 3, Config3 $16 sel 3, EBase $15 sel 1). The CP0 engine cases
// use MIPS32 PerfCtl0/PerfCnt0 ($25 sel 0/1), declared here: no driver of this toolkit uses them.
// The hand-written side spells the encodings and masks out.
#include <cstdint>

#include "bench/zero_cost/window.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/core/reg.hpp"
#include "hal/mips_cps/driver.hpp"
#include "hal/mips_cps/regs.hpp"

#if !defined(__mips__) || !defined(__mips_isa_rev) || __mips_isa_rev < 2
#error "the mips_cps zero-cost probe is built for MIPS32r2 or later (-DPMU_MIPS_ARCH=mips32r2)"
#endif

namespace {
using pmu::Access;
using pmu::Cp0;
using pmu::Field;
using pmu::Reg;
using pmu::u32;
namespace cm = pmu::mips_cps;
using C0 = pmu::Regs<pmu::Cp0Bus>;
using GCR = pmu::Regs<pmu::MmioBus<cm::GcrBase>>;
using Driver = cm::Driver<cm::HwBus>;

// PerfCtl0: M (31) and W (30) are read-only; Event 11:5, IE, U, S, K, EXL.
using PERFCTL0 = Reg<"PerfCtl0", Cp0<25, 0>, u32, pmu::Layout<u32>{.write_mask = 0x3FFFFFFF}>;
constexpr Field<PERFCTL0, 31, 1, Access::RO, "M"> perfctl_m{};
constexpr Field<PERFCTL0, 5, 7, Access::RW, "Event"> perfctl_event{};
constexpr Field<PERFCTL0, 4, 1, Access::RW, "IE"> perfctl_ie{};
constexpr Field<PERFCTL0, 3, 1, Access::RW, "U"> perfctl_u{};
constexpr Field<PERFCTL0, 1, 1, Access::RW, "K"> perfctl_k{};
using PERFCNT0 = Reg<"PerfCnt0", Cp0<25, 1>, u32>;

// The GCR base is cm::GcrBase, whose tag has external linkage: nothing here can fold it to 0.
inline volatile u32& gcr(std::uintptr_t off) {
  return *reinterpret_cast<volatile u32*>(cm::GcrBase::value + off);
}
}  // namespace

#define HAND_MFC0(reg, sel, v) asm volatile("mfc0 %0, $" #reg ", " #sel : "=r"(v) : : "memory")
#define HAND_MTC0(reg, sel, v) \
  asm volatile("mtc0 %z0, $" #reg ", " #sel "\n\tehb" : : "dJ"(v) : "memory")

extern "C" {

// ======================= CP0 (with sel) =======================

// --- cp0_read_raw: CMGCRBase ($15, 3), the discovery's base read ---
u32 ours_cp0_read_raw() { return C0::read_raw<cm::CMGCRBase>(); }
u32 hand_cp0_read_raw() {
  u32 v;
  HAND_MFC0(15, 3, v);
  return v;
}

// --- cp0_read_field: Config3.CMGCR ---
u32 ours_cp0_read_field() { return C0::read(cm::config3_cmgcr); }
u32 hand_cp0_read_field() {
  u32 v;
  HAND_MFC0(16, 3, v);
  return (v >> 29) & 1u;
}

// --- cp0_read_config1_m: Config1.M, a link of the Config chain ---
u32 ours_cp0_read_config1_m() { return C0::read(cm::config1_m); }
u32 hand_cp0_read_config1_m() {
  u32 v;
  HAND_MFC0(16, 1, v);
  return v >> 31;
}

// --- cp0_read_cpunum: EBase.CPUNum ($15, 1), the owner id ---
u32 ours_cp0_read_cpunum() { return C0::read(cm::ebase_cpunum); }
u32 hand_cp0_read_cpunum() {
  u32 v;
  HAND_MFC0(15, 1, v);
  return v & 0x3FFu;
}

// --- cp0_read_snapshot: PerfCtl0, M and Event from one read ---
u32 ours_cp0_read_snapshot() {
  const auto s = C0::read<PERFCTL0>();
  return s.get(perfctl_m) + s.get(perfctl_event);
}
u32 hand_cp0_read_snapshot() {
  u32 v;
  HAND_MFC0(25, 0, v);
  return (v >> 31) + ((v >> 5) & 0x7Fu);
}

// --- cp0_write_const: PerfCtl0 = event 1, U, K ---
void ours_cp0_write_const() { C0::write(perfctl_event.val<1>(), perfctl_u(1), perfctl_k(1)); }
void hand_cp0_write_const() {
  const u32 v = (1u << 5) | (1u << 3) | (1u << 1);
  HAND_MTC0(25, 0, v);
}

// --- cp0_write_raw: PerfCnt0 ($25, 1) = v ---
void ours_cp0_write_raw(u32 v) { C0::write_raw<PERFCNT0>(v); }
void hand_cp0_write_raw(u32 v) { HAND_MTC0(25, 1, v); }

// --- cp0_modify: PerfCtl0.IE = 1, PerfCtl0.K = 0, rest kept (M, W write-as-zero) ---
void ours_cp0_modify() { C0::modify(perfctl_ie(1), perfctl_k(0)); }
void hand_cp0_modify() {
  u32 v;
  HAND_MFC0(25, 0, v);
  v = ((v & ~0x12u) | 0x10u) & 0x3FFFFFFFu;
  HAND_MTC0(25, 0, v);
}

// ======================= MMIO (GCR at a run-time base) =======================

// --- mmio_read_raw: PC_CYCLE ---
u32 ours_mmio_read_raw() { return GCR::read_raw<cm::PC_CYCLE>(); }
u32 hand_mmio_read_raw() { return gcr(0x6180); }

// --- mmio_read_field: PC_CTL.Perf_Num_Cnt (the probe's check) ---
u32 ours_mmio_read_field() { return GCR::read(cm::pc_ctl_num_cnt); }
u32 hand_mmio_read_field() { return gcr(0x6100) & 0xFu; }

// --- mmio_read_gcrbase: GCR_BASE.GCRBASE (the read-back check) ---
u32 ours_mmio_read_gcrbase() { return GCR::read(cm::gcr_base_gcrbase); }
u32 hand_mmio_read_gcrbase() { return gcr(0x0008) >> 15; }

// --- mmio_read_rev: GCR_REV ---
u32 ours_mmio_read_rev() { return GCR::read_raw<cm::GCR_REV>(); }
u32 hand_mmio_read_rev() { return gcr(0x0030); }

// --- mmio_read_snapshot: PC_CTL, Perf_Int_En and Perf_Num_Cnt from one read ---
u32 ours_mmio_read_snapshot() {
  const auto s = GCR::read<cm::PC_CTL>();
  return s.get(cm::pc_ctl_int_en) + s.get(cm::pc_ctl_num_cnt);
}
u32 hand_mmio_read_snapshot() {
  const u32 v = gcr(0x6100);
  return ((v >> 30) & 1u) + (v & 0xFu);
}

// --- mmio_write_const: reset and start all three counters with one PC_CTL write ---
void ours_mmio_write_const() {
  GCR::write(cm::pc_ctl_cycl_reset(1), cm::pc_ctl_cycl_counton(1), cm::pc_ctl_p0_reset(1),
             cm::pc_ctl_p0_counton(1), cm::pc_ctl_p1_reset(1), cm::pc_ctl_p1_counton(1));
}
void hand_mmio_write_const() { gcr(0x6100) = 0x3F0u; }

// --- mmio_write_runtime: PC_EVENT = two run-time event numbers ---
void ours_mmio_write_runtime(std::uint8_t ev0, std::uint8_t ev1) {
  GCR::write(cm::pc_event_p0.runtime(ev0), cm::pc_event_p1.runtime(ev1));
}
void hand_mmio_write_runtime(std::uint8_t ev0, std::uint8_t ev1) {
  gcr(0x6130) = static_cast<u32>(ev0) | (static_cast<u32>(ev1) << 8);
}

// --- mmio_write_raw: PC_QUAL0 = v (configure's raw qualifier) ---
void ours_mmio_write_raw(u32 v) { GCR::write_raw<cm::PC_QUAL0>(v); }
void hand_mmio_write_raw(u32 v) { gcr(0x6190) = v; }

// --- mmio_modify: PC_CTL.Perf_Int_En = 1, Perf_Ovf_Stop = 0, rest kept; Reset bits and the RO
// count written as 0 ---
void ours_mmio_modify() { GCR::modify(cm::pc_ctl_int_en(1), cm::pc_ctl_ovf_stop(0)); }
void hand_mmio_modify() {
  volatile u32& r = gcr(0x6100);
  r = ((r & ~0x600002A0u) | 0x40000000u) & 0x600003F0u;
}

// --- mmio_w1c_clear: PC_OV: clear the cycle counter's overflow flag only ---
void ours_mmio_w1c_clear() { GCR::write(cm::pc_ov_cycl(1)); }
void hand_mmio_w1c_clear() { gcr(0x6120) = 1u; }

// ---------------- the MIPS CM driver (hal/mips_cps/driver.hpp) ----------------

// --- driver_read: Driver::read<1>() (PC_CNT0), 64-bit result ---
std::uint64_t ours_driver_read() { return Driver::read<1>(); }
std::uint64_t hand_driver_read() { return gcr(0x6198); }

// --- driver_write: Driver::write<2>(v) of a 32-bit value (PC_CNT1) ---
void ours_driver_write(u32 v) { Driver::write<2>(v); }
void hand_driver_write(u32 v) { gcr(0x61A8) = v; }

// --- driver_start: Driver::start(slots) for run-time slots: CountOn bits 4, 6, 8 ---
void ours_driver_start(u32 slots) { Driver::start(slots); }
void hand_driver_start(u32 slots) {
  if (!(slots & 7u)) return;
  const u32 on = ((slots & 1u) << 4) | ((slots & 2u) << 5) | ((slots & 4u) << 6);
  volatile u32& r = gcr(0x6100);
  r = ((r & ~0x2A0u) | on) & 0x600003F0u;
}

// --- driver_stop_all: Driver::stop(7): every CountOn cleared, one read and one write ---
void ours_driver_stop_all() { Driver::stop(7); }
void hand_driver_stop_all() {
  volatile u32& r = gcr(0x6100);
  r = r & ~0x3F0u & 0x600003F0u;
}

// --- driver_reset_and_start_all: Driver::reset_and_start_all(): Reset and CountOn in one write ---
void ours_driver_reset_and_start_all() { Driver::reset_and_start_all(); }
void hand_driver_reset_and_start_all() {
  volatile u32& r = gcr(0x6100);
  r = (r | 0x3F0u) & 0x600003F0u;
}

// --- driver_reset_and_start: Driver::reset_and_start(slots) for run-time slots ---
void ours_driver_reset_and_start(u32 slots) { Driver::reset_and_start(slots); }
void hand_driver_reset_and_start(u32 slots) {
  if (!(slots & 7u)) return;
  const u32 on = ((slots & 1u) << 4) | ((slots & 2u) << 5) | ((slots & 4u) << 6);
  volatile u32& r = gcr(0x6100);
  r = ((r & ~0x2A0u) | on | (on << 1)) & 0x600003F0u;
}

// --- driver_overflow_status: PC_OV as a slot mask, one load ---
u32 ours_driver_overflow_status() { return Driver::overflow_status(); }
u32 hand_driver_overflow_status() { return gcr(0x6120) & 7u; }

// --- driver_clear_overflow: Driver::clear_overflow(mask): one W1C store, no load ---
void ours_driver_clear_overflow(u32 mask) { Driver::clear_overflow(mask); }
void hand_driver_clear_overflow(u32 mask) {
  if (mask & 7u) gcr(0x6120) = mask & 7u;
}

// --- info_write_unchecked (not gated): run-time value of unknown range into the 7-bit Event ---
void ours_info_write_unchecked(u32 ev) { C0::write(perfctl_event.runtime(ev)); }
void hand_info_write_unchecked(u32 ev) {
  const u32 v = (ev & 0x7Fu) << 5;
  HAND_MTC0(25, 0, v);
}

}  // extern "C"

// Fast-region windows (check.py, "Windows"): PC_CYCLE, PC_CNT0 (GCR loads at a run-time base).
// Counter reads: loads of the GCR debug block's PC_CYCLE (0x6180), PC_CNT0 (0x6198) and PC_CNT1
// (0x61A8), offsets as objdump prints them.
PMU_ZC_COUNTER_READ(R"(^lw (24960|24984|25000)\(R\)$)");
PMU_ZC_WINDOW(Driver, 0)
PMU_ZC_WINDOW_REGION(Driver)
PMU_ZC_WINDOW_REGION_N(Driver, 2)
PMU_ZC_WINDOW_REGION_N(Driver, 3)
PMU_ZC_WINDOW_RUN_REGION(Driver, 3)
PMU_ZC_WINDOW_CALL(Driver, 0)
PMU_ZC_WINDOW_CALIBRATE(Driver, 0)
PMU_ZC_WINDOW2(Driver, 0, 1)
PMU_ZC_PMU_IRQ(Driver, 0, 1)
