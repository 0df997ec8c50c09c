#pragma once
// printf's formatting for the boards whose toolchain brings no C library for bare metal
// (examples/common/libc/libc.cpp; the e500, Malta and PC boards). ISO C 7.21.6.1 ("The fprintf
// function") is the rule: flags - + space # 0, a field width and a precision (numbers or *), the
// length modifiers hh h l ll j z t L, and the conversions d i u o x X c s p n % and f F (exact
// digits, rounded to nearest even, as glibc prints them). e E g G a A are not implemented: they
// print their conversion specification as written (e.g. "%.3e"), never a number. %Lf converts
// the long double to double first. Header-only and target-independent: the host tests compare it
// with the host's snprintf (tests/host/libc/).
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace pmukit::libc {

using PutFn = void (*)(void* ctx, char c);

namespace detail {

struct Out {
  PutFn put;
  void* ctx;
  int n = 0;
  void c(char ch) {
    put(ctx, ch);
    ++n;
  }
  void fill(char ch, int count) {
    for (; count > 0; --count) c(ch);
  }
  void str(const char* s, int len) {
    for (int i = 0; i < len; ++i) c(s[i]);
  }
};

struct Spec {
  bool left = false, plus = false, space = false, alt = false, zero = false;
  int width = 0;
  int prec = -1;  // -1: none
};

inline int len_of(const char* s, int max) {
  int n = 0;
  while ((max < 0 || n < max) && s[n] != '\0') ++n;
  return n;
}

// One field: prefix (sign, 0x), then `zeros` zeros, then body; padded to the width.
inline void field(Out& o, const Spec& sp, const char* prefix, int zeros, const char* body, int body_len) {
  const int plen = len_of(prefix, -1);
  int pad = sp.width - plen - zeros - body_len;
  if (pad < 0) pad = 0;
  if (!sp.left && !sp.zero) o.fill(' ', pad);
  o.str(prefix, plen);
  if (!sp.left && sp.zero) o.fill('0', pad);
  o.fill('0', zeros);
  o.str(body, body_len);
  if (sp.left) o.fill(' ', pad);
}

inline void integer(Out& o, Spec sp, std::uint64_t mag, bool negative, bool is_signed, unsigned base, bool upper) {
  char buf[24];
  int n = 0;
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  // ISO C: precision 0 and value 0 give no digits (octal with # still gives its 0).
  if (!(mag == 0 && sp.prec == 0)) {
    std::uint64_t v = mag;
    do {
      buf[sizeof buf - 1 - n++] = digits[v % base];
      v /= base;
    } while (v != 0);
  }
  int zeros = sp.prec > n ? sp.prec - n : 0;
  char prefix[3] = {};
  if (is_signed) {
    if (negative) prefix[0] = '-';
    else if (sp.plus) prefix[0] = '+';
    else if (sp.space) prefix[0] = ' ';
  }
  if (sp.alt && base == 16 && mag != 0) {
    prefix[0] = '0';
    prefix[1] = upper ? 'X' : 'x';
  }
  if (sp.alt && base == 8 && zeros == 0 && (n == 0 || buf[sizeof buf - n] != '0')) zeros = 1;
  if (sp.prec >= 0) sp.zero = false;  // a precision overrides the 0 flag for integers
  field(o, sp, prefix, zeros, buf + sizeof buf - n, n);
}

// %f: the exact decimal value of the double, rounded to `prec` fraction digits (to nearest, ties
// to even). The integer part as a big integer (up to 2^1024), the fraction as a fixed-point
// number of 34 32-bit words (a double's fraction has at most 1074 bits).
class Decimal {
 public:
  static constexpr int kFracWords = 34;
  static constexpr int kIntWords = 33;
  static constexpr int kMaxDigits = 330;

  // bits: a finite double's, its sign ignored. No floating-point arithmetic anywhere (the e500
  // board has none: soft float, and Debian's powerpc libgcc is built for the hard-float ABI).
  Decimal(std::uint64_t bits, int prec) {
    const int biased = static_cast<int>((bits >> 52) & 0x7FF);
    std::uint64_t mant = bits & ((std::uint64_t{1} << 52) - 1);
    int exp2 = biased == 0 ? -1074 : biased - 1075;  // x = mant * 2^exp2
    if (biased != 0) mant |= std::uint64_t{1} << 52;
    std::uint32_t iw[kIntWords] = {};  // little-endian words
    std::uint32_t fw[kFracWords] = {};  // fw[0]: the most significant (2^-1 .. 2^-32)
    for (int b = 0; b < 53; ++b) {
      if (((mant >> b) & 1u) == 0) continue;
      const int e = exp2 + b;  // this bit's weight: 2^e
      if (e >= 0) {
        iw[e / 32] |= std::uint32_t{1} << (e % 32);
      } else {
        const int k = -e - 1;  // 2^-1 is bit 0 from the top
        fw[k / 32] |= std::uint32_t{0x80000000u} >> (k % 32);
      }
    }
    // Integer digits: divide by 10 until zero (least significant digit first).
    char rev[kMaxDigits];
    int ni = 0;
    for (;;) {
      bool zero = true;
      std::uint64_t rem = 0;
      for (int i = kIntWords - 1; i >= 0; --i) {
        const std::uint64_t cur = (rem << 32) | iw[i];
        iw[i] = static_cast<std::uint32_t>(cur / 10);
        rem = cur % 10;
        if (iw[i] != 0) zero = false;
      }
      rev[ni++] = static_cast<char>('0' + rem);
      if (zero) break;
    }
    for (int i = 0; i < ni; ++i) d_[i] = rev[ni - 1 - i];
    int_digits_ = ni;
    // Fraction digits: multiply by 10, the carry out of the top is the next digit.
    for (int k = 0; k < prec; ++k) d_[ni + k] = static_cast<char>('0' + times10(fw));
    n_ = ni + prec;
    // Round: the rest against one half.
    const bool above_half = fw[0] > 0x80000000u || (fw[0] == 0x80000000u && !rest_zero(fw));
    const bool half = fw[0] == 0x80000000u && rest_zero(fw);
    const bool odd = ((d_[n_ - 1] - '0') & 1) != 0;
    if (above_half || (half && odd)) round_up();
  }
  const char* digits() const { return d_; }
  int int_digits() const { return int_digits_; }
  int size() const { return n_; }

 private:
  static unsigned times10(std::uint32_t* fw) {
    std::uint64_t carry = 0;
    for (int i = kFracWords - 1; i >= 0; --i) {
      const std::uint64_t v = std::uint64_t{fw[i]} * 10 + carry;
      fw[i] = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    return static_cast<unsigned>(carry);
  }
  static bool rest_zero(const std::uint32_t* fw) {
    for (int i = 1; i < kFracWords; ++i)
      if (fw[i] != 0) return false;
    return true;
  }
  void round_up() {
    for (int i = n_ - 1; i >= 0; --i) {
      if (d_[i] != '9') {
        ++d_[i];
        return;
      }
      d_[i] = '0';
    }
    for (int i = n_; i > 0; --i) d_[i] = d_[i - 1];  // 99.9 -> 100.0
    d_[0] = '1';
    ++n_;
    ++int_digits_;
  }
  char d_[kMaxDigits + 1 + 512];
  int int_digits_ = 0;
  int n_ = 0;
};

inline void fixed(Out& o, Spec sp, std::uint64_t bits, bool upper) {
  const bool negative = (bits >> 63) != 0;
  char prefix[2] = {};
  if (negative) prefix[0] = '-';
  else if (sp.plus) prefix[0] = '+';
  else if (sp.space) prefix[0] = ' ';
  if (((bits >> 52) & 0x7FF) == 0x7FF) {  // inf, nan: never zero-padded
    sp.zero = false;
    const bool nan = (bits & ((std::uint64_t{1} << 52) - 1)) != 0;
    field(o, sp, prefix, 0, nan ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"), 3);
    return;
  }
  int prec = sp.prec < 0 ? 6 : sp.prec;
  if (prec > 512) prec = 512;
  const Decimal d(bits, prec);
  const bool point = prec > 0 || sp.alt;
  const int len = d.size() + (point ? 1 : 0);
  const int plen = prefix[0] ? 1 : 0;
  int pad = sp.width - plen - len;
  if (pad < 0) pad = 0;
  if (!sp.left && !sp.zero) o.fill(' ', pad);
  o.str(prefix, plen);
  if (!sp.left && sp.zero) o.fill('0', pad);
  o.str(d.digits(), d.int_digits());
  if (point) o.c('.');
  o.str(d.digits() + d.int_digits(), d.size() - d.int_digits());
  if (sp.left) o.fill(' ', pad);
}

// long double to double. PowerPC's is IBM's double-double: two doubles, the value their sum, the
// first the sum rounded to double (the second at most half its last place), so the first is the
// conversion, with no call to libgcc's __gcc_qtod (not in its static library).
inline double to_double(long double v) {
#if __LDBL_MANT_DIG__ == 106
  double parts[2];
  __builtin_memcpy(parts, &v, sizeof parts);
  return parts[0];
#else
  return static_cast<double>(v);
#endif
}

}  // namespace detail

// Formats like vprintf, each character through put(ctx, c); returns the number of characters.
inline int vformat(PutFn put, void* ctx, const char* fmt, va_list ap) {
  detail::Out o{put, ctx};
  while (*fmt != '\0') {
    if (*fmt != '%') {
      o.c(*fmt++);
      continue;
    }
    const char* const start = fmt++;
    detail::Spec sp;
    for (;; ++fmt) {
      if (*fmt == '-') sp.left = true;
      else if (*fmt == '+') sp.plus = true;
      else if (*fmt == ' ') sp.space = true;
      else if (*fmt == '#') sp.alt = true;
      else if (*fmt == '0') sp.zero = true;
      else break;
    }
    if (*fmt == '*') {
      sp.width = va_arg(ap, int);
      if (sp.width < 0) {  // a negative width argument: the - flag and its magnitude
        sp.left = true;
        sp.width = -sp.width;
      }
      ++fmt;
    } else {
      while (*fmt >= '0' && *fmt <= '9') sp.width = sp.width * 10 + (*fmt++ - '0');
    }
    if (*fmt == '.') {
      ++fmt;
      sp.prec = 0;
      if (*fmt == '*') {
        sp.prec = va_arg(ap, int);
        if (sp.prec < 0) sp.prec = -1;  // a negative precision argument: as if none
        ++fmt;
      } else {
        while (*fmt >= '0' && *fmt <= '9') sp.prec = sp.prec * 10 + (*fmt++ - '0');
      }
    }
    if (sp.left) sp.zero = false;
    if (sp.plus) sp.space = false;
    // Length: h hh l ll j z t L.
    int len = 0;  // -2 hh, -1 h, 0 int, 1 long, 2 long long, 3 intmax, 4 size, 5 ptrdiff, 6 L
    if (*fmt == 'h') {
      len = -1;
      if (*++fmt == 'h') {
        len = -2;
        ++fmt;
      }
    } else if (*fmt == 'l') {
      len = 1;
      if (*++fmt == 'l') {
        len = 2;
        ++fmt;
      }
    } else if (*fmt == 'j') {
      len = 3;
      ++fmt;
    } else if (*fmt == 'z') {
      len = 4;
      ++fmt;
    } else if (*fmt == 't') {
      len = 5;
      ++fmt;
    } else if (*fmt == 'L') {
      len = 6;
      ++fmt;
    }
    const char conv = *fmt;
    if (conv == '\0') {  // a lone % at the end: written as is
      o.str(start, static_cast<int>(fmt - start));
      break;
    }
    ++fmt;
    switch (conv) {
      case 'd':
      case 'i': {
        std::int64_t v;
        switch (len) {
          case -2: v = static_cast<signed char>(va_arg(ap, int)); break;
          case -1: v = static_cast<short>(va_arg(ap, int)); break;
          case 1: v = va_arg(ap, long); break;
          case 2: v = va_arg(ap, long long); break;
          case 3: v = va_arg(ap, std::intmax_t); break;
          case 4: v = static_cast<std::int64_t>(static_cast<std::make_signed_t<std::size_t>>(va_arg(ap, std::size_t))); break;
          case 5: v = va_arg(ap, std::ptrdiff_t); break;
          default: v = va_arg(ap, int); break;
        }
        const std::uint64_t mag = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
        detail::integer(o, sp, mag, v < 0, true, 10, false);
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        std::uint64_t v;
        switch (len) {
          case -2: v = static_cast<unsigned char>(va_arg(ap, unsigned)); break;
          case -1: v = static_cast<unsigned short>(va_arg(ap, unsigned)); break;
          case 1: v = va_arg(ap, unsigned long); break;
          case 2: v = va_arg(ap, unsigned long long); break;
          case 3: v = va_arg(ap, std::uintmax_t); break;
          case 4: v = va_arg(ap, std::size_t); break;
          case 5: v = static_cast<std::uint64_t>(va_arg(ap, std::ptrdiff_t)); break;
          default: v = va_arg(ap, unsigned); break;
        }
        detail::integer(o, sp, v, false, false, conv == 'u' ? 10 : conv == 'o' ? 8 : 16, conv == 'X');
        break;
      }
      case 'c': {
        const char ch = static_cast<char>(va_arg(ap, int));
        sp.zero = false;
        detail::field(o, sp, "", 0, &ch, 1);
        break;
      }
      case 's': {
        const char* s = va_arg(ap, const char*);
        // As glibc: "(null)", or nothing where a precision would cut it short (never "(nu").
        if (s == nullptr) s = sp.prec >= 0 && sp.prec < 6 ? "" : "(null)";
        sp.zero = false;
        detail::field(o, sp, "", 0, s, detail::len_of(s, sp.prec));
        break;
      }
      case 'p': {  // as glibc: 0x and lower-case hex, "(nil)" for a null pointer
        const void* p = va_arg(ap, const void*);
        if (p == nullptr) {
          sp.zero = false;
          detail::field(o, sp, "", 0, "(nil)", 5);
        } else {
          sp.alt = true;
          detail::integer(o, sp, reinterpret_cast<std::uintptr_t>(p), false, false, 16, false);
        }
        break;
      }
      case 'f':
      case 'F': {
        // MIPS o32 passes a variadic double in the integer registers and stack slots of a 64-bit
        // integer: read as one, no FPU instruction touches it (the Malta boards run with
        // Status.CU1 clear). Its long double is a double.
#if defined(__mips__) && defined(_ABIO32) && __LDBL_MANT_DIG__ == 53
        const std::uint64_t bits = va_arg(ap, unsigned long long);
#else
        const double x = len == 6 ? detail::to_double(va_arg(ap, long double)) : va_arg(ap, double);
        std::uint64_t bits;
        __builtin_memcpy(&bits, &x, sizeof bits);
#endif
        detail::fixed(o, sp, bits, conv == 'F');
        break;
      }
      case 'n': {
        switch (len) {
          case -2: *va_arg(ap, signed char*) = static_cast<signed char>(o.n); break;
          case -1: *va_arg(ap, short*) = static_cast<short>(o.n); break;
          case 1: *va_arg(ap, long*) = o.n; break;
          case 2: *va_arg(ap, long long*) = o.n; break;
          default: *va_arg(ap, int*) = o.n; break;
        }
        break;
      }
      case '%':
        o.c('%');
        break;
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A':
        // Not implemented: the specification as written, and its argument consumed.
        if (len == 6) (void)va_arg(ap, long double);
        else (void)va_arg(ap, double);
        o.str(start, static_cast<int>(fmt - start));
        break;
      default:  // not a conversion: as written
        o.str(start, static_cast<int>(fmt - start));
        break;
    }
  }
  return o.n;
}

}  // namespace pmukit::libc
