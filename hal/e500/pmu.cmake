# PowerPC e500 core performance monitor (registered by pmu_add(e500), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/e500/events.hpp)
set(PMU_CATALOGS pmu::e500::catalog)
# Derived metrics: one table per catalog above, in its order.
set(PMU_METRICS_HEADER hal/e500/metrics.hpp)
set(PMU_METRICS pmu::e500::metrics)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::e500::Driver<pmu::PmrBus>")
set(PMU_SILICON_HEADERS hal/core/bus/pmr.hpp hal/e500/driver.hpp)
# The zero-cost probe (bench/zero_cost), built for each target of this PMU (cmake/targets.cmake).
set(PMU_ZERO_COST_PROBE tests/zero_cost_probe.cpp)
