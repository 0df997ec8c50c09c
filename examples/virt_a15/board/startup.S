/* Reset entry for QEMU's "virt" board with an ARMv7-A core (-cpu cortex-a15 / cortex-a7): one stack
 * per mode, VBAR at the vector table, .bss zeroed, constructors run, then main() in SYS mode with
 * IRQs masked; main's return value becomes QEMU's exit status (semihosting SYS_EXIT).
 *
 * QEMU starts an ELF given with -kernel in SVC mode, MMU and caches off (secure=off, no EL2).
 * VBAR (ARM ARM ARMv7-A/R, B4.1 VBAR) places the vectors in RAM: virt has flash at 0.
 */
    .syntax unified
    .arm

    .section .text.start, "ax", %progbits
    .global _start
    .type   _start, %function
_start:
    .cfi_sections .debug_frame
    .cfi_startproc
    .cfi_undefined lr
    msr     cpsr_c, #0xD2           /* IRQ, I and F masked */
    ldr     sp, =__irq_stack_top
    msr     cpsr_c, #0xDB           /* UND */
    ldr     sp, =__und_stack_top
    msr     cpsr_c, #0xD7           /* ABT */
    ldr     sp, =__abt_stack_top
    msr     cpsr_c, #0xD3           /* SVC */
    ldr     sp, =__svc_stack_top
    msr     cpsr_c, #0xDF           /* SYS: main's mode */
    ldr     sp, =__sys_stack_top
    ldr     r0, =virt_vectors
    mcr     p15, 0, r0, c12, c0, 0  /* VBAR */
    isb
    ldr     r0, =__bss_start
    ldr     r1, =__bss_end
    mov     r2, #0
1:  cmp     r0, r1
    strlo   r2, [r0], #4
    blo     1b
    ldr     r4, =__init_array_start
    ldr     r5, =__init_array_end
2:  cmp     r4, r5
    bhs     3f
    ldr     r0, [r4], #4
    blx     r0
    b       2b
3:  bl      main
    b       virt_exit
    .cfi_endproc
    .size   _start, . - _start
    .ltorg

/* The vector table (VBAR needs 32-byte alignment). FIQ is not used. */
    .section .text.vectors, "ax", %progbits
    .balign 32
    .global virt_vectors
virt_vectors:
    b       _start
    b       und_entry
    b       virt_fatal_svc
    b       virt_fatal_pabt
    b       virt_fatal_dabt
    b       .
    b       irq_entry
    b       .

/* Undefined instruction: a probe's expected trap is skipped (pmu_fault_catch); anything else is
 * fatal. LR_und is the next ARM instruction. */
und_entry:
    push    {r0-r3, r12, lr}
    bl      pmu_fault_catch
    cmp     r0, #0
    pop     {r0-r3, r12, lr}
    movsne  pc, lr
    sub     r0, lr, #4
    b       virt_fatal_undef

/* IRQ: the interrupted PC (LR_irq - 4) and LR go to virt_irq(pc, lr); the interrupted SP and r11
 * to virt_interrupted[] first (Board::interrupted_stack, a stack capture). main's code runs in
 * SYS mode: its banked SP and LR are read in SYS mode (CPS, ARMv7), IRQ and FIQ still masked.
 * 7 registers pushed and 4 bytes of padding: the call's stack stays 8-byte aligned (AAPCS). */
irq_entry:
    sub     lr, lr, #4
    push    {r0-r3, r11, r12, lr}
    sub     sp, sp, #4
    cps     #0x1F
    mov     r2, sp
    mov     r1, lr
    cps     #0x12
    ldr     r3, =virt_interrupted
    stmia   r3, {r2, r11}
    mov     r0, lr
    bl      virt_irq
    add     sp, sp, #4
    pop     {r0-r3, r11, r12, lr}
    movs    pc, lr
    .ltorg
