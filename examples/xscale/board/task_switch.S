/* The context switch of the examples' round-robin scheduler (examples/common/scheduler.hpp), from
 * the ARM boards' macros (examples/common/arm_task_switch.h) with this board's frame.
 *
 * A context is 16 words on the task's own stack, lowest address first: CPSR, r0-r12, LR, PC
 * (where it resumes). The IRQ's return (it restores CPSR from SPSR_irq: ARM ARM, "LDM (3)") lands
 * in task_trampoline in the task's own mode, every register as the task left it and IRQ masked.
 * The trampoline restores the context sched_switch returns: flags and mode first (ARM ARM, "MSR":
 * the I bit clears there, and an IRQ after it finds the frame still above SP), then every register
 * and PC in one LDM.
 * Not saved: the XScale's CP0 accumulator acc0 (no compiled code here uses it). */
#include "arm_modes.h"
#include "examples/common/arm_task_switch.h"

    .syntax unified
    .arm

/* PC above LR; CPSR pushed below r0, so that the frame is complete at SP. */
    .macro  task_frame_store
    str     r1, [sp, #56]               /* PC */
    str     r2, [sp, #-4]!              /* CPSR: the frame is complete at SP */
    .endm
    .macro  task_frame_resume
    ldr     r1, [sp], #4
    msr     cpsr_fc, r1                 /* flags, mode, I and F as the task had them */
    ldmfd   sp!, {r0-r12, lr, pc}
    .endm
    .macro  task_resume_psr
    orr     r2, r2, #PSR_I
    .endm
    .macro  task_yield_store
    ldr     r2, =task_preempted
    str     lr, [r2]                    /* resume at the caller */
    str     r12, [r2, #4]               /* with its CPSR */
    .endm

    TASK_PREEMPTED
    TASK_TRAMPOLINE 4
    TASK_YIELD
/* The board's IRQ entry (vectors.S) keeps {r0-r3, r12, LR_irq - 4} at the top of the IRQ stack. */
    TASK_PREEMPT_IRQ
    .ltorg
