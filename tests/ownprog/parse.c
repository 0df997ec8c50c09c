/* A line parser: "key=value;key=value;..." into records, and a sum by key prefix. */
#include <string.h>

#include "bench.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

size_t parse_records(const char* text, struct record* out, size_t max) {
  size_t n = 0;
  while (*text && n < max) {
    size_t k = 0;
    while (*text && *text != '=' && *text != ';') {
      if (k + 1 < sizeof out[n].key) out[n].key[k++] = *text;
      ++text;
    }
    out[n].key[k] = '\0';
    int32_t sign = 1, v = 0;
    if (*text == '=') {
      ++text;
      if (*text == '-') {
        sign = -1;
        ++text;
      }
      while (is_digit(*text)) v = v * 10 + (*text++ - '0');
    }
    out[n++].value = sign * v;
    while (*text && *text != ';') ++text;
    if (*text == ';') ++text;
  }
  return n;
}

int32_t sum_values(const struct record* r, size_t n, const char* key_prefix) {
  const size_t len = strlen(key_prefix);
  int32_t sum = 0;
  for (size_t i = 0; i < n; ++i)
    if (strncmp(r[i].key, key_prefix, len) == 0) sum += r[i].value;
  return sum;
}
