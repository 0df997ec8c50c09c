# Intel XScale core PMU: both variants' catalogs (registered by pmu_add(xscale), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/xscale/events.hpp)
set(PMU_CATALOGS pmu::xscale::kXsc1Catalog pmu::xscale::kXsc2Catalog)
