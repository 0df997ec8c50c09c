#include "tools/report/metrics.hpp"

#include <cmath>
#include <cstdio>

#include "pmukit_catalogs.hpp"  // generated from hal/pmus.cmake (cmake/PmuKit.cmake)
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

constexpr std::size_t kRegistered = sizeof(pmu::registered_catalogs) / sizeof(pmu::registered_catalogs[0]);

// Index of the registered catalog with this id; kRegistered when none.
std::size_t registered_index(const std::string& pmu_id) {
  for (std::size_t i = 0; i < kRegistered; ++i)
    if (pmu_id == pmu::registered_catalogs[i].id) return i;
  return kRegistered;
}

bool same_event(const pmu::MetricEvent& a, const pmu::MetricEvent& b) {
  return a.code == b.code && a.qualifier == b.qualifier && a.options == b.options;
}

// The count of one term: matched by code, qualifier and options (the first such value).
const EventValue* find_value(const std::vector<EventValue>& values, const pmu::MetricEvent& term) {
  for (const EventValue& v : values)
    if (v.code == term.code && v.qualifier == term.qualifier && v.options == term.options) return &v;
  return nullptr;
}

// The terms' sum, or false with each missing term's text appended to `missing`.
bool sum_terms(const pmu::PmuCatalog& c, const pmu::MetricEvent* terms, std::size_t n,
               const std::vector<EventValue>& values, double& sum, std::string& missing) {
  bool all = true;
  sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const EventValue* v = find_value(values, terms[k]);
    if (v) {
      sum += v->value;
      continue;
    }
    missing += std::string(missing.empty() ? "" : ", ") + metric_term_text(c, terms[k]);
    all = false;
  }
  return all;
}

// "A", or "(A + B)" for a sum: one side of the formula.
std::string side(const pmu::PmuCatalog& c, const pmu::MetricEvent* terms, std::size_t n) {
  std::string s;
  for (std::size_t k = 0; k < n; ++k) s += (k ? " + " : "") + metric_term_text(c, terms[k]);
  return n > 1 ? "(" + s + ")" : s;
}

// The scale as people write it: "100", "1000", "0.5".
std::string scale_text(double scale) {
  char buf[32];
  if (std::floor(scale) == scale && std::fabs(scale) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", scale);
  else
    std::snprintf(buf, sizeof buf, "%g", scale);
  return buf;
}

}  // namespace

std::span<const pmu::Metric> metrics_for(const std::string& pmu_id) {
  const std::size_t i = registered_index(pmu_id);
  if (i == kRegistered || pmu::registered_metric_tables[i].metrics == nullptr) return {};
  return {pmu::registered_metric_tables[i].metrics, pmu::registered_metric_tables[i].count};
}

const pmu::PmuCatalog* catalog_for(const std::string& pmu_id) {
  const std::size_t i = registered_index(pmu_id);
  return i == kRegistered ? nullptr : &pmu::registered_catalogs[i];
}

std::vector<MetricValue> evaluate_metrics(const std::string& pmu_id, const std::vector<EventValue>& values) {
  std::vector<MetricValue> out;
  const pmu::PmuCatalog* c = catalog_for(pmu_id);
  if (!c) return out;
  for (const pmu::Metric& m : metrics_for(pmu_id)) {
    MetricValue r;
    r.metric = &m;
    double num = 0, den = 0;
    std::string missing;
    const bool have_num = sum_terms(*c, m.num, m.num_count, values, num, missing);
    const bool have_den = sum_terms(*c, m.den, m.den_count, values, den, missing);
    if (!have_num || !have_den)
      r.why_not = "no count for " + missing;
    else if (den == 0)
      r.why_not = "denominator 0";
    else {
      r.value = m.scale * num / den;
      r.available = true;
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<pmu::MetricEvent> metric_group_events(const std::string& pmu_id, const std::string& group) {
  std::vector<pmu::MetricEvent> out;
  auto add = [&](const pmu::MetricEvent& e) {
    for (const pmu::MetricEvent& seen : out)
      if (same_event(seen, e)) return;
    out.push_back(e);
  };
  for (const pmu::Metric& m : metrics_for(pmu_id)) {
    if (!group.empty() && group != m.group) continue;
    for (std::size_t k = 0; k < m.num_count; ++k) add(m.num[k]);
    for (std::size_t k = 0; k < m.den_count; ++k) add(m.den[k]);
  }
  return out;
}

std::string metric_term_text(const pmu::PmuCatalog& catalog, const pmu::MetricEvent& term) {
  const std::size_t i = registered_index(catalog.id);
  if (i != kRegistered && pmu::registered_metric_term_texts[i]) {
    char buf[256];
    if (pmu::registered_metric_term_texts[i](term, buf, sizeof buf) != 0) return buf;
  }
  std::string s = pmu::has_event(catalog, term.code) ? pmu::event_name(catalog, term.code) : hex(term.code);
  if (term.qualifier != 0) s += "[q=" + hex(term.qualifier) + "]";
  if (term.options != 0) s += "[o=" + hex(term.options) + "]";
  return s;
}

std::string metric_formula(const pmu::PmuCatalog& catalog, const pmu::Metric& metric) {
  std::string s;
  if (metric.scale != 1.0) s = scale_text(metric.scale) + " * ";
  return s + side(catalog, metric.num, metric.num_count) + " / " + side(catalog, metric.den, metric.den_count);
}

}  // namespace pmukit
