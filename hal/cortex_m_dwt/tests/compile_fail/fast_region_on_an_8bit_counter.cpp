// DWT_CPICNT (slot 1) is 8 bits and has no overflow condition: a fast region's raw difference would
// be modulo 256 with nothing to tell a second wrap. CYCCNT (slot 0, 32 bits) is fine.
#include "cf.hpp"
#include "profiler/fast_region.hpp"
#include "profiler/profiler.hpp"

prof::Profiler<D> p;

unsigned f() {
  prof::FastRegions<D, 0> cycles{p};
  unsigned n = cycles.kCount;
#ifdef PMU_MISUSE
  prof::FastRegions<D, 0, 1> with_cpi{p};
  n += with_cpi.kCount;
#endif
  return n;
}
