/* The two cores' workloads for cps_smp_main.cpp: loops of a known length, so that each core's
 * instruction count is known exactly and its samples can be told apart by address. MIPS32r2. */
        .set    noreorder
        .text

/* VP 0's workload: a0 iterations (a0 > 0) of 4 instructions, then the return (2): 4 * a0 + 2. */
        .globl  smp_work_vp0, smp_work_vp0_end
        .ent    smp_work_vp0
smp_work_vp0:
1:      addiu   $a0, $a0, -1
        addu    $v0, $v0, $a0
        bnez    $a0, 1b
        nop
        jr      $ra
        nop
        .end    smp_work_vp0
smp_work_vp0_end:

/* VP 1's workload: a0 iterations (a0 > 0) of 6 instructions, then the return (2): 6 * a0 + 2. */
        .globl  smp_work_vp1, smp_work_vp1_end
        .ent    smp_work_vp1
smp_work_vp1:
1:      addiu   $a0, $a0, -1
        xor     $v0, $v0, $a0
        sll     $v1, $v0, 1
        addu    $v0, $v0, $v1
        bnez    $a0, 1b
        nop
        jr      $ra
        nop
        .end    smp_work_vp1
smp_work_vp1_end:

/* CP0 Count (9) read before and after a0 iterations of the 4-instruction loop (a0 > 0): returns
 * the difference. From the first read to the second: 4 * a0 + 1 instructions. */
        .globl  smp_count_loop4
        .ent    smp_count_loop4
smp_count_loop4:
        mfc0    $t0, $9
1:      addiu   $a0, $a0, -1
        addu    $v0, $v0, $a0
        bnez    $a0, 1b
        nop
        mfc0    $t1, $9
        jr      $ra
        subu    $v0, $t1, $t0
        .end    smp_count_loop4

/* The same for the 6-instruction loop: 6 * a0 + 1 instructions from read to read. */
        .globl  smp_count_loop6
        .ent    smp_count_loop6
smp_count_loop6:
        mfc0    $t0, $9
1:      addiu   $a0, $a0, -1
        xor     $v0, $v0, $a0
        sll     $v1, $v0, 1
        addu    $v0, $v0, $v1
        bnez    $a0, 1b
        nop
        mfc0    $t1, $9
        jr      $ra
        subu    $v0, $t1, $t0
        .end    smp_count_loop6
