# MIPS CPS Coherence Manager performance counters (registered by pmu_add(mips_cps), hal/pmus.cmake).
set(PMU_CATALOG_HEADER hal/mips_cps/events.hpp)
set(PMU_CATALOGS pmu::mips_cps::catalog)
