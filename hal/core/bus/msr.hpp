#pragma once
// MSR bus: x86 rdmsr/wrmsr (ring 0), plus rdtsc; and the PMC bus: rdpmc. rdmsr/wrmsr take the
// address in ECX and the value in EDX:EAX; wrmsr is serializing (Intel SDM Vol. 2B, WRMSR), so no
// extra barrier.
#include <cstdint>

#include "hal/core/location.hpp"

namespace pmu {

struct MsrBus {
  static constexpr BusKind kind = BusKind::msr;
#if defined(__i386__) || defined(__x86_64__)
  template <class Loc, class T>
  static T read() {
    static_assert(LocationOf<Loc, BusKind::msr>, "MsrBus reaches only Msr<...> registers");
    static_assert(sizeof(T) == 8, "MSRs are 64 bits");
#if defined(__i386__)
    T v;  // "=A": EDX:EAX as one 64-bit value (see rdpmc)
    asm volatile("rdmsr" : "=A"(v) : "c"(Loc::address) : "memory");
    return v;
#else
    std::uint32_t lo, hi;
    asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(Loc::address) : "memory");
    return (static_cast<T>(hi) << 32) | lo;
#endif
  }
  template <class Loc, class T>
  static void write(T v) {
    static_assert(LocationOf<Loc, BusKind::msr>, "MsrBus reaches only Msr<...> registers");
    static_assert(sizeof(T) == 8, "MSRs are 64 bits");
    asm volatile("wrmsr"
                 :
                 : "c"(Loc::address), "a"(static_cast<std::uint32_t>(v)),
                   "d"(static_cast<std::uint32_t>(v >> 32))
                 : "memory");
  }
  static std::uint64_t rdtsc() {
#if defined(__i386__)
    std::uint64_t v;  // "=A": EDX:EAX as one 64-bit value (see rdpmc)
    asm volatile("rdtsc" : "=A"(v) : : "memory");
    return v;
#else
    std::uint32_t lo, hi;
    asm volatile("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return (static_cast<std::uint64_t>(hi) << 32) | lo;
#endif
  }
#else
  template <class Loc, class T>
  static T read() {
    static_assert(sizeof(Loc) == 0, "MsrBus exists only in x86 builds; host tests use MockBus");
    return T{};
  }
  template <class Loc, class T>
  static void write(T) {
    static_assert(sizeof(Loc) == 0, "MsrBus exists only in x86 builds; host tests use MockBus");
  }
#endif
};

// rdpmc: reads performance counter Loc::index (ECX) into EDX:EAX. Allowed at CPL 0 always, and at
// any CPL while CR4.PCE is set (SDM Vol. 2B, RDPMC); not serializing, unlike the wrmsr that set
// the counter up. An index with no counter behind it raises #GP.
struct PmcBus {
  static constexpr BusKind kind = BusKind::pmc;
#if defined(__i386__) || defined(__x86_64__)
  template <class Loc, class T>
  static T read() {
    static_assert(LocationOf<Loc, BusKind::pmc>, "PmcBus reaches only Pmc<...> locations");
    static_assert(sizeof(T) == 8, "rdpmc returns 64 bits");
    return rdpmc(Loc::index);
  }
#if defined(__i386__)
  // The read with its result stored by the same asm: rdpmc, then EAX and EDX to `out` (one
  // instruction each, whatever address the compiler gives it). What a value kept across other code
  // costs is then the same two stores wherever the compiler would have kept it (a callee-saved
  // register, a stack slot): a fast region's first read (profiler/fast_region.hpp).
  template <class Loc, class T>
  static void read_to(T& out) {
    static_assert(LocationOf<Loc, BusKind::pmc>, "PmcBus reaches only Pmc<...> locations");
    static_assert(sizeof(T) == 8, "rdpmc returns 64 bits");
    asm volatile("rdpmc\n\tmovl %%eax, %0\n\tmovl %%edx, 4+%0"
                 : "=m"(out)
                 : "c"(Loc::index)
                 : "eax", "edx", "memory");
  }
#endif
  // The same instruction with the index known only at run time (a probe, a tool).
  static std::uint64_t rdpmc(std::uint32_t index) {
#if defined(__i386__)
    // "=A" is EDX:EAX as one 64-bit value on i386: GCC keeps the pair instead of moving the
    // halves through the stack (50 B less in bench/footprint's minimal job).
    std::uint64_t v;
    asm volatile("rdpmc" : "=A"(v) : "c"(index) : "memory");
    return v;
#else
    std::uint32_t lo, hi;
    asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index) : "memory");
    return (static_cast<std::uint64_t>(hi) << 32) | lo;
#endif
  }
#else
  template <class Loc, class T>
  static T read() {
    static_assert(sizeof(Loc) == 0, "PmcBus exists only in x86 builds; host tests use MockBus");
    return T{};
  }
#endif
  template <class Loc, class T>
  static void write(T) {
    static_assert(sizeof(Loc) == 0, "rdpmc locations are read-only: write the counter's MSR");
  }
};

}  // namespace pmu
