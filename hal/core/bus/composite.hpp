#pragma once
// A bus made of buses: CompositeBus<Cp0Bus, MmioBus<GcrBase>> lets one driver reach two kinds of
// location (MIPS CPS: CP0 for discovery, MMIO for the GCR counters). Each access goes to the one
// member bus that reaches its location kind; a location no member reaches is a compile error.
// Host tests keep using one MockBus, which reaches every kind.
#include <cstdint>
#include <type_traits>

#include "hal/core/location.hpp"

namespace pmu {

// Which location kinds a bus reaches. Hardware buses name theirs (kind); MockBus reaches all.
template <class Bus, class Loc>
constexpr bool bus_reaches() {
  if constexpr (requires { Bus::all_kinds; })
    return true;
  else
    return Bus::kind == Loc::kind;
}

namespace detail {
template <class Loc, class... Buses>
struct PickBus {
  static_assert(sizeof(Loc) == 0, "no bus of this CompositeBus reaches this location kind");
};
template <class Loc, class First, class... Rest>
struct PickBus<Loc, First, Rest...> {
  using type = std::conditional_t<bus_reaches<First, Loc>(), First,
                                  typename PickBus<Loc, Rest...>::type>;
};
template <class Loc, class Last>
struct PickBus<Loc, Last> {
  static_assert(bus_reaches<Last, Loc>(), "no bus of this CompositeBus reaches this location kind");
  using type = Last;
};
}  // namespace detail

template <class... Buses>
struct CompositeBus {
  static_assert(sizeof...(Buses) >= 2, "a composite bus joins at least two buses");
  template <class Loc, class T>
  static T read() {
    return detail::PickBus<Loc, Buses...>::type::template read<Loc, T>();
  }
  template <class Loc, class T>
  static void write(T v) {
    detail::PickBus<Loc, Buses...>::type::template write<Loc, T>(v);
  }
};

}  // namespace pmu
