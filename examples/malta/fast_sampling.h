/* The Malta fast sampling path's period, shared by the firmware (C++) and the hand-written
 * baseline (handwritten_count.S, which adds it with one addiu): 30 us of Count ticks at QEMU's
 * 166.67 MHz (board.hpp, kCountHz), so that the sampled workloads fit the 256-sample ring. */
#ifndef MALTA_FAST_SAMPLING_H
#define MALTA_FAST_SAMPLING_H
#define MALTA_FAST_PERIOD 4998
/* The PMU overflow sampling periods of the fast vector and its hand-written baseline
 * (board/handwritten_pmu.S, which subtracts them with one addiu: at most 32768), in counted events:
 * under pmusim one per instruction. Two, one apart: with a fixed period the overflows of the
 * two-instruction spin loop all settle on the branch or all on its delay slot (an interrupt there
 * returns to the branch, which runs again), and which one depends on the period's parity; the
 * two periods give one of each, and their mean is the cost with interrupts spread evenly. */
#define MALTA_PMU_PERIOD 10000
/* The GCR block's physical base on QEMU's and pmusim's Malta (CMGCRBase reads it): the hand-written
 * CM handler's link-time constant, where the fast vector takes the discovered one. */
#define MALTA_GCR_PHYS 0x1FBF8000
#endif
