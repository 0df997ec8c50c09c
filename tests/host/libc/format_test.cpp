// examples/common/libc/format.hpp against the host C library's snprintf (ISO C 7.21.6.1, "The
// fprintf function"): every case must print exactly what the host prints.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "examples/common/libc/format.hpp"

namespace {

void put(void* ctx, char c) { static_cast<std::string*>(ctx)->push_back(c); }

std::string ours(const char* fmt, ...) {
  std::string s;
  va_list ap;
  va_start(ap, fmt);
  const int n = pmukit::libc::vformat(&put, &s, fmt, ap);
  va_end(ap);
  EXPECT_EQ(n, static_cast<int>(s.size())) << fmt;
  return s;
}
std::string host(const char* fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}
#define SAME(...) EXPECT_EQ(ours(__VA_ARGS__), host(__VA_ARGS__)) << #__VA_ARGS__

}  // namespace

TEST(LibcFormat, IntegerConversionsFlagsWidthAndPrecisionAsIsoC7_21_6_1) {
  const int ints[] = {0, 1, -1, 7, -42, 123456, -123456, 2147483647, -2147483647 - 1};
  const char* fmts[] = {"%d", "%i", "%5d", "%-5d|", "%05d", "%+d", "% d", "%+05d", "%.3d", "%8.3d", "%-8.3d|",
                        "%08.3d", "%.0d", "%u", "%x", "%X", "%#x", "%#X", "%o", "%#o", "%#.0o", "%08x", "%#010x",
                        "%-#10x|", "%.0x", "%*d", "%-*d|", "%.*d", "%hhd", "%hd", "%hhu", "%hx", "%c"};
  for (const int v : ints)
    for (const char* f : fmts) {
      if (std::string(f).find('*') != std::string::npos) {
        SAME(f, 7, v);
        SAME(f, -7, v);
      } else if (std::string(f) == "%c") {
        if (v > 0 && v < 127) {
          SAME(f, v);
        }
      } else {
        SAME(f, v);
      }
    }
}

TEST(LibcFormat, LengthModifiersLLLJZTReadTheirTypeAsIsoC7_21_6_1p7) {
  SAME("%ld %lu %lx", -123456789L, 4000000000UL, 0xDEADBEEFUL);
  SAME("%lld %llu %llx %#llX", -1234567890123LL, 18446744073709551615ULL, 0x0123456789ABCDEFULL, 0xFULL);
  SAME("%jd %ju", static_cast<std::intmax_t>(-5), static_cast<std::uintmax_t>(5));
  SAME("%zu %zd %zx", static_cast<std::size_t>(12345), static_cast<std::ptrdiff_t>(-3), static_cast<std::size_t>(255));
  SAME("%td", static_cast<std::ptrdiff_t>(-77));
  SAME("%lld", std::numeric_limits<long long>::min());
  SAME("%08lx and %-6lu|", 0x1234UL, 99UL);
}

TEST(LibcFormat, StringsCharsPointersAndPercentAsIsoC7_21_6_1p8) {
  SAME("%s", "hello");
  SAME("[%10s]", "hi");
  SAME("[%-10s]", "hi");
  SAME("[%.3s]", "abcdef");
  SAME("[%*.*s]", 8, 2, "abcdef");
  SAME("[%-3c]", 'x');
  SAME("[%3c]", 'x');
  SAME("100%%");
  SAME("[%5%]");
  int x = 0;
  SAME("%p", static_cast<void*>(&x));
  SAME("%20p|", static_cast<void*>(&x));
  SAME("%p", static_cast<void*>(nullptr));  // glibc's "(nil)"
  SAME("%s", static_cast<const char*>(nullptr));  // glibc's "(null)"
  SAME("[%.3s]", static_cast<const char*>(nullptr));  // glibc: nothing, not "(nu"
  SAME("[%.6s]", static_cast<const char*>(nullptr));
}

TEST(LibcFormat, FixedPointPrintsTheExactValueRoundedToNearestEvenAsIsoC7_21_6_1p8) {
  const double xs[] = {0.0,    -0.0,   1.0,     -1.5,   0.5,      2.5,    0.125,   2.675,     1e-7,
                       3.14159265358979, 123456.789, 1e15,  1e22,  1.7976931348623157e308, 4.9e-324,
                       0.1,    0.3,    999.9996, 9.5,   99.95,    1e-320, 18446744073709551616.0};
  const char* fmts[] = {"%f", "%.0f", "%.1f", "%.2f", "%.3f", "%.10f", "%.20f", "%12.4f", "%-12.4f|", "%012.3f",
                        "%+f", "% f", "%#.0f", "%F", "%.340f"};
  for (const double x : xs)
    for (const char* f : fmts) SAME(f, x);
  SAME("%f %F %5f %-5f| %05f", INFINITY, -INFINITY, NAN, INFINITY, INFINITY);
  SAME("%Lf", static_cast<long double>(2.25));
}

TEST(LibcFormat, ConversionsNotImplementedPrintTheirSpecificationNotANumber) {
  // %e, %g and %a are not implemented: the text as written (never a wrong number), the argument
  // consumed so the next conversion reads its own.
  EXPECT_EQ(ours("%e %d", 1.5, 7), "%e 7");
  EXPECT_EQ(ours("%.3g|%10a|%d", 1.5, 2.5, 8), "%.3g|%10a|8");
  EXPECT_EQ(ours("%Le %d", static_cast<long double>(1.5), 9), "%Le 9");
  EXPECT_EQ(ours("tail %"), "tail %");
}

TEST(LibcFormat, CountConversionStoresTheCharactersWrittenSoFarAsIsoC7_21_6_1p8) {
  int n = -1;
  EXPECT_EQ(ours("abc%n|", &n), "abc|");
  EXPECT_EQ(n, 3);
}
