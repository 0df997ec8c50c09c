#pragma once
// MIPS CPS Coherence Manager performance counters: event table, presets and catalog (data only).
//
// Event numbers and wording: the MIPS CPS training, "CM Performance Counter Event Select Register"
// (PC_EVENT P0_Event / P1_Event): 0-6, 8, 9, 16, 17; the mnemonics are ours. Every event is refined
// by its counter's qualifier register (PC_QUALn, 32 bits): "a performance counter will increment
// if the specified event occurs and the qualifier criteria is matched in all groups". The per-event
// qualifier layouts are in each core's CPS Software User's Manual, which is not public: this
// toolkit takes the qualifier as a raw 32-bit value from the caller (EventConfig::qualifier) and
// writes it unchanged. A qualifier of 0 is written as 0; what it selects is the manual's business.
//
// Both counters take every event. The cycle counter (PC_CYCLE) counts CM clock cycles only: it is
// listed under the pseudo code kCycleEvent = 0x100, outside the 8-bit event field, like every
// dedicated counter in this toolkit. CM cycles are not core cycles: the CM has its own clock.
#include <cstddef>
#include <cstdint>

#include "hal/core/event.hpp"

namespace pmu::mips_cps {

inline constexpr unsigned kCounters = 2;  // PC_CNT0, PC_CNT1 (programmable)
inline constexpr std::uint32_t kCycleEvent = 0x100;  // pseudo event: PC_CYCLE (slot 0)

namespace event {
inline constexpr std::uint32_t REQUEST_COUNT = 0;
inline constexpr std::uint32_t COHERENT_REQ_RESP = 1;
inline constexpr std::uint32_t WRITE_DATA_USAGE = 2;
inline constexpr std::uint32_t COMMAND_BUS_USAGE = 3;
inline constexpr std::uint32_t READ_DATA_USAGE = 4;
inline constexpr std::uint32_t SHARING_MISS = 5;
inline constexpr std::uint32_t RESPONSE_UNIT_USAGE = 6;
inline constexpr std::uint32_t L2_PIPELINE_UTIL = 8;
inline constexpr std::uint32_t L2_HIT_MISS = 9;
inline constexpr std::uint32_t IOCU1_REQUESTS = 16;
inline constexpr std::uint32_t IOCU2_REQUESTS = 17;
}  // namespace event

inline constexpr std::uint32_t kQ = kEventQualified;
inline constexpr EventInfo kEvents[] = {
    {kCycleEvent, "CM_CYCLES", "CM clock cycles, counted by the dedicated cycle counter PC_CYCLE",
     0, 0},
    {event::REQUEST_COUNT, "REQUEST_COUNT",
     "Request Count: measures system load (qualified by CPU or IOCU port, cache coherency "
     "attribute, command, request length and target)", 0x3, kQ},
    {event::COHERENT_REQ_RESP, "COHERENT_REQ_RESP",
     "Coherent Request or Response: counts the specified request/response type (intervention "
     "states, speculative or non-speculative coherent reads, intervention commands)", 0x3, kQ},
    {event::WRITE_DATA_USAGE, "WRITE_DATA_USAGE",
     "CM Write Data Usage: L2 to memory write data cycles (qualified: stall cycles or not)", 0x3, kQ},
    {event::COMMAND_BUS_USAGE, "COMMAND_BUS_USAGE",
     "CM Command Bus Usage: L2 to memory command cycles (qualified: stall cycles or not)", 0x3, kQ},
    {event::READ_DATA_USAGE, "READ_DATA_USAGE",
     "CM Read Data Usage: L2 to memory read data cycles (qualified: stall cycles or not)", 0x3, kQ},
    {event::SHARING_MISS, "SHARING_MISS",
     "Sharing Miss: cache misses satisfied by another processor (qualified by the CPUs that "
     "participate)", 0x3, kQ},
    {event::RESPONSE_UNIT_USAGE, "RESPONSE_UNIT_USAGE",
     "Response Unit Usage: d-words on the processor/IOCU read data bus for a specific CPU", 0x3, kQ},
    {event::L2_PIPELINE_UTIL, "L2_PIPELINE_UTIL",
     "L2 Pipeline Utilization: starts into the TA stage of the L2 (qualified: stalled, started, "
     "waiting for sync, denied)", 0x3, kQ},
    {event::L2_HIT_MISS, "L2_HIT_MISS",
     "L2 Hits/Misses: types of L2 cache hits and misses, crossed with the source port ID", 0x3, kQ},
    {event::IOCU1_REQUESTS, "IOCU1_REQUESTS",
     "1st IOCU Requests: requests received by the first IOCU (qualified by transaction ID, I/O "
     "parking state, burst length, L2 allocation, posted or not, cacheability, read or write)",
     0x3, kQ},
    {event::IOCU2_REQUESTS, "IOCU2_REQUESTS",
     "2nd IOCU Requests: requests received by the second IOCU (qualified as the first's)", 0x3, kQ},
};
inline constexpr std::size_t kNumEvents = sizeof(kEvents) / sizeof(kEvents[0]);

// Only the CM clock is a portable preset here: every other CM event is a bus or L2 measure that
// means nothing without its qualifier. `cycles` on this PMU are CM cycles, not core cycles.
inline constexpr PresetBinding kPresets[] = {
    {Preset::cycles, kCycleEvent, 0},
};
inline constexpr std::size_t kNumPresets = sizeof(kPresets) / sizeof(kPresets[0]);

inline constexpr PmuCatalog catalog{
    "mips-cm",
    "MIPS CPS Coherence Manager (CM2/CM2.5) global debug block: a CM cycle counter and 2 event "
    "counters, 32 bits, shared by every core; each event takes a raw 32-bit PC_QUALn qualifier "
    "(the per-event layouts are not public: see the core's CPS Software User's Manual)",
    32,
    kCounters,
    kEvents,
    kNumEvents,
    kPresets,
    kNumPresets,
    8,  // P0_Event / P1_Event
};
static_assert(catalog_sound(catalog), "mips-cm event catalog: codes unique, fit the 8-bit event field");

// The GCR_DB_PC_EVENT list of the MIPS CPS Training, "Performance Registers (GCR)", exactly:
// 0-6, 8, 9, 16, 17 on the counters, and the cycle counter.
namespace detail {
constexpr bool table_is_the_cps_texts() {
  constexpr std::uint32_t want[] = {0, 1, 2, 3, 4, 5, 6, 8, 9, 16, 17};
  if (kNumEvents != 1 + sizeof(want) / sizeof(want[0]) || kEvents[0].code != kCycleEvent) return false;
  for (std::size_t i = 0; i < sizeof(want) / sizeof(want[0]); ++i)
    if (kEvents[i + 1].code != want[i] || kEvents[i + 1].counters != 0x3) return false;
  return true;
}
static_assert(table_is_the_cps_texts(), "mips-cm event table: the events 0-6, 8, 9, 16, 17, in order");
}  // namespace detail

constexpr bool has_counter_event(std::uint32_t code) {
  return code != kCycleEvent && pmu::has_event(catalog, code);
}

}  // namespace pmu::mips_cps
