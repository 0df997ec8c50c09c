#pragma once
// What the pmusim self-tests (examples/<board>/*pmusim_selftest.cpp) share: the frame (title, the
// refusal where there is nothing to test, the verdict line and exit status) and the check of an
// event counted over a loop of known shape.
#include <cstdint>

#include "examples/common/checks.hpp"

namespace examples {

class SelfTest {
 public:
  using Exit = void (*)(int);  // the board's exit (it does not return)

  // Prints the title. Unless `runnable`, prints `why_not` and ends the run with SELFTEST FAIL, so
  // an image run where it cannot test anything never passes by accident.
  SelfTest(const Console& out, const char* title, bool runnable, const char* why_not, Exit exit, int fail_code)
      : checks{out}, exit_(exit), fail_code_(fail_code) {
    out.line(title);
    if (!runnable) {
      out.line(why_not);
      finish_with(false);
    }
  }
  // SELFTEST PASS when every check passed, else SELFTEST FAIL; exits with the verdict.
  [[noreturn]] void finish() { finish_with(checks.failures == 0); }

  Checks checks;

 private:
  [[noreturn]] void finish_with(bool pass) {
    checks.out.line(pass ? "SELFTEST PASS" : "SELFTEST FAIL");
    exit_(pass ? 0 : fail_code_);
    __builtin_unreachable();
  }
  Exit exit_;
  int fail_code_;
};

// An event counted over a loop of known shape: count(trips) for 10 and 1010 trips (~0: it could
// not be counted) must differ by exactly per_trip for each of the 1000 extra trips, whatever the
// measurement's own cost. Prints "<event>: <difference> per 1000 extra trips, expected <n>".
template <class Count>
void check_per_trip(Checks& checks, const char* event, std::uint64_t per_trip, Count count) {
  constexpr std::uint32_t kFew = 10, kMany = 1010;
  constexpr std::uint64_t kFailed = ~std::uint64_t{0};
  const std::uint64_t few = count(kFew), many = count(kMany), expect = per_trip * (kMany - kFew);
  checks.out.put(event);
  checks.out.put(": ");
  checks.out.dec(many - few);
  checks.out.put(" per 1000 extra trips, expected ");
  checks.out.dec(expect);
  checks.out.put('\n');
  checks.check(few != kFailed && many != kFailed && many - few == expect, "event count from the executed code");
}

}  // namespace examples
