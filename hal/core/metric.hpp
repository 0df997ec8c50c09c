#pragma once
// Derived metrics as data, next to each PMU's event catalog (hal/<pmu>/metrics.hpp): a metric is
// scale * (sum of its numerator events) / (sum of its denominator events), every event named by
// its catalog code (and qualifier where the event needs one). Firmware uses a table to schedule
// the events a metric group needs (prof::Multiplexer::add_metric_group); the host tool evaluates
// them from the dump's counts (pmukit stat). metrics_sound() checks a table against its PMU's
// catalog at compile time: a metric naming an event the PMU does not have does not build.
#include <cstddef>
#include <cstdint>

#include "hal/core/event.hpp"

namespace pmu {

// One event a metric reads: a catalog code, and the qualifier/options an EventConfig would carry
// (e500 threshold, NetBurst ESCR mask; 0 elsewhere).
struct MetricEvent {
  std::uint32_t code = 0;
  std::uint32_t qualifier = 0;
  std::uint32_t options = 0;
};

inline constexpr std::size_t kMetricTerms = 4;

struct Metric {
  const char* name;         // short, lower case: "ipc", "l1d_miss_ratio"
  const char* group;        // the group firmware asks for by name: "basic", "cache", "branch", ...
  const char* description;  // what it means, in the source's words where it has them
  const char* unit;         // "instructions/cycle", "%", "per 1000 instructions"
  const char* source;       // the manual section or application note that defines it
  MetricEvent num[kMetricTerms];
  std::uint8_t num_count;
  MetricEvent den[kMetricTerms];
  std::uint8_t den_count;   // at least 1
  double scale;             // value = scale * sum(num) / sum(den); 100 for a percentage
};

struct MetricTable {
  const Metric* metrics;
  std::size_t count;
};

enum class MetricFault : std::uint8_t {
  none,
  unknown_event,     // a term names a code the catalog lacks
  no_denominator,    // den_count 0, or a count above kMetricTerms
  duplicate_name,    // two metrics share a name
  empty_group,       // a metric without a group or a name
};

constexpr bool metric_names_equal(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

constexpr MetricFault metric_fault(const PmuCatalog& c, const MetricTable& t) {
  for (std::size_t i = 0; i < t.count; ++i) {
    const Metric& m = t.metrics[i];
    if (!m.name || !m.group || !*m.name || !*m.group) return MetricFault::empty_group;
    if (m.den_count == 0 || m.den_count > kMetricTerms || m.num_count > kMetricTerms)
      return MetricFault::no_denominator;
    for (std::size_t k = 0; k < m.num_count; ++k)
      if (!has_event(c, m.num[k].code)) return MetricFault::unknown_event;
    for (std::size_t k = 0; k < m.den_count; ++k)
      if (!has_event(c, m.den[k].code)) return MetricFault::unknown_event;
    for (std::size_t j = 0; j < i; ++j)
      if (metric_names_equal(t.metrics[j].name, m.name)) return MetricFault::duplicate_name;
  }
  return MetricFault::none;
}
// Use in each metrics.hpp:  static_assert(pmu::metrics_sound(catalog, metrics), "...");
constexpr bool metrics_sound(const PmuCatalog& c, const MetricTable& t) {
  return metric_fault(c, t) == MetricFault::none;
}

}  // namespace pmu
