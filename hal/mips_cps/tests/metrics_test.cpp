// The MIPS CM metric table against the MIPS CPS Training, "Performance Registers (GCR)": rates per
// CM cycle (PC_CYCLE) of the GCR_DB_PC_EVENT events, with the raw qualifier 0.
#include <gtest/gtest.h>

#include "hal/mips_cps/metrics.hpp"
#include "tests/host/conformance/metric_checks.hpp"

namespace {

namespace cm = pmu::mips_cps;
namespace ev = pmu::mips_cps::event;
using pmutest::is_ratio;
constexpr std::uint32_t kCycles = cm::kCycleEvent;

// "use the request count along with the cycle count to get an idea of requests received over a
// period of time" (event 0).
TEST(MipsCmMetrics, RequestRateIsRequestCountOverTheCycleCount_GcrDbPcEvent) {
  EXPECT_TRUE(is_ratio(cm::metrics, "request_rate", {{ev::REQUEST_COUNT}}, {{kCycles}}, 1.0));
}

// Events 2, 3 and 4 count the cycles the L2-memory write data, command and read data buses are in
// use: over the CM's cycles, their utilisation.
TEST(MipsCmMetrics, BusUtilisationIsBusUsageCyclesOverCmCycles_GcrDbPcEvent) {
  EXPECT_TRUE(is_ratio(cm::metrics, "write_data_bus_utilisation", {{ev::WRITE_DATA_USAGE}}, {{kCycles}}, 100.0));
  EXPECT_TRUE(is_ratio(cm::metrics, "command_bus_utilisation", {{ev::COMMAND_BUS_USAGE}}, {{kCycles}}, 100.0));
  EXPECT_TRUE(is_ratio(cm::metrics, "read_data_bus_utilisation", {{ev::READ_DATA_USAGE}}, {{kCycles}}, 100.0));
}

TEST(MipsCmMetrics, EveryMetricIsARatePerCmCycleInTheBusOrCacheGroup_GcrDbPcCycle) {
  for (std::size_t i = 0; i < cm::metrics.count; ++i) {
    const pmu::Metric& m = cm::metrics.metrics[i];
    SCOPED_TRACE(m.name);
    ASSERT_EQ(m.den_count, 1u);
    EXPECT_EQ(m.den[0].code, kCycles);
    EXPECT_TRUE(std::string(m.group) == "bus" || std::string(m.group) == "cache");
    for (std::size_t k = 0; k < m.num_count; ++k) EXPECT_EQ(m.num[k].qualifier, 0u) << "the raw PC_QUAL value 0";
  }
}

}  // namespace
