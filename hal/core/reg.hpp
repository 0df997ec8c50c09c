#pragma once
// The register-descriptor engine.
//
// A register is a type: Reg<"PMNC", Cp14<0, 1>, u32, {...}> names it, says where it lives (the
// location type, which a bus knows how to reach), its width, and its Layout: whole-register access,
// reset value, which bits may be written as one (the rest are write-as-zero), which are W1C.
// A field is a constexpr object: Field<PMNC, 0, 1, Access::RW, "E"> e{}; e(1) makes a FieldValue.
//
// Regs<Bus> reaches registers through a bus:
//   Regs<Bus>::read<PMNC>()                 snapshot of one read
//   Regs<Bus>::read(e)                      one field, one read
//   Regs<Bus>::write(e(1), c(1))            one write; other fields take their reset value
//   Regs<Bus>::modify(e(1), c(1))           exactly one read and one write
//   Regs<Bus>::modify_raw<R>(clear, set)    the same for masks known only at run time
//   Regs<Bus>::write_raw<CCNT>(v)           whole value (masked to the writable bits)
//
// Write-1-to-clear (W1C) fields are never cleared by accident: write() and modify() send 0 to
// every W1C field that was not named (the svd2rust rule), so a flag is cleared only when asked.
// Everything that can be checked at compile time is: read-only/write-only misuse, fields of two
// registers in one access, constant values too wide for their field (e.val<2>()).
// Runtime values too wide for a field are masked and reported to field_error_hook (no exceptions).
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace pmu {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// A string usable as a template argument, so registers and fields carry their manual name into
// types (and so into compiler diagnostics) at no run-time cost.
template <std::size_t N>
struct Name {
  char text[N]{};
  constexpr Name(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

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
// written with designated initializers: Reg<"FLAG", Cp14<5, 1>, u32, {.write_mask = 0x1F, .w1c = 0x1F}>
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

// Runtime field values that do not fit are masked, then reported here (nullptr: mask silently).
// A firmware sets it once at start-up, e.g. to count the error or to halt in a debug build.
using FieldErrorHook = void (*)(const char* reg, const char* field, u64 value);
inline FieldErrorHook field_error_hook = nullptr;

// Deliberately not constexpr: reaching it during constant evaluation makes the compiler reject a
// constant value that does not fit its field, instead of silently truncating it.
inline void field_value_out_of_range() {}

template <class F>
struct FieldValue {
  using field = F;
  typename F::value_type value;  // unshifted, already within the field's width
};

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

  // Runtime value: masked to the field; out-of-range values go to field_error_hook.
  template <class V>
    requires(std::is_integral_v<V> || std::is_enum_v<V>)
  constexpr FieldValue<Field> operator()(V v) const {
    const u64 raw = static_cast<u64>(v);
    if (raw > static_cast<u64>(max)) {
      if (std::is_constant_evaluated())
        field_value_out_of_range();  // compile error: value does not fit the field
      else if (field_error_hook)
        field_error_hook(R::name, name, raw);
    }
    return {static_cast<value_type>(raw & max)};
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
  static_assert((std::is_same_v<typename FV::field::reg, R> && ...),
                "all fields of one write/modify must belong to the same register");
  static_assert(R::access != Access::RO, "register is read-only and cannot be written");
  static_assert(((FV::field::access != Access::RO) && ...),
                "field is read-only and cannot be written");
}

template <class R, class... FV>
constexpr typename R::value_type apply(typename R::value_type base, FV... fv) {
  ((base = static_cast<typename R::value_type>(
        (base & ~FV::field::mask) | (fv.value << FV::field::offset))),
   ...);
  return base;
}
}  // namespace detail

template <class Bus>
struct Regs {
  template <class R>
  static typename R::value_type read_raw() {
    static_assert(R::access != Access::WO, "register is write-only and cannot be read");
    return Bus::template read<typename R::location, typename R::value_type>();
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
    Bus::template write<typename R::location, typename R::value_type>(
        static_cast<typename R::value_type>(v & R::write_mask));
  }

  // One write: named fields take the given values, all other fields their reset value, W1C and
  // action bits 0.
  template <class... FV>
  static void write(FV... fv) {
    using R = typename detail::First<FV...>::type::field::reg;
    detail::check_writable<R, FV...>();
    constexpr auto base = static_cast<typename R::value_type>(R::reset & ~R::volatile_bits);
    write_raw<R>(detail::apply<R>(base, fv...));
  }

  // Exactly one read and one write. W1C and action bits are written back as 0 unless named.
  template <class... FV>
  static void modify(FV... fv) {
    using R = typename detail::First<FV...>::type::field::reg;
    detail::check_writable<R, FV...>();
    static_assert(R::access != Access::WO, "register is write-only: use write(), not modify()");
    const auto cur = static_cast<typename R::value_type>(read_raw<R>() & ~R::volatile_bits);
    write_raw<R>(detail::apply<R>(cur, fv...));
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
};

}  // namespace pmu
