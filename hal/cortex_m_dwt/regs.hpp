#pragma once
// ARMv7-M Data Watchpoint and Trace unit (DWT), the counting part: register descriptors (no code).
//
// Source: ARMv7-M Architecture Reference Manual, C1.8 "The Data Watchpoint and Trace unit"
// (C1.8.6 the DWT registers: DWT_CTRL, DWT_CYCCNT, DWT_CPICNT, DWT_EXCCNT, DWT_SLEEPCNT,
// DWT_LSUCNT, DWT_FOLDCNT) and C1.6.5 "Debug Exception and Monitor Control Register, DEMCR"
// (TRCENA). Names are the manual's. The watchpoint comparators, PCSR and trace packets are not
// used here. The lock (DWT_LAR/DWT_LSR) is the CoreSight management interface that a Cortex-M7
// implements at the DWT's 0xFB0/0xFB4 (CoreSight Architecture Specification, "Lock Access
// Register"); ARMv7-M leaves those offsets IMPLEMENTATION DEFINED.
//
// Every register is memory-mapped in the System Control Space / the DWT block at fixed addresses:
// the bus is MmioBus<ScsBase> with ScsBase = 0xE000_0000 and the offsets below.
#include <cstdint>

#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"

namespace pmu::cortex_m_dwt {

// The base every offset below is from: the Private Peripheral Bus at 0xE000_0000, a constant.
struct ScsBase {
  static constexpr std::uintptr_t address() { return 0xE0000000u; }
};

// --- DEMCR, 0xE000_EDFC (C1.6.5) ------------------------------------------------------------
// TRCENA, bit 24: "Global enable for all DWT and ITM features"; while 0 the DWT's registers may
// not count or hold what is written. The other bits are the debugger's vector catch and monitor
// controls: the driver changes TRCENA alone (read-modify-write).
inline constexpr u32 kDemcrWritable = 0x010F07F1u;  // VC_* 10:4,0; MON_* 19:16; TRCENA 24
using DEMCR = Reg<"DEMCR", Mmio<0xEDFC>, u32, Layout<u32>{.write_mask = kDemcrWritable}>;
inline constexpr Field<DEMCR, 24, 1, Access::RW, "TRCENA"> demcr_trcena{};

// --- DWT_CTRL, 0xE000_1000 (C1.8.7) ---------------------------------------------------------
// 31:28 NUMCOMP, 27 NOTRCPKT, 26 NOEXTTRIG, 25 NOCYCCNT, 24 NOPRFCNT: read-only, what is
// implemented. 22 CYCEVTENA, 21 FOLDEVTENA, 20 LSUEVTENA, 19 SLEEPEVTENA, 18 EXCEVTENA,
// 17 CPIEVTENA, 16 EXCTRCENA, 12 PCSAMPLENA, 11:10 SYNCTAP, 9 CYCTAP, 8:5 POSTINIT, 4:1 POSTPRESET,
// 0 CYCCNTENA. Bits 23 and 15:13 are reserved.
inline constexpr u32 kCtrlWritable = 0x007F1FFFu;
using DWT_CTRL = Reg<"DWT_CTRL", Mmio<0x1000>, u32, Layout<u32>{.write_mask = kCtrlWritable}>;
inline constexpr Field<DWT_CTRL, 28, 4, Access::RO, "NUMCOMP"> ctrl_numcomp{};
inline constexpr Field<DWT_CTRL, 27, 1, Access::RO, "NOTRCPKT"> ctrl_notrcpkt{};
inline constexpr Field<DWT_CTRL, 26, 1, Access::RO, "NOEXTTRIG"> ctrl_noexttrig{};
inline constexpr Field<DWT_CTRL, 25, 1, Access::RO, "NOCYCCNT"> ctrl_nocyccnt{};
inline constexpr Field<DWT_CTRL, 24, 1, Access::RO, "NOPRFCNT"> ctrl_noprfcnt{};
inline constexpr Field<DWT_CTRL, 22, 1, Access::RW, "CYCEVTENA"> ctrl_cycevtena{};
inline constexpr Field<DWT_CTRL, 21, 1, Access::RW, "FOLDEVTENA"> ctrl_foldevtena{};
inline constexpr Field<DWT_CTRL, 20, 1, Access::RW, "LSUEVTENA"> ctrl_lsuevtena{};
inline constexpr Field<DWT_CTRL, 19, 1, Access::RW, "SLEEPEVTENA"> ctrl_sleepevtena{};
inline constexpr Field<DWT_CTRL, 18, 1, Access::RW, "EXCEVTENA"> ctrl_excevtena{};
inline constexpr Field<DWT_CTRL, 17, 1, Access::RW, "CPIEVTENA"> ctrl_cpievtena{};
inline constexpr Field<DWT_CTRL, 16, 1, Access::RW, "EXCTRCENA"> ctrl_exctrcena{};
inline constexpr Field<DWT_CTRL, 12, 1, Access::RW, "PCSAMPLENA"> ctrl_pcsamplena{};
inline constexpr Field<DWT_CTRL, 10, 2, Access::RW, "SYNCTAP"> ctrl_synctap{};
inline constexpr Field<DWT_CTRL, 9, 1, Access::RW, "CYCTAP"> ctrl_cyctap{};
inline constexpr Field<DWT_CTRL, 5, 4, Access::RW, "POSTINIT"> ctrl_postinit{};
inline constexpr Field<DWT_CTRL, 1, 4, Access::RW, "POSTPRESET"> ctrl_postpreset{};
inline constexpr Field<DWT_CTRL, 0, 1, Access::RW, "CYCCNTENA"> ctrl_cyccntena{};

inline constexpr u32 kNoCycCnt = 1u << 25;
inline constexpr u32 kNoPrfCnt = 1u << 24;
inline constexpr u32 kCycCntEna = 1u << 0;
// The EVTENA bit of each 8-bit counter, in slot order (CPI, EXC, SLEEP, LSU, FOLD).
inline constexpr u32 kCpiEvtEna = 1u << 17;
inline constexpr u32 kExcEvtEna = 1u << 18;
inline constexpr u32 kSleepEvtEna = 1u << 19;
inline constexpr u32 kLsuEvtEna = 1u << 20;
inline constexpr u32 kFoldEvtEna = 1u << 21;
inline constexpr u32 kEvtEna[5] = {kCpiEvtEna, kExcEvtEna, kSleepEvtEna, kLsuEvtEna, kFoldEvtEna};
inline constexpr u32 kAllEvtEna = kCpiEvtEna | kExcEvtEna | kSleepEvtEna | kLsuEvtEna | kFoldEvtEna;

// --- The counters (C1.8.8 .. C1.8.13) ----------------------------------------------------------
// DWT_CYCCNT, 0xE000_1004: 32 bits, counts processor clock cycles while CYCCNTENA = 1 ("wraps to
// zero on overflow"); no interrupt, no sticky flag.
using DWT_CYCCNT = Reg<"DWT_CYCCNT", Mmio<0x1004>, u32>;
// The profiling counters, 8 bits in [7:0] (31:8 reserved), each "initialized to zero when" its
// EVTENA bit is set to 1, each emitting an event (a trace packet, not an interrupt) when it wraps.
inline constexpr Layout<u32> kCount8{.write_mask = 0xFFu};
using DWT_CPICNT = Reg<"DWT_CPICNT", Mmio<0x1008>, u32, kCount8>;
using DWT_EXCCNT = Reg<"DWT_EXCCNT", Mmio<0x100C>, u32, kCount8>;
using DWT_SLEEPCNT = Reg<"DWT_SLEEPCNT", Mmio<0x1010>, u32, kCount8>;
using DWT_LSUCNT = Reg<"DWT_LSUCNT", Mmio<0x1014>, u32, kCount8>;
using DWT_FOLDCNT = Reg<"DWT_FOLDCNT", Mmio<0x1018>, u32, kCount8>;

// --- CoreSight lock, 0xE000_1FB0 / 0xE000_1FB4 (Cortex-M7; IMPLEMENTATION DEFINED in ARMv7-M) ----
// DWT_LSR bit 0 SLI: a software lock is implemented; bit 1 SLK: it is locked (writes other than to
// DWT_LAR are ignored). Writing kLarKey to DWT_LAR unlocks. A part without the lock reads LSR as 0.
using DWT_LAR = Reg<"DWT_LAR", Mmio<0x1FB0>, u32, Layout<u32>{Access::WO, 0, 0xFFFFFFFFu, 0, 0}>;
using DWT_LSR = Reg<"DWT_LSR", Mmio<0x1FB4>, u32, Layout<u32>{Access::RO, 0, 0, 0, 0}>;
inline constexpr u32 kLarKey = 0xC5ACCE55u;
inline constexpr u32 kLsrSli = 1u << 0;
inline constexpr u32 kLsrSlk = 1u << 1;

}  // namespace pmu::cortex_m_dwt
