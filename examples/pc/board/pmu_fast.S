/* The performance-counter interrupt's fast vector (board.hpp, pmu_fast_start): the IDT gate of
 * kPmiVector straight here instead of at the dispatcher's pc_vector_240. It does what the
 * profiler's Sampler::on_pmu_interrupt<0> does for counter 0 (the driver's rearm<0>, hal/netburst)
 * and nothing else, with no frame and no call:
 *   - re-arm by rewind, in the driver's order: CCCR0's ENABLE cleared, the counter rewound by the
 *     period while stopped (a 40-bit write lands in two parts, Xeon MP erratum O8; written twice,
 *     Pentium 4 erratum N15), then CCCR0 written with ENABLE back and OVF kept only when the
 *     rewound count's bit 39 is clear (a period or more since the overflow: OVF stays, the
 *     counter asserts its PMI again and the unmask below brings the next period's sample). Bit 39
 *     set clears it: the rewind went back past 0 (the next overflow is ahead), or the counter had
 *     not wrapped at all (a PMI the local APIC held from before the Sampler's preset, Intel SDM
 *     Vol. 3A 10.8.4: one sample, one rewind, not one more PMI per period). OVF is sticky and
 *     cleared by writing 0 (Intel SDM Vol. 3B 18.15.3, the CCCR; 18.15.5.8, "Generating an
 *     Interrupt on Overflow");
 *   - the local APIC's LVT performance-counter entry unmasked: NetBurst masks PMIs upon
 *     delivering one (Intel SDM Vol. 3B, NetBurst chapter), and an overflowed counter asserts its
 *     PMI until OVF is cleared: unmasked after the CCCR write, as the driver's pmi_acknowledge;
 *     then the APIC's EOI (SDM Vol. 3A, Table 10-1, the EOI register);
 *   - the interrupted EIP (the CPU pushed EIP, CS, EFLAGS) and the interrupted frame's return
 *     address ([EBP + 4], where EBP points into this image's stack: the example is built with frame
 *     pointers; 0 otherwise) into the prof::SampleRing<256, keep_newest> pc_fast_ring points at
 *     (profiler/sampler.hpp: samples at offset 0, 8 bytes each; the head at 2048, incremented after
 *     the sample), then iret.
 * The re-arms are the ring's head: the profiler adds head x period to counter 0's software part
 * (prof::Profiler::count_rearms_in), so it still counts every event; the vector bumps the
 * profiler's fold count first (pc_pmu_folds, Profiler::fold_count_word), so a read it interrupted
 * retries. */
        .set    RING_HEAD, 256 * 8
        .set    MSR_COUNTER0, 0x300     /* SDM Vol. 3B Table 18-63: MSR_BPU_COUNTER0 */
        .set    MSR_CCCR0, 0x360        /* MSR_BPU_CCCR0 */
        .set    CCCR_ENABLE, 0x1000     /* bit 12 */
        .set    LVT_MASK, 0x10000       /* bit 16 */
        .set    LVT_TO_EOI, 0x340 - 0xB0

        .section .bss.pc_pmu_fast, "aw", @nobits
        .balign 4
        .globl  pc_pmu_period
pc_pmu_period:                          /* events between samples */
        .space  4
        .globl  pc_pmu_folds
pc_pmu_folds:                           /* the profiler's fold count's address */
        .space  4
        .globl  pc_pmu_lvt
pc_pmu_lvt:                             /* the LVT performance-counter entry's address (APIC base + 0x340) */
        .space  4

        .section .text.pc_pmu_fast, "ax"
        .globl  pc_pmu_fast
        .type   pc_pmu_fast, @function
pc_pmu_fast:
        pushl   %eax
        pushl   %ecx
        pushl   %edx
        pushl   %ebx
        movl    pc_pmu_folds, %ecx
        incl    (%ecx)                  /* readers it interrupted retry */
        movl    $MSR_CCCR0, %ecx
        rdmsr
        movl    %eax, %ebx              /* CCCR0's low half (63:32 are reserved) */
        andl    $~CCCR_ENABLE, %eax
        wrmsr                           /* counter 0 stopped */
        movl    $MSR_COUNTER0, %ecx
        rdmsr
        subl    pc_pmu_period, %eax
        sbbl    $0, %edx                /* bit 39 set: the next overflow is ahead */
        shll    $1, %ebx                /* OVF (bit 31) out ... */
        cmpb    $0x80, %dl              /* CF: the rewound count's bit 39 is clear */
        rcrl    $1, %ebx                /* ... and in again: set only then */
        andl    $0xFF, %edx             /* 40 bits */
        wrmsr
        wrmsr                           /* the second write (erratum N15) */
        movl    %ebx, %eax
        xorl    %edx, %edx
        movl    $MSR_CCCR0, %ecx
        wrmsr                           /* ENABLE again, OVF as above */
        movl    pc_pmu_lvt, %ecx
        andl    $~LVT_MASK, (%ecx)      /* unmasked, after OVF */
        movl    $0, -LVT_TO_EOI(%ecx)   /* EOI */
        movl    pc_fast_ring, %edx
        movzbl  RING_HEAD(%edx), %eax   /* head mod 256: its low byte */
        movl    16(%esp), %ecx          /* EIP */
        movl    %ecx, (%edx,%eax,8)
        xorl    %ebx, %ebx
        cmpl    $__stack_bottom, %ebp
        jb      1f
        cmpl    $__stack_top - 8, %ebp
        ja      1f
        movl    4(%ebp), %ebx           /* the interrupted frame's return address */
1:      movl    %ebx, 4(%edx,%eax,8)
        incl    RING_HEAD(%edx)         /* publish */
        popl    %ebx
        popl    %edx
        popl    %ecx
        popl    %eax
        iret
        .size   pc_pmu_fast, . - pc_pmu_fast

        .section .note.GNU-stack, "", @progbits
