// A metric table naming an event code its PMU's catalog lacks does not build: metrics_sound()
// (hal/core/metric.hpp) is checked where the table is defined, as every hal/<pmu>/metrics.hpp does.
// The misuse: XSC3's L2 events (0x20, 0x23) in a table checked against the XSC2 catalog, which has
// no event there (Table 8-12 leaves those codes undefined on XSC1/XSC2).
#include <cstddef>

#include "hal/core/metric.hpp"
#include "hal/xscale/events.hpp"

namespace xs = pmu::xscale;

inline constexpr pmu::Metric kMetrics[] = {
    {"ipc", "basic", "instructions per cycle", "instructions/cycle", "8.4.1",
     {{xs::event::INSTR}}, 1, {{xs::kCcntEvent}}, 1, 1.0},
#ifdef PMU_MISUSE
    {"l2_miss_ratio", "cache", "L2 misses per L2 request", "%", "XSC3 events",
     {{0x23}}, 1, {{0x20}}, 1, 100.0},
#endif
};
inline constexpr pmu::MetricTable kTable{kMetrics, sizeof(kMetrics) / sizeof(kMetrics[0])};

static_assert(pmu::metric_fault(xs::kXsc3Catalog, kTable) == pmu::MetricFault::none,
              "the same table is sound against XSC3, which has the L2 events");
static_assert(pmu::metrics_sound(xs::kXsc2Catalog, kTable),
              "xscale-xsc2 metrics: a term names an event code the catalog lacks");
