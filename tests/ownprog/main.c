/* The benchmark's main: set up, run the kernels ITERATIONS times, print the results and a
 * checksum, and return 0 when the self-checks pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifndef ITERATIONS
#define ITERATIONS 60
#endif
#define SORT_N 32
#define MAX_RECORDS 16

static const char kConfig[] =
    "rate=115200;bits=8;stop=1;parity=0;rx_fifo=64;tx_fifo=64;timeout=-250;retries=3;"
    "rx_irq=5;tx_irq=6;rx_dma=1;tx_dma=0";

static uint32_t iteration(matrix* m, int32_t* values, struct record* records, uint32_t seed) {
  mat_fill(m[0], seed);
  mat_fill(m[1], seed ^ 0x5A5A5A5Au);
  mat_mul(m[2], (const int32_t(*)[MAT_N])m[0], (const int32_t(*)[MAT_N])m[1]);
  const int32_t trace = mat_trace((const int32_t(*)[MAT_N])m[2]);

  for (int i = 0; i < SORT_N; ++i) values[i] = (int32_t)((seed >> (i % 16)) * 2654435761u) >> 8;
  sort_ints(values, SORT_N);
  if (!sorted(values, SORT_N)) return 0;

  const size_t n = parse_records(kConfig, records, MAX_RECORDS);
  const int32_t rx = sum_values(records, n, "rx_");

  uint32_t crc = crc32_update(0, (const uint8_t*)m[2], sizeof m[2]);
  crc = crc32_update(crc, (const uint8_t*)values, SORT_N * sizeof values[0]);
  return crc ^ (uint32_t)trace ^ (uint32_t)rx;
}

int main(void) {
  printf("bench: %d iterations of matrix %dx%d, sort %d, parse, crc32\n", ITERATIONS, MAT_N, MAT_N, SORT_N);
  crc_init();
  matrix* m = malloc(3 * sizeof(matrix));
  int32_t* values = malloc(SORT_N * sizeof(int32_t));
  struct record* records = malloc(MAX_RECORDS * sizeof(struct record));
  if (m == NULL || values == NULL || records == NULL) {
    printf("bench: out of memory\n");
    return 2;
  }
  uint32_t check = 0;
  for (int i = 0; i < ITERATIONS; ++i) check = check * 31u + iteration(m, values, records, 0x1234u + (uint32_t)i);
  const uint8_t probe[] = "123456789";
  const uint32_t crc_check = crc32_update(0, probe, 9);
  printf("bench: checksum 0x%08lx, crc32(\"123456789\") = 0x%08lx\n", (unsigned long)check, (unsigned long)crc_check);
  free(records);
  free(values);
  free(m);
  /* The C library's formatting, checked like any other result. */
  char line[96];
  snprintf(line, sizeof line, "%d|%5u|%-4x|%08lX|%s|%c|%ld|%lu|%.3s|%+d|%%", -42, 7u, 0xABu, 0xBEEFUL, "ok", 'z',
           -100000L, 4000000000UL, "abcdef", 5);
  const int format_ok = strcmp(line, "-42|    7|ab  |0000BEEF|ok|z|-100000|4000000000|abc|+5|%") == 0;
  printf("bench: format %s: %s\n", format_ok ? "ok" : "WRONG", line);
  const int ok = crc_check == 0xCBF43926u && check != 0 && format_ok;
  printf("bench: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
