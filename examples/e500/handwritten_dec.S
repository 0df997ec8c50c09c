/* The baseline for the sampling interrupt's cost: what an expert writes by hand to put the
 * interrupted PC into a ring from the decrementer, with IVOR10 pointing straight at it. Three
 * scratch registers parked in SPRG0-2, 17 instructions. The profile firmware measures it in the
 * same run as the board's fast path (start.S, e500_fast_sample) and prints the ratio.
 * CRM = PowerPC e500 Core Family Reference Manual, Rev. 1. */
        .set SPR_SPRG0, 272
        .set SPR_SPRG1, 273
        .set SPR_SPRG2, 274
        .set SPR_SRR0, 26
        .set SPR_TSR, 336
        .set RING_SIZE, 256

        .section .bss
        .balign 4
        .globl  handwritten_ring
handwritten_ring:                  /* RING_SIZE PCs, then the free-running head */
        .space  4 * RING_SIZE
        .globl  handwritten_head
handwritten_head:
        .space  4

        .section .text.e500_ivor, "ax"   /* IVPR's 64 KiB (e500.ld) */
        .balign 16
        .globl  handwritten_pc_dec
        .type   handwritten_pc_dec, @function
handwritten_pc_dec:
        mtspr   SPR_SPRG0, %r3
        mtspr   SPR_SPRG1, %r4
        mtspr   SPR_SPRG2, %r5
        lis     %r3, 0x0800            /* TSR[DIS]: write 1 to clear (CRM 2.6.2) */
        mtspr   SPR_TSR, %r3
        lis     %r3, handwritten_ring@ha
        addi    %r3, %r3, handwritten_ring@l
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
        .size   handwritten_pc_dec, . - handwritten_pc_dec

        .section .note.GNU-stack, "", @progbits
