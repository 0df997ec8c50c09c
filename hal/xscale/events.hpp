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
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>

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
inline constexpr std::uint32_t ASSP_LAST = 0x17;       //   (k80200Events: the 80200's)
inline constexpr std::uint32_t POWER_SAVE = 0xFF;      // no event: the counter is switched off
}  // namespace event

// Table 8-12's core events, with the counters of one variant. Descriptions paraphrase the manual.
// Events 0x10-0x17 are "defined by ASSP" (Table 8-12): each product's manual says what they count,
// so they are not in the core table. A product whose meanings are known gets its own catalog
// (the 80200 below); on every other product they are undefined here and configure() refuses them.
template <std::uint32_t Counters>
inline constexpr EventInfo kCoreEvents[] = {
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
};
// Rows after the product's own events: power saving and the clock counter.
template <std::uint32_t Counters>
inline constexpr EventInfo kTailEvents[] = {
    {event::POWER_SAVE, "POWER_SAVE",
     "power saving: the counter counts nothing (drivers park unused counters on it)", Counters, 0},
    {kCcntEvent, "CCNT", "core clock cycles, counted by the dedicated clock counter (not a PMN)",
     0, 0},
};

// 80200 events 0x10-0x17 (80200 Developer's Manual, ch. 12, Table 12-4: 0x10 read from the manual;
// 0x11-0x16 as OProfile's xscale1 list and Linux's XScale PMU code give them). 0x13 and 0x17 are
// undefined on the 80200 (no source defines them).
template <std::uint32_t Counters>
inline constexpr EventInfo k80200Events[] = {
    {0x10, "BCU_REQUEST", "the bus control unit received a new memory request from the core", Counters, 0},
    {0x11, "BCU_FULL", "the bus control unit's request queue is full; every cycle", Counters, 0},
    {0x12, "BCU_DRAIN",
     "bus control unit queues drained (Drain Write Buffer, or I/O to a non-cacheable, non-bufferable page)",
     Counters, 0},
    {0x14, "BCU_ECC_NO_ELOG", "ECC error detected but no ELOG register free to log it", Counters, 0},
    {0x15, "BCU_1_BIT_ERR", "1-bit ECC error detected while reading data from the bus", Counters, 0},
    {0x16, "RMW", "read-modify-write for a narrow write to ECC-protected memory", Counters, 0},
};

// Third-generation cores (XSC3: PXA3xx, IOP13xx/IOP34x, IXP23xx) keep the XSC2 register map and
// add these events. No copy of the 3rd Generation XScale Developer's Manual was reachable: the
// codes rest on Marvell's PXA3xx BSP (pmu.h) and FreeBSD's hwpmc_xscale.c, which cites that manual;
// rows only one of them has say so. They disagree on the coprocessor stall (Marvell 0x1D, FreeBSD
// 0x17); the vendor's 0x1D is listed. Nothing is defined in 0x10-0x17 on XSC3.
template <std::uint32_t Counters>
inline constexpr EventInfo kXsc3Events[] = {
    {0x0E, "BRANCH_RETIRED", "branch retired, direct and indirect", Counters, 0},
    {0x0F, "ISSUE_CYCLES", "instruction issue cycles of retired instructions", Counters, 0},
    {0x18, "PC_CHANGE_ALL", "PC changed, exceptions included", Counters, 0},
    {0x19, "PIPE_FLUSH", "pipeline flush (branch mispredict or exception)", Counters, 0},
    {0x1A, "BACKEND_STALL", "back-end stall; every cycle", Counters, 0},
    {0x1B, "MULTIPLIER_USE", "multiplier in use; every cycle", Counters, 0},
    {0x1C, "MULTIPLIER_STALL", "multiplier stalled the pipeline", Counters, 0},
    {0x1D, "COPROC_STALL", "coprocessor stalled the pipeline (Marvell's code; FreeBSD lists 0x17)",
     Counters, 0},
    {0x1E, "DC_STALL", "data cache stalled the pipeline", Counters, 0},
    {0x20, "L2_REQUEST", "unified L2 request, not counting cache operations (table walks included)",
     Counters, 0},
    {0x23, "L2_MISS", "unified L2 miss, not counting cache operations", Counters, 0},
    {0x40, "ADDR_BUS_TRANS", "address bus transaction", Counters, 0},
    {0x41, "SELF_ADDR_BUS_TRANS", "address bus transaction the core started", Counters, 0},
    {0x43, "BUS_CLOCK", "bus clock, once per bus cycle (Marvell's code only)", Counters, 0},
    {0x47, "SELF_DATA_BUS_TRANS", "data bus transaction the core started (Marvell's code only)",
     Counters, 0},
    {0x48, "DATA_BUS_TRANS", "data bus transaction, once per data bus cycle", Counters, 0},
    {0x80, "ASSP_0", "product event 0 (PXA3xx: the performance monitor logic's selector 0)", Counters, 0},
    {0x81, "ASSP_1", "product event 1 (PXA3xx: selector 1)", Counters, 0},
    {0x82, "ASSP_2", "product event 2 (PXA3xx: selector 2)", Counters, 0},
    {0x83, "ASSP_3", "product event 3 (PXA3xx: selector 3)", Counters, 0},
    {0x84, "ASSP_4", "product event 4 (Marvell's code only)", Counters, 0},
    {0x85, "ASSP_5", "product event 5 (Marvell's code only)", Counters, 0},
    {0x86, "ASSP_6", "product event 6 (Marvell's code only)", Counters, 0},
    {0x87, "ASSP_7", "product event 7 (Marvell's code only)", Counters, 0},
};

namespace detail {
// The parts, one after another (each part sorted, and every part's codes above the previous').
template <std::size_t... N>
constexpr std::array<EventInfo, (N + ...)> join(const EventInfo (&... parts)[N]) {
  std::array<EventInfo, (N + ...)> out{};
  std::size_t n = 0;
  ((std::copy(std::begin(parts), std::end(parts), out.begin() + n), n += N), ...);
  return out;
}
}  // namespace detail

// The event table of each catalog, sorted by code.
template <std::uint32_t Counters>
inline constexpr auto kEventTable = detail::join(kCoreEvents<Counters>, kTailEvents<Counters>);
template <std::uint32_t Counters>
inline constexpr auto k80200Table =
    detail::join(kCoreEvents<Counters>, k80200Events<Counters>, kTailEvents<Counters>);
template <std::uint32_t Counters>
inline constexpr auto kXsc3Table = detail::join(kCoreEvents<Counters>, kXsc3Events<Counters>, kTailEvents<Counters>);

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
    "Intel XScale core PMU, XSC1: CCNT + 2 event counters (80219, 80321, PXA21x/25x/26x, "
    "IXP2400/2800); events 0x10-0x17 are the product's (xscale-80200 lists the 80200's)",
    32,
    2,
    kEventTable<kXsc1Counters>.data(),
    kEventTable<kXsc1Counters>.size(),
    kPresetTable<kXsc1Counters>,
    kPresetCount,
    8,  // evtCountN
};
static_assert(catalog_sound(kXsc1Catalog), "XSC1 event catalog: codes unique, fit evtCount, counters exist");

inline constexpr PmuCatalog k80200Catalog{
    "xscale-80200",
    "Intel 80200: the XSC1 PMU with the 80200's bus-control-unit and ECC events 0x10-0x16 "
    "(0x13 and 0x17 undefined)",
    32,
    2,
    k80200Table<kXsc1Counters>.data(),
    k80200Table<kXsc1Counters>.size(),
    kPresetTable<kXsc1Counters>,
    kPresetCount,
    8,
};
static_assert(catalog_sound(k80200Catalog), "80200 event catalog: codes unique, fit evtCount, counters exist");

inline constexpr PmuCatalog kXsc2Catalog{
    "xscale-xsc2",
    "Intel XScale core PMU, XSC2: CCNT + 4 event counters (PXA27x, IXP42x/43x/46x, IOP33x); "
    "events 0x10-0x17 are the product's and not listed",
    32,
    4,
    kEventTable<kXsc2Counters>.data(),
    kEventTable<kXsc2Counters>.size(),
    kPresetTable<kXsc2Counters>,
    kPresetCount,
    8,  // evtCountN
};
static_assert(catalog_sound(kXsc2Catalog), "XSC2 event catalog: codes unique, fit evtCount, counters exist");

inline constexpr PmuCatalog kXsc3Catalog{
    "xscale-xsc3",
    "Intel/Marvell XScale core PMU, XSC3 (PXA3xx, IOP13xx/34x, IXP23xx): the XSC2 registers with "
    "L2, bus and pipeline events",
    32,
    4,
    kXsc3Table<kXsc2Counters>.data(),
    kXsc3Table<kXsc2Counters>.size(),
    kPresetTable<kXsc2Counters>,
    kPresetCount,
    8,
};
static_assert(catalog_sound(kXsc3Catalog), "XSC3 event catalog: codes unique, fit evtCount, counters exist");

namespace detail {
constexpr bool sorted(const PmuCatalog& c) {
  for (std::size_t i = 1; i < c.num_events; ++i)
    if (c.events[i].code <= c.events[i - 1].code) return false;
  return true;
}
}  // namespace detail
static_assert(detail::sorted(kXsc1Catalog) && detail::sorted(k80200Catalog) &&
              detail::sorted(kXsc2Catalog) && detail::sorted(kXsc3Catalog));

}  // namespace pmu::xscale
