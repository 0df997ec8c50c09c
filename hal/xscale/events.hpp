#pragma once
// XScale core PMU events (core manual §8.4, Table 8-12) and the portable presets they implement.
//
// The same event numbers serve both variants: any PMN can count any event (§8.4), so the tables
// differ only in which counters exist. In EventInfo/PresetBinding, "counters" bit n = PMNn (the
// PmuCatalog's programmable counters); the driver's slot numbers are one higher (slot 0 = CCNT).
//
// Cycles have no evtCount value: they come only from the dedicated clock counter CCNT. It is listed
// under the pseudo event code kCcntEvent = 0x100, outside the 8-bit evtCount range so it can never
// be written into an event select field by mistake; its "counters" mask is 0 (no PMN takes it) and
// the driver's slots_for(0x100) is slot 0.
#include <cstddef>
#include <cstdint>

#include "hal/core/event.hpp"

namespace pmu::xscale {

inline constexpr std::uint32_t kCcntEvent = 0x100;  // pseudo event: CCNT (slot 0)
inline constexpr std::uint32_t kMaxEventCode = 0xFF;  // evtCountN is 8 bits

// Event numbers of Table 8-12, by the manual's meaning.
namespace event {
inline constexpr std::uint32_t IC_MISS = 0x00;         // I-cache miss that fetches from memory
inline constexpr std::uint32_t IC_NO_DELIVER = 0x01;   // cycles the I-cache cannot deliver
inline constexpr std::uint32_t DATA_STALL = 0x02;      // cycles stalled on a data dependency
inline constexpr std::uint32_t ITLB_MISS = 0x03;
inline constexpr std::uint32_t DTLB_MISS = 0x04;
inline constexpr std::uint32_t BRANCH = 0x05;          // B/BL executed
inline constexpr std::uint32_t BRANCH_MISPRED = 0x06;  // B/BL mispredicted
inline constexpr std::uint32_t INSTR = 0x07;           // instruction executed
inline constexpr std::uint32_t DC_FULL_CYCLE = 0x08;   // cycles stalled, D-cache buffers full
inline constexpr std::uint32_t DC_FULL_CONTIG = 0x09;  // such stalls, once per contiguous run
inline constexpr std::uint32_t DC_ACCESS = 0x0A;
inline constexpr std::uint32_t DC_MISS = 0x0B;
inline constexpr std::uint32_t DC_WRITEBACK = 0x0C;    // per half line (four words)
inline constexpr std::uint32_t PC_CHANGE = 0x0D;       // software changed the PC
inline constexpr std::uint32_t ASSP_FIRST = 0x10;      // 0x10-0x17: defined by the product (ASSP)
inline constexpr std::uint32_t ASSP_LAST = 0x17;
inline constexpr std::uint32_t POWER_SAVE = 0xFF;      // no event: the counter is switched off
}  // namespace event

// Table 8-12, with the counters of one variant. Descriptions paraphrase the manual.
template <std::uint32_t Counters>
inline constexpr EventInfo kEventTable[] = {
    {event::IC_MISS, "IC_MISS", "instruction cache miss that requires a fetch from external memory",
     Counters, 0},
    {event::IC_NO_DELIVER, "IC_NO_DELIVER",
     "instruction cache cannot deliver an instruction (I-cache or I-TLB miss); every cycle",
     Counters, 0},
    {event::DATA_STALL, "DATA_STALL", "stall due to a data dependency; every cycle", Counters, 0},
    {event::ITLB_MISS, "ITLB_MISS", "instruction TLB miss", Counters, 0},
    {event::DTLB_MISS, "DTLB_MISS", "data TLB miss", Counters, 0},
    {event::BRANCH, "BRANCH", "branch executed (B and BL only, taken or not)", Counters, 0},
    {event::BRANCH_MISPRED, "BRANCH_MISPRED", "branch mispredicted (B and BL only)", Counters, 0},
    {event::INSTR, "INSTR", "instruction executed", Counters, 0},
    {event::DC_FULL_CYCLE, "DC_FULL_CYCLE", "stall because the data cache buffers are full; every cycle",
     Counters, 0},
    {event::DC_FULL_CONTIG, "DC_FULL_CONTIG",
     "stall because the data cache buffers are full; once per contiguous stall", Counters, 0},
    {event::DC_ACCESS, "DC_ACCESS", "data cache access, not counting cache operations", Counters, 0},
    {event::DC_MISS, "DC_MISS", "data cache miss, not counting cache operations", Counters, 0},
    {event::DC_WRITEBACK, "DC_WRITEBACK", "data cache write-back, once per half line (four words)",
     Counters, 0},
    {event::PC_CHANGE, "PC_CHANGE",
     "software changed the PC (branches, PC loads and moves; not exceptions)", Counters, 0},
    {0x10, "ASSP_10", "defined by the product (ASSP); see its developer's manual", Counters, 0},
    {0x11, "ASSP_11", "defined by the product (ASSP); see its developer's manual", Counters, 0},
    {0x12, "ASSP_12", "defined by the product (ASSP); see its developer's manual", Counters, 0},
    {0x13, "ASSP_13", "defined by the product (ASSP); see its developer's manual", Counters, 0},
    {0x14, "ASSP_14", "defined by the product (ASSP); see its developer's manual", Counters, 0},
    {0x15, "ASSP_15", "defined by the product (ASSP); see its developer's manual", Counters, 0},
    {0x16, "ASSP_16", "defined by the product (ASSP); see its developer's manual", Counters, 0},
    {0x17, "ASSP_17", "defined by the product (ASSP); see its developer's manual", Counters, 0},
    {event::POWER_SAVE, "POWER_SAVE",
     "power saving: the counter counts nothing (drivers park unused counters on it)", Counters, 0},
    {kCcntEvent, "CCNT", "core clock cycles, counted by the dedicated clock counter (not a PMN)",
     0, 0},
};
template <std::uint32_t Counters>
inline constexpr std::size_t kEventCount = sizeof(kEventTable<Counters>) / sizeof(EventInfo);

// Presets. Why each event:
//   cycles             CCNT: the only cycle source (§8.3.1); keeps every PMN free.
//   instructions       0x07 instruction executed.
//   dcache_misses      0x0B D-cache miss (cache operations excluded; the mini-data cache included,
//                      §8.4.2).
//   icache_misses      0x00: counts misses that fetch a line; 0x01 counts stall cycles instead.
//   branch_mispredicts 0x06 (B/BL only: the core predicts only those).
//   branches           0x05 (B/BL only), the denominator of 0x06; 0x0D (PC changed) also counts
//                      indirect branches but only taken ones - use it as a raw event.
//   tlb_misses         0x04 D-TLB: the data side is the one that varies with a workload's data set;
//                      the I-TLB (0x03) is available as a raw event.
//   stall_cycles       0x02 data-dependency stall, every cycle: the core's main pipeline stall;
//                      0x01 (fetch) and 0x08 (D-cache buffers full) are raw events.
template <std::uint32_t Counters>
inline constexpr PresetBinding kPresetTable[] = {
    {Preset::cycles, kCcntEvent, 0},
    {Preset::instructions, event::INSTR, Counters},
    {Preset::dcache_misses, event::DC_MISS, Counters},
    {Preset::icache_misses, event::IC_MISS, Counters},
    {Preset::branch_mispredicts, event::BRANCH_MISPRED, Counters},
    {Preset::branches, event::BRANCH, Counters},
    {Preset::tlb_misses, event::DTLB_MISS, Counters},
    {Preset::stall_cycles, event::DATA_STALL, Counters},
};
static_assert(sizeof(kPresetTable<1>) / sizeof(PresetBinding) == kPresetCount,
              "every portable preset has a binding");

inline constexpr std::uint32_t kXsc1Counters = 0x3;  // PMN0, PMN1
inline constexpr std::uint32_t kXsc2Counters = 0xF;  // PMN0-PMN3

inline constexpr PmuCatalog kXsc1Catalog{
    "xscale-xsc1",
    "Intel XScale core PMU, XSC1: CCNT + 2 event counters (80200, IXP2400/2800)",
    32,
    2,
    kEventTable<kXsc1Counters>,
    kEventCount<kXsc1Counters>,
    kPresetTable<kXsc1Counters>,
    kPresetCount,
    8,  // evtCountN
};
static_assert(catalog_sound(kXsc1Catalog), "XSC1 event catalog: codes unique, fit evtCount, counters exist");

inline constexpr PmuCatalog kXsc2Catalog{
    "xscale-xsc2",
    "Intel XScale core PMU, XSC2: CCNT + 4 event counters (PXA27x, IXP4xx)",
    32,
    4,
    kEventTable<kXsc2Counters>,
    kEventCount<kXsc2Counters>,
    kPresetTable<kXsc2Counters>,
    kPresetCount,
    8,  // evtCountN
};
static_assert(catalog_sound(kXsc2Catalog), "XSC2 event catalog: codes unique, fit evtCount, counters exist");

}  // namespace pmu::xscale
