#pragma once
// `pmukit events`: what each PMU can count (its events and the portable presets it supports),
// as text in the style of `perf list`, or as JSON.
#include <ostream>
#include <span>

#include "hal/core/event.hpp"

namespace pmukit {

void write_events_text(std::ostream& os, std::span<const pmu::PmuCatalog> catalogs);
void write_events_json(std::ostream& os, std::span<const pmu::PmuCatalog> catalogs);

// "0-3", "0,2", "none": the counters a bit mask allows.
std::string counter_list(std::uint32_t mask);

}  // namespace pmukit
