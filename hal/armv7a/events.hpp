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

// The architecture's catalog for a part with N event counters (PMCR.N). Cortex-A15 and Cortex-A9
// have 6, Cortex-A7 and Cortex-A8 4 (their Technical Reference Manuals, PMCR.N).
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

}  // namespace pmu::armv7a
