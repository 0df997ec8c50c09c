#pragma once
// The example firmware's verdict lines: "CHECK PASS: ..." / "CHECK FAIL: ...", counted, so the
// image can exit non-zero and a ctest can match the lines.
#include "examples/common/console.hpp"
#include "hal/core/driver.hpp"

namespace examples {

struct Checks {
  const Console& out;
  int failures = 0;

  void check(bool ok, const char* what) {
    out.put(ok ? "CHECK PASS: " : "CHECK FAIL: ");
    out.line(what);
    failures += !ok;
  }
  void status(const char* what, pmu::Status s) const {
    out.put(what);
    out.put(": ");
    out.line(pmu::status_name(s));
  }
};

}  // namespace examples
