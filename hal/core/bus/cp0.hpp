#pragma once
// CP0 bus: MIPS mfc0/mtc0. One type for both ISA levels, chosen by what the compiler targets:
// - MIPS32 release 2 and later (CPS cores): `sel` operand, and `ehb` after mtc0 to clear the
//   execution hazard (MIPS32 PRA, "CP0 hazards").
// - MIPS IV (RM7000, -march=rm7000): no `sel` field (it must be 0) and no ehb; two nops after
//   mtc0 cover the CP0 write hazard to PerfControl/PerfCount (fact from OpenBSD's rm7000 code).
#include <cstdint>

#include "hal/core/location.hpp"

namespace pmu {

struct Cp0Bus {
  static constexpr BusKind kind = BusKind::cp0;
#if defined(__mips__)
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
  static constexpr bool has_select = true;
#else
  static constexpr bool has_select = false;
#endif
  template <class Loc, class T>
  static T read() {
    check<Loc, T>();
    T v;
    if constexpr (has_select)
      asm volatile("mfc0 %0, $%1, %2" : "=r"(v) : "i"(Loc::reg), "i"(Loc::sel) : "memory");
    else
      asm volatile("mfc0 %0, $%1" : "=r"(v) : "i"(Loc::reg) : "memory");
    return v;
  }
  template <class Loc, class T>
  static void write(T v) {
    check<Loc, T>();
    if constexpr (has_select)
      asm volatile("mtc0 %z0, $%1, %2\n\tehb" : : "dJ"(v), "i"(Loc::reg), "i"(Loc::sel) : "memory");
    else
      asm volatile(".set push\n\t.set noreorder\n\tmtc0 %z0, $%1\n\tnop\n\tnop\n\t.set pop"
                   :
                   : "dJ"(v), "i"(Loc::reg)
                   : "memory");
  }

 private:
  template <class Loc, class T>
  static constexpr void check() {
    static_assert(LocationOf<Loc, BusKind::cp0>, "Cp0Bus reaches only Cp0<...> registers");
    static_assert(sizeof(T) == 4, "CP0 registers here are 32 bits");
    static_assert(has_select || Loc::sel == 0, "MIPS IV has no CP0 select field: sel must be 0");
  }
#else
  template <class Loc, class T>
  static T read() {
    static_assert(sizeof(Loc) == 0, "Cp0Bus exists only in MIPS builds; host tests use MockBus");
    return T{};
  }
  template <class Loc, class T>
  static void write(T) {
    static_assert(sizeof(Loc) == 0, "Cp0Bus exists only in MIPS builds; host tests use MockBus");
  }
#endif
};

}  // namespace pmu
