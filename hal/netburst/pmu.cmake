# Intel NetBurst (Pentium 4) PMU (registered by pmu_add(netburst), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/netburst/events.hpp)
set(PMU_CATALOGS pmu::netburst::catalog)
# Derived metrics: one table per catalog above, in its order.
set(PMU_METRICS_HEADER hal/netburst/metrics.hpp)
set(PMU_METRICS pmu::netburst::metrics)
# Its terms in event-string syntax for `pmukit events --metrics` (the masks by name, not a number).
set(PMU_METRIC_TERM_TEXT pmu::netburst::term_string)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::netburst::Driver<pmu::netburst::HwBus>")
set(PMU_SILICON_HEADERS hal/netburst/driver.hpp)
# The zero-cost probe (bench/zero_cost), built for each target of this PMU (cmake/targets.cmake).
set(PMU_ZERO_COST_PROBE tests/zero_cost_probe.cpp)
