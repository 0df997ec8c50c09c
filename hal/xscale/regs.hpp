#pragma once
// Intel XScale core performance monitor: register descriptors for both variants, and variant
// detection from the CP15 ID register.
//
// Source: Intel XScale Core Developer's Manual, January 2004 (order 273473-002), chapter 8
// "Performance Monitoring": §8.2 describes XSC1, the 2-counter
// variant (80200, IXP2400); §8.3 describes XSC2, the 4-counter variant (PXA27x, IXP4xx).
// All registers are CP14, opcode_1 = opcode_2 = 0, reached only in privileged ARM state.
//
// Names are the manual's: registers PMNC, CCNT, INTEN, FLAG, EVTSEL, PMNx; fields E, P, C, D, ID,
// evtCountN. Descriptors only; the driver is driver.hpp, the event table events.hpp.
#include <cstdint>

#include "hal/core/event.hpp"
#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"

namespace pmu::xscale {

// ---------------------------------------------------------------------------------------------
// XSC2: 4 counters. Register numbers: Table 8-5.
namespace xsc2 {

// Performance Monitor Control Register. ID (31:24) is read-only; 23:4 are write-as-zero.
// P and C (bits 1, 2) are actions: Layout.action makes every modify write them as 0 unless named.
using PMNC = Reg<"PMNC", Cp14<0, 1>, u32, pmu::Layout<u32>{.write_mask = 0x0000000F, .action = 0x00000006}>;
namespace pmnc {
inline constexpr Field<PMNC, 0, 1, Access::RW, "E"> E{};  // 1: all counters count
// P and C are actions: writing 1 resets, reading is unpredictable (§8.3), hence write-only here.
inline constexpr Field<PMNC, 1, 1, Access::WO, "P"> P{};  // 1: reset PMN0-PMN3 to 0
inline constexpr Field<PMNC, 2, 1, Access::WO, "C"> C{};  // 1: reset CCNT to 0 (§8.3.1)
inline constexpr Field<PMNC, 3, 1, Access::RW, "D"> D{};  // 1: CCNT counts every 64th cycle
inline constexpr Field<PMNC, 24, 8, Access::RO, "ID"> ID{};  // PMU identification
}  // namespace pmnc

// Clock Counter: core clock cycles; wraps 0xFFFFFFFF -> 0 and sets FLAG.C (§8.3.1, Table 8-6).
using CCNT = Reg<"CCNT", Cp14<1, 1>, u32>;

// Interrupt Enable Register: one enable per counter; 31:5 write-as-zero.
using INTEN = Reg<"INTEN", Cp14<4, 1>, u32, pmu::Layout<u32>{.write_mask = 0x0000001F}>;
namespace inten {
inline constexpr Field<INTEN, 0, 1, Access::RW, "C"> C{};    // CCNT overflow interrupt
inline constexpr Field<INTEN, 1, 1, Access::RW, "P0"> P0{};  // PMN0 overflow interrupt
inline constexpr Field<INTEN, 2, 1, Access::RW, "P1"> P1{};
inline constexpr Field<INTEN, 3, 1, Access::RW, "P2"> P2{};
inline constexpr Field<INTEN, 4, 1, Access::RW, "P3"> P3{};
}  // namespace inten

// Overflow Flag Status Register: read 1 = that counter wrapped; write 1 clears it, 0 leaves it.
using FLAG = Reg<"FLAG", Cp14<5, 1>, u32, pmu::Layout<u32>{.write_mask = 0x0000001F, .w1c = 0x0000001F}>;
namespace flag {
inline constexpr Field<FLAG, 0, 1, Access::W1C, "C"> C{};
inline constexpr Field<FLAG, 1, 1, Access::W1C, "P0"> P0{};
inline constexpr Field<FLAG, 2, 1, Access::W1C, "P1"> P1{};
inline constexpr Field<FLAG, 3, 1, Access::W1C, "P2"> P2{};
inline constexpr Field<FLAG, 4, 1, Access::W1C, "P3"> P3{};
}  // namespace flag

// Event Selection Register: one 8-bit event number (Table 8-12) per PMN.
using EVTSEL = Reg<"EVTSEL", Cp14<8, 1>, u32>;
namespace evtsel {
inline constexpr Field<EVTSEL, 0, 8, Access::RW, "evtCount0"> evtCount0{};
inline constexpr Field<EVTSEL, 8, 8, Access::RW, "evtCount1"> evtCount1{};
inline constexpr Field<EVTSEL, 16, 8, Access::RW, "evtCount2"> evtCount2{};
inline constexpr Field<EVTSEL, 24, 8, Access::RW, "evtCount3"> evtCount3{};
}  // namespace evtsel

// Performance Count Registers: 32-bit event counters, wrap to 0 and set FLAG.Pn. PMNn is CRn = n,
// CRm = 2 (Table 8-5).
template <unsigned N>
using PmnAt = Cp14<N, 2>;
using PMN = Family<"PMN", 4, PmnAt, u32>;
using PMN0 = PMN::reg<0>;
using PMN1 = PMN::reg<1>;
using PMN2 = PMN::reg<2>;
using PMN3 = PMN::reg<3>;

// Per-slot views, in the driver's slot numbering (slot 0 = CCNT, slot 1 + n = PMNn): INTEN and
// FLAG bit n is slot n; EVTSEL byte n is PMNn's event.
inline constexpr FieldArrayStrided<INTEN, 0, 1, 1, 5, Access::RW, "inten"> inten_slot{};
inline constexpr FieldArrayStrided<FLAG, 0, 1, 1, 5, Access::W1C, "flag"> flag_slot{};
inline constexpr FieldArrayStrided<EVTSEL, 0, 8, 8, 4, Access::RW, "evtCount"> evt_count{};
static_assert(inten_slot.mask(0) == inten::C.mask && inten_slot.mask(4) == inten::P3.mask &&
              flag_slot.mask(0) == flag::C.mask && evt_count.mask(3) == evtsel::evtCount3.mask);

}  // namespace xsc2

// ---------------------------------------------------------------------------------------------
// XSC1: 2 counters. Register numbers: Table 8-1. Enables, flags and event selects all live in
// PMNC (§8.2.4), so a read-modify-write of PMNC must not write back a set flag (it would clear it).
namespace xsc1 {

// 31:28, 11 and 7 are write-as-zero; 10:8 are the write-1-to-clear overflow flags; P and C
// (bits 1, 2) are actions, written as 0 by every modify unless named.
using PMNC = Reg<"PMNC", Cp14<0, 0>, u32,
                 pmu::Layout<u32>{.write_mask = 0x0FFFF77F, .w1c = 0x00000700, .action = 0x00000006}>;
namespace pmnc {
inline constexpr Field<PMNC, 0, 1, Access::RW, "E"> E{};
inline constexpr Field<PMNC, 1, 1, Access::WO, "P"> P{};  // reset PMN0, PMN1; read unpredictable
inline constexpr Field<PMNC, 2, 1, Access::WO, "C"> C{};  // reset CCNT; read unpredictable
inline constexpr Field<PMNC, 3, 1, Access::RW, "D"> D{};
inline constexpr Field<PMNC, 4, 1, Access::RW, "inten_PMN0"> inten_pmn0{};
inline constexpr Field<PMNC, 5, 1, Access::RW, "inten_PMN1"> inten_pmn1{};
inline constexpr Field<PMNC, 6, 1, Access::RW, "inten_CCNT"> inten_ccnt{};
// §8.2.1's text says CCNT sets "bit 6"; the PMNC table (and the 80200 manual, Table 12-3) put the
// CCNT flag at bit 10 and its interrupt enable at bit 6. The table is followed here.
inline constexpr Field<PMNC, 8, 1, Access::W1C, "flag_PMN0"> flag_pmn0{};
inline constexpr Field<PMNC, 9, 1, Access::W1C, "flag_PMN1"> flag_pmn1{};
inline constexpr Field<PMNC, 10, 1, Access::W1C, "flag_CCNT"> flag_ccnt{};
inline constexpr Field<PMNC, 12, 8, Access::RW, "evtCount0"> evtCount0{};
inline constexpr Field<PMNC, 20, 8, Access::RW, "evtCount1"> evtCount1{};
}  // namespace pmnc

using CCNT = Reg<"CCNT", Cp14<1, 0>, u32>;
template <unsigned N>
using PmnAt = Cp14<N + 2, 0>;  // PMN0 CRn 2, PMN1 CRn 3 (Table 8-1)
using PMN = Family<"PMN", 2, PmnAt, u32>;
using PMN0 = PMN::reg<0>;
using PMN1 = PMN::reg<1>;

// Per-slot views of PMNC, in slot order (0 = CCNT, 1 = PMN0, 2 = PMN1): the bits sit at
// positions unrelated to the slots (§8.2.4), so the arrays list them.
inline constexpr FieldArray<PMNC, 1, Access::RW, "inten", 6, 4, 5> inten_slot{};
inline constexpr FieldArray<PMNC, 1, Access::W1C, "flag", 10, 8, 9> flag_slot{};
inline constexpr FieldArray<PMNC, 8, Access::RW, "evtCount", 12, 20> evt_count{};
static_assert(inten_slot.mask(0) == pmnc::inten_ccnt.mask && flag_slot.mask(1) == pmnc::flag_pmn0.mask &&
              evt_count.mask(1) == pmnc::evtCount1.mask);

}  // namespace xsc1

// ---------------------------------------------------------------------------------------------
// Main ID register (CP15 c0, opcode_2 0), read-only. Layout of the XScale ID (core manual ch. 7,
// CP15 register 0): implementer 0x69 ('i', Intel), ARM architecture version, core generation
// (15:13), core revision, product number, product revision.
using MIDR = Reg<"MIDR", Cp15<0, 0>, u32, pmu::Layout<u32>{.access = Access::RO}>;
namespace midr {
inline constexpr Field<MIDR, 24, 8, Access::RO, "Implementer"> Implementer{};
inline constexpr Field<MIDR, 16, 8, Access::RO, "Architecture"> Architecture{};
inline constexpr Field<MIDR, 13, 3, Access::RO, "CoreGen"> CoreGen{};
inline constexpr Field<MIDR, 10, 3, Access::RO, "CoreRevision"> CoreRevision{};
inline constexpr Field<MIDR, 4, 6, Access::RO, "ProductNumber"> ProductNumber{};
inline constexpr Field<MIDR, 0, 4, Access::RO, "ProductRevision"> ProductRevision{};
}  // namespace midr

enum class Variant : std::uint8_t {
  unknown,  // not an XScale core, or a generation this toolkit does not know
  xsc1,     // 2 counters, registers in CRm = 0, selects in PMNC (core generation 1, IXP2400/2800)
  xsc2,     // 4 counters, registers in CRm = 1/2 (core generation 2)
  xsc3,     // the XSC2 registers with more events (core generation 3)
};

constexpr const char* variant_name(Variant v) {
  switch (v) {
    case Variant::xsc1: return "xsc1";
    case Variant::xsc2: return "xsc2";
    case Variant::xsc3: return "xsc3";
    case Variant::unknown: break;
  }
  return "unknown";
}

// Known parts, matched on implementer, architecture, core generation and product number (core and
// product revisions ignored). MIDR values from Linux (arch/arm/mm/proc-xscale.S, proc-xsc3.S,
// include/linux/soc/pxa/cpu.h) and FreeBSD (sys/arm/include/armreg.h); facts only.
// IXP2400 and IXP2800 report core generation 2 but have the two-counter XSC1 PMU: "two 32-bit
// performance counters", PMNC, CCNT, PMN0 and PMN1 in CP14 registers 0-3 (IXP2800 Hardware
// Reference Manual, performance monitoring section; the IXP2400 shares its programmer's reference
// manual). Linux, FreeBSD and OProfile pick the layout from the generation alone and get these two
// wrong. No source gives the IXP2850's MIDR: it falls to the generation rule (force the variant).
struct Part {
  u32 midr;  // implementer, architecture, generation and product number; the rest zero
  Variant variant;
  const char* name;
};
inline constexpr u32 kPartMask = 0xFFFFE3F0u;  // drops core revision (12:10), product revision (3:0)
inline constexpr Part kParts[] = {
    {0x69052000u, Variant::xsc1, "80200"},
    {0x69052020u, Variant::xsc1, "80321"},
    {0x69052030u, Variant::xsc1, "80321"},
    {0x69052100u, Variant::xsc1, "PXA25x/PXA26x"},
    {0x69052120u, Variant::xsc1, "PXA210"},
    {0x69052220u, Variant::xsc1, "80219"},
    {0x69052230u, Variant::xsc1, "80219"},
    {0x69054040u, Variant::xsc2, "IXP43x"},
    {0x69054110u, Variant::xsc2, "PXA27x"},
    {0x69054190u, Variant::xsc1, "IXP2400"},
    {0x690541A0u, Variant::xsc1, "IXP2800"},
    {0x690541C0u, Variant::xsc2, "IXP42x"},
    {0x690541D0u, Variant::xsc2, "IXP42x"},
    {0x690541F0u, Variant::xsc2, "IXP42x"},
    {0x69054200u, Variant::xsc2, "IXP45x/IXP46x"},
    {0x69056010u, Variant::xsc3, "IOP13xx"},
    {0x69056020u, Variant::xsc3, "PXA32x"},
    // Linux's IDs 0x603 (a PXA320) and 0x683 (the PXA930) differ only in the core revision
    // bits the mask drops: one entry, both names.
    {0x69056030u, Variant::xsc3, "PXA320/PXA930"},
    {0x69056080u, Variant::xsc3, "PXA30x"},
    {0x69056090u, Variant::xsc3, "PXA31x"},
    {0x69056200u, Variant::xsc3, "IXP23xx"},
    {0x56056130u, Variant::xsc3, "PXA935"},  // Marvell implementer (0x56)
};

struct Identity {
  Variant variant;
  const char* part;  // "PXA27x", or nullptr for a part not in kParts
};

// A MIDR value's part and PMU variant: the table first, then the core generation (1 -> XSC1,
// 2 -> XSC2, 3 -> XSC3) for an Intel core the table does not list; anything else is unknown.
constexpr Identity identify(u32 midr_value) {
  for (const Part& p : kParts)
    if ((midr_value & kPartMask) == p.midr) return {p.variant, p.name};
  if (midr::Implementer.extract(midr_value) != 0x69) return {Variant::unknown, nullptr};
  switch (midr::CoreGen.extract(midr_value)) {
    case 1: return {Variant::xsc1, nullptr};
    case 2: return {Variant::xsc2, nullptr};
    case 3: return {Variant::xsc3, nullptr};
    default: return {Variant::unknown, nullptr};
  }
}
constexpr Variant variant_from_midr(u32 midr_value) { return identify(midr_value).variant; }
static_assert(variant_from_midr(0x69054117) == Variant::xsc2);  // PXA27x C5
static_assert(variant_from_midr(0x69054190) == Variant::xsc1);  // IXP2400: generation 2, XSC1 PMU

// Reads MIDR (one MRC p15) and classifies it; a variant the firmware forces (a part this table
// does not know, e.g. the IXP2850) wins without a read.
template <class Bus>
Variant read_variant(Variant forced = Variant::unknown) {
  if (forced != Variant::unknown) return forced;
  return variant_from_midr(Regs<Bus>::template read_raw<MIDR>());
}

}  // namespace pmu::xscale
