#pragma once
// Self-test: does this PMU really count, and does its overflow interrupt really arrive?
// The two failures that otherwise give silently wrong profiles: counters that were never enabled
// (they read a constant) and a mis-wired interrupt (zero samples, no error).
#include <cstdint>

#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace prof {

struct SelfTestResult {
  Status probe = Status::pmu_absent;
  std::uint32_t working_slots = 0;    // what the driver's probe reported
  std::uint32_t advancing_slots = 0;  // added counters whose value grew over the workload
  bool interrupt_checked = false;     // a forced overflow was attempted
  bool interrupt_fired = false;       // ... and the interrupt reached the sampler
};

// Runs `work()` with every added counter started and reports which of them advanced.
template <Backend B, class Work>
std::uint32_t counters_advance(Profiler<B>& p, Work&& work) {
  p.start();
  work();
  p.stop();
  std::uint32_t advancing = 0;
  for (unsigned i = 0; i < Profiler<B>::kMaxCounters; ++i) {
    const Counter c{static_cast<std::uint8_t>(i)};
    if (i < p.counters_added() && p.read(c) != 0) advancing |= std::uint32_t{1} << p.slot_of(c);
  }
  return advancing;
}

// Forces an overflow: arms counter c with a small period, runs `work()` up to `tries` times and
// reports whether the PMU interrupt reached the sampler (the board must route it there).
template <Backend B, class Sink, class Work>
bool overflow_interrupt_fires(Profiler<B>& p, Sampler<B, Sink>& s, Counter c, Work&& work,
                              std::uint64_t period = 64, unsigned tries = 64) {
  const std::uint32_t before = s.interrupts();
  p.start();
  if (s.arm(c, period) != Status::ok) {
    p.stop();
    return false;
  }
  for (unsigned i = 0; i < tries && s.interrupts() == before; ++i) work();
  s.disarm();
  p.stop();
  return s.interrupts() != before;
}

}  // namespace prof
