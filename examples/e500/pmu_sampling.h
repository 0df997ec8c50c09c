/* PMU overflow sampling (examples/common/pmu_fast_vector.hpp): events between the hand-written
 * handler's samples (handwritten_pmu.S), the board's fast vector measured at the same period. */
#pragma once

#define PMU_HANDWRITTEN_PERIOD 10000
