#pragma once
// ARMv7-A derived metrics (data only): instructions per cycle, the branch misprediction rate and
// the level 1 data and instruction cache miss rates, each a ratio of two events the ARMv7 ARM
// defines (C12, "Event numbers and mnemonics") and the core really has. One table serves the
// common-event catalogs, the Cortex-A15 and the Cortex-A7 (each implements 0x01, 0x03, 0x04, 0x08,
// 0x10, 0x11, 0x12 and 0x14: their TRMs' event tables); the Cortex-A9 has neither INST_RETIRED nor
// L1I_CACHE (its TRM, Table 11-5), so its table counts instructions at the renaming stage (0x68,
// approximate) and gives the instruction cache misses per 1000 of those instead of a ratio.
// Every metric is checked against each catalog it is registered for (static_assert below).
#include <cstddef>

#include "hal/armv7a/events.hpp"
#include "hal/core/metric.hpp"

namespace pmu::armv7a {

inline constexpr Metric kMetrics[] = {
    {"ipc", "basic", "instructions architecturally executed per processor cycle", "instructions/cycle",
     "ARM Architecture Reference Manual ARMv7-A and ARMv7-R, C12 (INST_RETIRED 0x08 / CPU_CYCLES 0x11)",
     {{event::INST_RETIRED}}, 1, {{event::CPU_CYCLES}}, 1, 1.0},
    {"branch_mispredict_ratio", "branch",
     "branches mispredicted or not predicted per predictable branch speculatively executed", "%",
     "ARM Architecture Reference Manual ARMv7-A and ARMv7-R, C12 (BR_MIS_PRED 0x10 / BR_PRED 0x12)",
     {{event::BR_MIS_PRED}}, 1, {{event::BR_PRED}}, 1, 100.0},
    {"l1d_miss_ratio", "cache", "level 1 data cache refills per level 1 data cache access", "%",
     "ARM Architecture Reference Manual ARMv7-A and ARMv7-R, C12 (L1D_CACHE_REFILL 0x03 / L1D_CACHE 0x04)",
     {{event::L1D_CACHE_REFILL}}, 1, {{event::L1D_CACHE}}, 1, 100.0},
    {"l1i_miss_ratio", "cache", "level 1 instruction cache refills per level 1 instruction cache access", "%",
     "ARM Architecture Reference Manual ARMv7-A and ARMv7-R, C12 (L1I_CACHE_REFILL 0x01 / L1I_CACHE 0x14)",
     {{event::L1I_CACHE_REFILL}}, 1, {{event::L1I_CACHE}}, 1, 100.0},
};
inline constexpr MetricTable metrics{kMetrics, sizeof(kMetrics) / sizeof(kMetrics[0])};

inline constexpr Metric kCortexA9Metrics[] = {
    {"ipc", "basic",
     "instructions out of the renaming stage per processor cycle (approximate: the TRM's 0x68 "
     "includes speculatively executed instructions)",
     "instructions/cycle",
     "Cortex-A9 TRM, 11.4.1 Table 11-6 (event 0x68 / cycle count 0x11; 0x08 is not implemented, Table 11-5)",
     {{event::a9::INST_RENAMED}}, 1, {{event::CPU_CYCLES}}, 1, 1.0},
    {"branch_mispredict_ratio", "branch", "branches mispredicted or not predicted per predictable branch", "%",
     "Cortex-A9 TRM, 11.4 Table 11-5 (events 0x10 / 0x12)",
     {{event::BR_MIS_PRED}}, 1, {{event::BR_PRED}}, 1, 100.0},
    {"l1d_miss_ratio", "cache", "data cache misses per data cache access", "%",
     "Cortex-A9 TRM, 11.4 Table 11-5 (events 0x03 / 0x04)",
     {{event::L1D_CACHE_REFILL}}, 1, {{event::L1D_CACHE}}, 1, 100.0},
    {"icache_misses_per_kinstr", "cache",
     "instruction cache misses per 1000 instructions out of the renaming stage (no instruction cache "
     "access event on this core)",
     "per 1000 instructions", "Cortex-A9 TRM, 11.4 Table 11-5 and 11.4.1 Table 11-6 (event 0x01 / event 0x68)",
     {{event::L1I_CACHE_REFILL}}, 1, {{event::a9::INST_RENAMED}}, 1, 1000.0},
};
inline constexpr MetricTable kCortexA9MetricTable{kCortexA9Metrics, sizeof(kCortexA9Metrics) / sizeof(kCortexA9Metrics[0])};

static_assert(metrics_sound(kCatalog<6>, metrics), "armv7a metrics: every term an event of the 6-counter catalog");
static_assert(metrics_sound(kCatalog<4>, metrics), "armv7a metrics: every term an event of the 4-counter catalog");
static_assert(metrics_sound(kCortexA15Catalog, metrics), "armv7a metrics: every term an event of the Cortex-A15");
static_assert(metrics_sound(kCortexA7Catalog, metrics), "armv7a metrics: every term an event of the Cortex-A7");
static_assert(metrics_sound(kCortexA9Catalog, kCortexA9MetricTable),
              "Cortex-A9 metrics: every term an event of the Cortex-A9");

}  // namespace pmu::armv7a
