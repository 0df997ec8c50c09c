# ARMv7-A Performance Monitors Extension (registered by pmu_add(armv7a), hal/pmus.cmake): the
# common-event catalogs of a 6-counter part and a 4-counter one, then each core's own catalog
# (Cortex-A15, Cortex-A7, Cortex-A9: the events its TRM lists).
set(PMU_CATALOG_HEADER hal/armv7a/events.hpp)
set(PMU_CATALOGS pmu::armv7a::kCatalog6 pmu::armv7a::kCatalog4 pmu::armv7a::kCortexA15Catalog
                 pmu::armv7a::kCortexA7Catalog pmu::armv7a::kCortexA9Catalog)
# Derived metrics: one table per catalog above, in its order (the Cortex-A9 has its own).
set(PMU_METRICS_HEADER hal/armv7a/metrics.hpp)
set(PMU_METRICS pmu::armv7a::metrics pmu::armv7a::metrics pmu::armv7a::metrics pmu::armv7a::metrics
                pmu::armv7a::kCortexA9MetricTable)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::armv7a::CortexA15<pmu::ArmCpBus>")
set(PMU_SILICON_HEADERS hal/core/bus/arm_cp.hpp hal/armv7a/driver.hpp)
# The zero-cost probe (bench/zero_cost), built for each target of this PMU (cmake/targets.cmake).
set(PMU_ZERO_COST_PROBE tests/zero_cost_probe.cpp)
