# Intel NetBurst (Pentium 4) PMU (registered by pmu_add(netburst), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/netburst/events.hpp)
set(PMU_CATALOGS pmu::netburst::catalog)
# The driver on the silicon's bus (the footprint bench, through cmake/targets.cmake).
set(PMU_SILICON_DRIVER "pmu::netburst::Driver<pmu::netburst::HwBus>")
set(PMU_SILICON_HEADERS hal/netburst/driver.hpp)
