// A metric term is an event and its masks: a modifier (here :u, user mode only) has no place in a
// MetricEvent's qualifier, so metric_term() refuses it, naming the rule.
#include "hal/netburst/metrics.hpp"

void misuse() {
  constexpr pmu::MetricEvent ok = pmu::netburst::metric_term("instr_retired:NBOGUSNTAG");
  (void)ok;
#ifdef PMU_MISUSE
  constexpr pmu::MetricEvent bad = pmu::netburst::metric_term("instr_retired:NBOGUSNTAG:u");
  (void)bad;
#endif
}
