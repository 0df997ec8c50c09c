/* The context switch of the examples' round-robin scheduler (examples/common/scheduler.hpp).
 * References: PowerPC e500 Core Family Reference Manual, Rev. 1 ("CRM").
 *
 * A context is a 160-byte frame on the task's own stack (SVR4: 16-byte multiple, back chain at 0,
 * the callee's LR save word at 4): r0 at 8, r2-r31 at 12-131, CR, XER, CTR, LR at 132-144, then
 * where the task resumes (PC) and its MSR at 148 and 152. A preemption does not switch inside the
 * interrupt: the decrementer's callback (task_port.hpp, preempt) moves the interrupt frame's SRR0
 * to task_trampoline and clears MSR[EE] in its SRR1, keeping both in task_preempted, so the rfi
 * (CRM, rfi: the MSR from SRR1, the PC from SRR0) lands here with every register as the task left it and
 * interrupts off. The trampoline saves the context, calls sched_switch(frame) and restores the
 * context it returns, ending with rfi from the frame's PC and MSR (EE set again in one step).
 * Not saved: the SPE upper halves of the GPRs and ACC (the firmware is built -msoft-float and no
 * compiled code here uses SPE). */
        .set SPR_SRR0, 26
        .set SPR_SRR1, 27
        .set T_SIZE, 160

/* The special registers a context holds and their words in the frame: one list for the save and
 * the restore, each moving a register through r0. */
        .macro  frame_sprs op
        \op     cr, 132
        \op     xer, 136
        \op     ctr, 140
        \op     lr, 144
        .endm
        .macro  save_spr reg, off
        mf\reg  %r0
        stw     %r0, \off(%r1)
        .endm
        .macro  restore_spr reg, off
        lwz     %r0, \off(%r1)
        mt\reg  %r0
        .endm

        .section .bss
        .balign 4
        .globl  task_preempted
task_preempted:
        .space  8                      /* PC, MSR of the preempted task */

        .section .text.task_switch, "ax"
        .globl  task_trampoline
        .type   task_trampoline, @function
task_trampoline:
        stwu    %r1, -T_SIZE(%r1)
        stw     %r0, 8(%r1)
        stmw    %r2, 12(%r1)
        frame_sprs save_spr
        lis     %r3, task_preempted@ha
        addi    %r3, %r3, task_preempted@l
        lwz     %r4, 0(%r3)
        lwz     %r5, 4(%r3)
        stw     %r4, 148(%r1)
        stw     %r5, 152(%r1)
        mr      %r3, %r1
        bl      sched_switch           /* r3 = the context to resume */
        mr      %r1, %r3
        .globl  task_resume
task_resume:
        lwz     %r0, 148(%r1)
        mtspr   SPR_SRR0, %r0
        lwz     %r0, 152(%r1)
        mtspr   SPR_SRR1, %r0
        frame_sprs restore_spr
        lwz     %r0, 8(%r1)
        lmw     %r2, 12(%r1)
        addi    %r1, %r1, T_SIZE
        rfi
        .size   task_trampoline, . - task_trampoline

/* From the task's code: the same switch, resuming after the call (a voluntary switch). r3-r5 are
 * volatile across a call (SVR4). */
        .globl  task_yield
        .type   task_yield, @function
task_yield:
        mfmsr   %r4
        wrteei  0
        lis     %r3, task_preempted@ha
        addi    %r3, %r3, task_preempted@l
        mflr    %r5
        stw     %r5, 0(%r3)
        stw     %r4, 4(%r3)
        b       task_trampoline
        .size   task_yield, . - task_yield

        .section .note.GNU-stack, "", @progbits
