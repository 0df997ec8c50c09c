/* The context switch of the examples' round-robin scheduler (examples/common/scheduler.hpp) on an
 * ARMv7-A core (QEMU virt).
 *
 * Tasks run in SYS mode, each on its own stack. A context is 16 words on the task's own stack,
 * lowest address first: r0-r12, LR, PC (where it resumes), CPSR: the last two are what RFE loads
 * (ARM ARM ARMv7-A/R, B9.3.13 RFE), so a task interrupted in Thumb code (newlib's multilib for
 * -mcpu=cortex-a15 is Thumb) or inside an IT block resumes in its own state. A preemption does not
 * switch in IRQ mode: the timer's callback (task_port.hpp, TaskPort::preempt: task_preempt_irq
 * below) points the IRQ's return at task_trampoline, with the interrupted PC and SPSR kept in
 * task_preempted, and SPSR made ARM state, IT clear, I set. The IRQ's return (startup.S's
 * MOVS PC, LR restores CPSR from SPSR_irq) then lands here in SYS mode, every register as the task
 * left it and IRQ masked. The trampoline saves the context, calls sched_switch(frame) on an 8-byte
 * aligned stack (AAPCS) and restores the context it returns: the registers, then PC and CPSR in one
 * RFE (IRQ stays masked until CPSR is loaded). VFP/NEON registers are not saved: the board builds
 * soft-float code (the toolchain's default -mfloat-abi=soft) and leaves the FPU off. */
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
    sub     sp, sp, #8                  /* PC and CPSR's words, filled below */
    stmfd   sp!, {r0-r12, lr}
    ldr     r0, =task_preempted
    ldmia   r0, {r1, r2}
    add     r3, sp, #56
    stmia   r3, {r1, r2}                /* PC, CPSR: the frame is complete at SP */
    mov     r0, sp
    bic     sp, sp, #7                  /* AAPCS: 8-byte aligned at the call */
    bl      sched_switch                /* r0 = the context to resume */
    mov     sp, r0
    .global task_resume
task_resume:
    ldmfd   sp!, {r0-r12, lr}
    rfeia   sp!                         /* PC and CPSR: state, mode, I and F as the task had them */
    .size   task_trampoline, . - task_trampoline

/* From the task's code: the same switch, resuming after the call (a voluntary switch). A Thumb
 * caller's return address has bit 0 set: it resumes in Thumb state. */
    .global task_yield
    .type   task_yield, %function
task_yield:
    mrs     r12, cpsr
    orr     r3, r12, #0x80
    msr     cpsr_c, r3                  /* IRQ masked, as the trampoline expects */
    tst     lr, #1
    orrne   r12, r12, #0x20             /* CPSR.T for a Thumb caller */
    bicne   lr, lr, #1
    ldr     r2, =task_preempted
    stmia   r2, {lr, r12}               /* resume at the caller, with its CPSR */
    b       task_trampoline
    .size   task_yield, . - task_yield

/* In IRQ mode, from the timer's callback: the IRQ returns into task_trampoline with IRQ masked.
 * The board's IRQ entry (startup.S) pushes {r0-r3, r11, r12, LR_irq - 4} from the top of the IRQ
 * stack and does not nest, so the return address is the word just below __irq_stack_top. */
    .global task_preempt_irq
    .type   task_preempt_irq, %function
task_preempt_irq:
    ldr     r0, =__irq_stack_top
    ldr     r1, [r0, #-4]               /* where the task resumes */
    mrs     r2, spsr                    /* its CPSR */
    ldr     r3, =task_preempted
    stmia   r3, {r1, r2}
    ldr     r3, =0x0600FC20             /* IT[1:0], IT[7:2] and T: ARM state, outside any IT block */
    bic     r2, r2, r3
    orr     r2, r2, #0x80               /* I */
    msr     spsr_fsxc, r2
    ldr     r1, =task_trampoline
    str     r1, [r0, #-4]
    bx      lr
    .size   task_preempt_irq, . - task_preempt_irq
    .ltorg
