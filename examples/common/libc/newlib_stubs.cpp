// newlib's system calls that are the same on every board whose toolchain brings newlib (the ARM
// boards: mainstone, virt-a15): the heap from the end of the image to the end of RAM (the linker
// script's __heap_start and __heap_end) and no files (input reads end of file, the rest refuse).
// The board's own board/newlib_syscalls.cpp gives the two that reach its hardware, _write (its
// console) and _exit. newlib calls these by their reentrant wrappers' names (_write_r calls
// _write ...), as its "system calls" chapter describes.
#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>

extern "C" {
extern char __heap_start[], __heap_end[];

namespace {
char* g_brk = nullptr;
}  // namespace

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

int _kill(int, int) {
  errno = EINVAL;
  return -1;
}
int _getpid(void) { return 1; }
}  // extern "C"
