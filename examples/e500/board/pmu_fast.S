/* The performance monitor interrupt's fast vector (board.hpp, pmu_fast_start): IVOR35 straight
 * here instead of at start.S's VECTOR 35 stub. CRM = PowerPC e500 Core Family Reference Manual,
 * Rev. 1. It does what the profiler's Sampler::on_pmu_interrupt<0> does for PMC0 and nothing else,
 * with no frame and no call (three scratch registers parked in SPRG0-2, as e500_fast_sample does):
 *   - re-arm by rewind: PMC0 -= period (the period in SPRG4), so the events since the overflow
 *     count towards the next sample. PMC0's overflow condition is its bit 31 with PMLCa0[CE] (CRM
 *     7.2.7, 7.4): the write takes it away when fewer than a period came since the overflow (the
 *     next one is ahead); otherwise it stays and the interrupt comes again for the period counted;
 *   - PMGC0[PMIE] set again: the e500 clears it when it takes the interrupt (CRM 7.2.1, Table 7-3);
 *   - SRR0 (where the interrupted code resumes) and LR into the prof::SampleRing<256, keep_newest>
 *     whose address SPRG3 holds (profiler/sampler.hpp: samples at offset 0, 8 bytes each; the head
 *     at 2048, stored after the sample), then rfi.
 * The re-arms are the ring's head: the profiler adds head x period to PMC0's software part
 * (prof::Profiler::count_rearms_in), so PMC0 still counts every event; the vector bumps the
 * profiler's fold count first (its address in SPRG5, Profiler::fold_count_word), so a read it
 * interrupted retries. */
        .machine e500              /* mfpmr, mtpmr (as hal/core/bus/pmr.hpp) */
        .set SPR_SPRG0, 272
        .set SPR_SPRG1, 273
        .set SPR_SPRG2, 274
        .set SPR_SPRG3, 275
        .set SPR_SPRG4_R, 260      /* SPRG4, read (CRM 2.9: SPRG4-7 read at 260-263, written at 276-279) */
        .set SPR_SPRG5_R, 261
        .set SPR_SRR0, 26
        .set PMR_PMC0, 16          /* CRM Table 7-2 */
        .set PMR_PMGC0, 400
        .set PMGC0_PMIE_HI, 0x4000 /* PMGC0[PMIE], bit 33 (CRM 7.2.1): 0x4000_0000 */
        .set RING_HEAD, 256 * 8

        .section .text.e500_ivor_gc, "ax"
        .balign 16                 /* an IVOR holds bits 48-59 of the address */
        .globl  e500_pmu_fast
        .type   e500_pmu_fast, @function
e500_pmu_fast:
        mtspr   SPR_SPRG0, %r3
        mtspr   SPR_SPRG1, %r4
        mtspr   SPR_SPRG2, %r5
        mfspr   %r3, SPR_SPRG5_R       /* the profiler's fold count */
        lwz     %r4, 0(%r3)
        addi    %r4, %r4, 1
        stw     %r4, 0(%r3)            /* readers it interrupted retry */
        mfpmr   %r3, PMR_PMC0
        mfspr   %r4, SPR_SPRG4_R       /* the period */
        subf    %r3, %r4, %r3
        mtpmr   PMR_PMC0, %r3          /* rewound */
        mfpmr   %r3, PMR_PMGC0
        oris    %r3, %r3, PMGC0_PMIE_HI
        mtpmr   PMR_PMGC0, %r3
        mfspr   %r3, SPR_SPRG3         /* the ring */
        lwz     %r4, RING_HEAD(%r3)
        rlwinm  %r5, %r4, 3, 21, 28    /* (head mod 256) * 8 */
        add     %r5, %r3, %r5
        addi    %r4, %r4, 1
        mfspr   %r3, SPR_SRR0
        stw     %r3, 0(%r5)
        mflr    %r3
        stw     %r3, 4(%r5)
        mfspr   %r3, SPR_SPRG3
        stw     %r4, RING_HEAD(%r3)    /* publish */
        mfspr   %r5, SPR_SPRG2
        mfspr   %r4, SPR_SPRG1
        mfspr   %r3, SPR_SPRG0
        rfi
        .size   e500_pmu_fast, . - e500_pmu_fast

        .section .note.GNU-stack, "", @progbits
