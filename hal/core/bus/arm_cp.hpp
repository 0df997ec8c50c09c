#pragma once
// ARM coprocessor bus: MRC/MCR to CP14 (XScale performance monitor) and CP15 (MIDR, for variant
// detection). ARM state only: Thumb-1 has no coprocessor instructions, so build with -marm.
#include <cstdint>

#include "hal/core/location.hpp"

namespace pmu {

struct ArmCpBus {
  static constexpr BusKind kind = BusKind::arm_cp;
#if defined(__arm__)
  template <class Loc, class T>
  static T read() {
    static_assert(LocationOf<Loc, BusKind::arm_cp>, "ArmCpBus reaches only Cp14<>/Cp15<> registers");
    static_assert(sizeof(T) == 4, "coprocessor registers are 32 bits");
    T v;
    asm volatile("mrc p%c1, %c2, %0, c%c3, c%c4, %c5"
                 : "=r"(v)
                 : "i"(Loc::coproc), "i"(Loc::opc1), "i"(Loc::crn), "i"(Loc::crm), "i"(Loc::opc2)
                 : "memory");
    return v;
  }
  template <class Loc, class T>
  static void write(T v) {
    static_assert(LocationOf<Loc, BusKind::arm_cp>, "ArmCpBus reaches only Cp14<>/Cp15<> registers");
    static_assert(sizeof(T) == 4, "coprocessor registers are 32 bits");
    asm volatile("mcr p%c1, %c2, %0, c%c3, c%c4, %c5"
                 :
                 : "r"(v), "i"(Loc::coproc), "i"(Loc::opc1), "i"(Loc::crn), "i"(Loc::crm), "i"(Loc::opc2)
                 : "memory");
  }
#if defined(__ARM_ARCH) && __ARM_ARCH >= 7
  // Between a select register's write and the access it selects (Selected<>, location.hpp): a
  // change to a CP15 register is guaranteed visible to later instructions only after a context
  // synchronization operation, an ISB (ARM ARM, ARMv7-A/R edition, chapter B3, "Synchronization of
  // changes to system control registers"; the PMSELR rule: B4.1, PMSELR). An exception
  // return is one too, which is why an interrupt handler's restore of the select needs none.
  static void select_barrier() { asm volatile("isb" ::: "memory"); }
#endif
#else
  template <class Loc, class T>
  static T read() {
    static_assert(sizeof(Loc) == 0, "ArmCpBus exists only in ARM builds; host tests use MockBus");
    return T{};
  }
  template <class Loc, class T>
  static void write(T) {
    static_assert(sizeof(Loc) == 0, "ArmCpBus exists only in ARM builds; host tests use MockBus");
  }
#endif
};

// The XScale PMU's bus by its usual name.
using Cp14Bus = ArmCpBus;

}  // namespace pmu
