/* Startup, descriptor tables and interrupt entry for i386 firmware on QEMU's PC (board.hpp).
 *
 * QEMU's multiboot loader (-kernel with an ELF carrying a Multiboot 1 header) loads the image at its
 * link address and enters _start in 32-bit protected mode, paging off, interrupts off, with flat
 * CS/DS but no GDT of ours (Multiboot Specification 0.6.96, "Machine state": GDTR may be invalid).
 * So startup loads its own GDT and reloads every segment register before touching the stack, then
 * the IDT (built by board.cpp from pc_vector_table), clears .bss and runs the constructors. */

        .set    MB_MAGIC, 0x1BADB002
        .set    MB_FLAGS, 0             /* an ELF image: the loader takes addresses from it */

        /* Multiboot 1 header: 4-byte aligned within the image's first 8 KiB (pc.ld puts it first). */
        .section .multiboot, "a"
        .balign 4
        .long   MB_MAGIC
        .long   MB_FLAGS
        .long   -(MB_MAGIC + MB_FLAGS)

        .section .text.pc_start, "ax"
        .globl  _start
        .type   _start, @function
_start:
        .cfi_sections .debug_frame
        .cfi_startproc
        .cfi_undefined %eip            /* the outermost frame: a stack walk ends here, complete */
        cli
        lgdt    pc_gdt_descriptor
        ljmp    $0x08, $1f              /* CS = the flat code descriptor */
1:      movw    $0x10, %ax              /* the flat data descriptor */
        movw    %ax, %ds
        movw    %ax, %es
        movw    %ax, %fs
        movw    %ax, %gs
        movw    %ax, %ss
        movl    $__stack_top, %esp
        xorl    %ebp, %ebp              /* ends the frame-pointer chain the sampler follows */
        cld

        /* .bss */
        movl    $__bss_start, %edi
        movl    $__bss_end, %ecx
        subl    %edi, %ecx
        xorl    %eax, %eax
        rep stosb

        call    pc_idt_init             /* the IDT from pc_vector_table, then lidt */

        /* Constructors (they must not print: main calls board::init first). */
        movl    $__init_array_start, %ebx
2:      cmpl    $__init_array_end, %ebx
        je      3f
        call    *(%ebx)
        addl    $4, %ebx
        jmp     2b

3:      call    main
        pushl   %eax
        call    pc_main_returned
4:      hlt
        jmp     4b
        .cfi_endproc
        .size   _start, . - _start

/* Interrupt and exception entry. Each vector's stub pushes an error code where the CPU pushes none
 * (so every frame has one; Intel SDM Vol. 3A 6.13, "Error Code": vectors 8, 10-14, 17 and 21 push
 * their own) and the vector number, then the common path saves the general registers and calls
 * pc_trap_c(Frame*), which may change the saved EIP (a caught fault resumes after the instruction). */
        .macro  VECTOR n
        .type   pc_vector_\n, @function
pc_vector_\n:
        .if     (\n == 8) || ((\n >= 10) && (\n <= 14)) || (\n == 17) || (\n == 21)
        .else
        pushl   $0
        .endif
        pushl   $\n
        jmp     pc_trap_common
        .endm

        .section .text.pc_vectors, "ax"
        .irp    n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        VECTOR  \n
        .endr
        .irp    n, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,240,255
        VECTOR  \n
        .endr

pc_trap_common:
        pushal                          /* EAX, ECX, EDX, EBX, ESP, EBP, ESI, EDI: board::Frame */
        movl    %esp, %eax
        pushl   %eax
        cld
        call    pc_trap_c
        addl    $4, %esp
        popal
        addl    $8, %esp                /* vector and error code */
        iret

/* Fast PIT sampling (board::fast_sampling_start): IRQ 0's gate points here instead of at
 * pc_vector_32. No frame and no call: the master 8259's non-specific EOI (OCW2), then the
 * interrupted EIP (the CPU pushed EIP, CS, EFLAGS) and lr 0 stored as one sample into the
 * prof::SampleRing<256, keep_newest> pc_fast_ring points at (profiler/sampler.hpp: samples at
 * offset 0, 8 bytes each; the head at 2048, incremented after the sample is stored). */
        .set    RING_HEAD, 256 * 8
        .globl  pc_fast_sample
        .type   pc_fast_sample, @function
pc_fast_sample:
        pushl   %eax
        pushl   %ecx
        pushl   %edx
        movb    $0x20, %al
        outb    %al, $0x20
        movl    pc_fast_ring, %edx
        movzbl  RING_HEAD(%edx), %eax   /* head mod 256: its low byte */
        movl    12(%esp), %ecx          /* EIP */
        movl    %ecx, (%edx,%eax,8)
        movl    $0, 4(%edx,%eax,8)
        incl    RING_HEAD(%edx)         /* publish */
        popl    %edx
        popl    %ecx
        popl    %eax
        iret
        .size   pc_fast_sample, . - pc_fast_sample

        .section .bss.pc_fast_ring, "aw", @nobits
        .balign 4
        .globl  pc_fast_ring
pc_fast_ring:
        .space  4

        .section .text.pc_vectors, "ax"
        /* The handler of each IDT entry; board.cpp installs them (0-47: exceptions and the two
         * 8259s remapped to 32-47; 240: the local APIC's performance-counter LVT; 255: spurious). */
        .section .rodata.pc_vector_table, "a"
        .balign 4
        .globl  pc_vector_table
pc_vector_table:
        .irp    n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        .long   pc_vector_\n
        .endr
        .irp    n, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,240,255
        .long   pc_vector_\n
        .endr

        /* Flat 4 GiB segments: null, code (0x08, execute/read, ring 0), data (0x10, read/write).
         * Their Accessed bits are set already: the CPU would otherwise set them when a segment
         * register is loaded (SDM Vol. 3A 3.4.5.1), writing into this read-only data, whose CRC
         * the dump carries. */
        .balign 8
pc_gdt:
        .quad   0
        .quad   0x00CF9B000000FFFF
        .quad   0x00CF93000000FFFF
pc_gdt_end:
        .balign 4
        .word   0
pc_gdt_descriptor:
        .word   pc_gdt_end - pc_gdt - 1
        .long   pc_gdt

/* Exit through QEMU's isa-debug-exit device (I/O port 0xf4): QEMU ends with status (code << 1) | 1. */
        .section .text.pc_debug_exit, "ax"
        .globl  pc_debug_exit
        .type   pc_debug_exit, @function
pc_debug_exit:
        movl    4(%esp), %eax
        outb    %al, $0xf4
5:      cli                             /* no such device (another machine): stop here */
        hlt
        jmp     5b
        .size   pc_debug_exit, . - pc_debug_exit
        .section .note.GNU-stack, "", @progbits
