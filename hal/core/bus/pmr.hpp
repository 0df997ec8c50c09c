#pragma once
// PMR bus: Book E mfpmr/mtpmr (e500 performance monitor). `.machine e500` lets any assembler
// configuration accept them. e500 CRM 7.2: changes to PMRs take effect in order only after a
// context synchronizing instruction, so every write is followed by isync.
// It also reaches the SPRs the PMU code reads (Spr<N>: mfspr/mtspr, e.g. PVR to tell the core).
#include <cstdint>

#include "hal/core/location.hpp"

namespace pmu {

struct PmrBus {
  static constexpr BusKind kind = BusKind::pmr;
#if defined(__powerpc__)
  template <class Loc, class T>
  static T read() {
    static_assert(LocationOf<Loc, BusKind::pmr> || LocationOf<Loc, BusKind::spr>,
                  "PmrBus reaches only Pmr<...> and Spr<...> registers");
    static_assert(sizeof(T) == 4, "PMRs and 32-bit SPRs are 32 bits");
    T v;
    if constexpr (LocationOf<Loc, BusKind::spr>)
      asm volatile("mfspr %0, %1" : "=r"(v) : "i"(Loc::number) : "memory");
    else
      asm volatile(".machine push\n\t.machine e500\n\tmfpmr %0, %1\n\t.machine pop"
                   : "=r"(v)
                   : "i"(Loc::number)
                   : "memory");
    return v;
  }
  template <class Loc, class T>
  static void write(T v) {
    static_assert(LocationOf<Loc, BusKind::pmr> || LocationOf<Loc, BusKind::spr>,
                  "PmrBus reaches only Pmr<...> and Spr<...> registers");
    static_assert(sizeof(T) == 4, "PMRs and 32-bit SPRs are 32 bits");
    if constexpr (LocationOf<Loc, BusKind::spr>)
      asm volatile("mtspr %0, %1\n\tisync" : : "i"(Loc::number), "r"(v) : "memory");
    else
      asm volatile(".machine push\n\t.machine e500\n\tmtpmr %0, %1\n\tisync\n\t.machine pop"
                   :
                   : "i"(Loc::number), "r"(v)
                   : "memory");
  }
#else
  template <class Loc, class T>
  static T read() {
    static_assert(sizeof(Loc) == 0, "PmrBus exists only in PowerPC builds; host tests use MockBus");
    return T{};
  }
  template <class Loc, class T>
  static void write(T) {
    static_assert(sizeof(Loc) == 0, "PmrBus exists only in PowerPC builds; host tests use MockBus");
  }
#endif
};

}  // namespace pmu
