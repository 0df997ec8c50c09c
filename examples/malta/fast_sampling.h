/* The Malta fast sampling path's period, shared by the firmware (C++) and the hand-written
 * baseline (handwritten_count.S, which adds it with one addiu): 30 us of Count ticks at QEMU's
 * 166.67 MHz (board.hpp, kCountHz), so that the sampled workloads fit the 256-sample ring. */
#ifndef MALTA_FAST_SAMPLING_H
#define MALTA_FAST_SAMPLING_H
#define MALTA_FAST_PERIOD 4998
#endif
