#pragma once
// `pmukit diff`: two dumps compared for a regression gate. Regions by name (mean per call of every
// counter the two dumps share), multiplexed regions by name (each event's scaled estimate per call,
// events matched by code and qualifier), sampled functions by name (share of the samples, in
// percentage points). Only like is compared with like: dumps of two PMUs, or with no counter in common, are
// refused (DiffRefused); what cannot be compared is said in the notes, never dropped silently.
#include <optional>
#include <stdexcept>
#include <ostream>
#include <string>
#include <vector>

#include "tools/dumpread/dump.hpp"
#include "tools/report/profile.hpp"

namespace pmukit {

class DiffRefused : public std::runtime_error {
 public:
  explicit DiffRefused(const std::string& what) : std::runtime_error(what) {}
};

struct DiffRow {
  std::string name;
  std::string counter;               // regions: what the values count
  std::optional<double> base, next;  // absent: the name is in one dump only (or, multiplexed: not counted)
  bool past = false;                 // grew past the threshold
  // Multiplexed regions: the share of the region's time the event was on a counter, in percent, and
  // whether it never was (no estimate).
  std::optional<double> base_running, next_running;
  bool base_not_counted = false, next_not_counted = false;
};

struct DiffResult {
  std::vector<DiffRow> regions, mux_regions, functions;
  std::vector<std::string> notes;       // what was not compared, and why
  std::optional<double> threshold;      // percent (regions) and percentage points (functions)
  unsigned past() const;
};

// base_profile / next_profile may be null (no samples compared). A region whose base mean is 0 and
// whose new mean is not has grown without bound: past any threshold. Two regions of one name are
// compared in the order they appear ("name #2"). Throws DiffRefused.
DiffResult diff_dumps(const Dump& base, const Profile* base_profile, const Dump& next,
                      const Profile* next_profile, std::optional<double> threshold);
void write_diff(std::ostream& os, const DiffResult& r, const std::string& base_name, const std::string& next_name);

}  // namespace pmukit
