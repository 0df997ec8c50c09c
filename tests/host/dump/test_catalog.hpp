#pragma once
// A small PMU catalog in the shape of hal/core/event.hpp, for the `events` listing tests (the
// real catalogs live with the PMU drivers).
#include "hal/core/event.hpp"

namespace dumptest {

inline constexpr pmu::EventInfo kTestEvents[] = {
    {0x00, "ICACHE_MISS", "Instruction cache miss", 0xF, 0},
    {0x0B, "DCACHE_MISS", "Data cache miss", 0xF, 0},
    {0x4C, "LOAD_LATENCY", "Loads slower than the threshold", 0x3, pmu::kEventNeedsThreshold},
    {0x52, "PMC0_OVERFLOW", "Counter 0 rolled over", 0xE, pmu::kEventChainSource},
    {0x09, "L2_HIT", "L2 hits, as the qualifier selects", 0x5, pmu::kEventQualified},
};
inline constexpr pmu::PresetBinding kTestPresets[] = {
    {pmu::Preset::icache_misses, 0x00, 0xF},
    {pmu::Preset::dcache_misses, 0x0B, 0x1},
};
inline constexpr pmu::PmuCatalog kTestCatalogs[] = {
    {"test-pmu", "A PMU for tests", 32, 4, kTestEvents, 5, kTestPresets, 2},
    {"tiny", "No presets", 40, 1, kTestEvents, 1, nullptr, 0},
};

}  // namespace dumptest
