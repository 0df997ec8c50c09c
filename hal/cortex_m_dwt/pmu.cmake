# ARMv7-M DWT counters (registered by pmu_add(cortex_m_dwt), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/cortex_m_dwt/events.hpp)
set(PMU_CATALOGS pmu::cortex_m_dwt::catalog)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::cortex_m_dwt::Driver<pmu::MmioBus<pmu::cortex_m_dwt::ScsBase>>")
set(PMU_SILICON_HEADERS hal/core/bus/mmio.hpp hal/cortex_m_dwt/driver.hpp)
# The zero-cost probe (bench/zero_cost), built for each target of this PMU (cmake/targets.cmake).
set(PMU_ZERO_COST_PROBE tests/zero_cost_probe.cpp)
