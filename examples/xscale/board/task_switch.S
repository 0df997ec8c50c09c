/* The context switch of the examples' round-robin scheduler (examples/common/scheduler.hpp).
 *
 * Tasks run in SYS mode, each on its own stack. A context is 16 words on the task's own stack,
 * lowest address first: CPSR, r0-r12, LR, PC (where it resumes). A preemption does not switch in
 * IRQ mode: the timer's callback (task_port.hpp, TaskPort::preempt: task_preempt_irq below)
 * points the IRQ's return at task_trampoline, with the interrupted PC and SPSR kept in
 * task_preempted and SPSR's I bit set. The IRQ's return (it restores CPSR from SPSR_irq: ARM ARM,
 * "LDM (3)") then lands here in the task's own mode, every register as the task left it and IRQ
 * masked. The trampoline saves the context, calls sched_switch(frame) on an 8-byte aligned stack
 * (AAPCS), and restores the context it returns: flags and mode first (ARM ARM, "MSR": the I bit
 * clears there, and an IRQ after it finds the frame still above SP), then every register and PC
 * in one LDM.
 * Not saved: the XScale's CP0 accumulator acc0 (no compiled code here uses it). */
#include "arm_modes.h"

    .syntax unified
    .arm

    .bss
    .align  2
    .global task_preempted
task_preempted:
    .space  8                           /* the interrupted PC, its CPSR (from SPSR_irq) */

    .text
    .global task_trampoline
    .type   task_trampoline, %function
task_trampoline:
    sub     sp, sp, #4                  /* PC's word, filled below */
    stmfd   sp!, {r0-r12, lr}
    ldr     r0, =task_preempted
    ldmia   r0, {r1, r2}
    str     r1, [sp, #56]               /* PC */
    str     r2, [sp, #-4]!              /* CPSR: the frame is complete at SP */
    mov     r0, sp
    bic     sp, sp, #7                  /* AAPCS: 8-byte aligned at the call */
    bl      sched_switch                /* r0 = the context to resume */
    mov     sp, r0
    .global task_resume
task_resume:
    ldr     r1, [sp], #4
    msr     cpsr_fc, r1                 /* flags, mode, I and F as the task had them */
    ldmfd   sp!, {r0-r12, lr, pc}
    .size   task_trampoline, . - task_trampoline

/* From the task's code: the same switch, resuming after the call (a voluntary switch). */
    .global task_yield
    .type   task_yield, %function
task_yield:
    mrs     r12, cpsr
    orr     r3, r12, #PSR_I
    msr     cpsr_c, r3                  /* IRQ masked, as the trampoline expects */
    ldr     r2, =task_preempted
    str     lr, [r2]                    /* resume at the caller */
    str     r12, [r2, #4]               /* with its CPSR */
    b       task_trampoline
    .size   task_yield, . - task_yield

/* In IRQ mode, from the timer's callback: the IRQ returns into task_trampoline with IRQ masked.
 * The board's IRQ entry (vectors.S) keeps {r0-r3, r12, LR_irq - 4} at the top of the IRQ stack
 * and does not nest, so the return address is the word just below __irq_stack_top. */
    .global task_preempt_irq
    .type   task_preempt_irq, %function
task_preempt_irq:
    ldr     r0, =__irq_stack_top
    ldr     r1, [r0, #-4]               /* where the task resumes */
    mrs     r2, spsr                    /* its CPSR */
    ldr     r3, =task_preempted
    stmia   r3, {r1, r2}
    orr     r2, r2, #PSR_I
    msr     spsr_fsxc, r2
    ldr     r1, =task_trampoline
    str     r1, [r0, #-4]
    bx      lr
    .size   task_preempt_irq, . - task_preempt_irq
    .ltorg
