#pragma once
// The example firmware's readable region summary, one line per region, first counter only.
#include <cstddef>

#include "examples/common/console.hpp"
#include "profiler/region.hpp"

namespace examples {

template <prof::Backend B>
void print_regions(const Console& out, const char* unit, prof::RegionStats<B>* const* regions,
                   std::size_t n) {
  out.put("regions (");
  out.put(unit);
  out.line(", calibrated):");
  for (std::size_t i = 0; i < n; ++i) {
    const prof::RegionStats<B>& r = *regions[i];
    out.put(r.name != nullptr ? r.name : "(unnamed)");
    out.put(" calls=");
    out.dec(r.calls);
    out.put(" total=");
    out.dec(r.total[0]);
    out.put(" min=");
    out.dec(r.min[0]);
    out.put(" max=");
    out.dec(r.max[0]);
    out.put(" clamped=");
    out.dec(r.clamped);
    out.put(" voided=");
    out.dec(r.voided);
    out.put('\n');
  }
}

}  // namespace examples
