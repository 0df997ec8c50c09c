// A tiny freestanding program, cross-compiled for every target by test_elfs.cmake, whose symbols
// and lines the symbolization tests check. The "LINE:" markers tell the tests which source line
// each function starts on; keep each function's signature on its marker line.
extern "C" {
volatile int counter;
}

namespace fw {

__attribute__((noinline)) int leaf_add(int a, int b) {  // LINE:leaf_add
  return a + b + counter;
}

__attribute__((noinline)) int middle(int x) {  // LINE:middle
  int sum = 0;
  for (int i = 0; i < x; ++i) sum += leaf_add(i, sum);
  return sum;
}

}  // namespace fw

#if defined(__arm__)
// Thumb code: its symbol has bit 0 set, the code starts one byte lower.
__attribute__((noinline, target("thumb"))) int thumb_scale(int x) {  // LINE:thumb_scale
  return x * 3 + counter;
}
#else
__attribute__((noinline)) int thumb_scale(int x) {  // LINE:thumb_scale
  return x * 3 + counter;
}
#endif

static __attribute__((noinline)) int local_helper(int x) {  // LINE:local_helper
  return x ^ counter;
}

extern "C" void entry() {  // LINE:entry
  counter = fw::middle(10) + thumb_scale(2) + local_helper(5);
  for (;;) {
  }
}
