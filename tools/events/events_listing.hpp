#pragma once
// `pmukit events`: what each PMU can count (its events and the portable presets it supports),
// as text in the style of `perf list`, or as JSON.
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "hal/core/event.hpp"
#include "hal/core/metric.hpp"

namespace pmukit {

void write_events_text(std::ostream& os, std::span<const pmu::PmuCatalog> catalogs);
void write_events_json(std::ostream& os, std::span<const pmu::PmuCatalog> catalogs);

// `pmukit events --metrics`: a catalog's derived metrics (tools/report/metrics.hpp), each with its
// name, group, formula in the catalog's event names, unit and source.
struct MetricListing {
  const pmu::PmuCatalog* catalog = nullptr;
  std::vector<const pmu::Metric*> metrics;
};
void write_metrics_text(std::ostream& os, std::span<const MetricListing> listings);
void write_metrics_json(std::ostream& os, std::span<const MetricListing> listings);

// "0-3", "0,2", "none": the counters a bit mask allows.
std::string counter_list(std::uint32_t mask);

}  // namespace pmukit
