/* The profile firmware's fast timer sampling (profile_main.cpp) and its hand-written baseline
 * (handwritten_fiq.S) share one period, so that both take the same number of interrupts. */
#pragma once

/* OS timer ticks (3.25 MHz) between samples: about 30,000 instructions under -icount shift=0.
 * An ARM immediate, so that both handlers re-arm with one ADD. */
#define FAST_SAMPLING_PERIOD 96
/* Entries in the hand-written handler's ring: 256 makes its index one AND. */
#define HANDWRITTEN_RING_SIZE 256

/* PMU overflow sampling (examples/common/pmu_fast_vector.hpp): CCNT events between the
 * hand-written FIQ handler's samples (handwritten_pmu_fiq.S), the board's fast vector measured at
 * the same period. */
#define PMU_HANDWRITTEN_PERIOD 10000
