// newlib's system calls that reach QEMU virt: output to the PL011 (virt::Board::putc) and exit
// through semihosting (virt::Board::exit). The heap and the file calls are every newlib board's:
// examples/common/libc/newlib_stubs.cpp.
#include <errno.h>

#include "board/board.hpp"

extern "C" {

int _write(int fd, const char* buf, int n) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  for (int i = 0; i < n; ++i) virt::Board::putc(buf[i]);
  return n;
}

[[noreturn]] void _exit(int code) { virt::Board::exit(code); }
}  // extern "C"
