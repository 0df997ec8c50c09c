#pragma once
// Event tables as data: every PMU folder publishes its events and its portable presets in these
// shapes, so the profiler can check requests at compile time and the host tool can list them.
#include <cstddef>
#include <cstdint>

namespace pmu {

// Portable presets: what a firmware engineer asks for without knowing the PMU.
enum class Preset : std::uint8_t {
  cycles,
  instructions,
  dcache_misses,
  icache_misses,
  branch_mispredicts,
  branches,
  tlb_misses,
  stall_cycles,
};
inline constexpr std::size_t kPresetCount = 8;

constexpr const char* preset_name(Preset p) {
  switch (p) {
    case Preset::cycles: return "cycles";
    case Preset::instructions: return "instructions";
    case Preset::dcache_misses: return "dcache_misses";
    case Preset::icache_misses: return "icache_misses";
    case Preset::branch_mispredicts: return "branch_mispredicts";
    case Preset::branches: return "branches";
    case Preset::tlb_misses: return "tlb_misses";
    case Preset::stall_cycles: return "stall_cycles";
  }
  return "?";
}

// Properties an event may have beyond "count it".
enum EventFlag : std::uint32_t {
  kEventNeedsThreshold = 1u << 0,  // duration event: counted only past a threshold (e500)
  kEventQualified = 1u << 1,       // meaning set by a qualifier register (MIPS CM)
  kEventChainSource = 1u << 2,     // counts another counter's rollovers (e500 chaining)
};

struct EventInfo {
  std::uint32_t code;        // value written to the PMU's event-select field
  const char* name;          // short mnemonic, e.g. "DCACHE_MISS"
  const char* description;   // the manual's wording
  std::uint32_t counters;    // bit n set: counter n (the PMU's own numbering) can count it;
                             // drivers map this to profiler slots in slots_for()
  std::uint32_t flags;       // EventFlag bits
};

// A preset a PMU supports, and the event (and counter set) that implements it.
struct PresetBinding {
  Preset preset;
  std::uint32_t code;        // event code, as in EventInfo::code
  std::uint32_t counters;    // counters that can take it (may be narrower than the event's)
};

// What one PMU can count, as data (for the host tool's `events` listing and for docs).
struct PmuCatalog {
  const char* id;            // "xscale-xsc2", "e500", ...
  const char* description;
  unsigned counter_width;    // bits
  unsigned num_counters;     // programmable counters (not a dedicated cycle counter)
  const EventInfo* events;
  std::size_t num_events;
  const PresetBinding* presets;
  std::size_t num_presets;
};

}  // namespace pmu
