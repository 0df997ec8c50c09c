# QED/PMC-Sierra RM7000 performance counter (registered by pmu_add(rm7000), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/rm7000/events.hpp)
set(PMU_CATALOGS pmu::rm7000::catalog)
