/* The baseline for PMU overflow sampling's cost: what an expert writes by hand for counter 0's
 * PMI with the IDT gate pointing straight at it, the same hardware sequence as the board's fast
 * vector (board/pmu_fast.S: CCCR0 stopped, the counter rewound one period and written twice,
 * CCCR0 with ENABLE and OVF as the rewind says, the LVT entry unmasked, EOI; Intel SDM Vol. 3B
 * 18.15.3, 18.15.5.8), the period an immediate, and the interrupted EIP only into a ring. The
 * profile firmware measures both in the same run and prints the ratio. */
#include "pmu_sampling.h"

        .set    RING_SIZE, 256
        .set    PERIOD, PMU_HANDWRITTEN_PERIOD

        .bss
        .balign 4
        .globl  handwritten_pmu_ring
handwritten_pmu_ring:                   /* RING_SIZE EIPs */
        .space  4 * RING_SIZE
        .globl  handwritten_pmu_head
handwritten_pmu_head:                   /* free-running; its low byte is the index */
        .space  4

        .text
        .globl  handwritten_pmu
        .type   handwritten_pmu, @function
handwritten_pmu:
        pushl   %eax
        pushl   %ecx
        pushl   %edx
        pushl   %ebx
        movl    $0x360, %ecx            /* CCCR0 */
        rdmsr
        movl    %eax, %ebx
        andl    $~0x1000, %eax          /* ENABLE off */
        wrmsr
        movl    $0x300, %ecx            /* counter 0 */
        rdmsr
        subl    $PERIOD, %eax
        sbbl    $0, %edx
        shll    $1, %ebx
        cmpb    $0x80, %dl
        rcrl    $1, %ebx                /* OVF: set only if the rewound count's bit 39 is clear */
        andl    $0xFF, %edx
        wrmsr
        wrmsr
        movl    %ebx, %eax
        xorl    %edx, %edx
        movl    $0x360, %ecx
        wrmsr
        movl    pc_pmu_lvt, %ecx        /* board/pmu_fast.S */
        andl    $~0x10000, (%ecx)       /* LVT entry unmasked */
        movl    $0, -(0x340 - 0xB0)(%ecx)  /* EOI */
        movzbl  handwritten_pmu_head, %eax
        movl    16(%esp), %edx          /* EIP */
        movl    %edx, handwritten_pmu_ring(,%eax,4)
        incl    handwritten_pmu_head
        popl    %ebx
        popl    %edx
        popl    %ecx
        popl    %eax
        iret
        .size   handwritten_pmu, . - handwritten_pmu
        .section .note.GNU-stack, "", @progbits
