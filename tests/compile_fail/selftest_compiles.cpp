// Harness self-test: the "misuse" here is legal, so compile_fail_selftest_misuse_compiles must
// see the runner reject it (the test is registered with WILL_FAIL).
#include "cf_regs.hpp"
void f() {
  cf::Bus::write(cf::field_a0(1));
#ifdef PMU_MISUSE
  cf::Bus::write(cf::field_a1(1));
#endif
}
