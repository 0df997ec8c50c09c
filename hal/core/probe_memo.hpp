#pragma once
// What a driver's probe() found, kept for the driver: the firmware reads it (probe_report()),
// configure() refuses a slot the probe found not counting, and tests start over (forget_probe()).
// A driver whose probe fills a report beyond ProbeResult derives from ProbeMemo<Report, itself>:
// the state is the driver's own (one per instantiation, as a static member of the driver would be).
#include <cstdint>

#include "hal/core/driver.hpp"

namespace pmu {

// Report: default-constructible, with a `ProbeResult result` member.
template <class Report, class Driver>
struct ProbeMemo {
  static const Report& probe_report() { return report_; }
  // Tests: act as if probe() had never run (configure() then trusts the manual).
  static void forget_probe() {
    report_ = Report{};
    probed_ = false;
  }

 protected:
  // probe()'s last step: keep the report, return its result.
  static ProbeResult remember(const Report& r) {
    report_ = r;
    probed_ = true;
    return r.result;
  }
  // A probe ran and found this slot's counter not counting (before any probe: false).
  static bool found_unavailable(unsigned slot) {
    return probed_ && !(report_.result.working_slots & (std::uint32_t{1} << slot));
  }

 private:
  static inline Report report_{};
  static inline bool probed_ = false;
};

}  // namespace pmu
