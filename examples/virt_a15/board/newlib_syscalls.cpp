// newlib's system calls on QEMU virt, so that a program's printf, puts and malloc work: output to
// the PL011 (virt::Board::putc), the heap from the end of the image to the end of the linker
// script's RAM (__heap_start, __heap_end), exit through semihosting (virt::Board::exit), no files
// (input reads end of file, the rest refuse). newlib calls these by their reentrant wrappers'
// names (_write_r calls _write ...), as its "system calls" chapter describes.
#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>

#include "board/board.hpp"

extern "C" {
extern char __heap_start[], __heap_end[];

namespace {
char* g_brk = nullptr;
}  // namespace

int _write(int fd, const char* buf, int n) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  for (int i = 0; i < n; ++i) virt::Board::putc(buf[i]);
  return n;
}

int _read(int, char*, int) { return 0; }
int _close(int) {
  errno = EBADF;
  return -1;
}
int _fstat(int, struct stat* st) {
  st->st_mode = S_IFCHR;  // a character device: stdout line-buffered
  return 0;
}
int _isatty(int fd) { return fd <= 2; }
int _lseek(int, int, int) { return 0; }
int _open(const char*, int, ...) {
  errno = ENOENT;
  return -1;
}

void* _sbrk(ptrdiff_t incr) {
  if (g_brk == nullptr) g_brk = __heap_start;
  if (incr > __heap_end - g_brk || incr < __heap_start - g_brk) {
    errno = ENOMEM;
    return reinterpret_cast<void*>(-1);
  }
  char* const old = g_brk;
  g_brk += incr;
  return old;
}

[[noreturn]] void _exit(int code) { virt::Board::exit(code); }
int _kill(int, int) {
  errno = EINVAL;
  return -1;
}
int _getpid(void) { return 1; }
}  // extern "C"
