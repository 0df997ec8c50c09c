# ARMv7-A Performance Monitors Extension (registered by pmu_add(armv7a), hal/pmus.cmake): the
# common-event catalogs of a 6-counter part (Cortex-A15, Cortex-A9) and a 4-counter one (Cortex-A7, A8).
set(PMU_CATALOG_HEADER hal/armv7a/events.hpp)
set(PMU_CATALOGS pmu::armv7a::kCatalog6 pmu::armv7a::kCatalog4)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::armv7a::CortexA15<pmu::ArmCpBus>")
set(PMU_SILICON_HEADERS hal/core/bus/arm_cp.hpp hal/armv7a/driver.hpp)
# The zero-cost probe (bench/zero_cost), built for each target of this PMU (cmake/targets.cmake).
set(PMU_ZERO_COST_PROBE tests/zero_cost_probe.cpp)
