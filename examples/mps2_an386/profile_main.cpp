// The profiling example on the MPS2 AN386 (Cortex-M4): a program with its own main(), profiled by
// the board's entry (pmukit_add_firmware(... PROFILE), board/profile_entry.cpp): three regions
// through the C API, SysTick samples, the dump as text frames on the console, which
// report_check.sh reads back with `pmukit report`. On QEMU 7.2 the DWT is not there (README.md):
// the regions count their calls only; on silicon they count DWT_CYCCNT cycles too.
#include <cstdint>

#include "examples/common/workloads.hpp"
#include "profiler/c_api.h"

namespace w = examples::work;

namespace {
constexpr unsigned kCrc = 0, kSort = 1, kFib = 2;
constexpr unsigned kCrcCalls = 40;  // crc32 the longest by far: most samples land in it
}  // namespace

int main() {
  w::fill();
  pmukit_region_name(kCrc, "crc32");
  pmukit_region_name(kSort, "sort");
  pmukit_region_name(kFib, "fib");
  for (unsigned i = 0; i < kCrcCalls; ++i) {
    pmukit_region_begin(kCrc);
    w::sink = w::sink + w::crc32(w::buffer, w::kBufferBytes);
    pmukit_region_end(kCrc);
  }
  pmukit_region_begin(kSort);
  w::insertion_sort(w::table, w::kTableWords);
  pmukit_region_end(kSort);
  pmukit_region_begin(kFib);
  w::sink = w::sink + w::fib(40);
  pmukit_region_end(kFib);
  // The program's own verdict: every region call counted.
  return pmukit_region_calls(kCrc) == kCrcCalls && pmukit_region_calls(kSort) == 1 && pmukit_region_calls(kFib) == 1
             ? 0
             : 1;
}
