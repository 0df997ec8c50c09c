#pragma once
// PowerPC e500 core performance monitor: register map (descriptors only, no code).
//
// Source: PowerPC e500 Core Family Reference Manual, Rev. 1 (E500CORERM, "CRM" below), chapter 7
// "Performance Monitor". The manual numbers bits 32..63 with 63 the least
// significant; fields are declared with those numbers (FieldMsb0), so each reads as in the manual.
//
// Every register is reached with mfpmr/mtpmr and a 10-bit PMR number (CRM Table 7-2). The
// supervisor registers are PMGC0, PMLCa0-3, PMLCb0-3 and PMC0-3; each has a user-level read-only
// copy 16 PMR numbers below it (UPMGC0, UPMLCa0-3, UPMLCb0-3, UPMC0-3: "Supervisor/user read-only",
// CRM 7.2.2/7.2.4/7.2.6/7.2.8). The copies are Access::RO, so writing one is a compile error.
// PMR changes take effect in order only after isync: the PMR bus (hal/core/bus/pmr.hpp) owns that.
#include <cstdint>

#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"

namespace pmu::e500 {

inline constexpr unsigned kCounters = 4;  // PMC0..PMC3 (CRM 7.2.7)

// PMR numbers, CRM Table 7-2 and the register figures 7-1, 7-3, 7-4 (PMGC0 400 / UPMGC0 384,
// PMLCb 272-275 / UPMLCb 256-259, PMC 16-19 / UPMC 0-3); PMLCa 144-147 / UPMLCa 128-131 follow
// the same user = supervisor - 16 pattern.
inline constexpr unsigned kPmrUpmc0 = 0;      // UPMC0-3:    0..3
inline constexpr unsigned kPmrPmc0 = 16;      // PMC0-3:    16..19
inline constexpr unsigned kPmrUpmlca0 = 128;  // UPMLCa0-3: 128..131
inline constexpr unsigned kPmrPmlca0 = 144;   // PMLCa0-3:  144..147
inline constexpr unsigned kPmrUpmlcb0 = 256;  // UPMLCb0-3: 256..259
inline constexpr unsigned kPmrPmlcb0 = 272;   // PMLCb0-3:  272..275
inline constexpr unsigned kPmrUpmgc0 = 384;   // UPMGC0
inline constexpr unsigned kPmrPmgc0 = 400;    // PMGC0

// Writable (non-reserved) bits of each register kind; reserved bits "should be cleared" and are
// written as zero by the register engine.
inline constexpr u32 kPmgc0Writable = 0xE0001900u;  // FAC PMIE FCECE TBSEL TBEE (Table 7-3)
inline constexpr u32 kPmlcaWritable = 0xFC7F0000u;  // FC FCS FCU FCM1 FCM0 CE EVENT (Table 7-4)
inline constexpr u32 kPmlcbWritable = 0x0000073Fu;  // THRESHMUL THRESHOLD (Table 7-5)

namespace detail {
// Supervisor registers: read-write, all zeros after hard reset (CRM 7.2.1, 7.2.3, 7.2.5, 7.2.7).
inline constexpr Layout<u32> supervisor(u32 writable) { return {Access::RW, 0, writable, 0}; }
// User copies: read-only mirrors (no writable bits).
inline constexpr Layout<u32> user_copy() { return {Access::RO, 0, 0, 0}; }

// A field is read-only in a read-only register, read-write otherwise.
template <class R>
inline constexpr Access field_access = R::access == Access::RO ? Access::RO : Access::RW;

template <unsigned N> using PmcAt = Pmr<kPmrPmc0 + N>;
template <unsigned N> using UpmcAt = Pmr<kPmrUpmc0 + N>;
template <unsigned N> using PmlcaAt = Pmr<kPmrPmlca0 + N>;
template <unsigned N> using UpmlcaAt = Pmr<kPmrUpmlca0 + N>;
template <unsigned N> using PmlcbAt = Pmr<kPmrPmlcb0 + N>;
template <unsigned N> using UpmlcbAt = Pmr<kPmrUpmlcb0 + N>;
}  // namespace detail

// --- Global control (CRM 7.2.1, Figure 7-1, Table 7-3) ---------------------------------------
using PMGC0 = Reg<"PMGC0", Pmr<kPmrPmgc0>, u32, detail::supervisor(kPmgc0Writable)>;
using UPMGC0 = Reg<"UPMGC0", Pmr<kPmrUpmgc0>, u32, detail::user_copy()>;

// Indexed families, one member per counter: PMLCa<2> is PMLCa2, UPMC<0> is UPMC0, ... An index
// past 3 is a compile error naming the family.
// Local control A: freeze conditions, condition enable, event (CRM 7.2.3, Table 7-4).
using PMLCaFamily = Family<"PMLCa", kCounters, detail::PmlcaAt, u32, detail::supervisor(kPmlcaWritable)>;
using UPMLCaFamily = Family<"UPMLCa", kCounters, detail::UpmlcaAt, u32, detail::user_copy()>;
// Local control B: threshold and its multiplier (CRM 7.2.5, Figure 7-3, Table 7-5).
using PMLCbFamily = Family<"PMLCb", kCounters, detail::PmlcbAt, u32, detail::supervisor(kPmlcbWritable)>;
using UPMLCbFamily = Family<"UPMLCb", kCounters, detail::UpmlcbAt, u32, detail::user_copy()>;
// Counters: 32 bits, overflow state = bit 31 (CRM 7.2.7, Figure 7-4, Table 7-6).
using PMCFamily = Family<"PMC", kCounters, detail::PmcAt, u32, detail::supervisor(0xFFFFFFFFu)>;
using UPMCFamily = Family<"UPMC", kCounters, detail::UpmcAt, u32, detail::user_copy()>;

template <unsigned N> using PMLCa = PMLCaFamily::reg<N>;
template <unsigned N> using UPMLCa = UPMLCaFamily::reg<N>;
template <unsigned N> using PMLCb = PMLCbFamily::reg<N>;
template <unsigned N> using UPMLCb = UPMLCbFamily::reg<N>;
template <unsigned N> using PMC = PMCFamily::reg<N>;
template <unsigned N> using UPMC = UPMCFamily::reg<N>;

using PMLCa0 = PMLCa<0>;
using PMLCa1 = PMLCa<1>;
using PMLCa2 = PMLCa<2>;
using PMLCa3 = PMLCa<3>;
using UPMLCa0 = UPMLCa<0>;
using UPMLCa1 = UPMLCa<1>;
using UPMLCa2 = UPMLCa<2>;
using UPMLCa3 = UPMLCa<3>;
using PMLCb0 = PMLCb<0>;
using PMLCb1 = PMLCb<1>;
using PMLCb2 = PMLCb<2>;
using PMLCb3 = PMLCb<3>;
using UPMLCb0 = UPMLCb<0>;
using UPMLCb1 = UPMLCb<1>;
using UPMLCb2 = UPMLCb<2>;
using UPMLCb3 = UPMLCb<3>;
using PMC0 = PMC<0>;
using PMC1 = PMC<1>;
using PMC2 = PMC<2>;
using PMC3 = PMC<3>;
using UPMC0 = UPMC<0>;
using UPMC1 = UPMC<1>;
using UPMC2 = UPMC<2>;
using UPMC3 = UPMC<3>;

// --- PMGC0 / UPMGC0 fields (Table 7-3); R is PMGC0 or UPMGC0 --------------------------------
// Freeze all counters. Set by software, or by hardware on an enabled condition when FCECE=1.
template <class R = PMGC0>
inline constexpr FieldMsb0<R, 32, 32, detail::field_access<R>, "FAC"> pmgc0_fac{};
// Performance monitor interrupt enable. Cleared by hardware when the interrupt occurs (Table 7-3).
template <class R = PMGC0>
inline constexpr FieldMsb0<R, 33, 33, detail::field_access<R>, "PMIE"> pmgc0_pmie{};
// Freeze counters on enabled condition or event: an enabled condition sets FAC.
template <class R = PMGC0>
inline constexpr FieldMsb0<R, 34, 34, detail::field_access<R>, "FCECE"> pmgc0_fcece{};
// Time base selector (e500v2 only): 00 TB[63] (TBL[31]), 01 TB[55] (TBL[23]), 10 TB[51] (TBL[19]),
// 11 TB[47] (TBL[15]); a time base transition event is that bit changing from 0 to 1 (CRM 7.2.1,
// Table 7-3; 2.15.1, Table 2-38). Event 90 counts them (CRM 9.3.2).
template <class R = PMGC0>
inline constexpr FieldMsb0<R, 51, 52, detail::field_access<R>, "TBSEL"> pmgc0_tbsel{};
// Time base transition event exception enable (e500v2 only, Table 7-3): the transitions are
// signalled to the performance monitor, which then counts them as event 90 (CRM 9.3.2) and takes
// each as an enabled event (an interrupt under PMIE, a freeze under FCECE).
template <class R = PMGC0>
inline constexpr FieldMsb0<R, 55, 55, detail::field_access<R>, "TBEE"> pmgc0_tbee{};
// The TB bit a TBSEL value selects, numbered from the TB's least significant bit (TB[63] is 0).
constexpr unsigned timebase_bit(u32 tbsel) {
  constexpr unsigned kMsb0[4] = {63, 55, 51, 47};
  return 63 - kMsb0[tbsel & 3u];
}

// --- PMLCa / UPMLCa fields (Table 7-4); R is PMLCa<n> or UPMLCa<n> ------------------------------
// Freeze counter.
template <class R>
inline constexpr FieldMsb0<R, 32, 32, detail::field_access<R>, "FC"> pmlca_fc{};
// Freeze counter in supervisor state (MSR[PR]=0).
template <class R>
inline constexpr FieldMsb0<R, 33, 33, detail::field_access<R>, "FCS"> pmlca_fcs{};
// Freeze counter in user state (MSR[PR]=1).
template <class R>
inline constexpr FieldMsb0<R, 34, 34, detail::field_access<R>, "FCU"> pmlca_fcu{};
// Freeze counter while the mark is set (MSR[PMM]=1).
template <class R>
inline constexpr FieldMsb0<R, 35, 35, detail::field_access<R>, "FCM1"> pmlca_fcm1{};
// Freeze counter while the mark is cleared (MSR[PMM]=0).
template <class R>
inline constexpr FieldMsb0<R, 36, 36, detail::field_access<R>, "FCM0"> pmlca_fcm0{};
// Condition enable: an overflow condition exists while PMCn[OV] (bit 31) is set. The manual
// recommends CE=0 on a counter selected for chaining (Table 7-4).
template <class R>
inline constexpr FieldMsb0<R, 37, 37, detail::field_access<R>, "CE"> pmlca_ce{};
// Event selector, manual bits 41-47 (7 bits: the e500 has up to 128 events; bits 38-40 reserved).
// Linux's e500 code uses 0x01ff0000 (9 bits): that is the e500mc layout, not the e500's.
template <class R>
inline constexpr FieldMsb0<R, 41, 47, detail::field_access<R>, "EVENT"> pmlca_event{};

// The four freeze-condition bits as one mask (the driver's EventConfig::options, Table 7-8).
inline constexpr u32 kPmlcaFreezeConditions = 0x78000000u;  // FCS | FCU | FCM1 | FCM0

// --- PMLCb / UPMLCb fields (Table 7-5) -------------------------------------------------------
// Threshold multiple: the threshold is THRESHOLD x 2^THRESHMUL (000: x1 ... 111: x128).
template <class R>
inline constexpr FieldMsb0<R, 53, 55, detail::field_access<R>, "THRESHMUL"> pmlcb_threshmul{};
// Threshold: only threshold events whose value exceeds THRESHOLD x multiple are counted.
template <class R>
inline constexpr FieldMsb0<R, 58, 63, detail::field_access<R>, "THRESHOLD"> pmlcb_threshold{};

// --- PMC / UPMC fields (Table 7-6) -----------------------------------------------------------
// Overflow: the counter has reached its overflow state (bit 31 set, i.e. >= 0x8000_0000).
template <class R>
inline constexpr FieldMsb0<R, 32, 32, detail::field_access<R>, "OV"> pmc_ov{};
// Counter value below the overflow bit.
template <class R>
inline constexpr FieldMsb0<R, 33, 63, detail::field_access<R>, "COUNT"> pmc_count{};

inline constexpr u32 kPmcOverflow = 0x80000000u;  // OV: overflow state / condition bit

// --- Processor version (PVR, SPR 287 in every Book E core; version in bits 32-47) ------------
// Which core this is decides what the PMU may be given: e500v1 has no PMGC0[TBSEL]/[TBEE]
// (reserved: written as zero) and no event 90; e500mc and later cores (e500mc, e5500, e6500)
// have a wider PMLCa[EVENT], other event numbers and, on e6500, six counters: a different PMU.
// CRM Figure 7-1, Table 7-3 and 2.15.2 mark TBSEL/TBEE "e500v2 only". The version numbers come
// from public sources only (Linux arch/powerpc/include/asm/reg.h PVR_VER_*, cputable; FreeBSD
// hwpmc_e500.c): 0x8020 e500v1, 0x8021 e500v2, 0x8023 e500mc, 0x8024 e5500, 0x8040 e6500.
using PVR = Reg<"PVR", Spr<287>, u32, Layout<u32>{Access::RO, 0, 0, 0}>;
inline constexpr FieldMsb0<PVR, 32, 47, Access::RO, "VERSION"> pvr_version{};
inline constexpr FieldMsb0<PVR, 48, 63, Access::RO, "REVISION"> pvr_revision{};

enum class Core : std::uint8_t {
  unknown,          // not read yet, or not a core this file knows
  e500v1,           // PVR version 0x8020
  e500v2,           // 0x8021: adds TBSEL/TBEE and event 90
  e500mc_or_later,  // 0x8023 e500mc, 0x8024 e5500, 0x8040 e6500: another PMU design
};
constexpr Core core_of_pvr(u32 pvr) {
  switch (pvr >> 16) {
    case 0x8020: return Core::e500v1;
    case 0x8021: return Core::e500v2;
    case 0x8023:
    case 0x8024:
    case 0x8040: return Core::e500mc_or_later;
    default: return Core::unknown;
  }
}
constexpr const char* core_name(Core c) {
  switch (c) {
    case Core::e500v1: return "e500v1";
    case Core::e500v2: return "e500v2";
    case Core::e500mc_or_later: return "e500mc or later";
    case Core::unknown: break;
  }
  return "unknown";
}

// Chaining and threshold constants shared by events.hpp, the driver and the model.
// Events 82..85: PMC0..PMC3 overflow, the msb going from 1 to 0 (Table 7-10; CRM 7.6.1: the
// chained counter counts the first one's rollovers to zero).
inline constexpr u32 kEventPmcOverflowBase = 82;
// Event 90: 0-to-1 transitions of the time-base bit PMGC0[TBSEL] selects (Table 7-3), counted
// while PMGC0[TBEE] is set; e500v2 only (CRM 9.3.2, "Performance Monitor Time Base Event").
inline constexpr u32 kEventTimeBaseTransition = 90;
// Thresholds exist only on PMC0 and PMC1 (CRM 7.2.5).
inline constexpr unsigned kThresholdCounters = 0x3;

// Decoded threshold: THRESHOLD x 2^THRESHMUL (CRM Table 7-5).
constexpr u32 threshold_value(u32 pmlcb) { return (pmlcb & 0x3Fu) << ((pmlcb >> 8) & 0x7u); }

}  // namespace pmu::e500
