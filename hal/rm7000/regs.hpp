#pragma once
// QED / PMC-Sierra RM7000 performance counter: register descriptors (no code).
//
// Source: the RM7000 datasheet's "Performance Counters" section and its Table 10 "Performance
// Counter Control" (text as in Aeroflex's SCD7000A, Rev C). Register numbers, which that text does
// not give, and the interrupt wiring come from public code and the RM7000-family datasheets'
// interrupt section (hal/rm7000/README.md lists each source and every decision).
//
// Names are the datasheet's: PerfControl, PerfCount, fields Event Type, Count in Kernel Mode,
// Count in User Mode, Count Enable. The RM7000 is a MIPS IV core: CP0 registers have no select
// field, and the Interrupt Control register lives in the CP0 *control* register space
// (cfc0/ctc0), not at mtc0 $20, which is XContext. The CP0 write hazard is the bus's
// (hal/core/bus/cp0.hpp).
#include <cstdint>

#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"

namespace pmu::rm7000 {

// --- PerfControl, CP0 register 22 (Table 10) -------------------------------------------------
// Bits 7..5 and 31..11 are reserved, "must be zero": the register engine writes them as zero.
inline constexpr u32 kPerfControlWritable = 0x0000071Fu;
using PerfControl = Reg<"PerfControl", Cp0<22>, u32, Layout<u32>{.write_mask = kPerfControlWritable}>;
// Event Type: one of the events of events.hpp (only one event is counted at a time).
inline constexpr Field<PerfControl, 0, 5, Access::RW, "EventType"> perfcontrol_event{};
// Count in Kernel Mode / in User Mode: 1 enables counting in that mode.
inline constexpr Field<PerfControl, 8, 1, Access::RW, "KM"> perfcontrol_km{};
inline constexpr Field<PerfControl, 9, 1, Access::RW, "UM"> perfcontrol_um{};
// Count Enable: 1 counts.
inline constexpr Field<PerfControl, 10, 1, Access::RW, "CE"> perfcontrol_ce{};

inline constexpr u32 kKernelMode = 0x100u;  // KM in place
inline constexpr u32 kUserMode = 0x200u;    // UM in place
inline constexpr u32 kCountEnable = 0x400u;  // CE in place

// --- PerfCount, CP0 register 25 --------------------------------------------------------------
// "a 32-bit writable counter which causes an interrupt when bit 31 is set". The condition is bit
// 31 itself, not a sticky flag: writing the count with bit 31 clear removes it.
using PerfCount = Reg<"PerfCount", Cp0<25>, u32>;
inline constexpr Field<PerfCount, 31, 1, Access::RW, "Bit31"> perfcount_bit31{};
inline constexpr u32 kPerfCountBit31 = 0x80000000u;

// --- Interrupt Control, CP0 control register 20 (cfc0/ctc0) ------------------------------------
// RM7000 datasheet, interrupt section: 31:16 zero, IM[15..8] 15:8, TE 7, 6:5 zero, Spacing 4:0.
// The performance counter is interrupt 13: its mask bit IM13 is bit 13. Decision (README): IM13 = 1
// enables the interrupt, as OpenBSD's and Linux's RM7000/RM9000 code program it and as Status
// IM[7..0] work, although the datasheet's sentence reads "IM[13] ... is not set".
using InterruptControl =
    Reg<"InterruptControl", Cp0Control<20>, u32, Layout<u32>{.write_mask = 0x0000FF9Fu}>;
inline constexpr Field<InterruptControl, 13, 1, Access::RW, "IM13"> icr_im13{};

// --- Cause, CP0 register 13 (RM7000 layout) --------------------------------------------------
// IP[15..0] in bits 23:8; the performance counter's pending bit IP13 is bit 21. The driver only
// reads Cause (IP13 follows PerfCount bit 31; it is not written to acknowledge). Not MIPS32's
// layout, where bit 21 is something else and the counter interrupt is Cause.PCI (bit 26). The
// interrupt is taken only while Status.IE = 1 as well (the board's global enable).
using Cause = Reg<"Cause", Cp0<13>, u32, Layout<u32>{Access::RO, 0, 0, 0}>;
inline constexpr Field<Cause, 21, 1, Access::RO, "IP13"> cause_ip13{};

// --- PRId, CP0 register 15: which core this is --------------------------------------------------
// Implementation number in bits 15:8, revision in 7:0. PMC-Sierra's numbers (OpenBSD cpu.h, MAME's
// RM7000 model reports 0x2700): 0x27 RM7000 family (RM7000, RM7065A), 0x28 RM5200 (no performance
// counter), 0x34 RM9000 (two counters packed into a 64-bit PerfCount: another PMU).
using PRId = Reg<"PRId", Cp0<15>, u32, Layout<u32>{Access::RO, 0, 0, 0}>;
inline constexpr Field<PRId, 8, 8, Access::RO, "Imp"> prid_imp{};
inline constexpr Field<PRId, 0, 8, Access::RO, "Rev"> prid_rev{};

inline constexpr u32 kImpRm7000 = 0x27;
inline constexpr u32 kImpRm5200 = 0x28;
inline constexpr u32 kImpRm9000 = 0x34;

enum class Core : std::uint8_t {
  unknown,  // not read yet, or another core: $22 and $25 mean something else there
  rm7000,   // PRId Imp 0x27: the one-counter PMU this driver programs
  rm5200,   // 0x28: no performance counter
  rm9000,   // 0x34: two counters in a 64-bit PerfCount, overflow bits in PerfControl
};
constexpr Core core_of_prid(u32 prid) {
  switch ((prid >> 8) & 0xFFu) {
    case kImpRm7000: return Core::rm7000;
    case kImpRm5200: return Core::rm5200;
    case kImpRm9000: return Core::rm9000;
    default: return Core::unknown;
  }
}
constexpr const char* core_name(Core c) {
  switch (c) {
    case Core::rm7000: return "RM7000";
    case Core::rm5200: return "RM5200";
    case Core::rm9000: return "RM9000";
    case Core::unknown: break;
  }
  return "not an RM7000-family core";
}

}  // namespace pmu::rm7000
