/* The baseline for PMU overflow sampling's cost: what an expert writes by hand for CCNT's overflow
 * routed to FIQ: re-arm by rewinding CCNT one period (FLAG.C, write 1 to clear, acknowledged when the
 * rewind puts the next overflow ahead: XScale Core Developer's Manual 8.3.1, Table 8-5), the
 * interrupted PC into a ring, return. FIQ mode's banked r9-r12 only: nothing saved. The profile
 * firmware measures it in the same run as the board's fast vector (board/pmu_fast.S,
 * examples/common/pmu_fast_vector.hpp) and prints the ratio. */
#include "fast_sampling.h"

    .syntax unified
    .arm

    .bss
    .align  2
    .global handwritten_pmu_ring
handwritten_pmu_ring:                   /* HANDWRITTEN_RING_SIZE PCs, then the free-running head */
    .space  4 * HANDWRITTEN_RING_SIZE
    .global handwritten_pmu_head
handwritten_pmu_head:
    .space  4

    .text
    .global handwritten_pmu_fiq
    .type   handwritten_pmu_fiq, %function
handwritten_pmu_fiq:
    mrc     p14, 0, r9, c1, c1, 0       /* CCNT */
    ldr     r10, =PMU_HANDWRITTEN_PERIOD
    subs    r9, r9, r10                 /* borrow: the next overflow is ahead */
    movcc   r10, #1
    mcrcc   p14, 0, r10, c5, c1, 0      /* FLAG: clear C */
    mcr     p14, 0, r9, c1, c1, 0       /* CCNT rewound */
    ldr     r9, =handwritten_pmu_ring
    ldr     r10, [r9, #4 * HANDWRITTEN_RING_SIZE]
    and     r11, r10, #(HANDWRITTEN_RING_SIZE - 1)
    sub     r12, lr, #4                 /* the interrupted instruction */
    str     r12, [r9, r11, lsl #2]
    add     r10, r10, #1
    str     r10, [r9, #4 * HANDWRITTEN_RING_SIZE]
    subs    pc, lr, #4
    .size   handwritten_pmu_fiq, . - handwritten_pmu_fiq
    .ltorg
