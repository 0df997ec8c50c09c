# Intel XScale core PMU: every variant's catalog, and the 80200's (registered by pmu_add(xscale), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/xscale/events.hpp)
set(PMU_CATALOGS pmu::xscale::kXsc1Catalog pmu::xscale::k80200Catalog pmu::xscale::kXsc2Catalog
                 pmu::xscale::kXsc3Catalog)
