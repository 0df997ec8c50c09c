#pragma once
// `pmukit diff`: two dumps compared for a regression gate. Regions by name (mean per call of the
// first counter), sampled functions by name (share of the samples, in percentage points).
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tools/dumpread/dump.hpp"
#include "tools/report/profile.hpp"

namespace pmukit {

struct DiffRow {
  std::string name;
  std::optional<double> base, next;  // absent: the name is in one dump only
  bool past = false;                 // grew past the threshold
};

struct DiffResult {
  std::string counter;                  // what the regions' values count (the first counter)
  std::vector<DiffRow> regions, functions;
  std::optional<double> threshold;      // percent (regions) and percentage points (functions)
  unsigned past() const;
};

// base_profile / next_profile may be null (no samples compared). A region whose base mean is 0
// cannot grow by a percentage: it is listed, never past the threshold.
DiffResult diff_dumps(const Dump& base, const Profile* base_profile, const Dump& next,
                      const Profile* next_profile, std::optional<double> threshold);
void write_diff(std::ostream& os, const DiffResult& r, const std::string& base_name, const std::string& next_name);

}  // namespace pmukit
