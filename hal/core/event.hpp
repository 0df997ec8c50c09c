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
  unsigned event_bits = 0;   // width of the PMU's event-select field (codes must fit; an event
                             // with counters == 0 lives on a dedicated counter and is exempt)
};

// ---------------------------------------------------------------------------------------------
// Catalog look-ups: the one implementation every layer uses (drivers, profiler, host tool).
// Index-based, so constant evaluation stays free of pointer comparisons (GCC rejects those in a
// static_assert under -fsanitize=undefined). A miss returns the table's size.

constexpr std::size_t event_index(const PmuCatalog& c, std::uint32_t code) {
  // Most tables list their codes in order from 0 (e500, RM7000, NetBurst's rows, XScale's core
  // events): the code is then its own index, and a configure() needs no scan.
  if (code < c.num_events && c.events[code].code == code) return code;
  for (std::size_t i = 0; i < c.num_events; ++i)
    if (c.events[i].code == code) return i;
  return c.num_events;
}
constexpr std::size_t preset_index(const PmuCatalog& c, Preset p) {
  for (std::size_t i = 0; i < c.num_presets; ++i)
    if (c.presets[i].preset == p) return i;
  return c.num_presets;
}
constexpr bool has_event(const PmuCatalog& c, std::uint32_t code) {
  return event_index(c, code) < c.num_events;
}
constexpr bool has_preset(const PmuCatalog& c, Preset p) {
  return preset_index(c, p) < c.num_presets;
}
constexpr const EventInfo* find_event(const PmuCatalog& c, std::uint32_t code) {
  const std::size_t i = event_index(c, code);
  return i < c.num_events ? &c.events[i] : nullptr;
}
constexpr const PresetBinding* find_preset(const PmuCatalog& c, Preset p) {
  const std::size_t i = preset_index(c, p);
  return i < c.num_presets ? &c.presets[i] : nullptr;
}
// Counters (the PMU's own numbering) that can count the event; 0 for an unknown code.
constexpr std::uint32_t event_counters(const PmuCatalog& c, std::uint32_t code) {
  const std::size_t i = event_index(c, code);
  return i < c.num_events ? c.events[i].counters : 0;
}
constexpr std::uint32_t event_flags(const PmuCatalog& c, std::uint32_t code) {
  const std::size_t i = event_index(c, code);
  return i < c.num_events ? c.events[i].flags : 0;
}
// The event's mnemonic, or "?".
constexpr const char* event_name(const PmuCatalog& c, std::uint32_t code) {
  const std::size_t i = event_index(c, code);
  return i < c.num_events ? c.events[i].name : "?";
}
// Event by mnemonic (exact match), for host tools.
constexpr std::size_t event_index_by_name(const PmuCatalog& c, const char* name) {
  for (std::size_t i = 0; i < c.num_events; ++i) {
    const char* a = c.events[i].name;
    const char* b = name;
    while (*a && *a == *b) ++a, ++b;
    if (*a == *b) return i;
  }
  return c.num_events;
}

// What catalog_sound() found wrong, so a static_assert can say which rule broke.
enum class CatalogFault : std::uint8_t {
  none,
  duplicate_code,           // two events share a code
  counter_outside_pmu,      // an event or preset names a counter the PMU does not have
  code_too_wide,            // a code does not fit the event-select field
  preset_without_event,     // a preset names a code the table lacks
  preset_counters_not_subset,  // a preset allows a counter its event does not
  duplicate_preset,
};
constexpr CatalogFault catalog_fault(const PmuCatalog& c) {
  const std::uint32_t pmu_counters =
      c.num_counters >= 32 ? ~0u : (std::uint32_t{1} << c.num_counters) - 1;
  for (std::size_t i = 0; i < c.num_events; ++i) {
    const EventInfo& e = c.events[i];
    for (std::size_t j = 0; j < i; ++j)
      if (c.events[j].code == e.code) return CatalogFault::duplicate_code;
    if (e.counters & ~pmu_counters) return CatalogFault::counter_outside_pmu;
    if (e.counters != 0 && c.event_bits < 32 && (e.code >> c.event_bits) != 0)
      return CatalogFault::code_too_wide;
  }
  for (std::size_t i = 0; i < c.num_presets; ++i) {
    const PresetBinding& p = c.presets[i];
    for (std::size_t j = 0; j < i; ++j)
      if (c.presets[j].preset == p.preset) return CatalogFault::duplicate_preset;
    const std::size_t e = event_index(c, p.code);
    if (e == c.num_events) return CatalogFault::preset_without_event;
    if (p.counters & ~pmu_counters) return CatalogFault::counter_outside_pmu;
    if (p.counters & ~c.events[e].counters) return CatalogFault::preset_counters_not_subset;
  }
  return CatalogFault::none;
}
// Use in each events.hpp:  static_assert(pmu::catalog_sound(catalog), "...");
// and, to learn which rule broke, compare catalog_fault(catalog) with a CatalogFault value.
constexpr bool catalog_sound(const PmuCatalog& c) {
  return c.event_bits > 0 && catalog_fault(c) == CatalogFault::none;
}

}  // namespace pmu
