#pragma once
// RM7000 performance counter: event table, presets and catalog (data only).
//
// Codes and descriptions are the RM7000 datasheet's Table 10 ("Performance Counter Control",
// PerfControl Event Type 4..0), in its wording; the mnemonics are ours.
//
// Decisions where sources disagree (hal/rm7000/README.md has the detail):
// 1. Codes 0x1B-0x1E. The datasheet lists 0x1B write buffer full stall cycles, 0x1C cache
//    instruction stall cycles, 0x1D multiplier stall cycles, 0x1E stall cycles due to pending
//    non-blocking loads (stall start of exception). OpenBSD's rm7000.h has the same 0x1B and 0x1C
//    (and gives 0x1D twice); OProfile's RM7000 list lacks 0x1B and shifts the rest up by one, while
//    its RM9000 list agrees with the datasheet; the RM7965A datasheet also has 0x1B as write-buffer
//    full stalls. The datasheet wins: 0x00-0x1E as Table 10 has them, 0x1F unused.
// 2. Count. The datasheet's text says "one of twenty-two event types" but its own table has 31
//    rows (0x00-0x1E). The table wins: 31 events.
#include <cstddef>
#include <cstdint>

#include "hal/core/event.hpp"
#include "hal/rm7000/regs.hpp"

namespace pmu::rm7000 {

inline constexpr unsigned kCounters = 1;  // PerfCount
inline constexpr std::uint32_t kLastEvent = 0x1E;

namespace event {
inline constexpr std::uint32_t CYCLES = 0x00;
inline constexpr std::uint32_t INSTR_ISSUED = 0x01;
inline constexpr std::uint32_t BRANCHES_ISSUED = 0x12;
inline constexpr std::uint32_t ICACHE_MISS = 0x0B;
inline constexpr std::uint32_t DCACHE_MISS = 0x0C;
inline constexpr std::uint32_t DTLB_MISS = 0x0D;
inline constexpr std::uint32_t STALL_CYCLES = 0x09;
// The others hal/rm7000/metrics.hpp names.
inline constexpr std::uint32_t LOADS_ISSUED = 0x04;
inline constexpr std::uint32_t STORES_ISSUED = 0x05;
inline constexpr std::uint32_t SCACHE_MISSES = 0x0A;
inline constexpr std::uint32_t ITLB_MISSES = 0x0E;
inline constexpr std::uint32_t JTLB_INSTR_MISSES = 0x0F;
inline constexpr std::uint32_t JTLB_DATA_MISSES = 0x10;
inline constexpr std::uint32_t BRANCHES_TAKEN = 0x11;
inline constexpr std::uint32_t DCACHE_MISS_STALL_CYCLES = 0x15;
}  // namespace event

inline constexpr EventInfo kEvents[] = {
    {0x00, "CYCLES", "Clock cycles", 0x1, 0},
    {0x01, "INSTR_ISSUED", "Total instructions issued", 0x1, 0},
    {0x02, "FP_INSTR_ISSUED", "Floating-point instructions issued", 0x1, 0},
    {0x03, "INT_INSTR_ISSUED", "Integer instructions issued", 0x1, 0},
    {0x04, "LOADS_ISSUED", "Load instructions issued", 0x1, 0},
    {0x05, "STORES_ISSUED", "Store instructions issued", 0x1, 0},
    {0x06, "DUAL_ISSUED_PAIRS", "Dual issued pairs", 0x1, 0},
    {0x07, "BRANCH_PREFETCHES", "Branch prefetches", 0x1, 0},
    {0x08, "EXT_CACHE_MISSES", "External cache misses", 0x1, 0},
    {0x09, "STALL_CYCLES", "Stall cycles", 0x1, 0},
    {0x0A, "SCACHE_MISSES", "Secondary cache misses", 0x1, 0},
    {0x0B, "ICACHE_MISSES", "Instruction cache misses", 0x1, 0},
    {0x0C, "DCACHE_MISSES", "Data cache misses", 0x1, 0},
    {0x0D, "DTLB_MISSES", "Data TLB misses", 0x1, 0},
    {0x0E, "ITLB_MISSES", "Instruction TLB misses", 0x1, 0},
    {0x0F, "JTLB_INSTR_MISSES", "Joint TLB instruction misses", 0x1, 0},
    {0x10, "JTLB_DATA_MISSES", "Joint TLB data misses", 0x1, 0},
    {0x11, "BRANCHES_TAKEN", "Branches taken", 0x1, 0},
    {0x12, "BRANCHES_ISSUED", "Branches issued", 0x1, 0},
    {0x13, "SCACHE_WRITEBACKS", "Secondary cache writebacks", 0x1, 0},
    {0x14, "PCACHE_WRITEBACKS", "Primary cache writebacks", 0x1, 0},
    {0x15, "DCACHE_MISS_STALL_CYCLES",
     "Dcache miss stall cycles (cycles where both cache miss tokens are taken and a third address "
     "is requested)", 0x1, 0},
    {0x16, "CACHE_MISSES", "Cache misses", 0x1, 0},
    {0x17, "FP_EXCEPTION_CYCLES", "FP possible exception cycles", 0x1, 0},
    {0x18, "MULT_BUSY_SLIP_CYCLES", "Slip cycles due to multiplier busy", 0x1, 0},
    {0x19, "CP0_SLIP_CYCLES", "Coprocessor 0 slip cycles", 0x1, 0},
    {0x1A, "NBLOAD_SLIP_CYCLES", "Slip cycles due to pending non-blocking loads", 0x1, 0},
    {0x1B, "WBFULL_STALL_CYCLES", "Write buffer full stall cycles", 0x1, 0},
    {0x1C, "CACHEOP_STALL_CYCLES", "Cache instruction stall cycles", 0x1, 0},
    {0x1D, "MULT_STALL_CYCLES", "Multiplier stall cycles", 0x1, 0},
    {0x1E, "NBLOAD_EXC_STALL_CYCLES",
     "Stall cycles due to pending non-blocking loads - stall start of exception", 0x1, 0},
};
inline constexpr std::size_t kNumEvents = sizeof(kEvents) / sizeof(kEvents[0]);

// No branch-misprediction event in Table 10 (code 0x07 counts branch prefetches), so no such preset.
// Instructions are counted when issued (the RM7000 issues in order).
inline constexpr PresetBinding kPresets[] = {
    {Preset::cycles, event::CYCLES, 0x1},
    {Preset::instructions, event::INSTR_ISSUED, 0x1},
    {Preset::dcache_misses, event::DCACHE_MISS, 0x1},
    {Preset::icache_misses, event::ICACHE_MISS, 0x1},
    {Preset::branches, event::BRANCHES_ISSUED, 0x1},
    {Preset::tlb_misses, event::DTLB_MISS, 0x1},
    {Preset::stall_cycles, event::STALL_CYCLES, 0x1},
};
inline constexpr std::size_t kNumPresets = sizeof(kPresets) / sizeof(kPresets[0]);

// counter_width: the register is 32 bits; the overflow condition is bit 31 (driver width 31).
inline constexpr PmuCatalog catalog{
    "rm7000",
    "QED/PMC-Sierra RM7000 performance counter (datasheet Table 10): one 32-bit PerfCount, "
    "interrupt (IP13) while bit 31 is set, kernel/user mode filters",
    32,
    kCounters,
    kEvents,
    kNumEvents,
    kPresets,
    kNumPresets,
    5,  // PerfControl Event Type
};
static_assert(catalog_sound(catalog), "rm7000 event catalog: codes unique, fit Event Type, counter exists");

namespace detail {
// Table 10 has every code from 0x00 to 0x1E, in order, and nothing else.
constexpr bool table_is_dense() {
  if (kNumEvents != kLastEvent + 1) return false;
  for (std::size_t i = 0; i < kNumEvents; ++i)
    if (kEvents[i].code != i) return false;
  return true;
}
static_assert(table_is_dense(), "rm7000 event table: codes 0x00..0x1E, sorted, none missing");
}  // namespace detail

constexpr bool has_event(std::uint32_t code) { return pmu::has_event(catalog, code); }

}  // namespace pmu::rm7000
