/* The baseline for the PMU overflow sampling interrupt's cost on Malta: what an expert writes by
 * hand for the same job as the board's fast PMU vectors (start.S, malta_fast_pmu_vector_cm and
 * malta_fast_pmu_vector_rm7000), on the same shared exception vector (0x80000180, copied there by
 * board::pmu_vector_start): check Cause for the PMU's interrupt (anything else goes to the board's
 * handler), acknowledge it by the PMU's rule, rewind the counter by the period, and store the
 * interrupted PC into handwritten_ring (handwritten_count.S) with a free-running head. Unlike the
 * fast vectors the ring, the period and the GCR's address are link-time constants, only the PC is
 * stored and nothing is kept for the counter's software part (no fold count). Two copies, for the periods
 * MALTA_PMU_PERIOD and MALTA_PMU_PERIOD + 1 (fast_sampling.h says why). The profiling examples
 * measure them and the fast vector in the same run (examples/common/pmu_fast_vector.hpp).
 * MIPS32 PRA (Cause ExcCode 6:2, EPC, eret); MIPS CPS training, "Performance Registers (GCR)"
 * (GCR_DB_PC_CYCLE, GCR_DB_PC_OV: write 1 to clear); RM7000 datasheet, "Performance Counters"
 * (PerfCount bit 31 is the interrupt request) and the interrupt section (IP13, Cause bit 21). */
#include "board/mips_cp0.h"
#include "fast_sampling.h"

        .set    noreorder
        .set    noat
        .set    RING_SIZE, 256
        .set    PC_CYCLE, 0xA0000000 + MALTA_GCR_PHYS + 0x6180   /* kseg1, uncached */
        .set    PC_OV, 0xA0000000 + MALTA_GCR_PHYS + 0x6120

/* The ring's store, from the rewind on: k1 = &handwritten_ring, k0 free. */
        .macro  PC_TO_RING
        lw      $k0, 4 * RING_SIZE($k1)
        addiu   $k0, $k0, 1
        sw      $k0, 4 * RING_SIZE($k1)
        addiu   $k0, $k0, -1
        andi    $k0, $k0, RING_SIZE - 1
        sll     $k0, $k0, 2
        addu    $k1, $k1, $k0
        mfc0    $k0, CP0_EPC
        sw      $k0, 0($k1)
        eret
        .endm

#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
/* CM_PCInt on Cause.IP6 (pmusim's Malta). The rewound count's bit 31 is the acknowledge to
 * GCR_DB_PC_OV bit 0 (1: back past 0, ahead of the next overflow; 0: a whole period came since,
 * the bit stays for the next period's interrupt), written after the counter as in the fast vector. */
        .macro  HANDWRITTEN_PMU name, period
        .section .text.\name, "ax"
        .globl  \name, \name\()_end
\name:
        mfc0    $k0, CP0_CAUSE
        lui     $k1, %hi(PC_CYCLE)
        andi    $k0, $k0, 0x407C        /* IP6 and ExcCode */
        xori    $k0, $k0, 0x4000
        bnez    $k0, 9f
        lw      $k0, %lo(PC_CYCLE)($k1) /* (delay slot) */
        addiu   $k0, $k0, -\period
        sw      $k0, %lo(PC_CYCLE)($k1)
        srl     $k0, $k0, 31
        sw      $k0, %lo(PC_OV)($k1)
        lui     $k1, %hi(handwritten_ring)
        addiu   $k1, $k1, %lo(handwritten_ring)
        PC_TO_RING
9:      la      $k0, malta_exception
        jr      $k0
        nop
\name\()_end:
        .endm
        HANDWRITTEN_PMU handwritten_pmu_vector_cm, MALTA_PMU_PERIOD
        HANDWRITTEN_PMU handwritten_pmu_vector_cm_plus1, (MALTA_PMU_PERIOD + 1)
#else
/* Interrupt 13 (Cause.IP13, bit 21 of the RM7000's Cause): the rewind of PerfCount is the
 * acknowledge (it clears bit 31 unless a whole period came since). */
        .macro  HANDWRITTEN_PMU name, period
        .section .text.\name, "ax"
        .globl  \name, \name\()_end
\name:
        mfc0    $k0, CP0_CAUSE
        lui     $k1, 0x0020             /* IP13 */
        ori     $k1, $k1, 0x007C        /* and ExcCode */
        and     $k0, $k0, $k1
        xori    $k1, $k1, 0x007C
        bne     $k0, $k1, 9f
        mfc0    $k0, CP0_PERFCOUNT      /* (delay slot) */
        lui     $k1, %hi(handwritten_ring)
        addiu   $k0, $k0, -\period
        mtc0    $k0, CP0_PERFCOUNT      /* the rewind, which is the acknowledge */
        addiu   $k1, $k1, %lo(handwritten_ring)
        PC_TO_RING
9:      la      $k0, malta_exception
        jr      $k0
        nop
\name\()_end:
        .endm
        HANDWRITTEN_PMU handwritten_pmu_vector_rm7000, MALTA_PMU_PERIOD
        HANDWRITTEN_PMU handwritten_pmu_vector_rm7000_plus1, (MALTA_PMU_PERIOD + 1)
#endif

        .section .note.GNU-stack, "", @progbits
