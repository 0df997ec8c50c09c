#pragma once
// XScale derived metrics (data only): the statistics the Intel XScale Core Developer's Manual
// derives from its event pairs ("modes", 8.4.1-8.4.7), and the branch misprediction ratio that
// follows from events 0x05 and 0x06 (Table 8-12). The manual measures total time with CCNT: here
// the pseudo event kCcntEvent. Every event used is a core event (0x00-0x0D) or CCNT, which every
// XScale catalog has (XSC1, 80200, XSC2, XSC3), so one table serves the four; each is checked.
#include <cstddef>

#include "hal/core/metric.hpp"
#include "hal/xscale/events.hpp"

namespace pmu::xscale {

inline constexpr Metric kMetrics[] = {
    // --- basic: 8.4.1 and 8.4.6 give CPI = CCNT / PMN0 with PMN0 counting instructions (0x07)
    {"ipc", "basic", "instructions executed per core clock (the inverse of the manual's CPI)",
     "instructions/cycle",
     "Intel XScale Core Developer's Manual, 8.4.1 Instruction Cache Efficiency Mode (CPI = CCNT / "
     "PMN0; IPC is its inverse)",
     {{event::INSTR}}, 1, {{kCcntEvent}}, 1, 1.0},
    {"cpi", "basic", "core clocks per instruction executed", "cycles/instruction",
     "Intel XScale Core Developer's Manual, 8.4.1 Instruction Cache Efficiency Mode (CCNT / PMN0)",
     {{kCcntEvent}}, 1, {{event::INSTR}}, 1, 1.0},
    // --- cache
    {"icache_misses_per_kinstr", "cache",
     "instruction fetch requests to external memory (32-byte line fills) per 1000 instructions "
     "executed: the manual's instruction cache miss-rate",
     "per 1000 instructions",
     "Intel XScale Core Developer's Manual, 8.4.1 Instruction Cache Efficiency Mode (PMN1 / PMN0: "
     "event 0x00 / event 0x07)",
     {{event::IC_MISS}}, 1, {{event::INSTR}}, 1, 1000.0},
    {"dcache_miss_ratio", "cache",
     "data cache and mini-data cache misses per data cache access (cache operations excluded)", "%",
     "Intel XScale Core Developer's Manual, 8.4.2 Data Cache Efficiency Mode (PMN1 / PMN0: event "
     "0x0B / event 0x0A)",
     {{event::DC_MISS}}, 1, {{event::DC_ACCESS}}, 1, 100.0},
    // --- stall
    {"ifetch_stall_fraction", "stall",
     "share of core clocks stalled because the instruction cache cannot deliver (I-cache or "
     "I-TLB miss)",
     "% of cycles",
     "Intel XScale Core Developer's Manual, 8.4.3 Instruction Fetch Latency Mode (PMN0 / CCNT: "
     "event 0x01)",
     {{event::IC_NO_DELIVER}}, 1, {{kCcntEvent}}, 1, 100.0},
    {"ifetch_stall_per_miss", "stall",
     "average stall cycles per instruction fetch from external memory (high: the core may be "
     "starved of the external bus)",
     "cycles/miss",
     "Intel XScale Core Developer's Manual, 8.4.3 Instruction Fetch Latency Mode (PMN0 / PMN1: "
     "event 0x01 / event 0x00)",
     {{event::IC_NO_DELIVER}}, 1, {{event::IC_MISS}}, 1, 1.0},
    {"dbuffer_stall_fraction", "stall",
     "share of core clocks stalled because no data cache request buffer was available", "% of cycles",
     "Intel XScale Core Developer's Manual, 8.4.4 Data/Bus Request Buffer Full Mode (PMN0 / CCNT: "
     "event 0x08)",
     {{event::DC_FULL_CYCLE}}, 1, {{kCcntEvent}}, 1, 100.0},
    {"dbuffer_stall_length", "stall",
     "average length of a stall on full data cache buffers (many short stalls or a few long ones)",
     "cycles/stall",
     "Intel XScale Core Developer's Manual, 8.4.4 Data/Bus Request Buffer Full Mode (PMN0 / PMN1: "
     "event 0x08 / event 0x09)",
     {{event::DC_FULL_CYCLE}}, 1, {{event::DC_FULL_CONTIG}}, 1, 1.0},
    {"data_stall_fraction", "stall",
     "share of core clocks stalled on a data dependency (load-use, multiply/accumulate-use, ALU "
     "use penalties)",
     "% of cycles",
     "Intel XScale Core Developer's Manual, 8.4.5 Stall/Writeback Statistics (PMN0 / CCNT: event "
     "0x02)",
     {{event::DATA_STALL}}, 1, {{kCcntEvent}}, 1, 100.0},
    // --- tlb
    {"itlb_misses_per_kinstr", "tlb",
     "instruction TLB table walks per 1000 instructions executed: the manual's instruction TLB "
     "miss-rate",
     "per 1000 instructions",
     "Intel XScale Core Developer's Manual, 8.4.6 Instruction TLB Efficiency Mode (PMN1 / PMN0: "
     "event 0x03 / event 0x07)",
     {{event::ITLB_MISS}}, 1, {{event::INSTR}}, 1, 1000.0},
    {"dtlb_miss_ratio", "tlb", "data TLB table walks per data cache access: the manual's data TLB miss-rate",
     "%",
     "Intel XScale Core Developer's Manual, 8.4.7 Data TLB Efficiency Mode (PMN1 / PMN0: event "
     "0x04 / event 0x0A)",
     {{event::DTLB_MISS}}, 1, {{event::DC_ACCESS}}, 1, 100.0},
    // --- branch: the manual defines no mode for these; both events count B and BL only
    {"branch_mispredict_ratio", "branch", "mispredicted B/BL branches per B/BL branch executed", "%",
     "Intel XScale Core Developer's Manual, Table 8-12 (event 0x06 / event 0x05: the ratio of the "
     "two events)",
     {{event::BRANCH_MISPRED}}, 1, {{event::BRANCH}}, 1, 100.0},
};
inline constexpr MetricTable metrics{kMetrics, sizeof(kMetrics) / sizeof(kMetrics[0])};

static_assert(metrics_sound(kXsc1Catalog, metrics),
              "xscale metrics: every term an event of the XSC1 catalog, names unique, a denominator each");
static_assert(metrics_sound(k80200Catalog, metrics),
              "xscale metrics: every term an event of the 80200 catalog, names unique, a denominator each");
static_assert(metrics_sound(kXsc2Catalog, metrics),
              "xscale metrics: every term an event of the XSC2 catalog, names unique, a denominator each");
static_assert(metrics_sound(kXsc3Catalog, metrics),
              "xscale metrics: every term an event of the XSC3 catalog, names unique, a denominator each");

}  // namespace pmu::xscale
