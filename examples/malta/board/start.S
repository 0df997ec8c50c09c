/* Startup and the general exception vector for MIPS firmware on QEMU's Malta board (board.hpp).
 * ISA-neutral: MIPS IV (-march=rm7000) and MIPS32r2 alike (no sel operands, no MIPS32-only
 * instructions outside #if). QEMU loads the ELF at its link address in kseg0 and jumps to _start
 * in kernel mode with Status.ERL and BEV set (the reset state).
 *
 * The exception vector (BEV = 0) is kseg0 0x80000180 (MIPS32 PRA "Exception Vector Locations";
 * the same for R4000-class cores): startup copies a four-instruction jump there. On silicon the
 * copy must then be written back from the D-cache and the I-cache line invalidated (QEMU has no
 * caches; untested on silicon). */
#include "board/mips_cp0.h"

        .set    noreorder
        .set    noat

        .section .text.malta_start, "ax"
        .globl  _start
        .ent    _start
_start:
        .cfi_sections .debug_frame
        .cfi_startproc
        .cfi_undefined $31            /* the outermost frame: a stack walk ends here, complete */
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
        /* A multi-VP cluster (CPS): VP 0 (EBase.CPUNum, CP0 15 select 1, bits 9:0) runs the
         * firmware. Another VP that starts here runs malta_secondary_entry on the stack at
         * malta_secondary_sp, both set by VP 0 before it starts it (board::start_vp1); where VP 0
         * set none, it waits forever without writing memory. */
        mfc0    $t0, $15, 1
        andi    $t0, $t0, 0x3ff
        beqz    $t0, 10f
        nop
        la      $t1, malta_secondary_entry
        lw      $t1, 0($t1)
        beqz    $t1, 9f
        nop
        la      $t2, malta_secondary_sp
        lw      $sp, 0($t2)
        li      $t0, ST_CU0             /* as VP 0's Status below: interrupts off, BEV, ERL clear */
        mtc0    $t0, CP0_STATUS
        CP0_HAZARD
        mtc0    $zero, CP0_CAUSE
        mtc0    $zero, CP0_COMPARE
        CP0_HAZARD
        jalr    $t1
        addiu   $sp, $sp, -16           /* (delay slot) o32 argument save area */
9:      wait
        b       9b
        nop
10:
#endif
        /* Status: CU0, interrupts off, normal vectors (BEV = 0), ERL and EXL clear, IM7..0 clear. */
        li      $t0, ST_CU0
        mtc0    $t0, CP0_STATUS
        CP0_HAZARD
        mtc0    $zero, CP0_CAUSE        /* IV = 0 (general vector), software interrupts clear */
        mtc0    $zero, CP0_COMPARE      /* drops a pending timer interrupt */
        CP0_HAZARD
        la      $sp, __stack_top

        /* The vector: the stub's words to 0x80000180. */
        la      $t0, malta_vector_stub
        la      $t1, malta_vector_stub_end
        li      $t2, 0x80000180
1:      lw      $t3, 0($t0)
        addiu   $t0, $t0, 4
        sw      $t3, 0($t2)
        bne     $t0, $t1, 1b
        addiu   $t2, $t2, 4

        /* .bss */
        la      $t0, __bss_start
        la      $t1, __bss_end
2:      beq     $t0, $t1, 3f
        nop
        sw      $zero, 0($t0)
        b       2b
        addiu   $t0, $t0, 4

        /* Constructors (they must not print: main calls board::init first). */
3:      addiu   $sp, $sp, -16           /* o32: the callee's argument save area, for them and main */
        la      $s0, __init_array_start
        la      $s1, __init_array_end
4:      beq     $s0, $s1, 5f
        nop
        lw      $t9, 0($s0)
        jalr    $t9
        addiu   $s0, $s0, 4
        b       4b
        nop

5:      jal     main
        nop
        jal     malta_main_returned
        move    $a0, $v0
6:      b       6b
        nop
        .cfi_endproc
        .end    _start

/* Copied to 0x80000180: a jump to the common handler (k0 is the kernel's scratch register).
 * timer_stop() copies it back after a vector image (board.cpp, install_vector). */
        .globl  malta_vector_stub, malta_vector_stub_end
malta_vector_stub:
        la      $k0, malta_exception
        jr      $k0
        nop
malta_vector_stub_end:

/* Fast timer sampling (board.hpp, fast_sampling_start): copied over the stub at 0x80000180 and run
 * there in place, so position-independent. The vector is shared by every exception, so it first
 * checks that this one is the Count/Compare interrupt (ExcCode 0, IP7); anything else, or the timer
 * together with another exception code, goes to the board's handler. Then: Compare = Count + period
 * (writing Compare acknowledges IP7; from Count, so a late tick never leaves Compare behind Count
 * for a 2^32 wrap), and EPC and $ra into the keep-newest SampleRing<256> whose address
 * malta_fast_ring holds (samples at 0, the head at RING_HEAD: SampleRing::kHeadOffset). k0 and k1
 * only, the registers the ABI leaves to exception handlers. No mfc0 result is used by the next
 * instruction, and the ring's stores separate mtc0 Compare from eret (MIPS IV CP0 hazards). */
        .set    RING_HEAD, 256 * 8
        .globl  malta_fast_vector, malta_fast_vector_end
malta_fast_vector:
        mfc0    $k0, CP0_CAUSE
        lui     $k1, %hi(malta_fast_period)
        andi    $k0, $k0, 0x807C        /* IP7 (bit 15) and ExcCode (bits 6:2) */
        xori    $k0, $k0, 0x8000
        bnez    $k0, 9f
        mfc0    $k0, CP0_COUNT          /* (delay slot; k0 is scratch on the other path too) */
        lw      $k1, %lo(malta_fast_period)($k1)
        addu    $k0, $k0, $k1
        mtc0    $k0, CP0_COMPARE
        lui     $k1, %hi(malta_fast_ring)
        lw      $k1, %lo(malta_fast_ring)($k1)
        lw      $k0, RING_HEAD($k1)
        addiu   $k0, $k0, 1
        sw      $k0, RING_HEAD($k1)     /* head + 1; the sample below lands before eret */
        addiu   $k0, $k0, -1
        andi    $k0, $k0, 0xFF
        sll     $k0, $k0, 3
        addu    $k1, $k1, $k0           /* &samples[head mod 256] */
        mfc0    $k0, CP0_EPC
        sw      $ra, 4($k1)
        sw      $k0, 0($k1)
        eret
9:      la      $k0, malta_exception
        jr      $k0
        nop
malta_fast_vector_end:

/* Fast PMU overflow sampling (board.hpp, fast_pmu_sampling_start): the same job as the fast timer
 * path for the PMU's own overflow interrupt, copied to 0x80000180 and run in place after the same
 * kind of Cause check: acknowledge the overflow by the PMU's own rule, re-arm by rewind (counter
 * -= the period: what it counted since the overflow stays, and the next interrupt comes a period
 * after the last one), EPC and $ra into the keep-newest SampleRing<256> at malta_fast_ring, eret.
 * k0 and k1 only. The 64-bit software part of the sampled counter is not touched here: every run
 * of the vector rewinds by exactly one period and adds exactly one to the ring's head, which the
 * profiler adds to the counter's value (prof::Profiler::count_rearms_in), so read() and regions are
 * right while it runs; it bumps the profiler's fold count first (Profiler::fold_count_word), so a
 * read it interrupted retries. The period, the fold count's address and, on the CM, PC_CYCLE's are
 * in malta_fast_pmu_state (board.hpp, fast_pmu_sampling_start). The events the counter takes
 * between the rewind's read and its write (the vector's own, 4 of them) are not counted, as with
 * Driver::rearm<0>. */
        .set    PC_OV_FROM_PC_CYCLE, 0x120 - 0x180
/* malta_fast_pmu_state (board.cpp), 16-byte aligned so that one %hi reaches its three words. */
        .set    PMU_COUNTER, 0
        .set    PMU_PERIOD, 4
        .set    PMU_FOLDS, 8
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
/* The MIPS CPS Coherence Manager (MIPS32r2 images): CM_PCInt, which pmusim's Malta wires to
 * hardware interrupt 4 (Cause.IP6, bit 14; board.hpp). The counter is PC_CYCLE (slot 0), reached
 * uncached at the state's PMU_COUNTER (GCR base + 0x6180, discovered at run time). Acknowledge
 * (MIPS CPS training, "Performance Registers (GCR)", GCR_DB_PC_OV: write 1 to clear; CM_PCInt is
 * a level while an overflow bit is set): Cycl_Cnt_Overflow cleared only when the rewound count is
 * ahead of its next overflow, i.e. went back past 0 (bit 31 set, for a period of at most 2^31),
 * else the bit stays and the interrupt comes again for the next period (Driver::rearm<0>'s rule).
 * The counter is written before the acknowledge: the rewound count is a period from overflowing
 * again, so no new overflow bit can be cleared by it. */
        .globl  malta_fast_pmu_vector_cm, malta_fast_pmu_vector_cm_end
malta_fast_pmu_vector_cm:
        mfc0    $k0, CP0_CAUSE
        lui     $k1, %hi(malta_fast_pmu_state)
        andi    $k0, $k0, 0x407C        /* IP6 (bit 14) and ExcCode (bits 6:2) */
        xori    $k0, $k0, 0x4000
        bnez    $k0, 9f
        lw      $k0, %lo(malta_fast_pmu_state + PMU_FOLDS)($k1)  /* (delay slot; k0 is scratch there too) */
        lw      $k1, 0($k0)
        addiu   $k1, $k1, 1
        sw      $k1, 0($k0)             /* the fold count + 1: a read it interrupted retries */
        lui     $k1, %hi(malta_fast_pmu_state)
        lw      $k0, %lo(malta_fast_pmu_state + PMU_COUNTER)($k1)  /* &PC_CYCLE */
        lw      $k0, 0($k0)             /* the count, just past its roll-over to 0 */
        lw      $k1, %lo(malta_fast_pmu_state + PMU_PERIOD)($k1)
        subu    $k0, $k0, $k1           /* rewound by the period */
        lui     $k1, %hi(malta_fast_pmu_state)
        lw      $k1, %lo(malta_fast_pmu_state + PMU_COUNTER)($k1)
        sw      $k0, 0($k1)
        srl     $k0, $k0, 31            /* 1: ahead of the next overflow, acknowledge */
        sw      $k0, PC_OV_FROM_PC_CYCLE($k1)  /* PC_OV, W1C: bit 0 is Cycl_Cnt_Overflow */
        lui     $k1, %hi(malta_fast_ring)
        lw      $k1, %lo(malta_fast_ring)($k1)
        lw      $k0, RING_HEAD($k1)
        addiu   $k0, $k0, 1
        sw      $k0, RING_HEAD($k1)
        addiu   $k0, $k0, -1
        andi    $k0, $k0, 0xFF
        sll     $k0, $k0, 3
        addu    $k1, $k1, $k0
        mfc0    $k0, CP0_EPC
        sw      $ra, 4($k1)
        sw      $k0, 0($k1)
        eret
9:      la      $k0, malta_exception
        jr      $k0
        nop
malta_fast_pmu_vector_cm_end:
#else
/* The RM7000 (MIPS IV images): interrupt 13, pending in Cause.IP13 (bit 21 of the RM7000's Cause),
 * requested while PerfCount (CP0 $25) bit 31 is set and enabled by Interrupt Control IM13 (RM7000
 * datasheet, "Performance Counters" and the interrupt section). There is no separate acknowledge:
 * bit 31 is the request (datasheet: "causes an interrupt when bit 31 is set"), so the rewind is
 * the acknowledge: PerfCount - period clears bit 31 when fewer than a period came since it set,
 * and otherwise leaves it for the next period's interrupt (Driver::rearm<0>). andi reaches only
 * bits 15:0, so the test is Cause & (IP13 | ExcCode) == IP13 with the mask built in k1. Twelve
 * instructions separate mtc0 PerfCount from eret (MIPS IV CP0 hazards). */
        .globl  malta_fast_pmu_vector_rm7000, malta_fast_pmu_vector_rm7000_end
malta_fast_pmu_vector_rm7000:
        mfc0    $k0, CP0_CAUSE
        lui     $k1, 0x0020             /* IP13 (bit 21) */
        ori     $k1, $k1, 0x007C        /* and ExcCode (bits 6:2) */
        and     $k0, $k0, $k1
        xori    $k1, $k1, 0x007C        /* IP13 alone */
        bne     $k0, $k1, 9f
        lui     $k1, %hi(malta_fast_pmu_state)  /* (delay slot; k1 is scratch there too) */
        lw      $k0, %lo(malta_fast_pmu_state + PMU_FOLDS)($k1)
        lw      $k1, 0($k0)
        addiu   $k1, $k1, 1
        sw      $k1, 0($k0)             /* the fold count + 1: a read it interrupted retries */
        mfc0    $k0, CP0_PERFCOUNT
        lui     $k1, %hi(malta_fast_pmu_state)
        lw      $k1, %lo(malta_fast_pmu_state + PMU_PERIOD)($k1)
        subu    $k0, $k0, $k1
        mtc0    $k0, CP0_PERFCOUNT      /* the rewind, which is the acknowledge */
        lui     $k1, %hi(malta_fast_ring)
        lw      $k1, %lo(malta_fast_ring)($k1)
        lw      $k0, RING_HEAD($k1)
        addiu   $k0, $k0, 1
        sw      $k0, RING_HEAD($k1)
        addiu   $k0, $k0, -1
        andi    $k0, $k0, 0xFF
        sll     $k0, $k0, 3
        addu    $k1, $k1, $k0
        mfc0    $k0, CP0_EPC
        sw      $ra, 4($k1)
        sw      $k0, 0($k1)
        eret
9:      la      $k0, malta_exception
        jr      $k0
        nop
malta_fast_pmu_vector_rm7000_end:
#endif

/* The common handler. Saves every register the C++ dispatcher may clobber (the o32 caller-saved
 * set, HI/LO, EPC) on the interrupted stack, calls malta_exception_c(cause, frame) with EXL still
 * set (interrupts masked), restores, and returns with eret. The frame layout is board.cpp's Frame
 * (F_* below, after the 16-byte argument area). */
#define F_AT    16
#define F_V0    20
#define F_V1    24
#define F_A0    28
#define F_A1    32
#define F_A2    36
#define F_A3    40
#define F_T0    44
#define F_T1    48
#define F_T2    52
#define F_T3    56
#define F_T4    60
#define F_T5    64
#define F_T6    68
#define F_T7    72
#define F_T8    76
#define F_T9    80
#define F_RA    84
#define F_HI    88
#define F_LO    92
#define F_EPC   96
#define F_SIZE  104

        .text
        .globl  malta_exception
        .ent    malta_exception
malta_exception:
        addiu   $sp, $sp, -F_SIZE
        sw      $at, F_AT($sp)
        sw      $v0, F_V0($sp)
        sw      $v1, F_V1($sp)
        sw      $a0, F_A0($sp)
        sw      $a1, F_A1($sp)
        sw      $a2, F_A2($sp)
        sw      $a3, F_A3($sp)
        sw      $t0, F_T0($sp)
        sw      $t1, F_T1($sp)
        sw      $t2, F_T2($sp)
        sw      $t3, F_T3($sp)
        sw      $t4, F_T4($sp)
        sw      $t5, F_T5($sp)
        sw      $t6, F_T6($sp)
        sw      $t7, F_T7($sp)
        sw      $t8, F_T8($sp)
        sw      $t9, F_T9($sp)
        sw      $ra, F_RA($sp)
        mfhi    $t0
        mflo    $t1
        sw      $t0, F_HI($sp)
        sw      $t1, F_LO($sp)
        mfc0    $t0, CP0_EPC
        nop
        sw      $t0, F_EPC($sp)
        mfc0    $a0, CP0_CAUSE
        addiu   $a1, $sp, 16
        jal     malta_exception_c
        nop
        lw      $t0, F_EPC($sp)
        lw      $t1, F_HI($sp)
        lw      $t2, F_LO($sp)
        mtc0    $t0, CP0_EPC
        mthi    $t1
        mtlo    $t2
        lw      $at, F_AT($sp)
        lw      $v0, F_V0($sp)
        lw      $v1, F_V1($sp)
        lw      $a0, F_A0($sp)
        lw      $a1, F_A1($sp)
        lw      $a2, F_A2($sp)
        lw      $a3, F_A3($sp)
        lw      $t0, F_T0($sp)
        lw      $t1, F_T1($sp)
        lw      $t2, F_T2($sp)
        lw      $t3, F_T3($sp)
        lw      $t4, F_T4($sp)
        lw      $t5, F_T5($sp)
        lw      $t6, F_T6($sp)
        lw      $t7, F_T7($sp)
        lw      $t8, F_T8($sp)
        lw      $t9, F_T9($sp)
        lw      $ra, F_RA($sp)
        addiu   $sp, $sp, F_SIZE
        CP0_HAZARD
        eret
        nop
        .end    malta_exception

/* UHI exit (QEMU -semihosting): operation 1 in $t9 (= $25), status in $a0, sdbbp 1. */
        .globl  malta_uhi_exit
        .ent    malta_uhi_exit
malta_uhi_exit:
        li      $t9, 1
        .set    push
        .set    mips32
        sdbbp   1
        .set    pop
7:      b       7b
        nop
        .end    malta_uhi_exit
