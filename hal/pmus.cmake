# Every PMU this toolkit drives: one line each (cmake/PmuKit.cmake says what a line registers).
pmu_add(xscale)
pmu_add(e500)
pmu_add(rm7000)
pmu_add(mips_cps)
pmu_add(netburst)
pmu_add(armv7a)
pmu_add(cortex_m_dwt)
