// The C library subset a typical benchmark needs, for the boards whose cross toolchain has no C
// library for bare metal (e500, Malta, PC: Debian's *-linux-gnu toolchains bring glibc, whose
// static libc.a makes Linux system calls and needs TLS; docs/your-program.md). The program
// includes the toolchain's own headers (<stdio.h>, <stdlib.h>, <string.h>): this file defines
// what they declare, by the same C names, and nothing else of theirs.
//
//   stdio   printf vprintf fprintf vfprintf sprintf vsprintf snprintf vsnprintf (format.hpp)
//           puts putchar fputs fputc putc fwrite fflush, stdout and stderr (both the console)
//   stdlib  malloc free calloc realloc (heap.hpp, between the linker script's __heap_start and
//           __heap_end), exit abort atexit (handlers not run), abs labs atoi atol strtol strtoul
//           rand srand qsort
//   string  strlen strnlen strcmp strncmp strcpy strncpy strcat strncat strchr strrchr strstr
//           memchr (memcpy memmove memset memcmp: examples/common/runtime.cpp)
//   other   errno (__errno_location), assert (__assert_fail)
// The board gives the console and the exit: pmukit_libc_putc(char) and pmukit_libc_exit(int)
// (board_glue.cpp). Built like runtime.cpp (no loop-to-call rewriting), so strlen's loop
// is never turned back into a call to strlen. The prototypes are written out here, not taken from
// the toolchain's headers (glibc's C++ overloads of strchr and friends would clash with them).
#include <cstdarg>
#include <cstddef>
#include <cstdint>

#include "examples/common/libc/format.hpp"
#include "examples/common/libc/heap.hpp"

extern "C" {
void pmukit_libc_putc(char c);
[[noreturn]] void pmukit_libc_exit(int code);
extern char __heap_start[], __heap_end[];
}

namespace {

pmukit::libc::Heap g_heap;
int g_errno = 0;
unsigned long g_rand = 1;
char g_stdout_tag, g_stderr_tag;

void console_put(void*, char c) { pmukit_libc_putc(c); }

struct Buffer {
  char* at;
  std::size_t room;  // bytes left for characters, the terminating null not counted
};
void buffer_put(void* ctx, char c) {
  auto* b = static_cast<Buffer*>(ctx);
  if (b->room == 0) return;
  *b->at++ = c;
  --b->room;
}

pmukit::libc::Heap& heap() {
  if (!g_heap.ready()) g_heap.init(__heap_start, __heap_end);
  return g_heap;
}

constexpr int kEnomem = 12;  // ENOMEM, as every Linux ABI numbers it
constexpr int kEinval = 22;
constexpr int kErange = 34;

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// strtoul's and strtol's common part (ISO C 7.22.1.4): the magnitude, saturated.
unsigned long parse_ul(const char* s, char** end, int base, bool& negative, bool& overflow) {
  const char* p = s;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) ++p;
  negative = false;
  overflow = false;
  if (*p == '+' || *p == '-') negative = *p++ == '-';
  if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && digit_value(p[2]) < 16) {
    p += 2;
    base = 16;
  } else if (base == 0) {
    base = p[0] == '0' ? 8 : 10;
  }
  if (base < 2 || base > 36) {
    if (end) *end = const_cast<char*>(s);
    g_errno = kEinval;
    return 0;
  }
  const char* const digits = p;
  unsigned long v = 0;
  for (int d; (d = digit_value(*p)) < base; ++p) {
    const unsigned long limit = (~0ul - static_cast<unsigned long>(d)) / static_cast<unsigned long>(base);
    if (v > limit) overflow = true;
    v = v * static_cast<unsigned long>(base) + static_cast<unsigned long>(d);
  }
  if (end) *end = const_cast<char*>(p == digits ? s : p);
  return v;
}

void swap_bytes(char* a, char* b, std::size_t n) {
  while (n--) {
    const char t = *a;
    *a++ = *b;
    *b++ = t;
  }
}

}  // namespace

extern "C" {

void* stdout = &g_stdout_tag;
void* stderr = &g_stderr_tag;

int* __errno_location(void) { return &g_errno; }

// stdio: everything goes to the console, unbuffered.
int vprintf(const char* fmt, va_list ap) { return pmukit::libc::vformat(&console_put, nullptr, fmt, ap); }
int printf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}
int vfprintf(void*, const char* fmt, va_list ap) { return vprintf(fmt, ap); }
int fprintf(void*, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}
int vsnprintf(char* buf, std::size_t size, const char* fmt, va_list ap) {
  Buffer b{buf, size == 0 ? 0 : size - 1};
  const int n = pmukit::libc::vformat(&buffer_put, &b, fmt, ap);
  if (size != 0) *b.at = '\0';
  return n;
}
int snprintf(char* buf, std::size_t size, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  return n;
}
int vsprintf(char* buf, const char* fmt, va_list ap) { return vsnprintf(buf, SIZE_MAX / 2, fmt, ap); }
int sprintf(char* buf, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsprintf(buf, fmt, ap);
  va_end(ap);
  return n;
}
int putchar(int c) {
  pmukit_libc_putc(static_cast<char>(c));
  return static_cast<unsigned char>(c);
}
int fputc(int c, void*) { return putchar(c); }
int putc(int c, void*) { return putchar(c); }
int fputs(const char* s, void*) {
  while (*s) pmukit_libc_putc(*s++);
  return 1;
}
int puts(const char* s) {
  fputs(s, stdout);
  pmukit_libc_putc('\n');
  return 1;
}
std::size_t fwrite(const void* p, std::size_t size, std::size_t n, void*) {
  const auto* c = static_cast<const char*>(p);
  for (std::size_t i = 0; i < size * n; ++i) pmukit_libc_putc(c[i]);
  return n;
}
int fflush(void*) { return 0; }

// stdlib
void* malloc(std::size_t n) {
  void* p = heap().alloc(n);
  if (p == nullptr) g_errno = kEnomem;
  return p;
}
void free(void* p) { heap().release(p); }
void* calloc(std::size_t n, std::size_t size) {
  if (size != 0 && n > SIZE_MAX / size) {
    g_errno = kEnomem;
    return nullptr;
  }
  auto* p = static_cast<unsigned char*>(malloc(n * size));
  if (p != nullptr)
    for (std::size_t i = 0; i < n * size; ++i) p[i] = 0;
  return p;
}
void* realloc(void* p, std::size_t n) {
  if (p == nullptr) return malloc(n);
  if (n == 0) {  // as glibc: frees, returns a null pointer
    free(p);
    return nullptr;
  }
  void* q = heap().resize(p, n);
  if (q == nullptr) g_errno = kEnomem;
  return q;
}
[[noreturn]] void exit(int code) { pmukit_libc_exit(code); }
[[noreturn]] void _Exit(int code) { pmukit_libc_exit(code); }
[[noreturn]] void abort(void) {
  fputs("abort()\n", stderr);
  pmukit_libc_exit(134);  // a shell's status for SIGABRT
}
int atexit(void (*)(void)) { return 0; }  // the handlers are not run: exit() ends the board
int abs(int v) { return v < 0 ? -v : v; }
long labs(long v) { return v < 0 ? -v : v; }
unsigned long strtoul(const char* s, char** end, int base) {
  bool negative, overflow;
  const unsigned long v = parse_ul(s, end, base, negative, overflow);
  if (overflow) {
    g_errno = kErange;
    return ~0ul;
  }
  return negative ? 0 - v : v;
}
long strtol(const char* s, char** end, int base) {
  bool negative, overflow;
  const unsigned long v = parse_ul(s, end, base, negative, overflow);
  constexpr unsigned long kMax = ~0ul >> 1;
  if (overflow || v > kMax + (negative ? 1 : 0)) {
    g_errno = kErange;
    return negative ? static_cast<long>(0 - kMax - 1) : static_cast<long>(kMax);
  }
  return negative ? static_cast<long>(0 - v) : static_cast<long>(v);
}
int atoi(const char* s) { return static_cast<int>(strtol(s, nullptr, 10)); }
long atol(const char* s) { return strtol(s, nullptr, 10); }
// ISO C 7.22.2: RAND_MAX at least 32767; glibc's is 2^31 - 1, as here (not its sequence).
int rand(void) {
  g_rand = g_rand * 1103515245ul + 12345ul;
  return static_cast<int>((g_rand >> 1) & 0x7FFFFFFFul);
}
void srand(unsigned seed) { g_rand = seed; }
// Shell sort: no recursion, no allocation; not stable (neither is ISO C's).
void qsort(void* base, std::size_t n, std::size_t size, int (*cmp)(const void*, const void*)) {
  auto* a = static_cast<char*>(base);
  for (std::size_t gap = n / 2; gap > 0; gap /= 2)
    for (std::size_t i = gap; i < n; ++i)
      for (std::size_t j = i; j >= gap && cmp(a + (j - gap) * size, a + j * size) > 0; j -= gap)
        swap_bytes(a + (j - gap) * size, a + j * size, size);
}

// assert()'s failure, by glibc's name: the message, then abort.
[[noreturn]] void __assert_fail(const char* expr, const char* file, unsigned line, const char* function) {
  printf("%s:%u: %s: Assertion `%s' failed.\n", file, line, function ? function : "?", expr);
  abort();
}

// string
std::size_t strlen(const char* s) {
  std::size_t n = 0;
  while (s[n] != '\0') ++n;
  return n;
}
std::size_t strnlen(const char* s, std::size_t max) {
  std::size_t n = 0;
  while (n < max && s[n] != '\0') ++n;
  return n;
}
int strcmp(const char* a, const char* b) {
  for (;; ++a, ++b) {
    const auto x = static_cast<unsigned char>(*a), y = static_cast<unsigned char>(*b);
    if (x != y) return x < y ? -1 : 1;
    if (x == '\0') return 0;
  }
}
int strncmp(const char* a, const char* b, std::size_t n) {
  for (; n; --n, ++a, ++b) {
    const auto x = static_cast<unsigned char>(*a), y = static_cast<unsigned char>(*b);
    if (x != y) return x < y ? -1 : 1;
    if (x == '\0') return 0;
  }
  return 0;
}
char* strcpy(char* d, const char* s) {
  char* r = d;
  while ((*d++ = *s++) != '\0') {
  }
  return r;
}
char* strncpy(char* d, const char* s, std::size_t n) {
  std::size_t i = 0;
  for (; i < n && s[i] != '\0'; ++i) d[i] = s[i];
  for (; i < n; ++i) d[i] = '\0';
  return d;
}
char* strcat(char* d, const char* s) {
  strcpy(d + strlen(d), s);
  return d;
}
char* strncat(char* d, const char* s, std::size_t n) {
  char* e = d + strlen(d);
  std::size_t i = 0;
  for (; i < n && s[i] != '\0'; ++i) e[i] = s[i];
  e[i] = '\0';
  return d;
}
char* strchr(const char* s, int c) {
  for (;; ++s) {
    if (*s == static_cast<char>(c)) return const_cast<char*>(s);
    if (*s == '\0') return nullptr;
  }
}
char* strrchr(const char* s, int c) {
  const char* found = nullptr;
  for (;; ++s) {
    if (*s == static_cast<char>(c)) found = s;
    if (*s == '\0') return const_cast<char*>(found);
  }
}
char* strstr(const char* h, const char* n) {
  const std::size_t len = strlen(n);
  for (; *h != '\0' || len == 0; ++h) {
    if (strncmp(h, n, len) == 0) return const_cast<char*>(h);
    if (*h == '\0') break;
  }
  return nullptr;
}
void* memchr(const void* p, int c, std::size_t n) {
  const auto* s = static_cast<const unsigned char*>(p);
  for (; n; --n, ++s)
    if (*s == static_cast<unsigned char>(c)) return const_cast<unsigned char*>(s);
  return nullptr;
}

}  // extern "C"
