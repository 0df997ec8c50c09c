/* The context switch of the examples' round-robin scheduler (examples/common/scheduler.hpp) on an
 * ARMv7-A core (QEMU virt), from the ARM boards' macros (examples/common/arm_task_switch.h) with
 * this board's frame.
 *
 * A context is 16 words on the task's own stack, lowest address first: r0-r12, LR, PC (where it
 * resumes), CPSR: the last two are what RFE loads (ARM ARM ARMv7-A/R, B9.3.13 RFE), so a task
 * interrupted in Thumb code (newlib's multilib for -mcpu=cortex-a15 is Thumb) or inside an IT
 * block resumes in its own state. task_preempt_irq makes the IRQ's return (startup.S's MOVS PC, LR
 * restores CPSR from SPSR_irq) ARM state, IT clear, I set, so it lands in task_trampoline in SYS
 * mode, every register as the task left it and IRQ masked. The trampoline restores the context
 * sched_switch returns: the registers, then PC and CPSR in one RFE (IRQ stays masked until CPSR is
 * loaded). VFP/NEON registers are not saved: the board builds soft-float code (the toolchain's
 * default -mfloat-abi=soft) and leaves the FPU off. */
#include "examples/common/arm_task_switch.h"

    .syntax unified
    .arm

/* PC and CPSR above LR, where RFE takes them. */
    .macro  task_frame_store
    add     r3, sp, #56
    stmia   r3, {r1, r2}                /* PC, CPSR: the frame is complete at SP */
    .endm
    .macro  task_frame_resume
    ldmfd   sp!, {r0-r12, lr}
    rfeia   sp!                         /* PC and CPSR: state, mode, I and F as the task had them */
    .endm
    .macro  task_resume_psr
    ldr     r3, =0x0600FC20             /* IT[1:0], IT[7:2] and T: ARM state, outside any IT block */
    bic     r2, r2, r3
    orr     r2, r2, #0x80               /* I */
    .endm
/* A Thumb caller's return address has bit 0 set: it resumes in Thumb state. */
    .macro  task_yield_store
    tst     lr, #1
    orrne   r12, r12, #0x20             /* CPSR.T for a Thumb caller */
    bicne   lr, lr, #1
    ldr     r2, =task_preempted
    str     lr, [r2]                    /* resume at the caller (STM stores the lowest register */
    str     r12, [r2, #4]               /* first, whatever the list's order), with its CPSR */
    .endm

    TASK_PREEMPTED
    TASK_TRAMPOLINE 8
    TASK_YIELD
/* The board's IRQ entry (startup.S) pushes {r0-r3, r11, r12, LR_irq - 4} from the top of the IRQ
 * stack. */
    TASK_PREEMPT_IRQ
    .ltorg
