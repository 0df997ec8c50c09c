#pragma once
// The register-descriptor engine.
//
// A register is a type: Reg<"PMNC", Cp14<0, 1>, u32, Layout<u32>{...}> names it, says where it lives (the
// location type, which a bus knows how to reach), its width, and its Layout: whole-register access,
// reset value, which bits may be written as one (the rest are write-as-zero), which are W1C.
// A field is a constexpr object: Field<PMNC, 0, 1, Access::RW, "E"> e{}; e(1) makes a FieldValue.
//
// Regs<Bus> reaches registers through a bus:
//   Regs<Bus>::read<PMNC>()                 snapshot of one read
//   Regs<Bus>::read(e)                      one field, one read
//   Regs<Bus>::write(e(1), c(1))            one write; other fields take their reset value
//   Regs<Bus>::modify(e(1), c(1))           exactly one read and one write
//   Regs<Bus>::modify_from(snapshot, e(1))  the same write, from a value already read
//   Regs<Bus>::modify_raw<R>(clear, set)    the same for masks known only at run time
//   Regs<Bus>::write_raw<CCNT>(v)           whole value (masked to the writable bits)
//   Regs<Bus>::apply(a(1), b(2), c(3))      fields of several registers: one read-modify-write
//                                           per register, in the order the registers first appear
// A register behind a select (location Selected<Select, N, Banked<Loc>>, location.hpp) is reached
// the same way: every access is then the select write, the bus's select_barrier(), the access.
//
// Values: e(1) is checked at compile time (the call operator is consteval, so e(2) on a 1-bit
// field does not compile); e.runtime(v) takes a value known only at run time. A run-time value
// that does not fit is masked, counted in field_errors and reported to field_error_hook: the one
// narrowing policy of the toolkit, used by drivers for counter writes too (report_narrowing).
//
// Per-slot fields: FieldArray<R, Width, Access, "evtCount", 0, 8, 16, 24> is one field per slot
// in one register, indexed at run time (evt[n].runtime(code)), each element typed like a Field.
// FieldMsb0<R, First, Last, ...> declares a field in PowerPC (MSB-0) bit numbering.
//
// Write-1-to-clear (W1C) fields are never cleared by accident: write() and modify() send 0 to
// every W1C field that was not named (the svd2rust rule), so a flag is cleared only when asked.
// Everything that can be checked at compile time is: read-only/write-only misuse, fields of two
// registers in one access, constant values too wide for their field (e.val<2>()).
// Runtime values too wide for a field are masked and reported to field_error_hook (no exceptions).
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace pmu {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// A string usable as a template argument, so registers and fields carry their manual name into
// types (and so into compiler diagnostics) at no run-time cost.
template <std::size_t N>
struct Name {
  char text[N]{};
  constexpr Name() = default;
  constexpr Name(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

// "PMC" and 3 -> "PMC3": the name of member N of an indexed register family.
constexpr std::size_t decimal_digits(unsigned n) { return n < 10 ? 1 : 1 + decimal_digits(n / 10); }
template <Name Prefix, unsigned Index>
constexpr auto indexed_name() {
  constexpr std::size_t len = sizeof(Prefix.text) - 1;  // without the terminating NUL
  constexpr std::size_t digits = decimal_digits(Index);
  Name<len + digits + 1> out{};
  for (std::size_t i = 0; i < len; ++i) out.text[i] = Prefix.text[i];
  unsigned v = Index;
  for (std::size_t i = 0; i < digits; ++i, v /= 10) out.text[len + digits - 1 - i] = char('0' + v % 10);
  return out;
}

enum class Access : std::uint8_t {
  RO,   // read-only: writes rejected at compile time
  WO,   // write-only: reads rejected at compile time
  RW,   // read-write
  W1C,  // read; writing 1 clears, writing 0 leaves unchanged
};

template <class T>
inline constexpr unsigned kBits = sizeof(T) * 8;

template <class T>
constexpr T low_mask(unsigned width) {
  return width >= kBits<T> ? static_cast<T>(~T{0}) : static_cast<T>((T{1} << width) - 1);
}

// What a register does with reads and writes. A structural type, so it can be a template argument
// written with designated initializers: Reg<"FLAG", Cp14<5, 1>, u32, Layout<u32>{.write_mask = 0x1F,
// .w1c = 0x1F}> (the type named: clang 14 takes no bare braced list as a template argument)
template <class T>
struct Layout {
  Access access = Access::RW;
  T reset = 0;                          // value after reset (unpredictable in the manual: 0)
  T write_mask = static_cast<T>(~T{0}); // writable bits; the rest are always written as zero
  T w1c = 0;                            // write-1-to-clear bits
  T action = 0;                         // write-only action bits in a read-write register (e.g.
                                        // "reset counters"): read back unpredictable, so modify()
                                        // writes them as 0 unless named
};

// Register descriptor. Loc is the bus-specific location (Cp14<...>, Pmr<...>, Msr<...>, ...).
template <Name RegName, class Loc, class T, Layout<T> L = Layout<T>{}>
struct Reg {
  static_assert(std::is_unsigned_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "a register is 32 or 64 bits wide");
  static_assert((L.w1c & ~L.write_mask) == 0, "write-1-to-clear bits must be writable");
  using location = Loc;
  using value_type = T;
  static constexpr const char* name = RegName.text;
  static constexpr Access access = L.access;
  static constexpr T reset = L.reset;
  static constexpr T write_mask = L.write_mask;
  static constexpr T w1c_mask = L.w1c;
  static constexpr T action_mask = L.action;
  // Bits a read-modify-write must not write back as read.
  static constexpr T volatile_bits = static_cast<T>(L.w1c | L.action);
};

// Runtime values that do not fit their field (or a counter's width) are masked, counted here and
// reported to the hook (nullptr: counted only). A firmware sets the hook once at start-up, e.g. to
// log the error or to halt in a debug build. Never silent: field_errors always counts.
using FieldErrorHook = void (*)(const char* reg, const char* field, u64 value);
inline FieldErrorHook field_error_hook = nullptr;
inline volatile u32 field_errors = 0;

// The one narrowing policy: count, then report to the hook.
inline void report_narrowing(const char* reg, const char* field, u64 value) {
  field_errors = field_errors + 1;
  if (field_error_hook) field_error_hook(reg, field, value);
}

// Deliberately not constexpr: reaching it while evaluating a consteval call makes the compiler
// reject a constant value that does not fit its field, naming this function and the field.
inline void value_does_not_fit_the_field() {}

// A value for some bits of register R, ready to merge: `mask` the bits it sets, `bits` their new
// value (shifted into place). Static fields and per-slot array elements both produce this shape.
template <class R, Access A>
struct BitsValue {
  using reg = R;
  static constexpr Access access = A;
  typename R::value_type mask;
  typename R::value_type bits;
};

template <class F>
struct FieldValue {
  using field = F;
  using reg = typename F::reg;
  static constexpr Access access = F::access;
  typename F::value_type value;  // unshifted, already within the field's width
  static constexpr typename F::value_type mask = F::mask;
  constexpr typename F::value_type bits() const {
    return static_cast<typename F::value_type>(value << F::offset);
  }
};

namespace detail {
template <class T>
constexpr T narrow(u64 raw, T max, const char* reg, const char* field) {
  if (raw > static_cast<u64>(max)) report_narrowing(reg, field, raw);
  return static_cast<T>(raw & max);
}
template <class V>
constexpr u64 widen(V v) {
  if constexpr (std::is_enum_v<V>)
    return static_cast<u64>(static_cast<std::underlying_type_t<V>>(v));
  else
    return static_cast<u64>(v);
}
}  // namespace detail

template <class R, unsigned Offset, unsigned Width, Access A, Name FieldName>
struct Field {
  using reg = R;
  using value_type = typename R::value_type;
  static_assert(Width > 0 && Offset + Width <= kBits<value_type>,
                "field lies outside its register");
  static constexpr const char* name = FieldName.text;
  static constexpr unsigned offset = Offset;
  static constexpr unsigned width = Width;
  static constexpr Access access = A;
  static constexpr value_type max = low_mask<value_type>(Width);
  static constexpr value_type mask = static_cast<value_type>(max << Offset);
  static_assert((mask & R::write_mask) == mask || A == Access::RO,
                "a writable field overlaps write-as-zero bits of its register");
  static_assert((A == Access::W1C) == ((mask & R::w1c_mask) == mask) &&
                    ((mask & R::w1c_mask) == 0 || (mask & R::w1c_mask) == mask),
                "a field is W1C exactly when its register's layout says its bits are W1C");

  // Constant value: f(1). consteval, so a value too wide is a compile error that names the
  // register and the field (both in this type's template arguments, which the diagnostic prints).
  template <class V>
    requires(std::is_integral_v<V> || std::is_enum_v<V>)
  consteval FieldValue<Field> operator()(V v) const {
    const u64 raw = detail::widen(v);
    if (raw > static_cast<u64>(max)) value_does_not_fit_the_field();
    return {static_cast<value_type>(raw)};
  }

  // Run-time value: masked to the field; a value that does not fit is counted and reported
  // (report_narrowing).
  template <class V>
    requires(std::is_integral_v<V> || std::is_enum_v<V>)
  constexpr FieldValue<Field> runtime(V v) const {
    return {detail::narrow<value_type>(detail::widen(v), max, R::name, name)};
  }

  // Compile-time value: a value too wide is a compile error naming register and field (both are
  // in this type's template arguments, which the diagnostic prints).
  template <value_type V>
  constexpr FieldValue<Field> val() const {
    static_assert(V <= max, "value does not fit the field");
    return {V};
  }

  // Extract this field from a raw register value.
  static constexpr value_type extract(value_type raw) { return (raw >> Offset) & max; }
};

// PowerPC manuals number bits MSB-0 (Book E: 0..63, a 32-bit register is 32..63). FieldMsb0
// takes the manual's numbers: FieldMsb0<PMLCa0, 41, 47, RW, "EVENT"> is LSB-0 offset 16, width 7.
template <class R, unsigned First, unsigned Last, Access A, Name FieldName, unsigned Numbering = 64>
  requires(First <= Last && Last < Numbering)
using FieldMsb0 = Field<R, Numbering - 1 - Last, Last - First + 1, A, FieldName>;

// One field per slot in one register, at the given offsets (slot n at Offsets...[n]): XScale's
// EVTSEL bytes, INTEN and FLAG bits, XSC1's irregularly placed PMNC bits. The index is known at
// run time; register, access and width are in the type, so every check a Field makes applies.
template <class R, unsigned Width, Access A, Name ArrayName, unsigned... Offsets>
struct FieldArray {
  using reg = R;
  using value_type = typename R::value_type;
  static constexpr unsigned count = sizeof...(Offsets);
  static constexpr unsigned width = Width;
  static constexpr Access access = A;
  static constexpr const char* name = ArrayName.text;
  static constexpr unsigned offsets[count] = {Offsets...};
  static constexpr value_type max = low_mask<value_type>(Width);
  static constexpr value_type mask_all = static_cast<value_type>(((max << Offsets) | ...));
  static_assert(count > 0 && ((Offsets + Width <= kBits<value_type>) && ...),
                "field array element lies outside its register");
  static_assert((mask_all & R::write_mask) == mask_all || A == Access::RO,
                "a writable field array overlaps write-as-zero bits of its register");
  static_assert((A == Access::W1C) == ((mask_all & R::w1c_mask) == mask_all),
                "a field array is W1C exactly when its register's layout says its bits are W1C");
  static constexpr bool elements_disjoint() {
    value_type seen = 0;
    for (unsigned o : offsets) {
      if (seen & (max << o)) return false;
      seen = static_cast<value_type>(seen | (max << o));
    }
    return true;
  }
  static_assert(elements_disjoint(), "field array elements overlap");

  // Element i's bits; 0 for an index out of range.
  static constexpr value_type mask(unsigned i) {
    return i < count ? static_cast<value_type>(max << offsets[i]) : value_type{0};
  }
  // One bit per element, consecutive: slot masks and register bits differ by a shift only.
  static constexpr bool contiguous_bits = [] {
    if (Width != 1) return false;
    for (unsigned i = 0; i < count; ++i)
      if (offsets[i] != offsets[0] + i) return false;
    return true;
  }();
  static constexpr u32 all_slots = count >= 32 ? ~u32{0} : (u32{1} << count) - 1;

  // Bits of every element whose index is set in `slots` (1-bit arrays: a slot mask in place).
  static constexpr value_type mask_of(u32 slots) {
    if constexpr (contiguous_bits)
      return static_cast<value_type>(static_cast<value_type>(slots & all_slots) << offsets[0]);
    value_type m = 0;
    for (unsigned i = 0; i < count; ++i) {
      if constexpr (Width == 1)  // branch-free: each slot bit moved to its place
        m = static_cast<value_type>(m | (static_cast<value_type>((slots >> i) & 1u) << offsets[i]));
      else if (slots & (u32{1} << i))
        m = static_cast<value_type>(m | mask(i));
    }
    return m;
  }
  // Element i of a raw register value.
  static constexpr value_type extract(value_type raw, unsigned i) {
    return i < count ? static_cast<value_type>((raw >> offsets[i]) & max) : value_type{0};
  }
  // Slot mask of the elements that are non-zero in a raw value (1-bit arrays: flags, enables).
  static constexpr u32 slots_set(value_type raw) {
    if constexpr (contiguous_bits) return static_cast<u32>(raw >> offsets[0]) & all_slots;
    u32 s = 0;
    for (unsigned i = 0; i < count; ++i)
      if (extract(raw, i) != 0) s |= u32{1} << i;
    return s;
  }

  // Element i set to a run-time value: an index out of range or a value too wide is masked,
  // counted and reported (report_narrowing), never written elsewhere.
  template <class V>
    requires(std::is_integral_v<V> || std::is_enum_v<V>)
  constexpr BitsValue<R, A> at(unsigned i, V v) const {
    if (i >= count) {
      report_narrowing(R::name, name, i);
      return {0, 0};
    }
    const value_type val = detail::narrow<value_type>(detail::widen(v), max, R::name, name);
    return {mask(i), static_cast<value_type>(val << offsets[i])};
  }
  // Every element in `slots` set to v (e.g. one enable per slot: inten.each(slots, 1)).
  constexpr BitsValue<R, A> each(u32 slots, value_type v) const {
    const value_type m = mask_of(slots);
    if constexpr (contiguous_bits) return {m, (v & 1) ? m : value_type{0}};
    value_type bits = 0;
    for (unsigned i = 0; i < count; ++i)
      if (slots & (u32{1} << i)) bits = static_cast<value_type>(bits | ((v & max) << offsets[i]));
    return {m, bits};
  }
};

namespace detail {
template <unsigned First, unsigned Stride, class Seq>
struct Strided;
template <unsigned First, unsigned Stride, std::size_t... I>
struct Strided<First, Stride, std::index_sequence<I...>> {
  template <class R, unsigned Width, Access A, Name N>
  using array = FieldArray<R, Width, A, N, static_cast<unsigned>(First + Stride * I)...>;
};
}  // namespace detail
// Count elements Stride bits apart from First: FieldArrayStrided<EVTSEL, 0, 8, 8, 4, RW, "evtCount">.
template <class R, unsigned First, unsigned Width, unsigned Stride, unsigned Count, Access A, Name N>
using FieldArrayStrided =
    typename detail::Strided<First, Stride, std::make_index_sequence<Count>>::template array<R, Width, A, N>;

// A decoded copy of one register value: reading fields from it never touches the hardware.
template <class R>
struct Snapshot {
  using value_type = typename R::value_type;
  value_type raw;

  template <class F>
  constexpr value_type get(F) const {
    static_assert(std::is_same_v<typename F::reg, R>, "field belongs to another register");
    static_assert(F::access != Access::WO, "field is write-only and cannot be read");
    return F::extract(raw);
  }
  template <class F>
  constexpr bool test(F f) const {
    return get(f) != 0;
  }
  // Element i of a per-slot field array.
  template <class R2, unsigned W, Access A, Name N, unsigned... O>
  constexpr value_type get(const FieldArray<R2, W, A, N, O...>&, unsigned i) const {
    static_assert(std::is_same_v<R2, R>, "field array belongs to another register");
    static_assert(A != Access::WO, "field array is write-only and cannot be read");
    return FieldArray<R2, W, A, N, O...>::extract(raw, i);
  }
};

namespace detail {
template <class... FV>
struct First;
template <class FV, class... Rest>
struct First<FV, Rest...> {
  using type = FV;
};

template <class R, class... FV>
constexpr void check_writable() {
  static_assert(sizeof...(FV) > 0, "name at least one field");
  static_assert((std::is_same_v<typename FV::reg, R> && ...),
                "all fields of one write/modify must belong to the same register");
  static_assert(R::access != Access::RO, "register is read-only and cannot be written");
  static_assert(((FV::access != Access::RO) && ...),
                "field is read-only and cannot be written");
}

template <class FV>
constexpr auto mask_of(const FV& fv) {
  if constexpr (requires { fv.bits(); })
    return FV::mask;
  else
    return fv.mask;
}
template <class FV>
constexpr auto bits_of(const FV& fv) {
  if constexpr (requires { fv.bits(); })
    return fv.bits();
  else
    return fv.bits;
}

template <class R, class... FV>
constexpr typename R::value_type merge(typename R::value_type base, FV... fv) {
  ((base = static_cast<typename R::value_type>((base & ~mask_of(fv)) | bits_of(fv))), ...);
  return base;
}

// Of a pack's values, only those of register R: their combined mask and bits.
template <class R, class FV>
constexpr typename R::value_type mask_if(const FV& fv) {
  if constexpr (std::is_same_v<typename FV::reg, R>)
    return mask_of(fv);
  else
    return 0;
}
template <class R, class FV>
constexpr typename R::value_type bits_if(const FV& fv) {
  if constexpr (std::is_same_v<typename FV::reg, R>)
    return bits_of(fv);
  else
    return 0;
}
// Index of the first value in the pack whose register is R.
template <class R, class... FV>
constexpr std::size_t first_of() {
  constexpr bool same[] = {std::is_same_v<typename FV::reg, R>...};
  for (std::size_t i = 0; i < sizeof...(FV); ++i)
    if (same[i]) return i;
  return sizeof...(FV);
}
template <class R, class... FV>
constexpr bool any_ro() {
  return ((std::is_same_v<typename FV::reg, R> && FV::access == Access::RO) || ...);
}
}  // namespace detail

namespace detail {
// A select-then-access location (location.hpp, Selected<>) and a banked one reached alone.
template <class Loc>
concept SelectThenAccess = requires { typename Loc::select; typename Loc::access; Loc::index; };
template <class Loc>
concept BankedAlone = requires { Loc::banked; };
// Selected<>'s first two steps: the select written, then the bus's barrier (hal/core/bus/).
template <class Bus, class Loc>
void select() {
  static_assert(requires { Bus::select_barrier(); },
                "select-then-access: this bus has no select_barrier() (the select must take effect first)");
  Bus::template write<typename Loc::select, u32>(u32{Loc::index});
  Bus::select_barrier();
}
}  // namespace detail

template <class Bus>
struct Regs {
  template <class R>
  static typename R::value_type read_raw() {
    static_assert(R::access != Access::WO, "register is write-only and cannot be read");
    using Loc = typename R::location;
    static_assert(!detail::BankedAlone<Loc>,
                  "a banked register is reached only through its select: Selected<Select, Index, Loc>");
    if constexpr (detail::SelectThenAccess<Loc>) {
      detail::select<Bus, Loc>();
      return Bus::template read<typename Loc::access, typename R::value_type>();
    } else {
      return Bus::template read<Loc, typename R::value_type>();
    }
  }

  template <class R>
  static Snapshot<R> read() {
    return {read_raw<R>()};
  }

  template <class F>
  static typename F::value_type read(F) {
    static_assert(F::access != Access::WO, "field is write-only and cannot be read");
    return F::extract(read_raw<typename F::reg>());
  }

  // Whole-register write, masked to the writable bits.
  template <class R>
  static void write_raw(typename R::value_type v) {
    static_assert(R::access != Access::RO, "register is read-only and cannot be written");
    using Loc = typename R::location;
    static_assert(!detail::BankedAlone<Loc>,
                  "a banked register is reached only through its select: Selected<Select, Index, Loc>");
    const auto w = static_cast<typename R::value_type>(v & R::write_mask);
    if constexpr (detail::SelectThenAccess<Loc>) {
      detail::select<Bus, Loc>();
      Bus::template write<typename Loc::access, typename R::value_type>(w);
    } else {
      Bus::template write<Loc, typename R::value_type>(w);
    }
  }

  // One write: named fields take the given values, all other fields their reset value, W1C and
  // action bits 0.
  template <class... FV>
  static void write(FV... fv) {
    using R = typename detail::First<FV...>::type::reg;
    detail::check_writable<R, FV...>();
    constexpr auto base = static_cast<typename R::value_type>(R::reset & ~R::volatile_bits);
    write_raw<R>(detail::merge<R>(base, fv...));
  }

  // Exactly one read and one write. W1C and action bits are written back as 0 unless named.
  template <class... FV>
  static void modify(FV... fv) {
    using R = typename detail::First<FV...>::type::reg;
    modify_from(read<R>(), fv...);
  }

  // The write half of modify(), from a value the caller has already read (one read serves a check
  // and the update, e.g. "refuse while enabled, else change the select"). Same W1C/action rule.
  template <class R, class... FV>
  static void modify_from(Snapshot<R> cur, FV... fv) {
    detail::check_writable<R, FV...>();
    static_assert(R::access != Access::WO, "register is write-only: use write(), not modify()");
    write_raw<R>(detail::merge<R>(static_cast<typename R::value_type>(cur.raw & ~R::volatile_bits), fv...));
  }

  // Fields of several registers in one call: one read-modify-write per register (one write for a
  // write-only register), registers in the order they first appear (Kvasir's apply). A register
  // whose fields are named twice gets them merged left to right.
  template <class... FV>
  static void apply(FV... fv) {
    static_assert(sizeof...(FV) > 0, "name at least one field");
    apply_each(std::index_sequence_for<FV...>{}, fv...);
  }

  // modify() for bit masks known only at run time (e.g. one enable or flag per counter slot):
  // exactly one read and one write; `clear` bits become 0, then `set` bits become 1. W1C and
  // action bits are written as 0 unless they are in `set`.
  template <class R>
  static void modify_raw(typename R::value_type clear, typename R::value_type set) {
    static_assert(R::access == Access::RW, "modify_raw needs a readable, writable register");
    const auto cur = static_cast<typename R::value_type>(read_raw<R>() & ~(R::volatile_bits | clear));
    write_raw<R>(static_cast<typename R::value_type>(cur | set));
  }

 private:
  template <std::size_t... I, class... FV>
  static void apply_each(std::index_sequence<I...>, FV... fv) {
    (apply_group<I, typename FV::reg>(fv...), ...);
  }
  // The I-th value's register, if I is its first appearance: one access for all its fields.
  template <std::size_t I, class R, class... FV>
  static void apply_group(FV... fv) {
    if constexpr (detail::first_of<R, FV...>() == I) {
      static_assert(R::access != Access::RO, "register is read-only and cannot be written");
      static_assert(!detail::any_ro<R, FV...>(), "field is read-only and cannot be written");
      using T = typename R::value_type;
      T v;
      if constexpr (R::access == Access::WO)
        v = static_cast<T>(R::reset & ~R::volatile_bits);
      else
        v = static_cast<T>(read_raw<R>() & ~R::volatile_bits);
      ((v = static_cast<T>((v & ~detail::mask_if<R>(fv)) | detail::bits_if<R>(fv))), ...);
      write_raw<R>(v);
    }
  }
};

}  // namespace pmu
