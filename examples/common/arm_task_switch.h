/* The context switch of the examples' round-robin scheduler (examples/common/scheduler.hpp) on the
 * ARM boards, as assembler macros: what mainstone's and virt-a15's board/task_switch.S have in
 * common. Each board's file defines three macros for what differs (its frame's PC and CPSR words,
 * and how the task's mode and state come back), then expands the four below in this order:
 *
 *   task_frame_store   r1 = the PC, r2 = the CPSR where the task resumes: into the frame, whose
 *                      r0-r12 and LR are at SP (the frame is complete at SP afterwards)
 *   task_frame_resume  from SP = the context sched_switch returned: every register, PC and CPSR
 *   task_resume_psr    r2 = the interrupted CPSR (from SPSR_irq): made what the IRQ's return
 *                      gives the trampoline (I set; r3 free)
 *   task_yield_store   lr = where the caller resumes, r12 = its CPSR: into task_preempted (r2, r3
 *                      free)
 *
 * Tasks run in SYS mode, each on its own stack; a context is r0-r12, LR, PC and CPSR on that
 * stack. A preemption does not switch in IRQ mode: task_preempt_irq points the IRQ's return at
 * task_trampoline, keeping the interrupted PC and CPSR in task_preempted, so the IRQ's return
 * lands in the trampoline in the task's own mode with IRQ masked. */

/* The interrupted PC, its CPSR (from SPSR_irq). */
    .macro  TASK_PREEMPTED
    .bss
    .align  2
    .global task_preempted
task_preempted:
    .space  8
    .endm

/* Saves the context (`room` bytes above r0-r12 and LR for PC and CPSR's words, filled by
 * task_frame_store), calls sched_switch(frame) on an 8-byte aligned stack (AAPCS) and restores
 * the context it returns (task_frame_resume, from task_resume). */
    .macro  TASK_TRAMPOLINE room
    .text
    .global task_trampoline
    .type   task_trampoline, %function
task_trampoline:
    sub     sp, sp, #\room              /* PC's (and CPSR's) words, filled below */
    stmfd   sp!, {r0-r12, lr}
    ldr     r0, =task_preempted
    ldmia   r0, {r1, r2}
    task_frame_store
    mov     r0, sp
    bic     sp, sp, #7                  /* AAPCS: 8-byte aligned at the call */
    bl      sched_switch                /* r0 = the context to resume */
    mov     sp, r0
    .global task_resume
task_resume:
    task_frame_resume
    .size   task_trampoline, . - task_trampoline
    .endm

/* From the task's code: the same switch, resuming after the call (a voluntary switch). */
    .macro  TASK_YIELD
    .global task_yield
    .type   task_yield, %function
task_yield:
    mrs     r12, cpsr
    orr     r3, r12, #0x80              /* CPSR.I */
    msr     cpsr_c, r3                  /* IRQ masked, as the trampoline expects */
    task_yield_store
    b       task_trampoline
    .size   task_yield, . - task_yield
    .endm

/* In IRQ mode, from the timer's callback (the board's task_port.hpp, TaskPort::preempt): the IRQ
 * returns into task_trampoline with IRQ masked. The board's IRQ entry keeps LR_irq - 4 in the top
 * word of the IRQ stack and does not nest, so the return address is the word just below
 * __irq_stack_top. */
    .macro  TASK_PREEMPT_IRQ
    .global task_preempt_irq
    .type   task_preempt_irq, %function
task_preempt_irq:
    ldr     r0, =__irq_stack_top
    ldr     r1, [r0, #-4]               /* where the task resumes */
    mrs     r2, spsr                    /* its CPSR */
    ldr     r3, =task_preempted
    stmia   r3, {r1, r2}
    task_resume_psr
    msr     spsr_fsxc, r2
    ldr     r1, =task_trampoline
    str     r1, [r0, #-4]
    bx      lr
    .size   task_preempt_irq, . - task_preempt_irq
    .endm
