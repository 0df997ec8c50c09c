#pragma once
// The pmusim self-tests' check of a linked pair (an e500 chain, a NetBurst cascade) read through
// the profiler while its low counter rolls over. For 48 start offsets the rollover lands at a
// different instruction of the read sequence; every value must be above the one before and no more
// than one loop pass's worth of instructions above it, the high counter must have taken the carry,
// and no read may give up (kReadTries passes without a consistent set).
#include <cstdint>

#include "examples/common/checks.hpp"
#include "hal/core/driver.hpp"
#include "profiler/profiler.hpp"

namespace examples {

struct LinkedPair {
  const char* name;     // "chain", "cascade": how the output names it
  unsigned lo, hi;      // the driver's slots
  pmu::EventConfig event;
  std::uint64_t span;   // the low counter's range: 2^width
};

namespace detail {

// One run with the low counter `before` events short of its rollover; false on any bad value.
template <class Pmu>
bool linked_rollover_run(prof::Profiler<Pmu>& profiler, const LinkedPair& pair, std::uint32_t before,
                         const Console& out) {
  constexpr std::uint64_t kPassBound = 20'000;  // instructions one read and the loop may take
  profiler.clear();
  prof::Counter lo, hi;
  if (profiler.add_on(pair.lo, pair.event, lo) != pmu::Status::ok ||
      profiler.add_on(pair.hi, pair.event, hi) != pmu::Status::ok || profiler.link(lo, hi) != pmu::Status::ok) {
    out.put(pair.name);
    out.line(": could not set up the linked pair");
    return false;
  }
  profiler.start();
  Pmu::stop(1u << pair.lo);
  Pmu::write(pair.lo, pair.span - before);
  Pmu::start(1u << pair.lo);
  std::uint64_t prev = profiler.read(hi);
  bool ok = true;
  for (int i = 0; i < 16 && ok; ++i) {
    const std::uint64_t v = profiler.read(hi);
    if (i == 0 && before == 1) {
      out.put(pair.name);
      out.put(": one profiler read of a linked pair, loop included: ");
      out.dec(v - prev);
      out.line(" instructions");
    }
    if (v <= prev || v - prev > kPassBound) {
      out.put(pair.name);
      out.put(": read ");
      out.dec(v);
      out.put(" after ");
      out.dec(prev);
      out.put(" (the low counter started ");
      out.dec(before);
      out.line(" events before its rollover)");
      ok = false;
    }
    prev = v;
  }
  ok = ok && prev > pair.span && Pmu::read(pair.hi) > 0;  // the high counter took the carry
  profiler.stop();
  return ok;
}

}  // namespace detail

// The 48 runs, their summary line ("<name>: N of 48 runs read monotonic values across the low
// counter's rollover") and two checks.
template <class Pmu>
void check_linked_rollover(prof::Profiler<Pmu>& profiler, const LinkedPair& pair, Checks& checks) {
  unsigned good = 0;
  const std::uint32_t giveups = profiler.read_giveups();
  for (std::uint32_t before = 1; before <= 48; ++before) good += detail::linked_rollover_run(profiler, pair, before, checks.out);
  checks.out.put(pair.name);
  checks.out.put(": ");
  checks.out.dec(good);
  checks.out.line(" of 48 runs read monotonic values across the low counter's rollover");
  checks.check(good == 48, "linked reads stay consistent while the low counter rolls over");
  // A read that waits for two equal high values retries until it gives up while the high counter
  // moves on every instruction (what the NetBurst cascade first found).
  checks.check(profiler.read_giveups() == giveups, "no linked read gave up");
}

}  // namespace examples
