#pragma once
// ARMv7-A Performance Monitors Extension (PMUv1/PMUv2): register descriptors.
//
// Source: ARM Architecture Reference Manual, ARMv7-A and ARMv7-R edition (ARM DDI 0406C), chapter
// C12 "The Performance Monitors Extension" (the model: counters, enables, overflow, events) and
// B4.1 "VMSA System control registers descriptions", one entry per register (PMCR, PMCNTENSET,
// PMCNTENCLR, PMOVSR, PMSWINC, PMSELR, PMCEID0, PMCEID1, PMCCNTR, PMXEVTYPER, PMXEVCNTR,
// PMUSERENR, PMINTENSET, PMINTENCLR). All are CP15 c9, opc1 = 0 (chapter B3, "Organization of the CP15
// registers in a VMSA implementation", the c9 table): MRC/MCR p15, 0, Rt, c9, CRm, opc2.
//
// Bit numbering of the per-counter registers (PMCNTENSET/CLR, PMOVSR, PMINTENSET/CLR, PMSWINC):
// bit 31 = the cycle counter (C), bit n = event counter n (Pn), n < PMCR.N. The driver's slots are
// slot 0 = PMCCNTR, slot 1 + n = event counter n: a slot mask is such a register value rotated
// left by one (slot_mask / counter_bits).
//
// Event counters are select-then-access: PMXEVTYPER and PMXEVCNTR reach the counter PMSELR.SEL
// names (B4.1 PMSELR), so each is a Selected<PMSELR's location, n, Banked<...>> (hal/core/location.hpp):
// every access is MCR PMSELR, ISB, then the MRC/MCR (the bus's select_barrier()).
#include <bit>
#include <cstdint>

#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"

namespace pmu::armv7a {

// The most event counters PMCR.N can announce (5 bits, and SEL 31 is not an event counter).
inline constexpr unsigned kMaxEventCounters = 31;

// Performance Monitors Control Register (B4.1 PMCR). IMP, IDCODE and N are read-only; P and C
// are actions that read as zero (written as 0 by every modify unless named: Layout.action).
using PMCR = Reg<"PMCR", Cp15<9, 12, 0, 0>, u32, pmu::Layout<u32>{.write_mask = 0x0000003F, .action = 0x00000006}>;
namespace pmcr {
inline constexpr Field<PMCR, 0, 1, Access::RW, "E"> E{};    // 1: all counters enabled (with PMCNTENSET)
inline constexpr Field<PMCR, 1, 1, Access::WO, "P"> P{};    // 1: every event counter to 0 (not PMCCNTR)
inline constexpr Field<PMCR, 2, 1, Access::WO, "C"> C{};    // 1: PMCCNTR to 0
inline constexpr Field<PMCR, 3, 1, Access::RW, "D"> D{};    // 1: PMCCNTR counts every 64th cycle
inline constexpr Field<PMCR, 4, 1, Access::RW, "X"> X{};    // export events to a trace macrocell
inline constexpr Field<PMCR, 5, 1, Access::RW, "DP"> DP{};  // PMCCNTR off where counting is prohibited
inline constexpr Field<PMCR, 11, 5, Access::RO, "N"> N{};   // number of event counters
inline constexpr Field<PMCR, 16, 8, Access::RO, "IDCODE"> IDCODE{};
inline constexpr Field<PMCR, 24, 8, Access::RO, "IMP"> IMP{};  // implementer (0x41 ARM)
}  // namespace pmcr

// Count Enable Set / Clear (B4.1 PMCNTENSET, PMCNTENCLR): writing 1 sets / clears that counter's
// enable, 0 does nothing; both read the enables. One write each, never a read-modify-write.
using PMCNTENSET = Reg<"PMCNTENSET", Cp15<9, 12, 0, 1>, u32>;
using PMCNTENCLR = Reg<"PMCNTENCLR", Cp15<9, 12, 0, 2>, u32>;
// Overflow Flag Status (B4.1 PMOVSR): 1 = that counter overflowed; write 1 to clear (W1C).
using PMOVSR = Reg<"PMOVSR", Cp15<9, 12, 0, 3>, u32, pmu::Layout<u32>{.w1c = 0xFFFFFFFF}>;
// Software Increment (B4.1 PMSWINC): write 1 to bit n adds one to event counter n when it counts
// event 0x00 (SW_INCR). Write-only.
using PMSWINC = Reg<"PMSWINC", Cp15<9, 12, 0, 4>, u32, pmu::Layout<u32>{.access = Access::WO, .write_mask = 0x7FFFFFFF}>;
// Event Counter Selection (B4.1 PMSELR): SEL, 4:0, the event counter PMXEVTYPER/PMXEVCNTR reach.
using PMSELR = Reg<"PMSELR", Cp15<9, 12, 0, 5>, u32, pmu::Layout<u32>{.write_mask = 0x0000001F}>;
namespace pmselr {
inline constexpr Field<PMSELR, 0, 5, Access::RW, "SEL"> SEL{};
}  // namespace pmselr
// Common Event Identification (B4.1 PMCEID0, PMCEID1): bit n = common event n (PMCEID1: 0x20 + n)
// is implemented. Read-only.
using PMCEID0 = Reg<"PMCEID0", Cp15<9, 12, 0, 6>, u32, pmu::Layout<u32>{.access = Access::RO}>;
using PMCEID1 = Reg<"PMCEID1", Cp15<9, 12, 0, 7>, u32, pmu::Layout<u32>{.access = Access::RO}>;
// Cycle Count Register (B4.1 PMCCNTR): 32 bits, every cycle or every 64th (PMCR.D); wraps to 0 and
// sets PMOVSR.C. Reached directly: one MRC.
using PMCCNTR = Reg<"PMCCNTR", Cp15<9, 13, 0, 0>, u32>;

// The two banked locations behind PMSELR: never reached alone (Banked<>).
using PmxevtyperAccess = Banked<Cp15<9, 13, 0, 1>>;
using PmxevcntrAccess = Banked<Cp15<9, 13, 0, 2>>;
template <unsigned N>
using EvTypeAt = Selected<PMSELR::location, N, PmxevtyperAccess>;
template <unsigned N>
using EvCountAt = Selected<PMSELR::location, N, PmxevcntrAccess>;
// Event Type Select (B4.1 PMXEVTYPER) of event counter N: evtCount, 7:0 (PMUv1). The filter bits
// 31:27 (P, U, NSK, NSU, NSH) exist only with PMUv2 (the Virtualization Extensions): written 0.
using PMXEVTYPER = Family<"PMXEVTYPER", kMaxEventCounters, EvTypeAt, u32, pmu::Layout<u32>{.write_mask = 0xF80000FF}>;
template <unsigned N>
using EvtCount = Field<typename PMXEVTYPER::template reg<N>, 0, 8, Access::RW, "evtCount">;
// Event Count (B4.1 PMXEVCNTR) of event counter N: 32 bits, wraps to 0 and sets PMOVSR.PN.
using PMXEVCNTR = Family<"PMXEVCNTR", kMaxEventCounters, EvCountAt, u32>;

// User Enable (B4.1 PMUSERENR): EN, bit 0: user mode may reach the PMU. Written only in privileged
// modes.
using PMUSERENR = Reg<"PMUSERENR", Cp15<9, 14, 0, 0>, u32, pmu::Layout<u32>{.write_mask = 0x00000001}>;
namespace pmuserenr {
inline constexpr Field<PMUSERENR, 0, 1, Access::RW, "EN"> EN{};
}  // namespace pmuserenr
// Interrupt Enable Set / Clear (B4.1 PMINTENSET, PMINTENCLR): write 1 to set / clear a counter's
// overflow interrupt request, 0 does nothing; both read the enables.
using PMINTENSET = Reg<"PMINTENSET", Cp15<9, 14, 0, 1>, u32>;
using PMINTENCLR = Reg<"PMINTENCLR", Cp15<9, 14, 0, 2>, u32>;

// CP15 Main ID Register (B4.1 MIDR), for the part's name in reports.
using MIDR = Reg<"MIDR", Cp15<0, 0, 0, 0>, u32, pmu::Layout<u32>{.access = Access::RO}>;

// Slot masks and the per-counter registers' bits: slot 0 <-> bit 31 (C), slot 1 + n <-> bit n.
constexpr std::uint32_t counter_bits(std::uint32_t slots) { return std::rotr(slots, 1); }
constexpr std::uint32_t slot_mask(std::uint32_t bits) { return std::rotl(bits, 1); }
static_assert(counter_bits(1u) == 0x80000000u && counter_bits(0b110u) == 0b11u &&
              slot_mask(0x80000001u) == 0b11u);

}  // namespace pmu::armv7a
