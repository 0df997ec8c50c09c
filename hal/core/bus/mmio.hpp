#pragma once
// MMIO bus: volatile 32-bit loads and stores at Base::address() + offset. The base is found at run
// time (e.g. the MIPS GCR base from CP0 CMGCRBase), so it is a variable, not part of the type.
// The CM GCR space is uncached (KSEG1) and strongly ordered, so volatile access is enough.
#include <cstdint>

#include "hal/core/location.hpp"

namespace pmu {

// A run-time base address, one per Tag (one per device instance).
template <class Tag>
struct RuntimeBase {
  static inline std::uintptr_t value = 0;
  static std::uintptr_t address() { return value; }
};

template <class Base>
struct MmioBus {
  static constexpr BusKind kind = BusKind::mmio;
  template <class Loc, class T>
  static T read() {
    check<Loc, T>();
    return *reinterpret_cast<volatile T*>(Base::address() + Loc::offset);
  }
  template <class Loc, class T>
  static void write(T v) {
    check<Loc, T>();
    *reinterpret_cast<volatile T*>(Base::address() + Loc::offset) = v;
  }
  // No instruction: the next access loads a run-time base from memory again, as it must after a
  // call (which may have changed it), so that code around no call pays the same load.
  template <class Loc>
  static void forget_base() {
    if constexpr (requires { Base::value; }) asm volatile("" : "+m"(Base::value));
  }

 private:
  template <class Loc, class T>
  static constexpr void check() {
    static_assert(LocationOf<Loc, BusKind::mmio>, "MmioBus reaches only Mmio<...> registers");
    static_assert(sizeof(T) == 4, "MMIO registers here are 32 bits");
  }
};

}  // namespace pmu
