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
struct PickBus;
// The first bus that reaches Loc; the rest are looked at only if it does not.
template <bool Match, class Loc, class First, class... Rest>
struct PickIf {
  using type = First;
};
template <class Loc, class First, class... Rest>
struct PickIf<false, Loc, First, Rest...> {
  static_assert(sizeof...(Rest) > 0, "no bus of this CompositeBus reaches this location kind");
  using type = typename PickBus<Loc, Rest...>::type;
};
template <class Loc, class First, class... Rest>
struct PickBus<Loc, First, Rest...> {
  using type = typename PickIf<bus_reaches<First, Loc>(), Loc, First, Rest...>::type;
};
template <class Loc>
struct PickBus<Loc> {
  using type = void;
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
  // The location's bus forgets a base it holds in memory (MmioBus), where it has one.
  template <class Loc>
    requires requires { detail::PickBus<Loc, Buses...>::type::template forget_base<Loc>(); }
  static void forget_base() {
    detail::PickBus<Loc, Buses...>::type::template forget_base<Loc>();
  }
  // A read stored straight to memory, where the location's bus has one (PmcBus on i386).
  template <class Loc, class T>
    requires requires(T& out) { detail::PickBus<Loc, Buses...>::type::template read_to<Loc, T>(out); }
  static void read_to(T& out) {
    detail::PickBus<Loc, Buses...>::type::template read_to<Loc, T>(out);
  }
};

}  // namespace pmu
