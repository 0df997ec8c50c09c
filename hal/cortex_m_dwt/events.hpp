#pragma once
// ARMv7-M DWT counters: event table, presets and catalog (data only).
//
// The DWT has no event select: each counter counts one thing, in the words of the ARMv7-M
// Architecture Reference Manual, C1.8.8 .. C1.8.13. Codes are ours: 1..5 name the five 8-bit
// profiling counters (the catalog's counters 0..4, the driver's slots 1..5); CYCCNT is the pseudo
// event kCycCntEvent = 0x100 (counters mask 0, as XScale's CCNT: the driver's slot 0).
#include <cstddef>
#include <cstdint>

#include "hal/core/event.hpp"

namespace pmu::cortex_m_dwt {

inline constexpr unsigned kCounters = 5;               // CPICNT, EXCCNT, SLEEPCNT, LSUCNT, FOLDCNT
inline constexpr std::uint32_t kCycCntEvent = 0x100;  // pseudo event: DWT_CYCCNT (slot 0)

namespace event {
inline constexpr std::uint32_t CYCCNT = kCycCntEvent;
inline constexpr std::uint32_t CPICNT = 1;
inline constexpr std::uint32_t EXCCNT = 2;
inline constexpr std::uint32_t SLEEPCNT = 3;
inline constexpr std::uint32_t LSUCNT = 4;
inline constexpr std::uint32_t FOLDCNT = 5;
}  // namespace event

inline constexpr EventInfo kEvents[] = {
    {event::CYCCNT, "CYCCNT", "processor clock cycles (DWT_CYCCNT, 32 bits)", 0, 0},
    {event::CPICNT, "CPICNT",
     "cycles on which no instruction executes, no load-store operation or exception entry/exit is "
     "in progress and the core is not sleeping: the base instruction overhead (DWT_CPICNT, 8 bits)",
     0x01, 0},
    {event::EXCCNT, "EXCCNT", "cycles spent in exception entry and exit: exception overhead (DWT_EXCCNT, 8 bits)",
     0x02, 0},
    {event::SLEEPCNT, "SLEEPCNT", "cycles spent in a power saving mode: sleep overhead (DWT_SLEEPCNT, 8 bits)",
     0x04, 0},
    {event::LSUCNT, "LSUCNT",
     "additional cycles of load-store operations beyond the first: load-store overhead (DWT_LSUCNT, 8 bits)",
     0x08, 0},
    {event::FOLDCNT, "FOLDCNT", "instructions folded (executed in zero cycles) (DWT_FOLDCNT, 8 bits)", 0x10, 0},
};
inline constexpr std::size_t kNumEvents = sizeof(kEvents) / sizeof(kEvents[0]);

// Only cycles: the architecture has no instruction, cache or branch counter (instructions can be
// estimated as CYCCNT - CPICNT - EXCCNT - SLEEPCNT - LSUCNT + FOLDCNT, "approximate" by the manual's
// "Profiling counter accuracy", and only over fewer than 256 of each: not a preset).
inline constexpr PresetBinding kPresets[] = {
    {Preset::cycles, kCycCntEvent, 0},
};
inline constexpr std::size_t kNumPresets = sizeof(kPresets) / sizeof(kPresets[0]);

// counter_width: the profiling counters' 8 bits (CYCCNT, slot 0, is 32).
inline constexpr PmuCatalog catalog{
    "cortex-m-dwt",
    "ARMv7-M DWT (Cortex-M3/M4/M7): 32-bit CYCCNT + 8-bit CPI/EXC/SLEEP/LSU/FOLD counters; no "
    "overflow flag or interrupt (extended by polling)",
    8,
    kCounters,
    kEvents,
    kNumEvents,
    kPresets,
    kNumPresets,
    8,  // no event select field: the codes are ours, 1..5
};
static_assert(catalog_sound(catalog), "cortex-m-dwt catalog: codes unique, counters exist");

constexpr bool has_event(std::uint32_t code) { return pmu::has_event(catalog, code); }

}  // namespace pmu::cortex_m_dwt
