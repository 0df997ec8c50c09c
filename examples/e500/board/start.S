/* Startup and interrupt vectors for an e500v2 core on QEMU mpc8544ds.
 * References: PowerPC e500 Core Family Reference Manual, Rev. 1 ("CRM").
 * QEMU enters at _start in supervisor mode with MSR[IS,DS] = 0 and low RAM mapped 1:1 by TLB1[0]. */

/* SPR numbers (CRM Table 2-2 and Table 2-8). */
        .set SPR_SRR0, 26
        .set SPR_SRR1, 27
        .set SPR_IVPR, 63
        .set SPR_IVOR0, 400        /* IVOR0..IVOR15 are SPR 400..415 */
        .set SPR_IVOR32, 528       /* IVOR32..IVOR35 are SPR 528..531 (e500 APUs) */
        .set SPR_MAS0, 624
        .set SPR_MAS1, 625
        .set SPR_MAS2, 626
        .set SPR_MAS3, 627
        .set SPR_MAS7, 944

        .set MSR_ME, 0x1000        /* MSR[ME], bit 51: take machine checks instead of checkstop (CRM 2.5.1) */

/* Interrupt frame, built on the interrupted stack. Offsets 0 and 4 are the SVR4 back chain and the
 * callee's LR save word; the rest must match struct Frame in board.cpp. */
        .set F_R0, 8
        .set F_R3, 12              /* r3..r12 at 12..48 */
        .set F_CR, 52
        .set F_XER, 56
        .set F_CTR, 60
        .set F_LR, 64
        .set F_SRR0, 68
        .set F_SRR1, 72
        .set FRAME_SIZE, 80        /* multiple of 16: keeps the SVR4 stack alignment */

/* One 16-byte stub per interrupt: IVORn holds a quad-word offset from IVPR (CRM 2.7.1.5). The stub
 * passes the IVOR number to the common entry in r3. */
        .macro VECTOR n
        .balign 16
e500_vector_\n:
        stwu    %r1, -FRAME_SIZE(%r1)
        stw     %r3, F_R3(%r1)
        li      %r3, \n
        b       e500_interrupt_common
        .endm

        .macro SET_IVOR n, spr
        li      %r3, e500_vector_\n - e500_vectors
        mtspr   \spr, %r3
        .endm

        .section .text.e500_vectors, "ax"
        .globl  e500_vectors
        .balign 16
e500_vectors:                      /* linked at a 64 KiB boundary: IVPR keeps only bits 32-47 */
        VECTOR 0                   /* critical input */
        VECTOR 1                   /* machine check */
        VECTOR 2                   /* data storage */
        VECTOR 3                   /* instruction storage */
        VECTOR 4                   /* external input */
        VECTOR 5                   /* alignment */
        VECTOR 6                   /* program */
        VECTOR 8                   /* system call (IVOR7 and IVOR9 do not exist on the e500) */
        VECTOR 10                  /* decrementer */
        VECTOR 11                  /* fixed-interval timer */
        VECTOR 12                  /* watchdog */
        VECTOR 13                  /* data TLB error */
        VECTOR 14                  /* instruction TLB error */
        VECTOR 15                  /* debug */
        VECTOR 32                  /* SPE APU unavailable */
        VECTOR 33                  /* embedded floating-point data */
        VECTOR 34                  /* embedded floating-point round */
        VECTOR 35                  /* performance monitor */

/* Saves what the SVR4 ABI lets a C function clobber (r0, r3-r12, CR, XER, CTR, LR) plus SRR0/SRR1,
 * calls e500_interrupt(ivor, frame), restores, and returns with rfi. SRR0/SRR1 are restored from the
 * frame so a handler may move the return address (fault catching) and so a synchronous interrupt
 * inside a handler (e.g. a trapping mfpmr) cannot clobber them. MSR[EE] stays clear throughout:
 * taking an interrupt clears every MSR bit except CE, ME and DE (CRM 5.7, register-settings tables). */
e500_interrupt_common:
        stw     %r0, F_R0(%r1)
        stw     %r4, F_R3+4(%r1)
        stw     %r5, F_R3+8(%r1)
        stw     %r6, F_R3+12(%r1)
        stw     %r7, F_R3+16(%r1)
        stw     %r8, F_R3+20(%r1)
        stw     %r9, F_R3+24(%r1)
        stw     %r10, F_R3+28(%r1)
        stw     %r11, F_R3+32(%r1)
        stw     %r12, F_R3+36(%r1)
        mfcr    %r0
        stw     %r0, F_CR(%r1)
        mfxer   %r0
        stw     %r0, F_XER(%r1)
        mfctr   %r0
        stw     %r0, F_CTR(%r1)
        mflr    %r0
        stw     %r0, F_LR(%r1)
        mfspr   %r0, SPR_SRR0
        stw     %r0, F_SRR0(%r1)
        mfspr   %r0, SPR_SRR1
        stw     %r0, F_SRR1(%r1)
        addi    %r4, %r1, F_R0
        bl      e500_interrupt
        lwz     %r0, F_SRR0(%r1)
        mtspr   SPR_SRR0, %r0
        lwz     %r0, F_SRR1(%r1)
        mtspr   SPR_SRR1, %r0
        lwz     %r0, F_LR(%r1)
        mtlr    %r0
        lwz     %r0, F_CTR(%r1)
        mtctr   %r0
        lwz     %r0, F_XER(%r1)
        mtxer   %r0
        lwz     %r0, F_CR(%r1)
        mtcr    %r0
        lwz     %r0, F_R0(%r1)
        lwz     %r3, F_R3(%r1)
        lwz     %r4, F_R3+4(%r1)
        lwz     %r5, F_R3+8(%r1)
        lwz     %r6, F_R3+12(%r1)
        lwz     %r7, F_R3+16(%r1)
        lwz     %r8, F_R3+20(%r1)
        lwz     %r9, F_R3+24(%r1)
        lwz     %r10, F_R3+28(%r1)
        lwz     %r11, F_R3+32(%r1)
        lwz     %r12, F_R3+36(%r1)
        addi    %r1, %r1, FRAME_SIZE
        rfi

/* Fast decrementer sampling (board::fast_sampling_start): IVOR10 points here instead of at the
 * VECTOR 10 stub. No frame and no call: three scratch registers parked in SPRG0-2, the decrementer
 * acknowledged (TSR[DIS] is write-1-to-clear, CRM 2.6.2; DECAR has already reloaded DEC, TCR[ARE]),
 * and SRR0 (where the interrupted code resumes) and LR stored as one sample into the
 * prof::SampleRing<256, keep_newest> whose address SPRG3 holds (profiler/sampler.hpp: samples at
 * offset 0, 8 bytes each; the head at 2048, stored after the sample). 20 instructions. */
        .set SPR_SPRG0, 272
        .set SPR_SPRG1, 273
        .set SPR_SPRG2, 274
        .set SPR_SPRG3, 275
        .set SPR_TSR, 336
        .set RING_HEAD, 256 * 8

        .section .text.e500_ivor, "ax"
        .balign 16                 /* an IVOR holds bits 48-59 of the address */
        .globl  e500_fast_sample
        .type   e500_fast_sample, @function
e500_fast_sample:
        mtspr   SPR_SPRG0, %r3
        mtspr   SPR_SPRG1, %r4
        mtspr   SPR_SPRG2, %r5
        lis     %r3, 0x0800            /* TSR[DIS], bit 36 */
        mtspr   SPR_TSR, %r3
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
        .size   e500_fast_sample, . - e500_fast_sample

        .section .text.e500_start, "ax"
        .globl  _start
        .type   _start, @function
_start:
        .cfi_sections .debug_frame
        .cfi_startproc
        .cfi_undefined lr            /* the outermost frame: a stack walk ends here, complete */
        /* Own stack; a zero back chain ends stack walks. */
        lis     %r1, __stack_top@ha
        addi    %r1, %r1, __stack_top@l
        li      %r0, 0
        stwu    %r0, -16(%r1)

        /* Vectors: IVPR[32-47] || IVORn[48-59] || 0b0000 (CRM 2.7.1.4, 2.7.1.5). */
        lis     %r3, e500_vectors@h
        mtspr   SPR_IVPR, %r3
        SET_IVOR 0, SPR_IVOR0+0
        SET_IVOR 1, SPR_IVOR0+1
        SET_IVOR 2, SPR_IVOR0+2
        SET_IVOR 3, SPR_IVOR0+3
        SET_IVOR 4, SPR_IVOR0+4
        SET_IVOR 5, SPR_IVOR0+5
        SET_IVOR 6, SPR_IVOR0+6
        SET_IVOR 8, SPR_IVOR0+8
        SET_IVOR 10, SPR_IVOR0+10
        SET_IVOR 11, SPR_IVOR0+11
        SET_IVOR 12, SPR_IVOR0+12
        SET_IVOR 13, SPR_IVOR0+13
        SET_IVOR 14, SPR_IVOR0+14
        SET_IVOR 15, SPR_IVOR0+15
        SET_IVOR 32, SPR_IVOR32+0
        SET_IVOR 33, SPR_IVOR32+1
        SET_IVOR 34, SPR_IVOR32+2
        SET_IVOR 35, SPR_IVOR32+3
        isync

        /* TLB1 entry 1: CCSR 0xE000_0000 -> 0x0_E000_0000, 1 MiB, I|G, supervisor read/write,
         * IPROT so a TLB invalidate-all cannot drop it (CRM 12.7.1, MAS0-MAS3 and MAS7). */
        lis     %r3, 0x1001            /* MAS0: TLBSEL(35)=1 (TLB1), ESEL(44-47)=1 */
        mtspr   SPR_MAS0, %r3
        lis     %r3, 0xC000            /* MAS1: V(32) | IPROT(33), TID=0, TS=0 */
        ori     %r3, %r3, 0x0500       /*       TSIZE(52-55)=0b0101: 1 MiB (CRM Table 12-4) */
        mtspr   SPR_MAS1, %r3
        lis     %r3, 0xE000            /* MAS2: EPN */
        ori     %r3, %r3, 0x000A       /*       I(60) | G(62): cache-inhibited, guarded */
        mtspr   SPR_MAS2, %r3
        lis     %r3, 0xE000            /* MAS3: RPN[32-51] */
        ori     %r3, %r3, 0x0005       /*       SW(61) | SR(63); no execute, no user access */
        mtspr   SPR_MAS3, %r3
        li      %r3, 0                 /* MAS7: RPN bits above 32 (e500v2 36-bit addressing) */
        mtspr   SPR_MAS7, %r3
        isync                          /* MAS writes need context sync before tlbwe (CRM 2.16) */
        tlbwe
        isync                          /* ... and tlbwe before the first access through the entry */

        mfmsr   %r3
        ori     %r3, %r3, MSR_ME
        mtmsr   %r3
        isync

        /* Zero .bss (4-byte aligned by the linker script). */
        lis     %r3, __bss_start@ha
        addi    %r3, %r3, __bss_start@l
        lis     %r4, __bss_end@ha
        addi    %r4, %r4, __bss_end@l
        li      %r0, 0
1:      cmplw   %r3, %r4
        bge     2f
        stw     %r0, 0(%r3)
        addi    %r3, %r3, 4
        b       1b
2:
        /* Constructors, in .init_array order; r30/r31 are callee-saved so they survive the calls. */
        lis     %r30, __init_array_start@ha
        addi    %r30, %r30, __init_array_start@l
        lis     %r31, __init_array_end@ha
        addi    %r31, %r31, __init_array_end@l
3:      cmplw   %r30, %r31
        bge     4f
        lwz     %r0, 0(%r30)
        mtctr   %r0
        bctrl
        addi    %r30, %r30, 4
        b       3b
4:
        bl      main
        bl      e500_main_returned     /* r3 = main's return value; never returns */
        .cfi_endproc
        .size   _start, . - _start

        .section .note.GNU-stack, "", @progbits   /* no executable stack request */
