/* The ARMv7-M vector table and the exception entries that need the stacked frame (ARMv7-M ARM
 * B1.5.2 "Exception number definition", B1.5.6 "Exception entry behavior"). On entry the core has
 * stacked r0-r3, r12, lr, the return address and xPSR on the interrupted stack (the main stack:
 * this board runs its thread code on MSP), so sp is that frame: each entry passes it to C++. */
  .syntax unified
  .thumb

  .section .vectors, "a"
  .global __vectors
__vectors:
  .word __stack_top        /* 0: initial main stack pointer */
  .word board_reset        /* 1: Reset */
  .word board_fault_entry  /* 2: NMI */
  .word board_fault_entry  /* 3: HardFault */
  .word board_fault_entry  /* 4: MemManage */
  .word board_fault_entry  /* 5: BusFault */
  .word board_fault_entry  /* 6: UsageFault */
  .word 0, 0, 0, 0         /* 7-10: reserved */
  .word board_fault_entry  /* 11: SVCall */
  .word board_fault_entry  /* 12: DebugMonitor */
  .word 0                  /* 13: reserved */
  .word board_fault_entry  /* 14: PendSV */
  .word board_systick_entry  /* 15: SysTick */

  .text
  .thumb_func
  .global board_systick_entry
  .type board_systick_entry, %function
board_systick_entry:
  mov r0, sp               /* the stacked frame: frame[5] = lr, frame[6] = the return address */
  b board_systick
  .size board_systick_entry, . - board_systick_entry

  .thumb_func
  .global board_fault_entry
  .type board_fault_entry, %function
board_fault_entry:
  mov r0, sp
  mrs r1, ipsr             /* which exception */
  b board_fault
  .size board_fault_entry, . - board_fault_entry
