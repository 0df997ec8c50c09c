// newlib's system calls that reach this board: output to the FFUART (board::putc, the board set
// up on first use: pmukit_board_init, examples/common/libc/board_glue.cpp) and exit through the
// board's exit (semihosting). The heap and the file calls are every newlib board's:
// examples/common/libc/newlib_stubs.cpp.
#include <errno.h>

#include "board/board.hpp"

extern "C" {
void pmukit_board_init(void);

int _write(int fd, const char* buf, int n) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  pmukit_board_init();
  for (int i = 0; i < n; ++i) board::putc(buf[i]);
  return n;
}

[[noreturn]] void _exit(int code) { board::exit(code); }
}  // extern "C"
