#pragma once
// MIPS CM derived metrics (data only): rates per CM cycle, from the event descriptions of the MIPS
// CPS Training ("Performance Registers (GCR)", the GCR_DB_PC_EVENT list) and its cycle counter
// PC_CYCLE (GCR_DB_PC_CYCLE: "CM clock cycles"). The text suggests the pairing itself: the request
// count "along with the cycle count" gives the requests received over a period; events 2, 3 and 4
// count the cycles a bus is in use, so over the cycle count they are that bus's utilisation.
//
// Every counter event takes a qualifier (PC_QUALn), whose layouts are in each core's CPS Software
// User's Manual, not public (events.hpp). Each term here carries qualifier 0, the value the driver
// writes unchanged: a metric is the rate of what PC_QUALn = 0 selects on the core at hand. A metric
// for another selection is another table row with that qualifier (an evaluation matches counts by
// code and qualifier). CM cycles are the CM's clock, not a core's. No instructions: no "basic".
#include <cstddef>

#include "hal/core/metric.hpp"
#include "hal/mips_cps/events.hpp"

namespace pmu::mips_cps {

inline constexpr Metric kMetrics[] = {
    {"request_rate", "bus", "requests received by the CM per CM cycle (system load)", "requests/CM cycle",
     "MIPS CPS Training, Performance Registers (GCR): event 0 Request Count \"along with the cycle "
     "count\" / PC_CYCLE",
     {{event::REQUEST_COUNT}}, 1, {{kCycleEvent}}, 1, 1.0},
    {"write_data_bus_utilisation", "bus", "share of CM cycles the L2-to-memory write data bus is in use",
     "% of CM cycles",
     "MIPS CPS Training, Performance Registers (GCR): event 2 CM Write Data Usage (cycles the bus "
     "is in use) / PC_CYCLE",
     {{event::WRITE_DATA_USAGE}}, 1, {{kCycleEvent}}, 1, 100.0},
    {"command_bus_utilisation", "bus", "share of CM cycles the L2-to-memory command bus is in use",
     "% of CM cycles",
     "MIPS CPS Training, Performance Registers (GCR): event 3 CM Command Bus Usage (cycles the bus "
     "is in use) / PC_CYCLE",
     {{event::COMMAND_BUS_USAGE}}, 1, {{kCycleEvent}}, 1, 100.0},
    {"read_data_bus_utilisation", "bus", "share of CM cycles the L2-to-memory read data bus is in use",
     "% of CM cycles",
     "MIPS CPS Training, Performance Registers (GCR): event 4 CM Read Data Usage (cycles the bus "
     "is in use) / PC_CYCLE",
     {{event::READ_DATA_USAGE}}, 1, {{kCycleEvent}}, 1, 100.0},
    {"response_dwords_per_cycle", "bus",
     "d-words on the processor/IOCU read data bus for the selected CPU, per CM cycle",
     "d-words/CM cycle",
     "MIPS CPS Training, Performance Registers (GCR): event 6 Response Unit Usage / PC_CYCLE",
     {{event::RESPONSE_UNIT_USAGE}}, 1, {{kCycleEvent}}, 1, 1.0},
    {"iocu1_request_rate", "bus", "requests received by the first IOCU per CM cycle", "requests/CM cycle",
     "MIPS CPS Training, Performance Registers (GCR): event 16 1st IOCU Requests / PC_CYCLE",
     {{event::IOCU1_REQUESTS}}, 1, {{kCycleEvent}}, 1, 1.0},
    {"iocu2_request_rate", "bus", "requests received by the second IOCU per CM cycle", "requests/CM cycle",
     "MIPS CPS Training, Performance Registers (GCR): event 17 2nd IOCU Requests / PC_CYCLE",
     {{event::IOCU2_REQUESTS}}, 1, {{kCycleEvent}}, 1, 1.0},
    {"l2_pipeline_starts_per_cycle", "cache", "starts into the L2's TA stage per CM cycle",
     "starts/CM cycle",
     "MIPS CPS Training, Performance Registers (GCR): event 8 L2 Pipeline Utilization (starts into "
     "the TA stage) / PC_CYCLE",
     {{event::L2_PIPELINE_UTIL}}, 1, {{kCycleEvent}}, 1, 1.0},
};
inline constexpr MetricTable metrics{kMetrics, sizeof(kMetrics) / sizeof(kMetrics[0])};

static_assert(metrics_sound(catalog, metrics),
              "mips-cm metrics: every term an event of the mips-cm catalog, names unique, a denominator each");

}  // namespace pmu::mips_cps
