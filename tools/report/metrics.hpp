#pragma once
// Derived metrics on the host (pmukit stat): each PMU's table (hal/<pmu>/metrics.hpp, registered
// with its catalog) evaluated from event counts, raw or scaled estimates alike.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hal/core/metric.hpp"

namespace pmukit {

// One event's count in a run or region: a scaled estimate for a multiplexed event, the exact count
// otherwise. Matched to a metric's terms by code and qualifier.
struct EventValue {
  std::uint32_t code = 0;
  std::uint32_t qualifier = 0;
  double value = 0;
};

struct MetricValue {
  const pmu::Metric* metric = nullptr;  // the table's entry (name, group, unit, source)
  double value = 0;
  bool available = false;               // every term has a value and the denominator is not 0
  std::string why_not;                  // when not available: the missing event, or "denominator 0"
};

// The metric table of a PMU id ("e500", "xscale-xsc2", ...): empty for a PMU without one.
std::span<const pmu::Metric> metrics_for(const std::string& pmu_id);

// Every metric of the PMU, in table order; those whose events are not all in `values`, or whose
// denominator is 0, come back unavailable with the reason.
std::vector<MetricValue> evaluate_metrics(const std::string& pmu_id, const std::vector<EventValue>& values);

}  // namespace pmukit
