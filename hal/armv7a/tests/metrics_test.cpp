// The ARMv7-A metric tables against the ARMv7 ARM's event definitions (C12) and each core's TRM,
// then evaluated from counts the driver reads off the model.
#include <gtest/gtest.h>

#include "hal/armv7a/driver.hpp"
#include "hal/armv7a/metrics.hpp"
#include "hal/armv7a/model.hpp"
#include "hal/core/bus/mock.hpp"
#include "tests/host/conformance/metric_checks.hpp"

namespace {

namespace a = pmu::armv7a;
namespace ev = pmu::armv7a::event;
using pmutest::is_ratio;

TEST(Armv7aMetrics, IpcIsInstRetiredOverCpuCycles_ARMv7ARM_C12) {
  EXPECT_TRUE(is_ratio(a::metrics, "ipc", {{ev::INST_RETIRED}}, {{ev::CPU_CYCLES}}, 1.0));
}
TEST(Armv7aMetrics, BranchMispredictRatioIsBrMisPredOverBrPred_ARMv7ARM_C12) {
  EXPECT_TRUE(is_ratio(a::metrics, "branch_mispredict_ratio", {{ev::BR_MIS_PRED}}, {{ev::BR_PRED}}, 100.0));
}
TEST(Armv7aMetrics, L1MissRatiosAreRefillsOverAccesses_ARMv7ARM_C12) {
  EXPECT_TRUE(is_ratio(a::metrics, "l1d_miss_ratio", {{ev::L1D_CACHE_REFILL}}, {{ev::L1D_CACHE}}, 100.0));
  EXPECT_TRUE(is_ratio(a::metrics, "l1i_miss_ratio", {{ev::L1I_CACHE_REFILL}}, {{ev::L1I_CACHE}}, 100.0));
}
// Table 11-5: no 0x08 and no instruction cache access event on the Cortex-A9.
TEST(Armv7aMetrics, CortexA9CountsInstructionsAtTheRenamingStage_A9TRM_11_4_Table11_5) {
  const pmu::MetricTable& t = a::kCortexA9MetricTable;
  EXPECT_TRUE(is_ratio(t, "ipc", {{ev::a9::INST_RENAMED}}, {{ev::CPU_CYCLES}}, 1.0));
  EXPECT_TRUE(is_ratio(t, "branch_mispredict_ratio", {{ev::BR_MIS_PRED}}, {{ev::BR_PRED}}, 100.0));
  EXPECT_TRUE(is_ratio(t, "l1d_miss_ratio", {{ev::L1D_CACHE_REFILL}}, {{ev::L1D_CACHE}}, 100.0));
  EXPECT_TRUE(is_ratio(t, "icache_misses_per_kinstr", {{ev::L1I_CACHE_REFILL}}, {{ev::a9::INST_RENAMED}}, 1000.0));
  EXPECT_EQ(pmu::metric_fault(a::kCortexA9Catalog, a::metrics), pmu::MetricFault::unknown_event);
}
TEST(Armv7aMetrics, EachTableFitsTheCatalogsItIsRegisteredFor_ARMv7ARM_C12) {
  for (const pmu::PmuCatalog* c : {&a::kCatalog6, &a::kCatalog4, &a::kCortexA15Catalog, &a::kCortexA7Catalog})
    EXPECT_EQ(pmu::metric_fault(*c, a::metrics), pmu::MetricFault::none) << c->id;
  EXPECT_EQ(pmu::metric_fault(a::kCortexA9Catalog, a::kCortexA9MetricTable), pmu::MetricFault::none);
}

// On the model: the driver counts a metric's two events, and the table's formula gives the value
// the counts were made for.
template <class D, class Bus>
double measure(const pmu::MetricTable& t, const char* name, a::Model& model, std::uint64_t num, std::uint64_t den) {
  const pmu::Metric* m = nullptr;
  for (std::size_t i = 0; i < t.count; ++i)
    if (std::string(t.metrics[i].name) == name) m = &t.metrics[i];
  if (m == nullptr) return -1.0;
  Bus::reset();
  model = a::Model{};
  Bus::device = &model;
  D::forget_probe();
  EXPECT_EQ(D::configure(1, pmu::EventConfig{m->num[0].code, 0, 0}), pmu::Status::ok);
  EXPECT_EQ(D::configure(2, pmu::EventConfig{m->den[0].code, 0, 0}), pmu::Status::ok);
  D::start(0b110);
  if (m->den[0].code == ev::CPU_CYCLES) {
    model.cycles(den);
  } else {
    model.event(m->den[0].code, den);
  }
  model.event(m->num[0].code, num);
  D::stop(0b110);
  const double n = static_cast<double>(D::read(1));
  const double d = static_cast<double>(D::read(2));
  Bus::device = nullptr;
  return d == 0 ? -1.0 : m->scale * n / d;
}

struct Tag {};
using Bus = pmu::MockBus<Tag>;

TEST(Armv7aMetrics, MetricsFromModelCountsOnEachCore_ARMv7ARM_C12) {
  a::Model model{};
  EXPECT_DOUBLE_EQ((measure<a::CortexA15<Bus>, Bus>(a::metrics, "ipc", model, 3000, 2000)), 1.5);
  EXPECT_DOUBLE_EQ((measure<a::CortexA15<Bus>, Bus>(a::metrics, "branch_mispredict_ratio", model, 25, 1000)), 2.5);
  EXPECT_DOUBLE_EQ((measure<a::CortexA7<Bus>, Bus>(a::metrics, "l1d_miss_ratio", model, 40, 800)), 5.0);
  EXPECT_DOUBLE_EQ((measure<a::CortexA7<Bus>, Bus>(a::metrics, "l1i_miss_ratio", model, 3, 600)), 0.5);
  EXPECT_DOUBLE_EQ((measure<a::CortexA9<Bus>, Bus>(a::kCortexA9MetricTable, "ipc", model, 500, 1000)), 0.5);
  EXPECT_DOUBLE_EQ(
      (measure<a::CortexA9<Bus>, Bus>(a::kCortexA9MetricTable, "icache_misses_per_kinstr", model, 7, 2000)), 3.5);
}

}  // namespace
