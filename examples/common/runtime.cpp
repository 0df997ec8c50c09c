// The little C/C++ runtime a -nostdlib image needs (the e500 and Malta boards link it): GCC may
// emit calls to mem* for copies and clears, and global objects with destructors register them with
// __cxa_atexit. Built with GCC's -fno-tree-loop-distribute-patterns (clang: -fno-builtin) so these
// loops are not turned back into calls to themselves.
#include <cstddef>
#include <cstdint>

extern "C" {

void* memcpy(void* dst, const void* src, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  while (n--) *d++ = *s++;
  return dst;
}

void* memmove(void* dst, const void* src, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (d < s) {
    while (n--) *d++ = *s++;
  } else {
    while (n--) d[n] = s[n];
  }
  return dst;
}

void* memset(void* dst, int c, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  while (n--) *d++ = static_cast<unsigned char>(c);
  return dst;
}

int memcmp(const void* a, const void* b, std::size_t n) {
  const auto* x = static_cast<const unsigned char*>(a);
  const auto* y = static_cast<const unsigned char*>(b);
  for (; n; --n, ++x, ++y) {
    if (*x != *y) return *x < *y ? -1 : 1;
  }
  return 0;
}

// Firmware never returns from main through exit handlers: destructors of globals are not run.
void* __dso_handle = nullptr;
int __cxa_atexit(void (*)(void*), void*, void*) { return 0; }

}  // extern "C"
