#pragma once
// Every PMU this toolkit drives, as data: what each can count (events, presets, counters).
// The host tool's `pmukit events` lists these; a new PMU folder adds its catalog here.
#include "hal/core/event.hpp"
#include "hal/e500/events.hpp"
#include "hal/xscale/events.hpp"

namespace pmu {

inline constexpr PmuCatalog catalogs[] = {
    xscale::kXsc1Catalog,
    xscale::kXsc2Catalog,
    e500::catalog,
};

}  // namespace pmu
