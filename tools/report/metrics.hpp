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
  std::uint32_t options = 0;  // a count of user mode only (e500 FCS, NetBurst's USR) is another event
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

// The registered catalog of a PMU id; nullptr for an id no PMU registers.
const pmu::PmuCatalog* catalog_for(const std::string& pmu_id);

// The distinct events (code, qualifier, options) the metrics of `group` read, in table order:
// what a run must count for the group ("" : every metric's). Empty for an unknown id or group.
std::vector<pmu::MetricEvent> metric_group_events(const std::string& pmu_id, const std::string& group);

// A term in the catalog's words: the PMU's own spelling where it registers one (NetBurst:
// "branch_retired:MMNM:MMTM"), else the event's name ("DC_MISS"), then "[q=0x3]" for a qualifier
// and "[o=0x1]" for options that are not 0; a code the catalog lacks prints as its hex value.
std::string metric_term_text(const pmu::PmuCatalog& catalog, const pmu::MetricEvent& term);
// The formula in event names: "100 * DC_MISS / DC_ACCESS", "DL1_RELOADS / (A + B)".
std::string metric_formula(const pmu::PmuCatalog& catalog, const pmu::Metric& metric);

}  // namespace pmukit
