/* Reset entry for the mainstone board: one stack per mode, .bss zeroed, C++ constructors run, then
 * main() in SYS mode with IRQ and FIQ masked. main's return value becomes QEMU's exit status.
 *
 * Entered in SVC mode with IRQ/FIQ masked and the MMU and caches off (the ARM reset state, and how
 * QEMU starts an ELF given with -kernel). Nothing is copied: the loader placed .data already.
 */
#include "arm_modes.h"

    .syntax unified
    .arm

    .section .text.start, "ax", %progbits
    .global _start
    .type   _start, %function
_start:
    .cfi_sections .debug_frame
    .cfi_startproc
    .cfi_undefined lr            /* the outermost frame: a stack walk ends here, complete */
    msr     cpsr_c, #(MODE_FIQ | PSR_I | PSR_F)
    ldr     sp, =__fiq_stack_top
    ldr     r8, =board_fiq_entry        /* the FIQ vector jumps to r8_fiq (vectors.S): fatal until set */
    msr     cpsr_c, #(MODE_IRQ | PSR_I | PSR_F)
    ldr     sp, =__irq_stack_top
    msr     cpsr_c, #(MODE_ABT | PSR_I | PSR_F)
    ldr     sp, =__abt_stack_top
    msr     cpsr_c, #(MODE_UND | PSR_I | PSR_F)
    ldr     sp, =__und_stack_top
    msr     cpsr_c, #(MODE_SVC | PSR_I | PSR_F)
    ldr     sp, =__svc_stack_top
    /* main runs in SYS: privileged (CP14/CP15 and semihosting work) but with its own LR/SP bank,
     * so an exception never clobbers main's registers. USR would forbid the CP14 PMU access. */
    msr     cpsr_c, #(MODE_SYS | PSR_I | PSR_F)
    ldr     sp, =__sys_stack_top

    /* Zero .bss; the linker script aligns both ends to 8 bytes. */
    ldr     r0, =__bss_start
    ldr     r1, =__bss_end
    mov     r2, #0
    mov     r3, #0
1:  cmp     r0, r1
    stmialo r0!, {r2, r3}
    blo     1b

    /* Constructors of static objects (.preinit_array then .init_array, in link order). */
    ldr     r4, =__init_array_start
    ldr     r5, =__init_array_end
2:  cmp     r4, r5
    bhs     3f
    ldr     r0, [r4], #4
    blx     r0
    b       2b

3:  bl      main
    b       board_exit_from_main        /* exit(main's return value); does not return */
    .cfi_endproc
    .size   _start, . - _start
    .ltorg
