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

__attribute__((noinline)) int fill(int* p, int x) {  // LINE:fill
  p[0] = x;
  p[1] = counter;
  return p[0] + p[1];
}

// Two early returns after the frame is set up: at -O2 GCC gives each its own epilogue inside the
// function, so its FDE has two DW_CFA_remember_state/DW_CFA_restore_state blocks (issue 32 item 6:
// LLVM 14's rules lost the CFA there, and MIPS stacks stopped).
__attribute__((noinline, optimize("O2"))) int two_exits(int x) {  // LINE:two_exits
  if (x == 1) return counter;
  int buf[4];
  const int a = fill(buf, x);
  if (a == 3) {
    counter = buf[1];
    return 5;
  }
  const int b = leaf_add(a, buf[0]);
  if (b == 7) {
    counter = b;
    return 9;
  }
  return leaf_add(a, b) * 5 + buf[1];
}

// Inlined wherever they are called (report --inline): the code of each call in scaled_sum is a
// DWARF inlined subroutine whose origin is the function, square_add's holding twice's.
static inline __attribute__((always_inline)) int twice(int x) {  // LINE:twice
  return 2 * x + counter;
}

static inline __attribute__((always_inline)) int square_add(int a, int b) {  // LINE:square_add
  return a * a + twice(b);
}

__attribute__((noinline)) int scaled_sum(int x) {  // LINE:scaled_sum
  int sum = 0;
  for (int i = 0; i < x; ++i) sum += square_add(i, sum);
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

// The outermost frame, as every board's start-up code marks it: the return address's CFI rule is
// "undefined" (DW_CFA_undefined), so a walk that reaches it is complete.
#if defined(__arm__) || defined(__powerpc__)
#define PMUKIT_RA "lr"
#elif defined(__mips__)
#define PMUKIT_RA "$31"
#else
#define PMUKIT_RA "eip"
#endif
asm(".text\n"
    ".globl outermost\n"
    "outermost:\n"
    ".cfi_startproc\n"
    ".cfi_undefined " PMUKIT_RA "\n"
    "nop\n"
    "nop\n"
    ".cfi_endproc\n");

extern "C" void entry() {  // LINE:entry
  counter = fw::middle(10) + thumb_scale(2) + local_helper(5) + fw::two_exits(counter);
  counter = fw::scaled_sum(counter);
  for (;;) {
  }
}
