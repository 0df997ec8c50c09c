// Writing an element of a read-only per-slot field array is a compile error naming the register.
#include "cf_regs.hpp"
inline constexpr pmu::FieldArrayStrided<cf::RegRO, 0, 4, 4, 2, pmu::Access::RO, "rev"> rev{};
void f() {
  (void)cf::Bus::read<cf::RegRO>().get(rev, 1);
#ifdef PMU_MISUSE
  cf::Bus::modify(rev.at(0, 1));
#endif
}
