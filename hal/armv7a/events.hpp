#pragma once
// ARMv7-A Performance Monitors: the common architectural and microarchitectural events (ARM
// Architecture Reference Manual, ARMv7-A and ARMv7-R edition, C12 "The Performance Monitors
// Extension", "Event numbers and mnemonics": the common event numbers 0x00-0x1D) and the portable
// presets they implement. Mnemonics are the ones ARM's later manuals give these same numbers
// (SW_INCR, INST_RETIRED, ...); descriptions paraphrase the ARMv7 text.
//
// Which common events a part implements is its business: PMCEID0/PMCEID1 (PMUv2) say so at run
// time, a part's Technical Reference Manual says so on paper. QEMU's ARMv7 CPUs implement SW_INCR,
// CPU_CYCLES and INST_RETIRED (the last only under -icount): hal/armv7a/README.md.
// "counters" bit n = event counter n (PMXEVCNTR with PMSELR.SEL = n); the driver's slots are one
// higher, slot 0 being PMCCNTR, which counts CPU_CYCLES only.
#include <cstddef>
#include <cstdint>

#include "hal/core/event.hpp"

namespace pmu::armv7a {

inline constexpr std::uint32_t kMaxEventCode = 0xFF;  // PMXEVTYPER.evtCount is 8 bits

namespace event {
inline constexpr std::uint32_t SW_INCR = 0x00;
inline constexpr std::uint32_t L1I_CACHE_REFILL = 0x01;
inline constexpr std::uint32_t L1I_TLB_REFILL = 0x02;
inline constexpr std::uint32_t L1D_CACHE_REFILL = 0x03;
inline constexpr std::uint32_t L1D_CACHE = 0x04;
inline constexpr std::uint32_t L1D_TLB_REFILL = 0x05;
inline constexpr std::uint32_t LD_RETIRED = 0x06;
inline constexpr std::uint32_t ST_RETIRED = 0x07;
inline constexpr std::uint32_t INST_RETIRED = 0x08;
inline constexpr std::uint32_t EXC_TAKEN = 0x09;
inline constexpr std::uint32_t EXC_RETURN = 0x0A;
inline constexpr std::uint32_t CID_WRITE_RETIRED = 0x0B;
inline constexpr std::uint32_t PC_WRITE_RETIRED = 0x0C;
inline constexpr std::uint32_t BR_IMMED_RETIRED = 0x0D;
inline constexpr std::uint32_t BR_RETURN_RETIRED = 0x0E;
inline constexpr std::uint32_t UNALIGNED_LDST_RETIRED = 0x0F;
inline constexpr std::uint32_t BR_MIS_PRED = 0x10;
inline constexpr std::uint32_t CPU_CYCLES = 0x11;
inline constexpr std::uint32_t BR_PRED = 0x12;
inline constexpr std::uint32_t MEM_ACCESS = 0x13;
inline constexpr std::uint32_t L1I_CACHE = 0x14;
inline constexpr std::uint32_t L1D_CACHE_WB = 0x15;
inline constexpr std::uint32_t L2D_CACHE = 0x16;
inline constexpr std::uint32_t L2D_CACHE_REFILL = 0x17;
inline constexpr std::uint32_t L2D_CACHE_WB = 0x18;
inline constexpr std::uint32_t BUS_ACCESS = 0x19;
inline constexpr std::uint32_t MEMORY_ERROR = 0x1A;
inline constexpr std::uint32_t INST_SPEC = 0x1B;
inline constexpr std::uint32_t TTBR_WRITE_RETIRED = 0x1C;
inline constexpr std::uint32_t BUS_CYCLES = 0x1D;
}  // namespace event

template <std::uint32_t C>
inline constexpr EventInfo kCommonEvents[] = {
    {event::SW_INCR, "SW_INCR", "software increment: a write of 1 to the counter's PMSWINC bit", C, 0},
    {event::L1I_CACHE_REFILL, "L1I_CACHE_REFILL", "instruction fetch that refills the level 1 instruction or unified cache", C, 0},
    {event::L1I_TLB_REFILL, "L1I_TLB_REFILL", "instruction fetch that refills the level 1 instruction TLB", C, 0},
    {event::L1D_CACHE_REFILL, "L1D_CACHE_REFILL", "data read or write that refills the level 1 data or unified cache", C, 0},
    {event::L1D_CACHE, "L1D_CACHE", "data read or write access to the level 1 data or unified cache", C, 0},
    {event::L1D_TLB_REFILL, "L1D_TLB_REFILL", "data read or write that refills the level 1 data TLB", C, 0},
    {event::LD_RETIRED, "LD_RETIRED", "load instruction architecturally executed", C, 0},
    {event::ST_RETIRED, "ST_RETIRED", "store instruction architecturally executed", C, 0},
    {event::INST_RETIRED, "INST_RETIRED", "instruction architecturally executed", C, 0},
    {event::EXC_TAKEN, "EXC_TAKEN", "exception taken", C, 0},
    {event::EXC_RETURN, "EXC_RETURN", "exception return architecturally executed", C, 0},
    {event::CID_WRITE_RETIRED, "CID_WRITE_RETIRED", "write to CONTEXTIDR architecturally executed", C, 0},
    {event::PC_WRITE_RETIRED, "PC_WRITE_RETIRED", "software change of the PC (branch, exception return, PC write) architecturally executed", C, 0},
    {event::BR_IMMED_RETIRED, "BR_IMMED_RETIRED", "immediate branch architecturally executed", C, 0},
    {event::BR_RETURN_RETIRED, "BR_RETURN_RETIRED", "procedure return architecturally executed", C, 0},
    {event::UNALIGNED_LDST_RETIRED, "UNALIGNED_LDST_RETIRED", "unaligned load or store architecturally executed", C, 0},
    {event::BR_MIS_PRED, "BR_MIS_PRED", "branch mispredicted or not predicted", C, 0},
    {event::CPU_CYCLES, "CPU_CYCLES", "processor cycle (PMCCNTR counts only this)", C, 0},
    {event::BR_PRED, "BR_PRED", "predictable branch speculatively executed", C, 0},
    {event::MEM_ACCESS, "MEM_ACCESS", "data memory access", C, 0},
    {event::L1I_CACHE, "L1I_CACHE", "level 1 instruction cache access", C, 0},
    {event::L1D_CACHE_WB, "L1D_CACHE_WB", "level 1 data cache write-back", C, 0},
    {event::L2D_CACHE, "L2D_CACHE", "level 2 data cache access", C, 0},
    {event::L2D_CACHE_REFILL, "L2D_CACHE_REFILL", "level 2 data cache refill", C, 0},
    {event::L2D_CACHE_WB, "L2D_CACHE_WB", "level 2 data cache write-back", C, 0},
    {event::BUS_ACCESS, "BUS_ACCESS", "bus access", C, 0},
    {event::MEMORY_ERROR, "MEMORY_ERROR", "local memory error (cache or tightly-coupled memory)", C, 0},
    {event::INST_SPEC, "INST_SPEC", "instruction speculatively executed", C, 0},
    {event::TTBR_WRITE_RETIRED, "TTBR_WRITE_RETIRED", "write to a translation table base register architecturally executed", C, 0},
    {event::BUS_CYCLES, "BUS_CYCLES", "bus cycle", C, 0},
};

// Presets. No common ARMv7 event counts stall cycles: that preset is left to a core's own catalog.
template <std::uint32_t C>
inline constexpr PresetBinding kPresets[] = {
    {Preset::cycles, event::CPU_CYCLES, C},
    {Preset::instructions, event::INST_RETIRED, C},
    {Preset::dcache_misses, event::L1D_CACHE_REFILL, C},
    {Preset::icache_misses, event::L1I_CACHE_REFILL, C},
    {Preset::branch_mispredicts, event::BR_MIS_PRED, C},
    {Preset::branches, event::PC_WRITE_RETIRED, C},
    {Preset::tlb_misses, event::L1D_TLB_REFILL, C},
};

template <unsigned N>
inline constexpr std::uint32_t kCounterMask = N >= 32 ? ~0u : (std::uint32_t{1} << N) - 1;

// The architecture's catalog for a part with N event counters (PMCR.N): every common event, for a
// part this kit has no table of. Cortex-A15 and Cortex-A9 have 6, Cortex-A7 and Cortex-A8 4 (their
// Technical Reference Manuals, PMCR.N); their own catalogs (below) hold what each implements.
template <unsigned N>
inline constexpr PmuCatalog kCatalog{
    N == 6 ? "armv7a-6" : N == 4 ? "armv7a-4" : "armv7a",
    "ARMv7-A Performance Monitors Extension: PMCCNTR and N event counters (common events, ARMv7 ARM C12)",
    32,
    N,
    kCommonEvents<kCounterMask<N>>,
    sizeof(kCommonEvents<1>) / sizeof(EventInfo),
    kPresets<kCounterMask<N>>,
    sizeof(kPresets<1>) / sizeof(PresetBinding),
    8,
};
inline constexpr const PmuCatalog& kCatalog6 = kCatalog<6>;
inline constexpr const PmuCatalog& kCatalog4 = kCatalog<4>;
static_assert(catalog_sound(kCatalog<6>), "ARMv7-A catalog: codes unique, fit evtCount, counters exist");
static_assert(catalog_sound(kCatalog<4>), "ARMv7-A catalog: codes unique, fit evtCount, counters exist");

// ---------------------------------------------------------------------------------------------
// Per-core catalogs: the common events the core's Technical Reference Manual lists as implemented,
// then its IMPLEMENTATION DEFINED events (0x40 and up). A driver built on one of these refuses, at
// compile time (configure<Slot, Ev>) and at run time (configure), an event the core does not have.
// Names: the TRM's mnemonic where it gives one (Cortex-A15), otherwise a mnemonic made of the TRM's
// event name (Cortex-A9 and Cortex-A7 list names only); descriptions are the TRM's event names.

// The row of common event `code` (kCommonEvents is in code order from 0x00).
template <std::uint32_t C>
constexpr EventInfo common(std::uint32_t code) {
  return kCommonEvents<C>[code];
}

namespace event::a15 {
// Cortex-A15 MPCore TRM (ARM DDI 0438), 11.6 "Events", Table 11.7 "PMU events".
inline constexpr std::uint32_t L1D_CACHE_LD = 0x40;
inline constexpr std::uint32_t L1D_CACHE_ST = 0x41;
inline constexpr std::uint32_t L1D_CACHE_REFILL_LD = 0x42;
inline constexpr std::uint32_t L1D_CACHE_REFILL_ST = 0x43;
inline constexpr std::uint32_t L1D_CACHE_WB_VICTIM = 0x46;
inline constexpr std::uint32_t L1D_CACHE_WB_CLEAN = 0x47;
inline constexpr std::uint32_t L1D_CACHE_INVAL = 0x48;
inline constexpr std::uint32_t L1D_TLB_REFILL_LD = 0x4C;
inline constexpr std::uint32_t L1D_TLB_REFILL_ST = 0x4D;
inline constexpr std::uint32_t L2D_CACHE_LD = 0x50;
inline constexpr std::uint32_t L2D_CACHE_ST = 0x51;
inline constexpr std::uint32_t L2D_CACHE_REFILL_LD = 0x52;
inline constexpr std::uint32_t L2D_CACHE_REFILL_ST = 0x53;
inline constexpr std::uint32_t L2D_CACHE_WB_VICTIM = 0x56;
inline constexpr std::uint32_t L2D_CACHE_WB_CLEAN = 0x57;
inline constexpr std::uint32_t L2D_CACHE_INVAL = 0x58;
inline constexpr std::uint32_t BUS_ACCESS_LD = 0x60;
inline constexpr std::uint32_t BUS_ACCESS_ST = 0x61;
inline constexpr std::uint32_t BUS_ACCESS_SHARED = 0x62;
inline constexpr std::uint32_t BUS_ACCESS_NOT_SHARED = 0x63;
inline constexpr std::uint32_t BUS_ACCESS_NORMAL = 0x64;
inline constexpr std::uint32_t BUS_ACCESS_PERIPH = 0x65;
inline constexpr std::uint32_t MEM_ACCESS_LD = 0x66;
inline constexpr std::uint32_t MEM_ACCESS_ST = 0x67;
inline constexpr std::uint32_t UNALIGNED_LD_SPEC = 0x68;
inline constexpr std::uint32_t UNALIGNED_ST_SPEC = 0x69;
inline constexpr std::uint32_t UNALIGNED_LDST_SPEC = 0x6A;
inline constexpr std::uint32_t LDREX_SPEC = 0x6C;
inline constexpr std::uint32_t STREX_PASS_SPEC = 0x6D;
inline constexpr std::uint32_t STREX_FAIL_SPEC = 0x6E;
inline constexpr std::uint32_t LD_SPEC = 0x70;
inline constexpr std::uint32_t ST_SPEC = 0x71;
inline constexpr std::uint32_t LDST_SPEC = 0x72;
inline constexpr std::uint32_t DP_SPEC = 0x73;
inline constexpr std::uint32_t ASE_SPEC = 0x74;
inline constexpr std::uint32_t VFP_SPEC = 0x75;
inline constexpr std::uint32_t PC_WRITE_SPEC = 0x76;
inline constexpr std::uint32_t BR_IMMED_SPEC = 0x78;
inline constexpr std::uint32_t BR_RETURN_SPEC = 0x79;
inline constexpr std::uint32_t BR_INDIRECT_SPEC = 0x7A;
inline constexpr std::uint32_t ISB_SPEC = 0x7C;
inline constexpr std::uint32_t DSB_SPEC = 0x7D;
inline constexpr std::uint32_t DMB_SPEC = 0x7E;
}  // namespace event::a15

// Cortex-A15: Table 11.7 lists the common events 0x00-0x05, 0x08-0x0B and 0x10-0x1D (no LD_RETIRED,
// ST_RETIRED, PC_WRITE_RETIRED, BR_IMMED_RETIRED, BR_RETURN_RETIRED, UNALIGNED_LDST_RETIRED: the
// core counts those speculatively, 0x66-0x7A). Cross-checked against OProfile's Cortex-A15 list,
// which gives 0x52 to both L2D_CACHE_ST and L2D_CACHE_REFILL_LD: the TRM's 0x51 is kept. libpfm4
// calls 0x62 a "normal" bus access where the TRM's BUS_ACCESS_SHARED is Normal, Cacheable, Shareable.
template <std::uint32_t C>
inline constexpr EventInfo kCortexA15Events[] = {
    common<C>(0x00), common<C>(0x01), common<C>(0x02), common<C>(0x03), common<C>(0x04), common<C>(0x05),
    common<C>(0x08), common<C>(0x09), common<C>(0x0A), common<C>(0x0B),
    common<C>(0x10), common<C>(0x11), common<C>(0x12), common<C>(0x13), common<C>(0x14), common<C>(0x15),
    common<C>(0x16), common<C>(0x17), common<C>(0x18), common<C>(0x19), common<C>(0x1A), common<C>(0x1B),
    common<C>(0x1C), common<C>(0x1D),
    {event::a15::L1D_CACHE_LD, "L1D_CACHE_LD", "Level 1 data cache access, read", C, 0},
    {event::a15::L1D_CACHE_ST, "L1D_CACHE_ST", "Level 1 data cache access, write", C, 0},
    {event::a15::L1D_CACHE_REFILL_LD, "L1D_CACHE_REFILL_LD", "Level 1 data cache refill, read", C, 0},
    {event::a15::L1D_CACHE_REFILL_ST, "L1D_CACHE_REFILL_ST", "Level 1 data cache refill, write", C, 0},
    {event::a15::L1D_CACHE_WB_VICTIM, "L1D_CACHE_WB_VICTIM", "Level 1 data cache write-back, victim", C, 0},
    {event::a15::L1D_CACHE_WB_CLEAN, "L1D_CACHE_WB_CLEAN", "Level 1 data cache write-back, cleaning and coherency", C, 0},
    {event::a15::L1D_CACHE_INVAL, "L1D_CACHE_INVAL", "Level 1 data cache invalidate", C, 0},
    {event::a15::L1D_TLB_REFILL_LD, "L1D_TLB_REFILL_LD", "Level 1 data TLB refill, read", C, 0},
    {event::a15::L1D_TLB_REFILL_ST, "L1D_TLB_REFILL_ST", "Level 1 data TLB refill, write", C, 0},
    {event::a15::L2D_CACHE_LD, "L2D_CACHE_LD", "Level 2 data cache access, read", C, 0},
    {event::a15::L2D_CACHE_ST, "L2D_CACHE_ST", "Level 2 data cache access, write", C, 0},
    {event::a15::L2D_CACHE_REFILL_LD, "L2D_CACHE_REFILL_LD", "Level 2 data cache refill, read", C, 0},
    {event::a15::L2D_CACHE_REFILL_ST, "L2D_CACHE_REFILL_ST", "Level 2 data cache refill, write", C, 0},
    {event::a15::L2D_CACHE_WB_VICTIM, "L2D_CACHE_WB_VICTIM", "Level 2 data cache write-back, victim", C, 0},
    {event::a15::L2D_CACHE_WB_CLEAN, "L2D_CACHE_WB_CLEAN", "Level 2 data cache write-back, cleaning and coherency", C, 0},
    {event::a15::L2D_CACHE_INVAL, "L2D_CACHE_INVAL", "Level 2 data cache invalidate", C, 0},
    {event::a15::BUS_ACCESS_LD, "BUS_ACCESS_LD", "Bus access, read", C, 0},
    {event::a15::BUS_ACCESS_ST, "BUS_ACCESS_ST", "Bus access, write", C, 0},
    {event::a15::BUS_ACCESS_SHARED, "BUS_ACCESS_SHARED", "Bus access, Normal, Cacheable, Shareable", C, 0},
    {event::a15::BUS_ACCESS_NOT_SHARED, "BUS_ACCESS_NOT_SHARED", "Bus access, not Normal, Cacheable, Shareable", C, 0},
    {event::a15::BUS_ACCESS_NORMAL, "BUS_ACCESS_NORMAL", "Bus access, Normal", C, 0},
    {event::a15::BUS_ACCESS_PERIPH, "BUS_ACCESS_PERIPH", "Bus access, peripheral", C, 0},
    {event::a15::MEM_ACCESS_LD, "MEM_ACCESS_LD", "Data memory access, read", C, 0},
    {event::a15::MEM_ACCESS_ST, "MEM_ACCESS_ST", "Data memory access, write", C, 0},
    {event::a15::UNALIGNED_LD_SPEC, "UNALIGNED_LD_SPEC", "Unaligned access, read", C, 0},
    {event::a15::UNALIGNED_ST_SPEC, "UNALIGNED_ST_SPEC", "Unaligned access, write", C, 0},
    {event::a15::UNALIGNED_LDST_SPEC, "UNALIGNED_LDST_SPEC", "Unaligned access", C, 0},
    {event::a15::LDREX_SPEC, "LDREX_SPEC", "Exclusive instruction speculatively executed, LDREX", C, 0},
    {event::a15::STREX_PASS_SPEC, "STREX_PASS_SPEC", "Exclusive instruction speculatively executed, STREX pass", C, 0},
    {event::a15::STREX_FAIL_SPEC, "STREX_FAIL_SPEC", "Exclusive instruction speculatively executed, STREX fail", C, 0},
    {event::a15::LD_SPEC, "LD_SPEC", "Instruction speculatively executed, load", C, 0},
    {event::a15::ST_SPEC, "ST_SPEC", "Instruction speculatively executed, store", C, 0},
    {event::a15::LDST_SPEC, "LDST_SPEC", "Instruction speculatively executed, load or store", C, 0},
    {event::a15::DP_SPEC, "DP_SPEC", "Instruction speculatively executed, integer data processing", C, 0},
    {event::a15::ASE_SPEC, "ASE_SPEC", "Instruction speculatively executed, Advanced SIMD Extension", C, 0},
    {event::a15::VFP_SPEC, "VFP_SPEC", "Instruction speculatively executed, Floating-point Extension", C, 0},
    {event::a15::PC_WRITE_SPEC, "PC_WRITE_SPEC", "Instruction speculatively executed, software change of the PC", C, 0},
    {event::a15::BR_IMMED_SPEC, "BR_IMMED_SPEC", "Branch speculatively executed, immediate branch", C, 0},
    {event::a15::BR_RETURN_SPEC, "BR_RETURN_SPEC", "Branch speculatively executed, procedure return", C, 0},
    {event::a15::BR_INDIRECT_SPEC, "BR_INDIRECT_SPEC", "Branch speculatively executed, indirect branch", C, 0},
    {event::a15::ISB_SPEC, "ISB_SPEC", "Barrier speculatively executed, ISB", C, 0},
    {event::a15::DSB_SPEC, "DSB_SPEC", "Barrier speculatively executed, DSB", C, 0},
    {event::a15::DMB_SPEC, "DMB_SPEC", "Barrier speculatively executed, DMB", C, 0},
};

namespace event::a9 {
// Cortex-A9 TRM (ARM DDI 0388I), 11.4.1 "Cortex-A9 specific events", Table 11-6. The TRM gives
// names, not mnemonics: these are made of its names.
inline constexpr std::uint32_t JAVA_BYTECODE_EXEC = 0x40;
inline constexpr std::uint32_t SW_JAVA_BYTECODE_EXEC = 0x41;
inline constexpr std::uint32_t JAZELLE_BACKWARD_BRANCH_EXEC = 0x42;
inline constexpr std::uint32_t COHERENT_LINEFILL_MISS = 0x50;
inline constexpr std::uint32_t COHERENT_LINEFILL_HIT = 0x51;
inline constexpr std::uint32_t ICACHE_DEP_STALL_CYCLES = 0x60;
inline constexpr std::uint32_t DCACHE_DEP_STALL_CYCLES = 0x61;
inline constexpr std::uint32_t MAIN_TLB_MISS_STALL_CYCLES = 0x62;
inline constexpr std::uint32_t STREX_PASSED = 0x63;
inline constexpr std::uint32_t STREX_FAILED = 0x64;
inline constexpr std::uint32_t DATA_EVICTION = 0x65;
inline constexpr std::uint32_t ISSUE_NO_DISPATCH_CYCLES = 0x66;
inline constexpr std::uint32_t ISSUE_EMPTY_CYCLES = 0x67;
inline constexpr std::uint32_t INST_RENAMED = 0x68;
inline constexpr std::uint32_t DATA_LINEFILLS = 0x69;
inline constexpr std::uint32_t PREFETCH_LINEFILLS = 0x6A;
inline constexpr std::uint32_t PREFETCH_HITS = 0x6B;
inline constexpr std::uint32_t PREDICTABLE_FUNCTION_RETURNS = 0x6E;
inline constexpr std::uint32_t MAIN_EXEC_INST = 0x70;
inline constexpr std::uint32_t SECOND_EXEC_INST = 0x71;
inline constexpr std::uint32_t LDST_INST = 0x72;
inline constexpr std::uint32_t FP_INST_RENAMED = 0x73;
inline constexpr std::uint32_t NEON_INST_RENAMED = 0x74;
inline constexpr std::uint32_t PLD_FULL_STALL_CYCLES = 0x80;
inline constexpr std::uint32_t WRITE_FULL_STALL_CYCLES = 0x81;
inline constexpr std::uint32_t MAIN_ITLB_MISS_STALL_CYCLES = 0x82;
inline constexpr std::uint32_t MAIN_DTLB_MISS_STALL_CYCLES = 0x83;
inline constexpr std::uint32_t MICRO_ITLB_MISS_STALL_CYCLES = 0x84;
inline constexpr std::uint32_t MICRO_DTLB_MISS_STALL_CYCLES = 0x85;
inline constexpr std::uint32_t DMB_STALL_CYCLES = 0x86;
inline constexpr std::uint32_t INTEGER_CLOCK_ENABLED_CYCLES = 0x8A;
inline constexpr std::uint32_t DATA_ENGINE_CLOCK_ENABLED_CYCLES = 0x8B;
inline constexpr std::uint32_t ISB_INST = 0x90;
inline constexpr std::uint32_t DSB_INST = 0x91;
inline constexpr std::uint32_t DMB_INST = 0x92;
inline constexpr std::uint32_t EXTERNAL_INTERRUPTS = 0x93;
inline constexpr std::uint32_t PLE_LINE_REQUESTS_COMPLETED = 0xA0;
inline constexpr std::uint32_t PLE_LINE_REQUESTS_SKIPPED = 0xA1;
inline constexpr std::uint32_t PLE_FIFO_FLUSHES = 0xA2;
inline constexpr std::uint32_t PLE_REQUESTS_COMPLETED = 0xA3;
inline constexpr std::uint32_t PLE_FIFO_OVERFLOWS = 0xA4;
inline constexpr std::uint32_t PLE_REQUESTS_PROGRAMMED = 0xA5;
}  // namespace event::a9

// Cortex-A9: Table 11-5 ("Implemented architectural events") has 0x00-0x12 except 0x08 and 0x0E,
// which it says are not implemented, 0x68 and 0x6E giving similar counts. The TRM text read here
// covers 0x40-0x62 and 0x68-0x6E; 0x63-0x67 and 0x70-0xA5 are cross-checked against libpfm4's
// Cortex-A9 list only. libpfm4's list (r2p2) has no 0x69-0x6B, which DDI 0388I (r4p1) has.
template <std::uint32_t C>
inline constexpr EventInfo kCortexA9Events[] = {
    common<C>(0x00), common<C>(0x01), common<C>(0x02), common<C>(0x03), common<C>(0x04), common<C>(0x05),
    common<C>(0x06), common<C>(0x07), common<C>(0x09), common<C>(0x0A), common<C>(0x0B), common<C>(0x0C),
    common<C>(0x0D), common<C>(0x0F), common<C>(0x10), common<C>(0x11), common<C>(0x12),
    {event::a9::JAVA_BYTECODE_EXEC, "JAVA_BYTECODE_EXEC", "Java bytecode execute (approximate)", C, 0},
    {event::a9::SW_JAVA_BYTECODE_EXEC, "SW_JAVA_BYTECODE_EXEC", "Software Java bytecode executed (approximate)", C, 0},
    {event::a9::JAZELLE_BACKWARD_BRANCH_EXEC, "JAZELLE_BACKWARD_BRANCH_EXEC", "Jazelle backward branches executed (approximate)", C, 0},
    {event::a9::COHERENT_LINEFILL_MISS, "COHERENT_LINEFILL_MISS", "Coherent linefill miss", C, 0},
    {event::a9::COHERENT_LINEFILL_HIT, "COHERENT_LINEFILL_HIT", "Coherent linefill hit", C, 0},
    {event::a9::ICACHE_DEP_STALL_CYCLES, "ICACHE_DEP_STALL_CYCLES", "Instruction cache dependent stall cycles (approximate)", C, 0},
    {event::a9::DCACHE_DEP_STALL_CYCLES, "DCACHE_DEP_STALL_CYCLES", "Data cache dependent stall cycles (approximate)", C, 0},
    {event::a9::MAIN_TLB_MISS_STALL_CYCLES, "MAIN_TLB_MISS_STALL_CYCLES", "Main TLB miss stall cycles (approximate)", C, 0},
    {event::a9::STREX_PASSED, "STREX_PASSED", "STREX instructions executed and passed", C, 0},
    {event::a9::STREX_FAILED, "STREX_FAILED", "STREX instructions executed and failed", C, 0},
    {event::a9::DATA_EVICTION, "DATA_EVICTION", "Data eviction requests because of a data cache linefill", C, 0},
    {event::a9::ISSUE_NO_DISPATCH_CYCLES, "ISSUE_NO_DISPATCH_CYCLES", "Cycles the issue stage dispatches no instruction", C, 0},
    {event::a9::ISSUE_EMPTY_CYCLES, "ISSUE_EMPTY_CYCLES", "Cycles the issue stage is empty", C, 0},
    {event::a9::INST_RENAMED, "INST_RENAMED", "Instructions coming out of the core renaming stage (approximate)", C, 0},
    {event::a9::DATA_LINEFILLS, "DATA_LINEFILLS", "Number of data linefills", C, 0},
    {event::a9::PREFETCH_LINEFILLS, "PREFETCH_LINEFILLS", "Number of prefetcher linefills", C, 0},
    {event::a9::PREFETCH_HITS, "PREFETCH_HITS", "Number of hits in prefetched cache lines", C, 0},
    {event::a9::PREDICTABLE_FUNCTION_RETURNS, "PREDICTABLE_FUNCTION_RETURNS", "Predictable function returns (approximate)", C, 0},
    {event::a9::MAIN_EXEC_INST, "MAIN_EXEC_INST", "Instructions executed in the main execution, multiply and ALU pipelines (approximate)", C, 0},
    {event::a9::SECOND_EXEC_INST, "SECOND_EXEC_INST", "Instructions executed in the second execution pipeline", C, 0},
    {event::a9::LDST_INST, "LDST_INST", "Instructions executed in the Load/Store unit", C, 0},
    {event::a9::FP_INST_RENAMED, "FP_INST_RENAMED", "Floating-point instructions through the renaming stage", C, 0},
    {event::a9::NEON_INST_RENAMED, "NEON_INST_RENAMED", "Advanced SIMD instructions through the renaming stage (approximate)", C, 0},
    {event::a9::PLD_FULL_STALL_CYCLES, "PLD_FULL_STALL_CYCLES", "Cycles stalled because every PLD slot is full (approximate)", C, 0},
    {event::a9::WRITE_FULL_STALL_CYCLES, "WRITE_FULL_STALL_CYCLES", "Cycles stalled on writes to external memory (approximate)", C, 0},
    {event::a9::MAIN_ITLB_MISS_STALL_CYCLES, "MAIN_ITLB_MISS_STALL_CYCLES", "Cycles stalled on a main instruction TLB miss (approximate)", C, 0},
    {event::a9::MAIN_DTLB_MISS_STALL_CYCLES, "MAIN_DTLB_MISS_STALL_CYCLES", "Cycles stalled on a main data TLB miss (approximate)", C, 0},
    {event::a9::MICRO_ITLB_MISS_STALL_CYCLES, "MICRO_ITLB_MISS_STALL_CYCLES", "Cycles stalled on a micro instruction TLB miss (approximate)", C, 0},
    {event::a9::MICRO_DTLB_MISS_STALL_CYCLES, "MICRO_DTLB_MISS_STALL_CYCLES", "Cycles stalled on a micro data TLB miss (approximate)", C, 0},
    {event::a9::DMB_STALL_CYCLES, "DMB_STALL_CYCLES", "Cycles stalled on a DMB (approximate)", C, 0},
    {event::a9::INTEGER_CLOCK_ENABLED_CYCLES, "INTEGER_CLOCK_ENABLED_CYCLES", "Cycles the integer core clock is enabled (approximate)", C, 0},
    {event::a9::DATA_ENGINE_CLOCK_ENABLED_CYCLES, "DATA_ENGINE_CLOCK_ENABLED_CYCLES", "Cycles the data engine clock is enabled (approximate)", C, 0},
    {event::a9::ISB_INST, "ISB_INST", "ISB instructions architecturally executed", C, 0},
    {event::a9::DSB_INST, "DSB_INST", "DSB instructions architecturally executed", C, 0},
    {event::a9::DMB_INST, "DMB_INST", "DMB instructions architecturally executed (approximate)", C, 0},
    {event::a9::EXTERNAL_INTERRUPTS, "EXTERNAL_INTERRUPTS", "External interrupts (approximate)", C, 0},
    {event::a9::PLE_LINE_REQUESTS_COMPLETED, "PLE_LINE_REQUESTS_COMPLETED", "PLE cache line requests completed", C, 0},
    {event::a9::PLE_LINE_REQUESTS_SKIPPED, "PLE_LINE_REQUESTS_SKIPPED", "PLE cache line requests skipped", C, 0},
    {event::a9::PLE_FIFO_FLUSHES, "PLE_FIFO_FLUSHES", "PLE FIFO flushes", C, 0},
    {event::a9::PLE_REQUESTS_COMPLETED, "PLE_REQUESTS_COMPLETED", "PLE requests completed", C, 0},
    {event::a9::PLE_FIFO_OVERFLOWS, "PLE_FIFO_OVERFLOWS", "PLE FIFO overflows", C, 0},
    {event::a9::PLE_REQUESTS_PROGRAMMED, "PLE_REQUESTS_PROGRAMMED", "PLE requests programmed", C, 0},
};

namespace event::a7 {
// Cortex-A7 MPCore TRM (ARM DDI 0464), 11.5 "Events", Table 11.5 "Performance monitor events".
inline constexpr std::uint32_t BUS_ACCESS_LD = 0x60;
inline constexpr std::uint32_t BUS_ACCESS_ST = 0x61;
inline constexpr std::uint32_t EXC_IRQ = 0x86;
inline constexpr std::uint32_t EXC_FIQ = 0x87;
inline constexpr std::uint32_t EXT_MEM_REQ = 0xC0;
inline constexpr std::uint32_t EXT_MEM_REQ_NC = 0xC1;
inline constexpr std::uint32_t PREFETCH_LINEFILL = 0xC2;
inline constexpr std::uint32_t PREFETCH_LINEFILL_DROP = 0xC3;
inline constexpr std::uint32_t READ_ALLOC_ENTER = 0xC4;
inline constexpr std::uint32_t READ_ALLOC = 0xC5;
inline constexpr std::uint32_t STALL_SB_FULL = 0xC9;
inline constexpr std::uint32_t SNOOPED_DATA = 0xCA;
}  // namespace event::a7

// Cortex-A7: the TRM text read here covers 0x00-0x0A only; the rest of the table (0x0B-0x19, 0x1D,
// 0x60-0xCA) is cross-checked against OProfile's and Linux's Cortex-A7 lists, which take every
// common event. Which of 0x0E and 0x1A-0x1C the core has is not settled here: 0x0E is kept (OProfile's Cortex-A7
// list includes its Cortex-A5 list, and the Cortex-A5 TRM's PMCEID0 has it; the Cortex-A53 TRM's
// table, the A7's ARMv8 successor, has no 0x0E), 0x1A-0x1C left out.
// PMCEID0 on the part (ProbeReport) says what it implements.
template <std::uint32_t C>
inline constexpr EventInfo kCortexA7Events[] = {
    common<C>(0x00), common<C>(0x01), common<C>(0x02), common<C>(0x03), common<C>(0x04), common<C>(0x05),
    common<C>(0x06), common<C>(0x07), common<C>(0x08), common<C>(0x09), common<C>(0x0A), common<C>(0x0B),
    common<C>(0x0C), common<C>(0x0D), common<C>(0x0E), common<C>(0x0F), common<C>(0x10), common<C>(0x11),
    common<C>(0x12), common<C>(0x13), common<C>(0x14), common<C>(0x15), common<C>(0x16), common<C>(0x17),
    common<C>(0x18), common<C>(0x19), common<C>(0x1D),
    {event::a7::BUS_ACCESS_LD, "BUS_ACCESS_LD", "Bus access, read", C, 0},
    {event::a7::BUS_ACCESS_ST, "BUS_ACCESS_ST", "Bus access, write", C, 0},
    {event::a7::EXC_IRQ, "EXC_IRQ", "Exception taken, IRQ", C, 0},
    {event::a7::EXC_FIQ, "EXC_FIQ", "Exception taken, FIQ", C, 0},
    {event::a7::EXT_MEM_REQ, "EXT_MEM_REQ", "External memory request", C, 0},
    {event::a7::EXT_MEM_REQ_NC, "EXT_MEM_REQ_NC", "Non-cacheable external memory request", C, 0},
    {event::a7::PREFETCH_LINEFILL, "PREFETCH_LINEFILL", "Linefill because of prefetch", C, 0},
    {event::a7::PREFETCH_LINEFILL_DROP, "PREFETCH_LINEFILL_DROP", "Prefetch linefill dropped", C, 0},
    {event::a7::READ_ALLOC_ENTER, "READ_ALLOC_ENTER", "Entering read allocate mode", C, 0},
    {event::a7::READ_ALLOC, "READ_ALLOC", "Read allocate mode", C, 0},
    {event::a7::STALL_SB_FULL, "STALL_SB_FULL", "Data write operation that stalls the pipeline because the store buffer is full", C, 0},
    {event::a7::SNOOPED_DATA, "SNOOPED_DATA", "Data snooped from another processor of the cluster", C, 0},
};

// Presets per core, from events each core has. Cortex-A15 has no PC_WRITE_RETIRED: branches are
// its speculative PC_WRITE_SPEC. Cortex-A9 has no INST_RETIRED: instructions are the renaming
// stage's count (0x68), which the TRM calls approximate (it includes mispredicted work).
template <std::uint32_t C>
inline constexpr PresetBinding kCortexA15Presets[] = {
    {Preset::cycles, event::CPU_CYCLES, C},
    {Preset::instructions, event::INST_RETIRED, C},
    {Preset::dcache_misses, event::L1D_CACHE_REFILL, C},
    {Preset::icache_misses, event::L1I_CACHE_REFILL, C},
    {Preset::branch_mispredicts, event::BR_MIS_PRED, C},
    {Preset::branches, event::a15::PC_WRITE_SPEC, C},
    {Preset::tlb_misses, event::L1D_TLB_REFILL, C},
};
template <std::uint32_t C>
inline constexpr PresetBinding kCortexA9Presets[] = {
    {Preset::cycles, event::CPU_CYCLES, C},
    {Preset::instructions, event::a9::INST_RENAMED, C},
    {Preset::dcache_misses, event::L1D_CACHE_REFILL, C},
    {Preset::icache_misses, event::L1I_CACHE_REFILL, C},
    {Preset::branch_mispredicts, event::BR_MIS_PRED, C},
    {Preset::branches, event::PC_WRITE_RETIRED, C},
    {Preset::tlb_misses, event::L1D_TLB_REFILL, C},
};

// The per-core catalogs. PMCR.N: Cortex-A15 6, Cortex-A9 6, Cortex-A7 4 (each TRM, PMCR).
inline constexpr PmuCatalog kCortexA15Catalog{
    "cortex-a15",
    "ARM Cortex-A15 PMU: PMCCNTR and 6 event counters (Cortex-A15 MPCore TRM, 11.6 Events)",
    32,
    6,
    kCortexA15Events<kCounterMask<6>>,
    sizeof(kCortexA15Events<1>) / sizeof(EventInfo),
    kCortexA15Presets<kCounterMask<6>>,
    sizeof(kCortexA15Presets<1>) / sizeof(PresetBinding),
    8,
};
inline constexpr PmuCatalog kCortexA9Catalog{
    "cortex-a9",
    "ARM Cortex-A9 PMU: PMCCNTR and 6 event counters (Cortex-A9 TRM, 11.4 Performance monitoring events)",
    32,
    6,
    kCortexA9Events<kCounterMask<6>>,
    sizeof(kCortexA9Events<1>) / sizeof(EventInfo),
    kCortexA9Presets<kCounterMask<6>>,
    sizeof(kCortexA9Presets<1>) / sizeof(PresetBinding),
    8,
};
inline constexpr PmuCatalog kCortexA7Catalog{
    "cortex-a7",
    "ARM Cortex-A7 PMU: PMCCNTR and 4 event counters (Cortex-A7 MPCore TRM, 11.5 Events)",
    32,
    4,
    kCortexA7Events<kCounterMask<4>>,
    sizeof(kCortexA7Events<1>) / sizeof(EventInfo),
    kPresets<kCounterMask<4>>,
    sizeof(kPresets<1>) / sizeof(PresetBinding),
    8,
};
static_assert(catalog_sound(kCortexA15Catalog), "Cortex-A15 catalog: codes unique, fit evtCount, counters exist");
static_assert(catalog_sound(kCortexA9Catalog), "Cortex-A9 catalog: codes unique, fit evtCount, counters exist");
static_assert(catalog_sound(kCortexA7Catalog), "Cortex-A7 catalog: codes unique, fit evtCount, counters exist");

}  // namespace pmu::armv7a
