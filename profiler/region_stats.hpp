#pragma once
// A region's statistics (RegionStats) and what every kind of region shares: the clamp of a
// difference below the calibrated overhead (net_of), the calling convention of the out-of-line
// parts (PROF_REGION_CALL) and calibration's stagger. Regions: profiler/region.hpp (counters
// added), profiler/counter_region.hpp (counters chosen at run time).
#include <cstdint>

#include "profiler/profiler.hpp"

namespace prof {

// All zero bytes mean "no measurement" (calls == 0; the first call sets min): an unnamed
// RegionStats at namespace scope is constant-initialised to zero and lands in .bss (RAM only),
// not in .data, whose initial image is stored in flash too. So the name pointer is null by
// default. A name given at construction is a non-zero pointer, which puts the whole object into
// .data; where flash counts, name the region at run time instead (`stats.name = "crc32";`, a
// string in .rodata).
template <Backend B>
struct RegionStats {
  static constexpr unsigned kMax = Profiler<B>::kMaxCounters;
  const char* name = nullptr;  // null: unnamed (the dump writes an empty name)
  std::uint64_t calls = 0;    // 64-bit like the dump's field: no wrap, so `min` is never lost
  std::uint64_t clamped = 0;  // calls below the calibrated overhead: 0 added
  std::uint64_t voided = 0;   // calls across a reset of the counters: 0 added
  std::uint64_t interrupts = 0;  // sampling interrupts inside the calls: their handlers' events are in the totals
  std::uint64_t switched = 0;    // calls with a task switch inside (TaskCounters): other tasks' time is in them
  // min and max before total: a region's update touches each twice as often, and on i386 an
  // offset below 128 takes 1 byte instead of 4 (NetBurst: 18 counters, so only the first array's
  // offset is that small; bench/footprint).
  std::uint64_t min[kMax]{};
  std::uint64_t max[kMax]{};
  std::uint64_t total[kMax]{};

  constexpr RegionStats() = default;
  constexpr explicit RegionStats(const char* n) : name(n) {}
  void clear() { *this = RegionStats{name}; }

  // One region's value for counter i (less the overhead; 0 if clamped). close() ends the region.
  void add(unsigned i, std::uint64_t d) {
    total[i] += d;
    if (calls == 0 || d < min[i]) min[i] = d;
    if (d > max[i]) max[i] = d;
  }
  void close(bool was_clamped, bool was_voided = false, std::uint32_t interrupts_inside = 0,
             bool was_switched = false) {
    calls++;
    interrupts += interrupts_inside;
    switched += was_switched;
    voided += was_voided;
    clamped += was_clamped && !was_voided;
  }
};

// A difference less the calibrated overhead; 0, with `clamped` set, when the region is void or the
// difference is below the overhead (jitter). T: std::uint64_t, or a fast region's narrower Diff.
template <class T>
constexpr T net_of(T d, T overhead, bool voided, bool& clamped) {
  if (voided || d < overhead) {
    clamped = true;
    return 0;
  }
  return d - overhead;
}

// i386 passes arguments on the stack, and a call site then stores `this` with one or two
// instructions (a register, or an address computed first): inside the measured window, so an empty
// region would read a count away from the calibrated one. In registers it is one move everywhere.
#if defined(__i386__)
#define PROF_REGION_CALL gnu::regparm(3)
#else
#define PROF_REGION_CALL
#endif

// A delay of n steps between calibration's empty regions: a clock coarser than an instruction
// reads the same code one tick apart depending on where its ticks fall. Out of line, so the delay
// leaves the measured instructions exactly those of a real region.
[[gnu::noinline]] inline void stagger_region(unsigned n) {
  volatile unsigned i = 0;
  while (i < n) i = i + 1u;
}

}  // namespace prof
