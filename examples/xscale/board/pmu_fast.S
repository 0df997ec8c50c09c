/* The PMU overflow interrupt's fast vector (board.hpp, "PMU overflow straight into a ring").
 *
 * CCNT's overflow, interrupt controller source 12 routed to FIQ (PXA255 Developer's Manual
 * 4.2.2.2, ICLR), reaches this through the FIQ vector's `mov pc, r8`. It does what the profiler's
 * Sampler::on_pmu_interrupt<0> does for CCNT and nothing else, in FIQ mode's banked r9-r12 (no
 * save, no stack):
 *   - re-arm by rewind: CCNT -= period, so the events since the overflow count towards the next
 *     sample; FLAG.C (CCNT's overflow flag, XScale Core Developer's Manual 8.3.1 and Table 8-5;
 *     write 1 to clear it) cleared between the read and the write, and only when the rewind went back past 0 (fewer than a
 *     period since the overflow: the next overflow is ahead; otherwise the flag stays and the
 *     interrupt comes again at once for the period already counted);
 *   - the interrupted PC (LR_fiq - 4, ARM ARM A2.6.7) and the interrupted SYS/USR code's LR (STM's
 *     user-bank form, ARM ARM A4.1.98; every other exception path of this board masks FIQ) into a
 *     ring laid out as prof::SampleRing<256, keep_newest>: entry head % 256 (pc, lr), then head + 1;
 *   - the return, restoring CPSR from SPSR_fiq.
 * The re-arms are the ring's head: the profiler adds head x period to CCNT's software part
 * (prof::Profiler::count_rearms_in), so CCNT still counts every event; the vector bumps the
 * profiler's fold count first (Profiler::fold_count_word), so a read it interrupted retries.
 *
 * board_pmu_fast_state: the ring, the period and the fold count's address (board::pmu_fast_start),
 * one LDM. */

    .syntax unified
    .arm

    .bss
    .align  2
    .global board_pmu_fast_state
board_pmu_fast_state:
    .space  12                          /* ring, period, fold count */

    .text
    .global board_pmu_fast_fiq
    .type   board_pmu_fast_fiq, %function
board_pmu_fast_fiq:
    ldr     r9, =board_pmu_fast_state
    ldmia   r9, {r9, r10, r11}          /* r9 = ring, r10 = period, r11 = the fold count */
    ldr     r12, [r11]
    add     r12, r12, #1
    str     r12, [r11]                  /* readers it interrupted retry */
    mrc     p14, 0, r11, c1, c1, 0      /* CCNT */
    subs    r11, r11, r10               /* borrow (C clear): the next overflow is ahead */
    movcc   r12, #1
    mcrcc   p14, 0, r12, c5, c1, 0      /* FLAG: clear C */
    mcr     p14, 0, r11, c1, c1, 0      /* CCNT rewound */
    ldr     r10, [r9, #2048]            /* head (256 samples of 8 bytes before it) */
    and     r11, r10, #255
    add     r11, r9, r11, lsl #3
    sub     r12, lr, #4                 /* the interrupted instruction */
    str     r12, [r11]
    add     r10, r10, #1
    stmib   r11, {lr}^                  /* the interrupted code's LR, beside its PC */
    nop                                 /* before ARMv6: no banked register right after STM ^ */
    str     r10, [r9, #2048]            /* published after the sample */
    subs    pc, lr, #4
    .size   board_pmu_fast_fiq, . - board_pmu_fast_fiq
    .ltorg
