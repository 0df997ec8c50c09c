# Intel XScale core PMU: every variant's catalog, and the 80200's (registered by pmu_add(xscale), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/xscale/events.hpp)
set(PMU_CATALOGS pmu::xscale::kXsc1Catalog pmu::xscale::k80200Catalog pmu::xscale::kXsc2Catalog
                 pmu::xscale::kXsc3Catalog)
# Derived metrics: one table per catalog above, in its order (the four share the core events' table).
set(PMU_METRICS_HEADER hal/xscale/metrics.hpp)
set(PMU_METRICS pmu::xscale::metrics pmu::xscale::metrics pmu::xscale::metrics
                 pmu::xscale::metrics)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::xscale::Xsc2<pmu::Cp14Bus>")
set(PMU_SILICON_HEADERS hal/core/bus/arm_cp.hpp hal/xscale/driver.hpp)
# The zero-cost probe (bench/zero_cost), built for each target of this PMU (cmake/targets.cmake).
set(PMU_ZERO_COST_PROBE tests/zero_cost_probe.cpp)
