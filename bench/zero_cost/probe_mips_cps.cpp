// Zero-cost probe, MIPS CPS (MIPS32 release 2): the register engine on Cp0Bus (with sel, mtc0 +
// ehb) and on MmioBus (the CM GCR debug block at a base found at run time) against hand-written
// mfc0/mtc0 and volatile loads/stores. Same rules as probe_xscale.cpp.
//
// GCR offsets and bits: MIPS CPS / Coherence Manager GCR description: debug block at GCR + 0x6000.
// CP0 registers: MIPS32 PRA Vol. III: CMGCRBase $15 sel 3, Config3 $16 sel 3 (CMGCR bit 29),
// PerfCtl0 $25 sel 0, PerfCnt0 $25 sel 1.
#include <cstdint>

#include "hal/core/bus/cp0.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/core/reg.hpp"

#if !defined(__mips__) || !defined(__mips_isa_rev) || __mips_isa_rev < 2
#error "probe_mips_cps.cpp is built for MIPS32r2 or later (-DPMU_MIPS_ARCH=mips32r2)"
#endif

// Tag of the GCR base. External linkage on purpose: with a tag in the anonymous namespace below,
// nothing outside this file could set the base and GCC would fold it to 0 on both sides.
struct ZeroCostGcrTag;

namespace {
using pmu::Access;
using pmu::Cp0;
using pmu::Field;
using pmu::Mmio;
using pmu::Reg;
using pmu::u32;
using C0 = pmu::Regs<pmu::Cp0Bus>;

// --- CP0 ---
using CMGCRBASE = Reg<"CMGCRBase", Cp0<15, 3>, u32, pmu::Layout<u32>{.access = Access::RO}>;
using CONFIG3 = Reg<"Config3", Cp0<16, 3>, u32, pmu::Layout<u32>{.access = Access::RO}>;
constexpr Field<CONFIG3, 29, 1, Access::RO, "CMGCR"> config3_cmgcr{};
// PerfCtl0: M (31) and W (30) are read-only; Event 11:5, IE, U, S, K, EXL.
using PERFCTL0 = Reg<"PerfCtl0", Cp0<25, 0>, u32, pmu::Layout<u32>{.write_mask = 0x3FFFFFFF}>;
constexpr Field<PERFCTL0, 31, 1, Access::RO, "M"> perfctl_m{};
constexpr Field<PERFCTL0, 5, 7, Access::RW, "Event"> perfctl_event{};
constexpr Field<PERFCTL0, 4, 1, Access::RW, "IE"> perfctl_ie{};
constexpr Field<PERFCTL0, 3, 1, Access::RW, "U"> perfctl_u{};
constexpr Field<PERFCTL0, 1, 1, Access::RW, "K"> perfctl_k{};
using PERFCNT0 = Reg<"PerfCnt0", Cp0<25, 1>, u32>;

// --- CM GCR global debug block (MMIO, base + 0x6000) ---
using GcrBase = pmu::RuntimeBase<ZeroCostGcrTag>;
using GCR = pmu::Regs<pmu::MmioBus<GcrBase>>;
// PC_CTL: Perf_Num_Cnt (3:0) is read-only; bits outside the named fields are write-as-zero.
using PC_CTL = Reg<"PC_CTL", Mmio<0x6100>, u32, pmu::Layout<u32>{.write_mask = 0x600003F0}>;
constexpr Field<PC_CTL, 30, 1, Access::RW, "Perf_Int_En"> pc_ctl_int_en{};
constexpr Field<PC_CTL, 29, 1, Access::RW, "Perf_Ovf_Stop"> pc_ctl_ovf_stop{};
constexpr Field<PC_CTL, 9, 1, Access::RW, "P1_Reset"> pc_ctl_p1_reset{};
constexpr Field<PC_CTL, 8, 1, Access::RW, "P1_CountOn"> pc_ctl_p1_counton{};
constexpr Field<PC_CTL, 7, 1, Access::RW, "P0_Reset"> pc_ctl_p0_reset{};
constexpr Field<PC_CTL, 6, 1, Access::RW, "P0_CountOn"> pc_ctl_p0_counton{};
constexpr Field<PC_CTL, 5, 1, Access::RW, "Cycl_Cnt_Reset"> pc_ctl_cyc_reset{};
constexpr Field<PC_CTL, 4, 1, Access::RW, "Cycl_Cnt_CountOn"> pc_ctl_cyc_counton{};
constexpr Field<PC_CTL, 0, 4, Access::RO, "Perf_Num_Cnt"> pc_ctl_num_cnt{};
// PC_OV: overflow flags, write 1 to clear.
using PC_OV = Reg<"PC_OV", Mmio<0x6120>, u32, pmu::Layout<u32>{.write_mask = 0x7, .w1c = 0x7}>;
constexpr Field<PC_OV, 0, 1, Access::W1C, "Cycl_Cnt_Ovf"> pc_ov_cycle{};
// PC_EVENT: P1 event 15:8, P0 event 7:0.
using PC_EVENT = Reg<"PC_EVENT", Mmio<0x6130>, u32, pmu::Layout<u32>{.write_mask = 0xFFFF}>;
constexpr Field<PC_EVENT, 0, 8, Access::RW, "P0_Event"> pc_event_p0{};
constexpr Field<PC_EVENT, 8, 8, Access::RW, "P1_Event"> pc_event_p1{};
using PC_CYCLE = Reg<"PC_CYCLE", Mmio<0x6180>, u32>;
using PC_CNT0 = Reg<"PC_CNT0", Mmio<0x6198>, u32>;

inline volatile u32& gcr(std::uintptr_t off) {
  return *reinterpret_cast<volatile u32*>(GcrBase::value + off);
}
}  // namespace

#define HAND_MFC0(reg, sel, v) asm volatile("mfc0 %0, $" #reg ", " #sel : "=r"(v) : : "memory")
#define HAND_MTC0(reg, sel, v) \
  asm volatile("mtc0 %z0, $" #reg ", " #sel "\n\tehb" : : "dJ"(v) : "memory")

extern "C" {

// ======================= CP0 (with sel) =======================

// --- cp0_read_raw: CMGCRBase ($15, 3) ---
u32 ours_cp0_read_raw() { return C0::read_raw<CMGCRBASE>(); }
u32 hand_cp0_read_raw() {
  u32 v;
  HAND_MFC0(15, 3, v);
  return v;
}

// --- cp0_read_field: Config3.CMGCR ---
u32 ours_cp0_read_field() { return C0::read(config3_cmgcr); }
u32 hand_cp0_read_field() {
  u32 v;
  HAND_MFC0(16, 3, v);
  return (v >> 29) & 1u;
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
u32 ours_mmio_read_raw() { return GCR::read_raw<PC_CYCLE>(); }
u32 hand_mmio_read_raw() { return gcr(0x6180); }

// --- mmio_read_field: PC_CTL.Perf_Num_Cnt ---
u32 ours_mmio_read_field() { return GCR::read(pc_ctl_num_cnt); }
u32 hand_mmio_read_field() { return gcr(0x6100) & 0xFu; }

// --- mmio_read_snapshot: PC_CTL, Perf_Int_En and Perf_Num_Cnt from one read ---
u32 ours_mmio_read_snapshot() {
  const auto s = GCR::read<PC_CTL>();
  return s.get(pc_ctl_int_en) + s.get(pc_ctl_num_cnt);
}
u32 hand_mmio_read_snapshot() {
  const u32 v = gcr(0x6100);
  return ((v >> 30) & 1u) + (v & 0xFu);
}

// --- mmio_write_const: reset and start all three counters with one PC_CTL write ---
void ours_mmio_write_const() {
  GCR::write(pc_ctl_cyc_reset(1), pc_ctl_cyc_counton(1), pc_ctl_p0_reset(1),
             pc_ctl_p0_counton(1), pc_ctl_p1_reset(1), pc_ctl_p1_counton(1));
}
void hand_mmio_write_const() { gcr(0x6100) = 0x3F0u; }

// --- mmio_write_runtime: PC_EVENT = two run-time event numbers ---
void ours_mmio_write_runtime(std::uint8_t ev0, std::uint8_t ev1) {
  GCR::write(pc_event_p0.runtime(ev0), pc_event_p1.runtime(ev1));
}
void hand_mmio_write_runtime(std::uint8_t ev0, std::uint8_t ev1) {
  gcr(0x6130) = static_cast<u32>(ev0) | (static_cast<u32>(ev1) << 8);
}

// --- mmio_write_raw: PC_CNT0 = v ---
void ours_mmio_write_raw(u32 v) { GCR::write_raw<PC_CNT0>(v); }
void hand_mmio_write_raw(u32 v) { gcr(0x6198) = v; }

// --- mmio_modify: PC_CTL.Perf_Int_En = 1, Perf_Ovf_Stop = 0, rest kept, RO bits written as 0 ---
void ours_mmio_modify() { GCR::modify(pc_ctl_int_en(1), pc_ctl_ovf_stop(0)); }
void hand_mmio_modify() {
  volatile u32& r = gcr(0x6100);
  r = ((r & ~0x60000000u) | 0x40000000u) & 0x600003F0u;
}

// --- mmio_w1c_clear: PC_OV: clear the cycle counter's overflow flag only ---
void ours_mmio_w1c_clear() { GCR::write(pc_ov_cycle(1)); }
void hand_mmio_w1c_clear() { gcr(0x6120) = 1u; }

// --- info_write_unchecked (not gated): run-time value of unknown range into the 7-bit Event ---
void ours_info_write_unchecked(u32 ev) { C0::write(perfctl_event.runtime(ev)); }
void hand_info_write_unchecked(u32 ev) {
  const u32 v = (ev & 0x7Fu) << 5;
  HAND_MTC0(25, 0, v);
}

}  // extern "C"
