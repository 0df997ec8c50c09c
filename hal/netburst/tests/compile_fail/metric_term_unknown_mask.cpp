// A metric term's mask must be one of its event's (RUNNING is global_power_events', not
// instr_retired's): metric_term() checks the string as encode.hpp's checked() does.
#include "hal/netburst/metrics.hpp"

void misuse() {
  constexpr pmu::MetricEvent ok = pmu::netburst::metric_term("global_power_events:RUNNING");
  (void)ok;
#ifdef PMU_MISUSE
  constexpr pmu::MetricEvent bad = pmu::netburst::metric_term("instr_retired:RUNNING");
  (void)bad;
#endif
}
