#pragma once
// PowerPC e500 core performance monitor: register map (descriptors only, no code).
//
// Source: PowerPC e500 Core Family Reference Manual, Rev. 1 (E500CORERM, "CRM" below), chapter 7
// "Performance Monitor", and seed 004. The manual numbers bits 32..63 with 63 the least
// significant; the offsets below are LSB-0 (offset = 63 - manual bit).
//
// Every register is reached with mfpmr/mtpmr and a 10-bit PMR number (CRM Table 7-2). The
// supervisor registers are PMGC0, PMLCa0-3, PMLCb0-3 and PMC0-3; each has a user-level read-only
// copy 16 PMR numbers below it (UPMGC0, UPMLCa0-3, UPMLCb0-3, UPMC0-3: "Supervisor/user read-only",
// CRM 7.2.2/7.2.4/7.2.6/7.2.8). The copies are Access::RO, so writing one is a compile error.
// PMR changes take effect in order only after isync: the PMR bus (hal/core/bus/pmr.hpp) owns that.
#include <cstdint>
#include <type_traits>

#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"

namespace pmu::e500 {

inline constexpr unsigned kCounters = 4;  // PMC0..PMC3 (CRM 7.2.7)

// PMR numbers, CRM Table 7-2 and the register figures 7-1, 7-3, 7-4 (PMGC0 400 / UPMGC0 384,
// PMLCb 272-275 / UPMLCb 256-259, PMC 16-19 / UPMC 0-3); PMLCa 144-147 / UPMLCa 128-131 as in
// pmu-facts.md, the same user = supervisor - 16 pattern.
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

template <unsigned N, class R0, class R1, class R2, class R3>
struct Nth {
  static_assert(N < kCounters, "the e500 has four counters: PMC0..PMC3");
  using type =
      std::conditional_t<N == 0, R0,
                         std::conditional_t<N == 1, R1, std::conditional_t<N == 2, R2, R3>>>;
};

// A field is read-only in a read-only register, read-write otherwise.
template <class R>
inline constexpr Access field_access = R::access == Access::RO ? Access::RO : Access::RW;
}  // namespace detail

// --- Global control (CRM 7.2.1, Figure 7-1, Table 7-3) ---------------------------------------
using PMGC0 = Reg<"PMGC0", Pmr<kPmrPmgc0>, u32, detail::supervisor(kPmgc0Writable)>;
using UPMGC0 = Reg<"UPMGC0", Pmr<kPmrUpmgc0>, u32, detail::user_copy()>;

// --- Local control A: freeze conditions, condition enable, event (CRM 7.2.3, Table 7-4) -------
using PMLCa0 = Reg<"PMLCa0", Pmr<kPmrPmlca0 + 0>, u32, detail::supervisor(kPmlcaWritable)>;
using PMLCa1 = Reg<"PMLCa1", Pmr<kPmrPmlca0 + 1>, u32, detail::supervisor(kPmlcaWritable)>;
using PMLCa2 = Reg<"PMLCa2", Pmr<kPmrPmlca0 + 2>, u32, detail::supervisor(kPmlcaWritable)>;
using PMLCa3 = Reg<"PMLCa3", Pmr<kPmrPmlca0 + 3>, u32, detail::supervisor(kPmlcaWritable)>;
using UPMLCa0 = Reg<"UPMLCa0", Pmr<kPmrUpmlca0 + 0>, u32, detail::user_copy()>;
using UPMLCa1 = Reg<"UPMLCa1", Pmr<kPmrUpmlca0 + 1>, u32, detail::user_copy()>;
using UPMLCa2 = Reg<"UPMLCa2", Pmr<kPmrUpmlca0 + 2>, u32, detail::user_copy()>;
using UPMLCa3 = Reg<"UPMLCa3", Pmr<kPmrUpmlca0 + 3>, u32, detail::user_copy()>;

// --- Local control B: threshold and its multiplier (CRM 7.2.5, Figure 7-3, Table 7-5) ---------
using PMLCb0 = Reg<"PMLCb0", Pmr<kPmrPmlcb0 + 0>, u32, detail::supervisor(kPmlcbWritable)>;
using PMLCb1 = Reg<"PMLCb1", Pmr<kPmrPmlcb0 + 1>, u32, detail::supervisor(kPmlcbWritable)>;
using PMLCb2 = Reg<"PMLCb2", Pmr<kPmrPmlcb0 + 2>, u32, detail::supervisor(kPmlcbWritable)>;
using PMLCb3 = Reg<"PMLCb3", Pmr<kPmrPmlcb0 + 3>, u32, detail::supervisor(kPmlcbWritable)>;
using UPMLCb0 = Reg<"UPMLCb0", Pmr<kPmrUpmlcb0 + 0>, u32, detail::user_copy()>;
using UPMLCb1 = Reg<"UPMLCb1", Pmr<kPmrUpmlcb0 + 1>, u32, detail::user_copy()>;
using UPMLCb2 = Reg<"UPMLCb2", Pmr<kPmrUpmlcb0 + 2>, u32, detail::user_copy()>;
using UPMLCb3 = Reg<"UPMLCb3", Pmr<kPmrUpmlcb0 + 3>, u32, detail::user_copy()>;

// --- Counters: 32 bits, overflow state = bit 31 (CRM 7.2.7, Figure 7-4, Table 7-6) -------------
using PMC0 = Reg<"PMC0", Pmr<kPmrPmc0 + 0>, u32, detail::supervisor(0xFFFFFFFFu)>;
using PMC1 = Reg<"PMC1", Pmr<kPmrPmc0 + 1>, u32, detail::supervisor(0xFFFFFFFFu)>;
using PMC2 = Reg<"PMC2", Pmr<kPmrPmc0 + 2>, u32, detail::supervisor(0xFFFFFFFFu)>;
using PMC3 = Reg<"PMC3", Pmr<kPmrPmc0 + 3>, u32, detail::supervisor(0xFFFFFFFFu)>;
using UPMC0 = Reg<"UPMC0", Pmr<kPmrUpmc0 + 0>, u32, detail::user_copy()>;
using UPMC1 = Reg<"UPMC1", Pmr<kPmrUpmc0 + 1>, u32, detail::user_copy()>;
using UPMC2 = Reg<"UPMC2", Pmr<kPmrUpmc0 + 2>, u32, detail::user_copy()>;
using UPMC3 = Reg<"UPMC3", Pmr<kPmrUpmc0 + 3>, u32, detail::user_copy()>;

// Indexed by counter number: PMLCa<2> is PMLCa2, UPMC<0> is UPMC0, ...
template <unsigned N>
using PMLCa = typename detail::Nth<N, PMLCa0, PMLCa1, PMLCa2, PMLCa3>::type;
template <unsigned N>
using UPMLCa = typename detail::Nth<N, UPMLCa0, UPMLCa1, UPMLCa2, UPMLCa3>::type;
template <unsigned N>
using PMLCb = typename detail::Nth<N, PMLCb0, PMLCb1, PMLCb2, PMLCb3>::type;
template <unsigned N>
using UPMLCb = typename detail::Nth<N, UPMLCb0, UPMLCb1, UPMLCb2, UPMLCb3>::type;
template <unsigned N>
using PMC = typename detail::Nth<N, PMC0, PMC1, PMC2, PMC3>::type;
template <unsigned N>
using UPMC = typename detail::Nth<N, UPMC0, UPMC1, UPMC2, UPMC3>::type;

// --- PMGC0 / UPMGC0 fields (Table 7-3); R is PMGC0 or UPMGC0 --------------------------------
// Freeze all counters. Set by software, or by hardware on an enabled condition when FCECE=1.
template <class R = PMGC0>
inline constexpr Field<R, 31, 1, detail::field_access<R>, "FAC"> pmgc0_fac{};
// Performance monitor interrupt enable. Cleared by hardware when the interrupt occurs (Table 7-3).
template <class R = PMGC0>
inline constexpr Field<R, 30, 1, detail::field_access<R>, "PMIE"> pmgc0_pmie{};
// Freeze counters on enabled condition or event: an enabled condition sets FAC.
template <class R = PMGC0>
inline constexpr Field<R, 29, 1, detail::field_access<R>, "FCECE"> pmgc0_fcece{};
// Time base selector (e500v2 only): 00 TBL[31], 01 TBL[23], 10 TBL[19], 11 TBL[15].
template <class R = PMGC0>
inline constexpr Field<R, 11, 2, detail::field_access<R>, "TBSEL"> pmgc0_tbsel{};
// Time base transition event exception enable (e500v2 only).
template <class R = PMGC0>
inline constexpr Field<R, 8, 1, detail::field_access<R>, "TBEE"> pmgc0_tbee{};

// --- PMLCa / UPMLCa fields (Table 7-4); R is PMLCa<n> or UPMLCa<n> ------------------------------
// Freeze counter.
template <class R>
inline constexpr Field<R, 31, 1, detail::field_access<R>, "FC"> pmlca_fc{};
// Freeze counter in supervisor state (MSR[PR]=0).
template <class R>
inline constexpr Field<R, 30, 1, detail::field_access<R>, "FCS"> pmlca_fcs{};
// Freeze counter in user state (MSR[PR]=1).
template <class R>
inline constexpr Field<R, 29, 1, detail::field_access<R>, "FCU"> pmlca_fcu{};
// Freeze counter while the mark is set (MSR[PMM]=1).
template <class R>
inline constexpr Field<R, 28, 1, detail::field_access<R>, "FCM1"> pmlca_fcm1{};
// Freeze counter while the mark is cleared (MSR[PMM]=0).
template <class R>
inline constexpr Field<R, 27, 1, detail::field_access<R>, "FCM0"> pmlca_fcm0{};
// Condition enable: an overflow condition exists while PMCn[OV] (bit 31) is set. The manual
// recommends CE=0 on a counter selected for chaining (Table 7-4).
template <class R>
inline constexpr Field<R, 26, 1, detail::field_access<R>, "CE"> pmlca_ce{};
// Event selector, manual bits 41-47 (7 bits: the e500 has up to 128 events; bits 38-40 reserved).
// pmu-facts.md quotes Linux's 0x01ff0000 (9 bits): that is the e500mc layout, not the e500's.
template <class R>
inline constexpr Field<R, 16, 7, detail::field_access<R>, "EVENT"> pmlca_event{};

// The four freeze-condition bits as one mask (the driver's EventConfig::options, Table 7-8).
inline constexpr u32 kPmlcaFreezeConditions = 0x78000000u;  // FCS | FCU | FCM1 | FCM0

// --- PMLCb / UPMLCb fields (Table 7-5) -------------------------------------------------------
// Threshold multiple: the threshold is THRESHOLD x 2^THRESHMUL (000: x1 ... 111: x128).
template <class R>
inline constexpr Field<R, 8, 3, detail::field_access<R>, "THRESHMUL"> pmlcb_threshmul{};
// Threshold: only threshold events whose value exceeds THRESHOLD x multiple are counted.
template <class R>
inline constexpr Field<R, 0, 6, detail::field_access<R>, "THRESHOLD"> pmlcb_threshold{};

// --- PMC / UPMC fields (Table 7-6) -----------------------------------------------------------
// Overflow: the counter has reached its overflow state (bit 31 set, i.e. >= 0x8000_0000).
template <class R>
inline constexpr Field<R, 31, 1, detail::field_access<R>, "OV"> pmc_ov{};
// Counter value below the overflow bit.
template <class R>
inline constexpr Field<R, 0, 31, detail::field_access<R>, "COUNT"> pmc_count{};

inline constexpr u32 kPmcOverflow = 0x80000000u;  // OV: overflow state / condition bit

// Chaining and threshold constants shared by events.hpp, the driver and the model.
// Events 82..85: PMC0..PMC3 rolled over to zero (events.hpp, CRM 7.6.1).
inline constexpr u32 kEventPmcOverflowBase = 82;
// Thresholds exist only on PMC0 and PMC1 (CRM 7.2.5).
inline constexpr unsigned kThresholdCounters = 0x3;

// Decoded threshold: THRESHOLD x 2^THRESHMUL (CRM Table 7-5).
constexpr u32 threshold_value(u32 pmlcb) { return (pmlcb & 0x3Fu) << ((pmlcb >> 8) & 0x7u); }

}  // namespace pmu::e500
