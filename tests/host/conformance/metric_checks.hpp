#pragma once
// A PMU's derived metrics (hal/<pmu>/metrics.hpp) checked against the manual's definitions: each
// PMU's metrics_test.cpp states one rule per test, by the metric's name, its numerator and
// denominator events and its scale (100: a percentage, 1000: per 1000 instructions).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hal/core/metric.hpp"

namespace pmutest {

struct Term {
  std::uint32_t code;
  std::uint32_t qualifier = 0;
};

inline bool same_terms(const pmu::MetricEvent* terms, std::size_t n, const std::vector<Term>& want) {
  if (n != want.size()) return false;
  for (std::size_t k = 0; k < n; ++k)
    if (terms[k].code != want[k].code || terms[k].qualifier != want[k].qualifier || terms[k].options != 0)
      return false;
  return true;
}

// EXPECT_TRUE(is_ratio(table, "ipc", {{INSTR}}, {{CYCLES}}, 1.0)).
inline ::testing::AssertionResult is_ratio(const pmu::MetricTable& table, const char* name,
                                           const std::vector<Term>& num, const std::vector<Term>& den,
                                           double scale) {
  for (std::size_t i = 0; i < table.count; ++i) {
    const pmu::Metric& m = table.metrics[i];
    if (std::string(m.name) != name) continue;
    if (!same_terms(m.num, m.num_count, num)) return ::testing::AssertionFailure() << name << ": another numerator";
    if (!same_terms(m.den, m.den_count, den)) return ::testing::AssertionFailure() << name << ": another denominator";
    if (m.scale != scale) return ::testing::AssertionFailure() << name << ": scale " << m.scale << ", not " << scale;
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no metric '" << name << "'";
}

// The metric's group, "" for none.
inline std::string group_of(const pmu::MetricTable& table, const char* name) {
  for (std::size_t i = 0; i < table.count; ++i)
    if (std::string(table.metrics[i].name) == name) return table.metrics[i].group;
  return "";
}

}  // namespace pmutest
