# QED/PMC-Sierra RM7000 performance counter (registered by pmu_add(rm7000), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/rm7000/events.hpp)
set(PMU_CATALOGS pmu::rm7000::catalog)
# Derived metrics: one table per catalog above, in its order.
set(PMU_METRICS_HEADER hal/rm7000/metrics.hpp)
set(PMU_METRICS pmu::rm7000::metrics)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::rm7000::Driver<pmu::Cp0Bus>")
set(PMU_SILICON_HEADERS hal/core/bus/cp0.hpp hal/rm7000/driver.hpp)
# The zero-cost probe (bench/zero_cost), built for each target of this PMU (cmake/targets.cmake).
set(PMU_ZERO_COST_PROBE tests/zero_cost_probe.cpp)
