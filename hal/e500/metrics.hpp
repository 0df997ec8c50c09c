#pragma once
// e500 derived metrics (data only). The core metrics of Freescale's application note AN3636
// ("PowerQUICC III Performance Monitors", Rev. 2, 4 "Performance Metrics", Table 1 "Commonly Used
// Performance Metrics"), whose CE:Ref:n / CE:Com:n name e500 core event n of the e500 Core
// Reference Manual's Table 7-10 (7.7 "Event Selection"); then TLB and stall ratios that follow
// from Table 7-10's events. Where AN3636 and the event table disagree, the table decides
// (branch_mispredict_ratio, hal/e500/README.md "Metrics"). AN3636's L2 miss rates, IPP and PPS
// use the SoC's device performance monitor (its SE: events), which this catalog does not have.
#include <cstddef>
#include <cstdint>

#include "hal/core/metric.hpp"
#include "hal/e500/events.hpp"

namespace pmu::e500 {

inline constexpr Metric kMetrics[] = {
    // --- basic
    {"ipc", "basic", "instructions completed per processor cycle", "instructions/cycle",
     "AN3636 Rev. 2, Table 1: Instructions per cycle (IPC) = CE:Ref:2 / CE:Ref:1",
     {{event::INSTR_COMPLETED}}, 1, {{event::CYCLES}}, 1, 1.0},
    {"cpi", "basic", "processor cycles per instruction completed", "cycles/instruction",
     "AN3636 Rev. 2, Table 1: the inverse of IPC (CE:Ref:1 / CE:Ref:2)",
     {{event::CYCLES}}, 1, {{event::INSTR_COMPLETED}}, 1, 1.0},
    // --- branch
    {"branch_mispredict_ratio", "branch",
     "branches mispredicted (direction, target or IAB) per branch finished", "%",
     "AN3636 Rev. 2, Table 1: Branch miss ratio = branches mispredicted / branches finished "
     "(CE:Com:12); the mispredicted count is event 15 of e500 CRM Table 7-10 (AN3636's printed "
     "formula uses event 17, BTB hits)",
     {{event::BRANCHES_MISPREDICTED}}, 1, {{event::BRANCHES_FINISHED}}, 1, 100.0},
    {"branches_per_kinstr", "branch", "branches finished per 1000 instructions completed",
     "per 1000 instructions",
     "AN3636 Rev. 2, Table 1: Branches per 1000 instructions = 1000 * CE:Com:12 / CE:Ref:2",
     {{event::BRANCHES_FINISHED}}, 1, {{event::INSTR_COMPLETED}}, 1, 1000.0},
    // --- cache
    {"icache_misses_per_kinstr", "cache",
     "instruction L1 reloads (fetch and prefetch misses) per 1000 instructions completed: AN3636's "
     "L1 I-cache miss rate, per 1000",
     "per 1000 instructions",
     "AN3636 Rev. 2, Table 1: L1 I-cache miss rate = CE:Com:60 / CE:Ref:2",
     {{event::IL1_RELOADS}}, 1, {{event::INSTR_COMPLETED}}, 1, 1000.0},
    {"dcache_miss_ratio", "cache",
     "data L1 reloads per load and store micro-op completed: AN3636's L1 D-cache miss rate", "%",
     "AN3636 Rev. 2, Table 1: L1 D-cache miss rate = CE:Com:41 / (CE:Com:9 + CE:Com:10)",
     {{event::DL1_RELOADS}}, 1,
     {{event::LOAD_UOPS_COMPLETED}, {event::STORE_UOPS_COMPLETED}}, 2, 100.0},
    // --- tlb: per instruction, so no assumption on what each MMU level sees
    {"itlb_reloads_per_kinstr", "tlb",
     "instruction L1 MMU reloads (TLB4K and variable-size pages) per 1000 instructions completed",
     "per 1000 instructions",
     "e500 CRM Table 7-10, events 62 and 63 over event 2 (the ratio of the events)",
     {{event::IMMU_TLB4K_RELOADS}, {event::IMMU_VSP_RELOADS}}, 2,
     {{event::INSTR_COMPLETED}}, 1, 1000.0},
    {"dtlb_reloads_per_kinstr", "tlb",
     "data L1 MMU reloads (TLB4K and variable-size pages) per 1000 instructions completed",
     "per 1000 instructions",
     "e500 CRM Table 7-10, events 64 and 65 over event 2 (the ratio of the events)",
     {{event::DMMU_TLB4K_RELOADS}, {event::DMMU_VSP_RELOADS}}, 2,
     {{event::INSTR_COMPLETED}}, 1, 1000.0},
    {"l2mmu_misses_per_kinstr", "tlb",
     "L2 MMU misses (instruction and data TLB error interrupts) per 1000 instructions completed",
     "per 1000 instructions",
     "e500 CRM Table 7-10, event 66 over event 2 (the ratio of the events)",
     {{event::L2MMU_MISSES}}, 1, {{event::INSTR_COMPLETED}}, 1, 1000.0},
    // --- stall
    {"decode_stall_fraction", "stall",
     "share of cycles the instruction buffer holds instructions but none decodes", "% of cycles",
     "e500 CRM Table 7-10, event 18 over event 1 (the ratio of the events)",
     {{event::DECODE_STALL_CYCLES}}, 1, {{event::CYCLES}}, 1, 100.0},
    {"issue_stall_fraction", "stall",
     "share of cycles the issue queue holds instructions but none issues", "% of cycles",
     "e500 CRM Table 7-10, event 19 over event 1 (the ratio of the events)",
     {{event::ISSUE_STALL_CYCLES}}, 1, {{event::CYCLES}}, 1, 100.0},
};
inline constexpr MetricTable metrics{kMetrics, sizeof(kMetrics) / sizeof(kMetrics[0])};

static_assert(metrics_sound(catalog, metrics),
              "e500 metrics: every term an event of the e500 catalog, names unique, a denominator each");

}  // namespace pmu::e500
