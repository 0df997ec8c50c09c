#pragma once
// CPUID bus: x86 `cpuid` as a read-only register space (leaf in EAX, sub-leaf 0 in ECX; one output
// register per location). Identification only: which family and model this is, Hyper-Threading.
#include <cstdint>

#include "hal/core/location.hpp"

namespace pmu {

struct CpuidBus {
  static constexpr BusKind kind = BusKind::cpuid;
#if defined(__i386__) || defined(__x86_64__)
  template <class Loc, class T>
  static T read() {
    static_assert(LocationOf<Loc, BusKind::cpuid>, "CpuidBus reaches only Cpuid<...> locations");
    static_assert(sizeof(T) == 4, "CPUID outputs are 32 bits");
    std::uint32_t r[4];
    asm volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(Loc::leaf), "c"(0u));
    return r[Loc::out];
  }
#else
  template <class Loc, class T>
  static T read() {
    static_assert(sizeof(Loc) == 0, "CpuidBus exists only in x86 builds; host tests use MockBus");
    return T{};
  }
#endif
  template <class Loc, class T>
  static void write(T) {
    static_assert(sizeof(Loc) == 0, "CPUID is read-only");
  }
};

}  // namespace pmu
