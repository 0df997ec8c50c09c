/* Integer matrix kernels: a fill from a linear congruential generator, a multiply, a trace. */
#include "bench.h"

void mat_fill(matrix m, uint32_t seed) {
  for (int i = 0; i < MAT_N; ++i)
    for (int j = 0; j < MAT_N; ++j) {
      seed = seed * 1103515245u + 12345u;
      m[i][j] = (int32_t)((seed >> 16) & 0xFF) - 128;
    }
}

void mat_mul(matrix out, const matrix a, const matrix b) {
  for (int i = 0; i < MAT_N; ++i)
    for (int j = 0; j < MAT_N; ++j) {
      int32_t acc = 0;
      for (int k = 0; k < MAT_N; ++k) acc += a[i][k] * b[k][j];
      out[i][j] = acc;
    }
}

int32_t mat_trace(const matrix m) {
  int32_t t = 0;
  for (int i = 0; i < MAT_N; ++i) t += m[i][i];
  return t;
}
