# PowerPC e500 core performance monitor (registered by pmu_add(e500), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/e500/events.hpp)
set(PMU_CATALOGS pmu::e500::catalog)
