# MIPS CPS Coherence Manager performance counters (registered by pmu_add(mips_cps), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/mips_cps/events.hpp)
set(PMU_CATALOGS pmu::mips_cps::catalog)
# Derived metrics: one table per catalog above, in its order.
set(PMU_METRICS_HEADER hal/mips_cps/metrics.hpp)
set(PMU_METRICS pmu::mips_cps::metrics)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::mips_cps::Driver<pmu::mips_cps::HwBus>")
set(PMU_SILICON_HEADERS hal/mips_cps/driver.hpp)
# The zero-cost probe (bench/zero_cost), built for each target of this PMU (cmake/targets.cmake).
set(PMU_ZERO_COST_PROBE tests/zero_cost_probe.cpp)
