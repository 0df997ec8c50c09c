#pragma once
// PowerPC e500 core performance monitor: event table, presets and catalog (data only).
//
// Event numbers are the PMLCa[EVENT] encodings of CRM Table 7-10 ("Performance Monitor Event
// Selection"). Cross-checked against public drivers for facts only (Linux e500-pmu.c, FreeBSD
// hwpmc_e500.c, OProfile's Freescale event lists); descriptions are our own short wording.
//
// Resolved open questions (also in hal/e500/README.md), with the manual as the deciding source:
//
// 1. Threshold events and their counters. CRM 7.2.5 (and 2.15.5): "For the e500, thresholding is
//    supported only for PMC0 and PMC1." CRM 7.6.2 names event 76 as "C0:76 and C1:76", i.e. a
//    counter-specific event on PMC0 and PMC1. The threshold events are 76..81 (DLFB load miss
//    cycles, ILFB fetch miss cycles, and the four interrupt latency / pending-latency cycle
//    events). Linux (76..81 "restricted" to the first two counters) agrees; FreeBSD's table gives
//    PMC0 alone for them (narrower than the manual). Decision: events 76..81 carry
//    kEventNeedsThreshold and the counter mask 0x3 (PMC0, PMC1); no other event takes a threshold,
//    and PMC2/PMC3 take none. The driver rejects both at configure time (driver.hpp); tests: hal/e500/tests, "*Threshold*".
//
// 2. Chain sources. CRM 7.6.1: chaining is done "by defining the event of interest to be another
//    PMC's overflow generation"; the chained counter "increments each time the first counter rolls
//    over to zero". Table 7-10's chaining events are 82 (PMC0 overflow), 83 (PMC1), 84 (PMC2),
//    85 (PMC3), countable on any counter, each counting PMCn's most significant bit going from 1
//    to 0: for a counting counter exactly its rollover to zero, and for a write that clears the bit
//    one more (the model's default reading, hal/e500/README.md; the driver never writes a chain
//    source with its chained counter running). Decision: events 82..85 carry kEventChainSource and
//    the counter mask 0xF; event 82+n counts PMCn's overflows (kEventPmcOverflowBase, regs.hpp). A
//    counter chained to itself is meaningless and link() refuses it. Tests: "*Chain*".
#include <cstddef>
#include <cstdint>

#include "hal/core/event.hpp"
#include "hal/e500/regs.hpp"

namespace pmu::e500 {

inline constexpr std::uint32_t kAll = 0xF;  // PMC0..PMC3
inline constexpr std::uint32_t kPmc01 = kThresholdCounters;
inline constexpr std::uint32_t kThr = kEventNeedsThreshold;
inline constexpr std::uint32_t kChain = kEventChainSource;

// Table 7-10's numbers of the events hal/e500/metrics.hpp names, by this catalog's mnemonics.
namespace event {
inline constexpr std::uint32_t CYCLES = 1;
inline constexpr std::uint32_t INSTR_COMPLETED = 2;
inline constexpr std::uint32_t LOAD_UOPS_COMPLETED = 9;
inline constexpr std::uint32_t STORE_UOPS_COMPLETED = 10;
inline constexpr std::uint32_t BRANCHES_FINISHED = 12;
inline constexpr std::uint32_t BRANCHES_MISPREDICTED = 15;
inline constexpr std::uint32_t DECODE_STALL_CYCLES = 18;
inline constexpr std::uint32_t ISSUE_STALL_CYCLES = 19;
inline constexpr std::uint32_t DL1_RELOADS = 41;
inline constexpr std::uint32_t IL1_RELOADS = 60;
inline constexpr std::uint32_t IMMU_TLB4K_RELOADS = 62;
inline constexpr std::uint32_t IMMU_VSP_RELOADS = 63;
inline constexpr std::uint32_t DMMU_TLB4K_RELOADS = 64;
inline constexpr std::uint32_t DMMU_VSP_RELOADS = 65;
inline constexpr std::uint32_t L2MMU_MISSES = 66;
}  // namespace event

// CRM Table 7-10, grouped as the manual groups them. Sorted by code; codes are unique.
inline constexpr EventInfo kEvents[] = {
    // General events
    {0, "NOTHING", "Nothing: the counter holds its value", kAll, 0},
    {1, "CYCLES", "Processor cycles", kAll, 0},
    {2, "INSTR_COMPLETED", "Instructions completed (0, 1 or 2 per cycle)", kAll, 0},
    {3, "UOPS_COMPLETED", "Micro-ops completed (load/store with update counts 2)", kAll, 0},
    {4, "INSTR_FETCHED", "Instructions fetched", kAll, 0},
    {5, "UOPS_DECODED", "Micro-ops decoded", kAll, 0},
    {6, "PM_EVENT_TRANSITIONS", "0-to-1 transitions of the pm_event core input", kAll, 0},
    {7, "PM_EVENT_CYCLES", "Cycles the pm_event core input is asserted", kAll, 0},
    // Instruction types completed
    {8, "BRANCH_INSTR_COMPLETED", "Branch instructions completed", kAll, 0},
    {9, "LOAD_UOPS_COMPLETED", "Load micro-ops completed", kAll, 0},
    {10, "STORE_UOPS_COMPLETED", "Store micro-ops completed", kAll, 0},
    {11, "CQ_REDIRECTS", "Completion buffer redirects", kAll, 0},
    // Branch prediction and execution events
    {12, "BRANCHES_FINISHED", "Branches finished (speculative)", kAll, 0},
    {13, "TAKEN_BRANCHES_FINISHED", "Taken branches finished", kAll, 0},
    {14, "UNCOND_BRANCH_BTB_MISS", "Finished unconditional branches that missed in the BTB", kAll, 0},
    {15, "BRANCHES_MISPREDICTED", "Branches mispredicted (direction, target or IAB prediction)", kAll, 0},
    {16, "BRANCHES_MISPREDICTED_DIR", "Branches mispredicted by the BTB direction prediction", kAll, 0},
    {17, "BTB_HITS", "BTB hits and pseudo-hits", kAll, 0},
    // Pipeline stalls
    {18, "DECODE_STALL_CYCLES", "Cycles the instruction buffer is not empty but nothing decodes", kAll, 0},
    {19, "ISSUE_STALL_CYCLES", "Cycles the issue queue is not empty but nothing issues", kAll, 0},
    {20, "BRANCH_ISSUE_STALL_CYCLES", "Cycles the branch issue queue is not empty but nothing issues", kAll, 0},
    {21, "SU1_SCHED_STALL_CYCLES", "Cycles simple unit 1 reservation station stalled", kAll, 0},
    {22, "SU2_SCHED_STALL_CYCLES", "Cycles simple unit 2 reservation station stalled", kAll, 0},
    {23, "MU_SCHED_STALL_CYCLES", "Cycles multiple unit reservation station stalled", kAll, 0},
    {24, "LRU_SCHED_STALL_CYCLES", "Cycles load/store reservation station stalled", kAll, 0},
    {25, "BU_SCHED_STALL_CYCLES", "Cycles branch unit reservation station stalled", kAll, 0},
    // Load/store, data cache and dLFB events
    {26, "TOTAL_TRANSLATED", "Load/store micro-ops translated", kAll, 0},
    {27, "LOADS_TRANSLATED", "Cacheable load micro-ops translated", kAll, 0},
    {28, "STORES_TRANSLATED", "Cacheable store micro-ops translated", kAll, 0},
    {29, "TOUCHES_TRANSLATED", "Cacheable touch instructions translated", kAll, 0},
    {30, "CACHEOPS_TRANSLATED", "Cache operations translated", kAll, 0},
    {31, "CACHE_INHIBITED_TRANSLATED", "Cache-inhibited accesses translated", kAll, 0},
    {32, "GUARDED_LOADS_TRANSLATED", "Guarded loads translated", kAll, 0},
    {33, "WRITE_THROUGH_STORES_TRANSLATED", "Write-through stores translated", kAll, 0},
    {34, "MISALIGNED_TRANSLATED", "Misaligned load/store accesses translated", kAll, 0},
    {35, "DLFB_ALLOCATED", "Total allocated to the data line fill buffer", kAll, 0},
    {36, "DLFB_LOADS_ALLOCATED", "Loads translated and allocated to the dLFB", kAll, 0},
    {37, "DLFB_STORES_ALLOCATED", "Stores completed and allocated to the dLFB", kAll, 0},
    {38, "DLFB_TOUCHES_ALLOCATED", "Touches translated and allocated to the dLFB", kAll, 0},
    {39, "STORES_COMPLETED", "Cacheable store micro-ops completed", kAll, 0},
    {40, "DL1_LOCKS", "Data L1 cache lines locked", kAll, 0},
    {41, "DL1_RELOADS", "Data L1 cache reloads, for any reason", kAll, 0},
    {42, "DL1_CASTOUTS", "Data L1 cache castouts", kAll, 0},
    {43, "REPLAY_LOAD_MISS_DLFB_FULL", "Replays: load miss with the dLFB full", kAll, 0},
    {44, "REPLAY_LOAD_MISS_LDQ_FULL", "Replays: load miss with the load queue full", kAll, 0},
    {45, "REPLAY_LOAD_GUARDED_MISS", "Replays: guarded load miss not at the bottom of the CQ", kAll, 0},
    {46, "REPLAY_STORE_QUEUE_FULL", "Replays: store translated with the store queue full", kAll, 0},
    {47, "REPLAY_ADDRESS_COLLISION", "Replays: address collision", kAll, 0},
    {48, "REPLAY_DMMU_MISS", "Replays: data MMU miss", kAll, 0},
    {49, "REPLAY_DMMU_BUSY", "Replays: data MMU busy", kAll, 0},
    {50, "REPLAY_MISALIGNED_PART2", "Replays: second part of a misaligned access after a miss", kAll, 0},
    {51, "STALL_LOAD_MISS_DLFB_FULL", "Cycles stalled: load miss with the dLFB full", kAll, 0},
    {52, "STALL_LOAD_MISS_LDQ_FULL", "Cycles stalled: load miss with the load queue full", kAll, 0},
    {53, "STALL_LOAD_GUARDED_MISS", "Cycles stalled: guarded load miss", kAll, 0},
    {54, "STALL_STORE_QUEUE_FULL", "Cycles stalled: store translated with the store queue full", kAll, 0},
    {55, "STALL_ADDRESS_COLLISION", "Cycles stalled: address collision", kAll, 0},
    {56, "STALL_DMMU_MISS", "Cycles stalled: data MMU miss", kAll, 0},
    {57, "STALL_DMMU_BUSY", "Cycles stalled: data MMU busy", kAll, 0},
    {58, "STALL_MISALIGNED_PART2", "Cycles stalled: second part of a misaligned access", kAll, 0},
    // Fetch, instruction cache, iLFB and prefetch events
    {59, "IL1_LOCKS", "Instruction L1 cache lines locked", kAll, 0},
    {60, "IL1_RELOADS", "Instruction L1 cache reloads due to demand fetch", kAll, 0},
    {61, "IL1_FETCHES", "Fetches that write at least one instruction to the instruction buffer", kAll, 0},
    // Instruction and data MMU events
    {62, "IMMU_TLB4K_RELOADS", "Instruction MMU TLB4K reloads", kAll, 0},
    {63, "IMMU_VSP_RELOADS", "Instruction MMU variable-size-page reloads", kAll, 0},
    {64, "DMMU_TLB4K_RELOADS", "Data MMU TLB4K reloads", kAll, 0},
    {65, "DMMU_VSP_RELOADS", "Data MMU variable-size-page reloads", kAll, 0},
    {66, "L2MMU_MISSES", "L2 MMU misses (instruction and data TLB error interrupts)", kAll, 0},
    // BIU interface usage
    {67, "BIU_MASTER_REQUESTS", "BIU master transactions", kAll, 0},
    {68, "BIU_MASTER_I_REQUESTS", "BIU master instruction-side transactions", kAll, 0},
    {69, "BIU_MASTER_D_REQUESTS", "BIU master data-side transactions", kAll, 0},
    {70, "BIU_MASTER_D_CASTOUTS", "BIU master data-side castout transactions", kAll, 0},
    {71, "BIU_MASTER_RETRIES", "BIU master retries", kAll, 0},
    // Snoop events
    {72, "SNOOP_REQUESTS", "Externally generated snoop requests", kAll, 0},
    {73, "SNOOP_HITS", "Snoop hits on data-side resources", kAll, 0},
    {74, "SNOOP_PUSHES", "Snoop pushes from data-side resources", kAll, 0},
    {75, "SNOOP_RETRIES", "Snoop retries", kAll, 0},
    // Threshold events: PMC0 and PMC1 only, counted when the duration exceeds PMLCbn's threshold
    // (CRM 7.2.5, 7.6.2). See OPEN item 1 above.
    {76, "DLFB_LOAD_MISS_CYCLES", "Data line fill buffer load misses longer than the threshold", kPmc01, kThr},
    {77, "ILFB_FETCH_MISS_CYCLES", "Instruction line fill buffer fetch misses longer than the threshold", kPmc01, kThr},
    {78, "EXT_INTR_LATENCY", "External input interrupt latency longer than the threshold", kPmc01, kThr},
    {79, "CRIT_INTR_LATENCY", "Critical input interrupt latency longer than the threshold", kPmc01, kThr},
    {80, "EXT_INTR_PENDING_LATENCY", "External input interrupt pending latency longer than the threshold", kPmc01, kThr},
    {81, "CRIT_INTR_PENDING_LATENCY", "Critical input interrupt pending latency longer than the threshold", kPmc01, kThr},
    // Chaining events: PMCn's msb going from 1 to 0, i.e. its rollover to zero (Table 7-10, CRM
    // 7.6.1). See item 2 above.
    {82, "PMC0_OVERFLOW", "PMC0's msb went from 1 to 0: its rollovers (chain PMC0 into this counter)", kAll, kChain},
    {83, "PMC1_OVERFLOW", "PMC1's msb went from 1 to 0: its rollovers (chain PMC1 into this counter)", kAll, kChain},
    {84, "PMC2_OVERFLOW", "PMC2's msb went from 1 to 0: its rollovers (chain PMC2 into this counter)", kAll, kChain},
    {85, "PMC3_OVERFLOW", "PMC3's msb went from 1 to 0: its rollovers (chain PMC3 into this counter)", kAll, kChain},
    // Interrupt events
    {86, "INTERRUPTS_TAKEN", "Interrupts taken", kAll, 0},
    {87, "EXT_INTERRUPTS_TAKEN", "External input interrupts taken", kAll, 0},
    {88, "CRIT_INTERRUPTS_TAKEN", "Critical input interrupts taken", kAll, 0},
    {89, "SC_TRAP_INTERRUPTS", "System call and trap interrupts taken", kAll, 0},
    // Time-base event (CRM 9.3.2, "Performance Monitor Time Base Event"; the bit: PMGC0[TBSEL],
    // Table 7-3): e500v2 only, counted while PMGC0[TBEE] is set; the driver refuses it elsewhere.
    {90, "TBL_BIT_TRANSITIONS",
     "0-to-1 transitions of the time-base bit PMGC0[TBSEL] selects, with PMGC0[TBEE] set (e500v2 only)", kAll, 0},
};
inline constexpr std::size_t kNumEvents = sizeof(kEvents) / sizeof(kEvents[0]);

// Portable presets. Each choice, and why:
//  cycles             1  processor cycles (every counter).
//  instructions       2  instructions completed: architectural, not speculative.
//  dcache_misses     41  data L1 reloads. The e500 has no "D-L1 miss" event; a reload is what a
//                        miss costs (one line fill), which is how Freescale and Linux define the
//                        D-cache miss rate. It also counts touch/prefetch reloads ("any reason").
//  icache_misses     60  instruction L1 reloads due to demand fetch.
//  branch_mispredicts 15 all mispredictions (direction, target and IAB), not only direction (16).
//  branches          12  branches finished: the same (speculative, finish-time) population as
//                        event 15, so mispredicts/branches is a true rate; event 8 (completed)
//                        counts only architecturally executed branches.
//  tlb_misses        66  L2 MMU misses: a translation missing from both TLB levels, i.e. a TLB
//                        error interrupt for software to handle. Events 62..65 are L1-TLB reloads
//                        served by the L2 MMU, which cost a few cycles, not a miss handler.
//  stall_cycles      19  issue stall cycles: instructions are waiting to issue and none does
//                        (operand dependencies, busy units). Event 18 (decode stall) mostly
//                        mirrors back-pressure from issue; neither sees fetch starvation.
inline constexpr PresetBinding kPresets[] = {
    {Preset::cycles, 1, kAll},
    {Preset::instructions, 2, kAll},
    {Preset::dcache_misses, 41, kAll},
    {Preset::icache_misses, 60, kAll},
    {Preset::branch_mispredicts, 15, kAll},
    {Preset::branches, 12, kAll},
    {Preset::tlb_misses, 66, kAll},
    {Preset::stall_cycles, 19, kAll},
};
inline constexpr std::size_t kNumPresets = sizeof(kPresets) / sizeof(kPresets[0]);

// counter_width: the registers are 32 bits; the overflow condition is bit 31 (Backend::width = 31).
inline constexpr PmuCatalog catalog{
    "e500",
    "PowerPC e500v1/e500v2 core performance monitor (CRM chapter 7): 4 x 32-bit PMCs, "
    "overflow condition at bit 31, chaining, thresholds on PMC0/PMC1; event 90 on e500v2 only",
    32,
    kCounters,
    kEvents,
    kNumEvents,
    kPresets,
    kNumPresets,
    7,  // PMLCa[EVENT]
};
static_assert(catalog_sound(catalog), "e500 event catalog: codes unique, fit EVENT, counters exist");

// Look-ups in this catalog (the generic ones of hal/core/event.hpp, bound to it).
constexpr std::size_t event_index(std::uint32_t code) { return pmu::event_index(catalog, code); }
constexpr const EventInfo* find_event(std::uint32_t code) { return pmu::find_event(catalog, code); }
// Counters (bit n = PMCn) that can count this event; 0 for an unknown code.
constexpr std::uint32_t counters_for(std::uint32_t code) { return event_counters(catalog, code); }
constexpr std::uint32_t event_flags(std::uint32_t code) { return pmu::event_flags(catalog, code); }
constexpr bool takes_threshold(std::uint32_t code) {
  return (event_flags(code) & kEventNeedsThreshold) != 0;
}
// Event number that makes a counter count PMCn's rollovers (chain source n).
constexpr std::uint32_t chain_event(unsigned source) { return kEventPmcOverflowBase + source; }

namespace detail {
constexpr bool table_is_sound() {
  for (std::size_t i = 0; i < kNumEvents; ++i) {
    if (i > 0 && kEvents[i].code <= kEvents[i - 1].code) return false;
    const bool thr = (kEvents[i].flags & kEventNeedsThreshold) != 0;
    if (thr != (kEvents[i].code >= 76 && kEvents[i].code <= 81)) return false;
    if (thr && kEvents[i].counters != kThresholdCounters) return false;
    const bool chain = (kEvents[i].flags & kEventChainSource) != 0;
    if (chain != (kEvents[i].code >= kEventPmcOverflowBase && kEvents[i].code < kEventPmcOverflowBase + 4))
      return false;
  }
  return true;
}
static_assert(table_is_sound(), "e500 event table: codes sorted; threshold and chain flags as documented");
}  // namespace detail

}  // namespace pmu::e500
