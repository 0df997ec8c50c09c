#pragma once
// Slots and register families: how a driver turns a run-time slot number into a typed register.
//
//   Family<"PMC", 4, PmcAt, u32>::reg<3>     the register PMC3 (it names itself "PMC3")
//   RegList<CCNT, PMN<0>, PMN<1>>            slot n -> its counter register, any shape
//   for_slot<N>(slot, f)                     f(SlotIndex<slot>{}) for a run-time slot < N
//   for_each_slot<N>(mask, f)                f(SlotIndex<n>{}) for every n set in mask, in order
//   static_for<N>(f)                         f(SlotIndex<n>{}) for n = 0..N-1
//   for_index<N>(i, f) / for_all<N>(f)       the same for register indexes past 32 (no slot mask)
// Inside f, decltype(i)::value is a constant, so f reaches its register with one instruction.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "hal/core/reg.hpp"

namespace pmu {

template <unsigned N>
using SlotIndex = std::integral_constant<unsigned, N>;

namespace detail {
template <class F, std::size_t... I>
constexpr bool dispatch(unsigned slot, F& f, std::index_sequence<I...>) {
  return ((slot == I ? (f(SlotIndex<I>{}), true) : false) || ...);
}
template <class F, std::size_t... I>
constexpr void each(std::uint32_t mask, F& f, std::index_sequence<I...>) {
  ((mask & (std::uint32_t{1} << I) ? (void)f(SlotIndex<I>{}) : void()), ...);
}
template <unsigned I, class Head, class... Tail>
struct TypeAt {
  using type = typename TypeAt<I - 1, Tail...>::type;
};
template <class Head, class... Tail>
struct TypeAt<0, Head, Tail...> {
  using type = Head;
};
}  // namespace detail

// Calls f with slot as a constant; false (and no call) when slot >= Count.
template <unsigned Count, class F>
constexpr bool for_slot(unsigned slot, F&& f) {
  static_assert(Count > 0 && Count <= 32, "slot masks are 32 bits");
  return detail::dispatch(slot, f, std::make_index_sequence<Count>{});
}
// Calls f for every slot in mask below Count, lowest first.
template <unsigned Count, class F>
constexpr void for_each_slot(std::uint32_t mask, F&& f) {
  static_assert(Count > 0 && Count <= 32, "slot masks are 32 bits");
  detail::each(mask, f, std::make_index_sequence<Count>{});
}
template <unsigned Count, class F>
constexpr void static_for(F&& f) {
  for_each_slot<Count>(~std::uint32_t{0}, f);
}

// The same for a register index that is not a slot (no 32-bit mask limit: NetBurst's 45 ESCRs).
template <unsigned Count, class F>
constexpr bool for_index(unsigned i, F&& f) {
  return detail::dispatch(i, f, std::make_index_sequence<Count>{});
}
template <unsigned Count, class F>
constexpr void for_all(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) { (f(SlotIndex<I>{}), ...); }(std::make_index_sequence<Count>{});
}

// Slot-ordered register list, for counters whose registers follow no single pattern.
template <class... R>
struct RegList {
  static constexpr unsigned count = sizeof...(R);
  template <unsigned I>
  struct nth {
    static_assert(I < sizeof...(R), "slot out of range for this PMU");
    using type = typename detail::TypeAt<(I < sizeof...(R) ? I : 0), R...>::type;  // one error only
  };
  template <unsigned I>
  using at = typename nth<I>::type;
};

// Count registers of one kind whose location follows from the index (Loc<n>), named Prefix + n.
template <Name Prefix, unsigned Count, template <unsigned> class Loc, class T,
          Layout<T> L = Layout<T>{}>
struct Family {
  static constexpr unsigned count = Count;
  static constexpr const char* prefix = Prefix.text;
  template <unsigned N>
  struct member {
    static_assert(N < Count, "index out of range for this register family");
    using type = Reg<indexed_name<Prefix, N>(), Loc<N>, T, L>;
  };
  template <unsigned N>
  using reg = typename member<N>::type;
};

// The family's members as a slot-ordered list (slot n = member n).
namespace detail {
template <class Fam, class Seq>
struct FamilyList;
template <class Fam, std::size_t... I>
struct FamilyList<Fam, std::index_sequence<I...>> {
  using type = RegList<typename Fam::template reg<I>...>;
};
}  // namespace detail
template <class Fam>
using FamilyRegs = typename detail::FamilyList<Fam, std::make_index_sequence<Fam::count>>::type;

}  // namespace pmu
