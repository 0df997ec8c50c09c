/* The baseline for the sampling interrupt's cost on Malta: what an expert writes by hand to put the
 * interrupted PC into a ring from the Count/Compare timer, on the same shared exception vector
 * (0x80000180, copied there by board::timer_vector_start). Like the board's fast path
 * (start.S, malta_fast_vector) it must check that the exception is the timer's and hand anything
 * else to the board's handler; unlike it, the ring and the period are link-time constants and
 * only the PC is stored. The profile firmware measures both in the same run and prints the ratio.
 * MIPS32 PRA / R4000 User's Manual: Cause (ExcCode 6:2, IP7 bit 15), Count, Compare, EPC, eret. */
#include "board/mips_cp0.h"
#include "fast_sampling.h"

        .set    noreorder
        .set    noat
        .set    RING_SIZE, 256

        .section .bss
        .balign 4
        .globl  handwritten_ring, handwritten_head
handwritten_ring:                       /* RING_SIZE PCs, then the free-running head */
        .space  4 * RING_SIZE
handwritten_head:
        .space  4

        .text
        .globl  handwritten_count_vector, handwritten_count_vector_end
handwritten_count_vector:
        mfc0    $k0, CP0_CAUSE
        lui     $k1, %hi(handwritten_ring)
        andi    $k0, $k0, 0x807C        /* IP7 and ExcCode */
        xori    $k0, $k0, 0x8000
        bnez    $k0, 9f
        mfc0    $k0, CP0_COUNT          /* (delay slot) */
        addiu   $k1, $k1, %lo(handwritten_ring)
        addiu   $k0, $k0, MALTA_FAST_PERIOD
        mtc0    $k0, CP0_COMPARE        /* acknowledge, re-arm */
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
9:      la      $k0, malta_exception
        jr      $k0
        nop
handwritten_count_vector_end:

        .section .note.GNU-stack, "", @progbits
