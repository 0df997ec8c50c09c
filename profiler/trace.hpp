#pragma once
// Region timings for a timeline: each call of a traced region as (region, begin, end) in the
// profiler's first counter (cycles, time-base ticks...), written to the dump's TRACE chunk and
// shown by `pmukit report --format trace` as a Chrome / Perfetto trace.
//
//   static prof::RegionTrace<256> trace;                  // the last 256 calls are kept
//   { prof::TracedRegion<Pmu> r{regions, crc_stats, trace};  crc32(...); }
//   const prof::TraceView view = trace.view();
//   prof::write_dump(w, ..., &ring, {.trace = &view});
//
// A TracedRegion is a Region (calibrated the same way, its statistics unchanged) between two
// reads of the first counter: the timeline costs those reads, the Region's figures do not.
// Thread context only (a sampling interrupt may run meanwhile); one trace per core. Calls the
// ring could not keep are counted in dropped(), never silent: keep-newest, so a long run shows
// its end.
#include <cstddef>
#include <cstdint>

#include "profiler/region.hpp"

namespace prof {

struct TraceEvent {
  const void* region;  // the RegionStats it was measured into (the dump names it by index)
  std::uint64_t begin, end;
};

// The trace as write_dump reads it, whatever its capacity.
struct TraceView {
  const TraceEvent* events;  // oldest first from `first`, wrapping at capacity
  std::size_t capacity, first, count;
  std::uint64_t dropped;
  const TraceEvent& at(std::size_t i) const { return events[(first + i) % capacity]; }
};

template <std::size_t N>
class RegionTrace {
  static_assert(N >= 1, "a trace keeps at least one event");

 public:
  void record(const void* region, std::uint64_t begin, std::uint64_t end) {
    if (end < begin) {  // across a reset of the counters: no duration to show
      ++dropped_;
      return;
    }
    if (count_ == N) ++dropped_;  // keep-newest: the oldest goes
    events_[(first_ + count_) % N] = TraceEvent{region, begin, end};
    if (count_ == N)
      first_ = (first_ + 1) % N;
    else
      ++count_;
  }
  std::size_t size() const { return count_; }
  std::uint64_t dropped() const { return dropped_; }
  void clear() { first_ = count_ = 0, dropped_ = 0; }
  TraceView view() const { return {events_, N, first_, count_, dropped_}; }

 private:
  TraceEvent events_[N]{};
  std::size_t first_ = 0, count_ = 0;
  std::uint64_t dropped_ = 0;
};

// A Region, with the first counter read before it begins and after it ends.
template <Backend B, std::size_t N>
class TracedRegion {
 public:
  TracedRegion(const Regions<B>& r, RegionStats<B>& stats, RegionTrace<N>& trace)
      : stamp_{r.profiler(), &stats, trace}, region_(r, stats) {}

 private:
  struct Stamp {
    Stamp(const Profiler<B>& p, const void* stats, RegionTrace<N>& t)
        : p_(p), stats_(stats), trace_(t), begin_(p.read(Counter{0})) {}
    ~Stamp() { trace_.record(stats_, begin_, p_.read(Counter{0})); }
    const Profiler<B>& p_;
    const void* stats_;
    RegionTrace<N>& trace_;
    std::uint64_t begin_;
  };
  Stamp stamp_;       // constructed first, destroyed last: its reads are outside the Region
  Region<B> region_;
};

}  // namespace prof
