/* The baseline for the sampling interrupt's cost: what an expert writes by hand to put the
 * interrupted PC into a ring from the OS timer's FIQ. Only FIQ mode's banked r8-r12 are used, so
 * nothing is saved; 14 instructions after the vector. The profile firmware measures it in the same
 * run as the profiler's own FIQ path (examples/common/profile_run.hpp) and prints the ratio.
 *
 * r9 = OS timer (PXA255 manual 4.4.2): OSMR0 +0x00, OSCR0 +0x10, OSSR +0x14 (write 1 to clear).
 */
#include "fast_sampling.h"

    .syntax unified
    .arm

    .bss
    .align  2
    .global handwritten_ring
handwritten_ring:                       /* HANDWRITTEN_RING_SIZE PCs, then the free-running head */
    .space  4 * HANDWRITTEN_RING_SIZE
    .global handwritten_head
handwritten_head:
    .space  4

    .text
    .global handwritten_pc_fiq
    .type   handwritten_pc_fiq, %function
handwritten_pc_fiq:
    ldr     r9, =0x40A00000
    ldr     r10, [r9, #0x10]            /* OSCR0 */
    add     r10, r10, #FAST_SAMPLING_PERIOD
    str     r10, [r9]                   /* OSMR0: the next match */
    mov     r10, #1
    str     r10, [r9, #0x14]            /* OSSR: clear M0, lowers the request */
    ldr     r9, =handwritten_ring
    ldr     r10, [r9, #4 * HANDWRITTEN_RING_SIZE]
    and     r11, r10, #(HANDWRITTEN_RING_SIZE - 1)
    sub     r12, lr, #4                 /* the interrupted instruction */
    str     r12, [r9, r11, lsl #2]
    add     r10, r10, #1
    str     r10, [r9, #4 * HANDWRITTEN_RING_SIZE]
    subs    pc, lr, #4
    .size   handwritten_pc_fiq, . - handwritten_pc_fiq
    .ltorg
