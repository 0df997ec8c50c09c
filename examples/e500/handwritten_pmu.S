/* The baseline for PMU overflow sampling's cost: what an expert writes by hand for PMC0's
 * performance monitor interrupt with IVOR35 pointing straight at it: re-arm by rewinding PMC0 one
 * period (its bit-31 condition goes with the write when the next overflow is ahead, CRM 7.2.7,
 * 7.4), PMGC0[PMIE] set again (the e500 cleared it on the interrupt, CRM 7.2.1, Table 7-3), the
 * interrupted PC into a ring, rfi. Three scratch registers parked in SPRG0-2. The profile firmware
 * measures it in the same run as the board's fast vector (board/pmu_fast.S) and prints the ratio.
 * CRM = PowerPC e500 Core Family Reference Manual, Rev. 1. */
#include "pmu_sampling.h"

        .machine e500              /* mfpmr, mtpmr (as hal/core/bus/pmr.hpp) */
        .set SPR_SPRG0, 272
        .set SPR_SPRG1, 273
        .set SPR_SPRG2, 274
        .set SPR_SRR0, 26
        .set PMR_PMC0, 16
        .set PMR_PMGC0, 400
        .set RING_SIZE, 256
        .set PERIOD, PMU_HANDWRITTEN_PERIOD

        .section .bss
        .balign 4
        .globl  handwritten_pmu_ring
handwritten_pmu_ring:              /* RING_SIZE PCs, then the free-running head */
        .space  4 * RING_SIZE
        .globl  handwritten_pmu_head
handwritten_pmu_head:
        .space  4

        .section .text.e500_ivor_gc, "ax"   /* IVPR's 64 KiB (e500.ld) */
        .balign 16
        .globl  handwritten_pmu
        .type   handwritten_pmu, @function
handwritten_pmu:
        mtspr   SPR_SPRG0, %r3
        mtspr   SPR_SPRG1, %r4
        mtspr   SPR_SPRG2, %r5
        mfpmr   %r3, PMR_PMC0
        addi    %r3, %r3, -PERIOD
        mtpmr   PMR_PMC0, %r3
        mfpmr   %r3, PMR_PMGC0
        oris    %r3, %r3, 0x4000       /* PMIE */
        mtpmr   PMR_PMGC0, %r3
        lis     %r3, handwritten_pmu_ring@ha
        addi    %r3, %r3, handwritten_pmu_ring@l
        lwz     %r4, 4 * RING_SIZE(%r3)
        rlwinm  %r5, %r4, 2, 22, 29    /* (head mod 256) * 4 */
        addi    %r4, %r4, 1
        stw     %r4, 4 * RING_SIZE(%r3)
        mfspr   %r4, SPR_SRR0
        stwx    %r4, %r3, %r5
        mfspr   %r5, SPR_SPRG2
        mfspr   %r4, SPR_SPRG1
        mfspr   %r3, SPR_SPRG0
        rfi
        .size   handwritten_pmu, . - handwritten_pmu

        .section .note.GNU-stack, "", @progbits
