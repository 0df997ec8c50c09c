#pragma once
// RM7000 derived metrics (data only). The datasheet defines events, not metrics: every metric here
// is the ratio of two Table 10 ("Performance Counter Control") events that the ratio's name says.
// The RM7000 has one counter (PerfCount), so no metric is ever counted in one run: each needs its
// events in turn (multiplexing), and its value is a ratio of estimates. Table 10 has no branch
// misprediction event (0x07 counts branch prefetches), so there is no misprediction ratio.
// Instructions are counted when issued (0x01); the RM7000 issues in order.
#include <cstddef>

#include "hal/core/metric.hpp"
#include "hal/rm7000/events.hpp"

namespace pmu::rm7000 {

inline constexpr Metric kMetrics[] = {
    // --- basic
    {"ipc", "basic", "instructions issued per clock cycle (up to 2: the RM7000 dual-issues)",
     "instructions/cycle", "RM7000 datasheet, Table 10: event 0x01 / event 0x00",
     {{event::INSTR_ISSUED}}, 1, {{event::CYCLES}}, 1, 1.0},
    {"cpi", "basic", "clock cycles per instruction issued", "cycles/instruction",
     "RM7000 datasheet, Table 10: event 0x00 / event 0x01",
     {{event::CYCLES}}, 1, {{event::INSTR_ISSUED}}, 1, 1.0},
    // --- branch
    {"branches_per_kinstr", "branch", "branches issued per 1000 instructions issued", "per 1000 instructions",
     "RM7000 datasheet, Table 10: event 0x12 / event 0x01",
     {{event::BRANCHES_ISSUED}}, 1, {{event::INSTR_ISSUED}}, 1, 1000.0},
    {"branch_taken_ratio", "branch", "branches taken per branch issued", "%",
     "RM7000 datasheet, Table 10: event 0x11 / event 0x12",
     {{event::BRANCHES_TAKEN}}, 1, {{event::BRANCHES_ISSUED}}, 1, 100.0},
    // --- cache
    {"icache_misses_per_kinstr", "cache", "instruction cache misses per 1000 instructions issued",
     "per 1000 instructions", "RM7000 datasheet, Table 10: event 0x0B / event 0x01",
     {{event::ICACHE_MISS}}, 1, {{event::INSTR_ISSUED}}, 1, 1000.0},
    {"dcache_miss_ratio", "cache", "data cache misses per load and store issued", "%",
     "RM7000 datasheet, Table 10: event 0x0C / (event 0x04 + event 0x05)",
     {{event::DCACHE_MISS}}, 1, {{event::LOADS_ISSUED}, {event::STORES_ISSUED}}, 2, 100.0},
    {"scache_misses_per_kinstr", "cache", "secondary cache misses per 1000 instructions issued",
     "per 1000 instructions", "RM7000 datasheet, Table 10: event 0x0A / event 0x01",
     {{event::SCACHE_MISSES}}, 1, {{event::INSTR_ISSUED}}, 1, 1000.0},
    // --- tlb
    {"dtlb_misses_per_kinstr", "tlb", "data TLB misses per 1000 instructions issued", "per 1000 instructions",
     "RM7000 datasheet, Table 10: event 0x0D / event 0x01",
     {{event::DTLB_MISS}}, 1, {{event::INSTR_ISSUED}}, 1, 1000.0},
    {"itlb_misses_per_kinstr", "tlb", "instruction TLB misses per 1000 instructions issued",
     "per 1000 instructions", "RM7000 datasheet, Table 10: event 0x0E / event 0x01",
     {{event::ITLB_MISSES}}, 1, {{event::INSTR_ISSUED}}, 1, 1000.0},
    {"jtlb_misses_per_kinstr", "tlb",
     "joint TLB misses (instruction and data) per 1000 instructions issued", "per 1000 instructions",
     "RM7000 datasheet, Table 10: (event 0x0F + event 0x10) / event 0x01",
     {{event::JTLB_INSTR_MISSES}, {event::JTLB_DATA_MISSES}}, 2, {{event::INSTR_ISSUED}}, 1, 1000.0},
    // --- stall
    {"stall_fraction", "stall", "share of clock cycles that are stall cycles", "% of cycles",
     "RM7000 datasheet, Table 10: event 0x09 / event 0x00",
     {{event::STALL_CYCLES}}, 1, {{event::CYCLES}}, 1, 100.0},
    {"dcache_miss_stall_fraction", "stall",
     "share of clock cycles stalled with both cache miss tokens taken and a third address requested",
     "% of cycles", "RM7000 datasheet, Table 10: event 0x15 / event 0x00",
     {{event::DCACHE_MISS_STALL_CYCLES}}, 1, {{event::CYCLES}}, 1, 100.0},
};
inline constexpr MetricTable metrics{kMetrics, sizeof(kMetrics) / sizeof(kMetrics[0])};

static_assert(metrics_sound(catalog, metrics),
              "rm7000 metrics: every term an event of the rm7000 catalog, names unique, a denominator each");

}  // namespace pmu::rm7000
