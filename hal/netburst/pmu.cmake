# Intel NetBurst (Pentium 4) PMU (registered by pmu_add(netburst), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/netburst/events.hpp)
set(PMU_CATALOGS pmu::netburst::catalog)
