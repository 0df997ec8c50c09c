/* ARM program status register bits shared by the board's assembly files (ARM ARM, A2.5). */
#pragma once

#define PSR_MODE_MASK 0x1f
#define MODE_USR 0x10
#define MODE_FIQ 0x11
#define MODE_IRQ 0x12
#define MODE_SVC 0x13
#define MODE_ABT 0x17
#define MODE_UND 0x1b
#define MODE_SYS 0x1f
#define PSR_F 0x40 /* FIQ masked */
#define PSR_I 0x80 /* IRQ masked */

/* Exception kinds passed to board_fatal_exception (board.cpp). */
#define FATAL_SWI 1
#define FATAL_PREFETCH_ABORT 2
#define FATAL_DATA_ABORT 3
#define FATAL_RESERVED 4
#define FATAL_FIQ 5
