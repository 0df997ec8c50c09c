/* The baseline for the sampling interrupt's cost: what an expert writes by hand to put the
 * interrupted EIP into a ring from the PIT's IRQ 0, with the IDT gate pointing straight at it
 * (11 instructions). The profile firmware measures it in the same run as the board's fast path
 * (start.S, pc_fast_sample) and prints the ratio. */
        .set    RING_SIZE, 256

        .bss
        .balign 4
        .globl  handwritten_ring
handwritten_ring:                       /* RING_SIZE EIPs */
        .space  4 * RING_SIZE
        .globl  handwritten_head
handwritten_head:                       /* free-running; its low byte is the index */
        .space  4

        .text
        .globl  handwritten_pc_pit
        .type   handwritten_pc_pit, @function
handwritten_pc_pit:
        pushl   %eax
        pushl   %edx
        movb    $0x20, %al
        outb    %al, $0x20              /* master 8259: non-specific EOI */
        movzbl  handwritten_head, %eax
        movl    8(%esp), %edx           /* EIP */
        movl    %edx, handwritten_ring(,%eax,4)
        incl    handwritten_head
        popl    %edx
        popl    %eax
        iret
        .size   handwritten_pc_pit, . - handwritten_pc_pit
        .section .note.GNU-stack, "", @progbits
