/* Insertion sort: small arrays, as the benchmark uses it. */
#include "bench.h"

void sort_ints(int32_t* v, size_t n) {
  for (size_t i = 1; i < n; ++i) {
    const int32_t x = v[i];
    size_t j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
}

int sorted(const int32_t* v, size_t n) {
  for (size_t i = 1; i < n; ++i)
    if (v[i - 1] > v[i]) return 0;
  return 1;
}
