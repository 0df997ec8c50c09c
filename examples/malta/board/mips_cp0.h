/* CP0 register numbers and Status bits the Malta board's startup and dispatcher use (shared by
 * start.S and board.cpp). MIPS32 PRA and the R4000-class manuals agree on all of them. */
#ifndef MALTA_MIPS_CP0_H
#define MALTA_MIPS_CP0_H

#define CP0_COUNT $9
#define CP0_COMPARE $11
#define CP0_STATUS $12
#define CP0_CAUSE $13
#define CP0_EPC $14
#define CP0_PRID $15
#define CP0_PERFCOUNT $25 /* RM7000 PerfCount (hal/rm7000/regs.hpp) */

#define ST_CU0 0x10000000 /* coprocessor 0 usable */

/* After mtc0 to Status/Cause/Compare/EPC: ehb on MIPS32r2, nops on MIPS IV (the same count as the
 * kit's CP0 bus, hal/core/bus/cp0.hpp). */
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
#define CP0_HAZARD ehb
#else
#define CP0_HAZARD nop; nop; nop; nop; nop; nop; nop; nop
#endif

#endif
