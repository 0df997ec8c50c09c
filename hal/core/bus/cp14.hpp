#pragma once
// CP14 bus: ARM MRC/MCR to coprocessor 14 (XScale performance monitor). ARM state only:
// Thumb-1 has no coprocessor instructions, so build with -marm.
#include <cstdint>

#include "hal/core/location.hpp"

namespace pmu {

struct Cp14Bus {
#if defined(__arm__)
  template <class Loc, class T>
  static T read() {
    static_assert(LocationOf<Loc, BusKind::cp14>, "Cp14Bus reaches only Cp14<...> registers");
    static_assert(sizeof(T) == 4, "CP14 registers are 32 bits");
    T v;
    asm volatile("mrc p14, %c1, %0, c%c2, c%c3, %c4"
                 : "=r"(v)
                 : "i"(Loc::opc1), "i"(Loc::crn), "i"(Loc::crm), "i"(Loc::opc2)
                 : "memory");
    return v;
  }
  template <class Loc, class T>
  static void write(T v) {
    static_assert(LocationOf<Loc, BusKind::cp14>, "Cp14Bus reaches only Cp14<...> registers");
    static_assert(sizeof(T) == 4, "CP14 registers are 32 bits");
    asm volatile("mcr p14, %c1, %0, c%c2, c%c3, %c4"
                 :
                 : "r"(v), "i"(Loc::opc1), "i"(Loc::crn), "i"(Loc::crm), "i"(Loc::opc2)
                 : "memory");
  }
#else
  template <class Loc, class T>
  static T read() {
    static_assert(sizeof(Loc) == 0, "Cp14Bus exists only in ARM builds; host tests use MockBus");
    return T{};
  }
  template <class Loc, class T>
  static void write(T) {
    static_assert(sizeof(Loc) == 0, "Cp14Bus exists only in ARM builds; host tests use MockBus");
  }
#endif
};

}  // namespace pmu
