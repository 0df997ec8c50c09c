/* ARM exception vectors and entry stubs for the mainstone board.
 *
 * The table sits at 0x00000000 (its own linker segment); each slot loads the absolute address of a
 * stub in SDRAM, so the table is position independent and the stubs can be anywhere.
 */
#include "arm_modes.h"

    .syntax unified
    .arm

    .section .vectors, "ax", %progbits
    .global __vectors
__vectors:
    ldr     pc, .Lreset                 /* 0x00 reset */
    ldr     pc, .Lundef                 /* 0x04 undefined instruction */
    ldr     pc, .Lswi                   /* 0x08 SWI (SVC); QEMU takes svc 0x123456 as semihosting */
    ldr     pc, .Lpabt                  /* 0x0c prefetch abort */
    ldr     pc, .Ldabt                  /* 0x10 data abort */
    ldr     pc, .Lreserved              /* 0x14 reserved */
    ldr     pc, .Lirq                   /* 0x18 IRQ */
    mov     pc, r8                      /* 0x1c FIQ: to the handler in FIQ mode's banked r8 */
.Lreset:    .word _start
.Lundef:    .word board_und_entry
.Lswi:      .word board_swi_entry
.Lpabt:     .word board_pabt_entry
.Ldabt:     .word board_dabt_entry
.Lreserved: .word board_reserved_entry
.Lirq:      .word board_irq_entry

    .text

/* FIQ: the vector jumps to r8_fiq, a register only FIQ mode sees (ARM ARM A2.3, banked r8-r14):
 * board::fiq_set_handler() picks the handler at run time for the one instruction a literal-pool
 * vector costs too. startup.S points it at board_fiq_entry (fatal) until then. */

/* IRQ: calls board_irq_dispatch(pc, lr, sp, fp) on the IRQ stack with IRQ and FIQ masked (the exception
 * entry masks IRQ only; FIQ is masked first, so that a FIQ only ever interrupts SYS/USR code).
 *   pc = the interrupted instruction (LR_irq - 4: where execution resumes);
 *   lr = the interrupted mode's own link register. That register is banked, so the stub switches to
 *        the interrupted mode (taken from SPSR; USR is read through SYS, which shares its bank) with
 *        interrupts still masked, copies LR (and SP), and switches back;
 *   sp, fp = the interrupted mode's stack pointer and r11, for stack capture (board::interrupted_stack).
 * Saves only what AAPCS lets the C++ side clobber. 18 instructions counting the vector and the
 * return; with board_irq_dispatch, 55 outside the callback (board.hpp, kIrqPathInstructions). */
    .global board_irq_entry
    .type   board_irq_entry, %function
board_irq_entry:
    msr     cpsr_c, #(MODE_IRQ | PSR_I | PSR_F)  /* no FIQ in here: see board::fiq_interrupted_lr */
    sub     lr, lr, #4
    stmfd   sp!, {r0-r3, r12, lr}       /* 24 bytes: the stack stays 8-byte aligned */
    mrs     r0, spsr
    and     r0, r0, #PSR_MODE_MASK
    cmp     r0, #MODE_USR
    moveq   r0, #MODE_SYS
    orr     r0, r0, #(PSR_I | PSR_F)
    mrs     r3, cpsr
    msr     cpsr_c, r0                  /* borrow the interrupted mode's bank */
    mov     r1, lr
    mov     r2, sp                      /* its stack pointer too (stack capture: profiler/stack.hpp) */
    msr     cpsr_c, r3                  /* back to IRQ mode */
    mov     r3, r11                     /* the frame pointer is not banked */
    mov     r0, lr
    bl      board_irq_dispatch
    ldmfd   sp!, {r0-r3, r12, pc}^      /* return and restore CPSR from SPSR_irq */
    .size   board_irq_entry, . - board_irq_entry

/* Undefined instruction: ask pmu_fault_catch() (hal/core/fault.hpp) whether a probe expected it.
 * Yes: resume at LR_und, the instruction after the faulting one (ARM state). No: report and exit. */
    .global board_und_entry
    .type   board_und_entry, %function
board_und_entry:
    msr     cpsr_c, #(MODE_UND | PSR_I | PSR_F)
    stmfd   sp!, {r0-r3, r12, lr}
    bl      pmu_fault_catch
    tst     r0, #0xff                   /* bool in r0 */
    ldmfdne sp!, {r0-r3, r12, pc}^
    ldr     r0, [sp, #20]               /* LR_und */
    mrs     r1, spsr
    bl      board_undef_fatal           /* does not return */
    .size   board_und_entry, . - board_und_entry

/* Everything else is fatal: board_fatal_exception(kind, address of the offending instruction). */
    .global board_swi_entry
board_swi_entry:
    sub     r1, lr, #4
    mov     r0, #FATAL_SWI
    b       board_fatal_exception

    .global board_pabt_entry
board_pabt_entry:
    sub     r1, lr, #4                  /* the instruction whose fetch aborted */
    mov     r0, #FATAL_PREFETCH_ABORT
    b       board_fatal_exception

    .global board_dabt_entry
board_dabt_entry:
    sub     r1, lr, #8                  /* the load/store that aborted */
    mov     r0, #FATAL_DATA_ABORT
    b       board_fatal_exception

    .global board_reserved_entry
board_reserved_entry:
    sub     r1, lr, #4
    mov     r0, #FATAL_RESERVED
    b       board_fatal_exception

    .global board_fiq_entry
board_fiq_entry:
    sub     r1, lr, #4
    mov     r0, #FATAL_FIQ
    b       board_fatal_exception
