/* A small embedded benchmark in the usual shape: a few kernels, a main loop, a checksum and a
 * verdict on stdout. Nothing here knows about pmukit (docs/your-program.md shows how it is
 * profiled without changing it). */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

/* crc.c */
void crc_init(void);
uint32_t crc32_update(uint32_t crc, const uint8_t* data, size_t len);

/* matrix.c */
#define MAT_N 12
typedef int32_t matrix[MAT_N][MAT_N];
void mat_fill(matrix m, uint32_t seed);
void mat_mul(matrix out, const matrix a, const matrix b);
int32_t mat_trace(const matrix m);

/* sort.c */
void sort_ints(int32_t* v, size_t n);
int sorted(const int32_t* v, size_t n);

/* parse.c */
struct record {
  char key[12];
  int32_t value;
};
size_t parse_records(const char* text, struct record* out, size_t max);
int32_t sum_values(const struct record* r, size_t n, const char* key_prefix);

#endif
