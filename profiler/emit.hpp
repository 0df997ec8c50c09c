#pragma once
// Writes what a Profiler measured as one dump (docs/dump-format.md): target identity, counter
// configuration, the program's identity (build-id, code CRC), calibrated region results, the
// sample source with its dropped count, the samples drained from the ring, and the region timings
// of a RegionTrace where one is given. Shared by every example firmware; no heap.
#include <cstddef>
#include <cstdint>

#include "profiler/dump/image.hpp"
#include "profiler/dump/writer.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"
#include "profiler/frame_walk.hpp"
#include "profiler/stack.hpp"
#include "profiler/task_counters.hpp"
#include "profiler/trace.hpp"

namespace prof {

struct DumpTarget {
  const char* target_id;            // board/target, e.g. "xscale"
  std::uint64_t counter_clock_hz;   // what the cycle counter counts at
};

struct DumpSamples {
  pmu::dump::SampleSourceKind kind;
  std::uint8_t counter_slot;        // pmu::dump::kNoCounter for a timer
  std::uint64_t period;             // events per sample, or nanoseconds for a timer
};

// Multiplexed events (profiler/multiplex.hpp) and their regions' values, as MUX_EVENTS and
// MUX_REGION chunks (format 1.4).
struct MuxView {
  pmu::dump::MuxInfo info;
  const pmu::dump::MuxRegionInfo* regions = nullptr;
  std::size_t num_regions = 0;
};

// Per-task chunks (format 1.5, profiler/task_counters.hpp): TASKS and a TASK_COUNTS per task and
// for the no-task time, after the regions; SAMPLE_TAGS after the ring's SAMPLES (task_dump()).
struct TaskDump {
  const void* counters = nullptr;
  const void* ring = nullptr;
  void (*write_tasks)(const void* counters, pmu::dump::Writer& w) = nullptr;
  // The tags of the ring's `count` samples from free-running index `first` on.
  void (*write_tags)(const void* ring, pmu::dump::Writer& w, std::uint32_t first, std::uint32_t count) = nullptr;
  std::uint32_t (*oldest)(const void* ring) = nullptr;  // the ring's oldest unread sample's index
};

// What a dump may carry besides the regions and the ring's samples.
struct DumpExtras {
  const TraceView* trace = nullptr;    // region timings (profiler/trace.hpp)
  const StackView* stacks = nullptr;   // samples with a stack copy (profiler/stack.hpp)
  const FrameView* frames = nullptr;   // samples with a walked call chain (profiler/frame_walk.hpp)
  const MuxView* mux = nullptr;        // multiplexed events (profiler/multiplex.hpp)
  const TaskDump* tasks = nullptr;     // per-task counts and sample tags (task_dump())
};

// The TaskDump of a TaskCounters and the TaskSampleRing its samples went into (nullptr: counts
// only). Read with the profiler stopped (its latched values) and the sampling interrupt off.
template <Backend B, std::size_t M, std::size_t N, RingFull P>
TaskDump task_dump(const TaskCounters<B, M>& counters, const TaskSampleRing<N, P>* ring) {
  TaskDump d;
  d.counters = &counters;
  d.ring = ring;
  d.write_tasks = [](const void* c, pmu::dump::Writer& w) {
    const auto& t = *static_cast<const TaskCounters<B, M>*>(c);
    pmu::dump::TaskInfo list[M];
    std::size_t n = 0;
    for (std::size_t i = 0; i < M; ++i) {
      const auto id = static_cast<std::uint16_t>(i);
      if (t.named(id)) list[n++] = {id, t.name(id)};
    }
    w.tasks(list, n);
    const unsigned k = t.counters();
    std::uint64_t v[Profiler<B>::kMaxCounters];
    for (std::size_t i = 0; i <= n; ++i) {
      const std::uint16_t id = i < n ? list[i].id : kNoTask;
      for (unsigned c = 0; c < k; ++c) v[c] = t.value(id, c);
      w.task_counts(id, t.switches_in(id), v, k);
    }
  };
  if (ring != nullptr) {
    d.write_tags = [](const void* r, pmu::dump::Writer& w, std::uint32_t first, std::uint32_t count) {
      const auto& ring = *static_cast<const TaskSampleRing<N, P>*>(r);
      w.begin_sample_tags(count, pmu::dump::kTagTask);
      for (std::uint32_t i = 0; i < count; ++i) w.sample_tag(ring.tag_at(first + i), 0);
    };
    d.oldest = [](const void* r) { return static_cast<const TaskSampleRing<N, P>*>(r)->oldest_index(); };
  }
  return d;
}

namespace detail {

// The samples of a Sampler whose ring is a StackRing are its STACKS entries: no SAMPLES records,
// and the sample source's drops are the stack ring's.
struct NoSampleRecords {
  std::uint64_t drops;
  std::uint64_t dropped() const { return drops; }
  std::size_t size() const { return 0; }
  bool pop(Sample&) { return false; }
};

template <Backend B, class Ring>
pmu::dump::Status write_dump(pmu::dump::Writer& w, const DumpTarget& t, const Profiler<B>& p,
                             const Regions<B>& regions, RegionStats<B>* const* stats,
                             std::size_t num_regions, const DumpSamples* source, Ring* ring,
                             const DumpExtras& extras) {
  const TraceView* trace = extras.trace;
  const StackView* stacks = extras.stacks;
  const FrameView* frames = extras.frames;
  using pmu::dump::CounterInfo;
  using pmu::dump::CounterStats;
  constexpr unsigned kMax = Profiler<B>::kMaxCounters;
  const unsigned n = p.counters_added();
  unsigned width = 0;
  CounterInfo counters[kMax];
  for (unsigned i = 0; i < n; ++i) {
    const Counter c{static_cast<std::uint8_t>(i)};
    const unsigned s = p.slot_of(c);
    const char* preset = p.preset_of(c);
    counters[i] = CounterInfo{static_cast<std::uint8_t>(s),
                              static_cast<std::uint8_t>(register_bits(B::width(s))),
                              p.event_of(c).code, p.event_name(c),
                              preset ? preset : ""};
    if (register_bits(B::width(s)) > width) width = register_bits(B::width(s));
  }
  w.begin({t.target_id, B::catalog.id, t.counter_clock_hz, static_cast<std::uint8_t>(width), 4});
  w.counters(counters, n);
  w.image(pmu::dump::this_image());
  for (std::size_t r = 0; r < num_regions; ++r) {
    CounterStats cs[kMax];
    for (unsigned i = 0; i < n; ++i)
      cs[i] = CounterStats{stats[r]->total[i], stats[r]->min[i], stats[r]->max[i],
                           regions.overhead(i)};
    w.region({stats[r]->name, stats[r]->calls, cs, n, stats[r]->clamped, stats[r]->voided, stats[r]->interrupts});
  }
  if (extras.tasks != nullptr && extras.tasks->write_tasks != nullptr)
    extras.tasks->write_tasks(extras.tasks->counters, w);
  if (extras.mux != nullptr) {
    w.mux_events(extras.mux->info);
    for (std::size_t r = 0; r < extras.mux->num_regions; ++r) w.mux_region(extras.mux->regions[r]);
  }
  if (trace != nullptr) {  // the events of the regions in this dump, each named by its index
    auto index = [&](const void* r) {
      std::size_t k = 0;
      while (k < num_regions && static_cast<const void*>(stats[k]) != r) ++k;
      return k;
    };
    std::uint32_t kept = 0;
    for (std::size_t i = 0; i < trace->count; ++i) kept += index(trace->at(i).region) < num_regions;
    w.begin_trace(kept, trace->dropped + (trace->count - kept));
    for (std::size_t i = 0; i < trace->count; ++i) {
      const TraceEvent& e = trace->at(i);
      const std::size_t k = index(e.region);
      if (k < num_regions) w.trace_event(static_cast<std::uint16_t>(k), e.begin, e.end);
    }
  }
  if (stacks != nullptr) {  // consumed as written, like the ring's samples
    std::uint64_t total = 0;
    std::uint32_t bytes = 0;
    for (std::size_t i = 0; i < stacks->count; ++i) {
      (void)stacks->words(stacks->ring, i, bytes);
      total += bytes;
    }
    w.begin_stacks(static_cast<std::uint32_t>(stacks->count), total, stacks->dropped);
    for (std::size_t i = 0; i < stacks->count; ++i) {
      const StackContext& c = stacks->context(stacks->ring, i);
      const std::uint32_t* words = stacks->words(stacks->ring, i, bytes);
      w.stack_sample(c.pc, c.lr, c.sp, c.fp, reinterpret_cast<const std::uint8_t*>(words),
                     static_cast<std::uint16_t>(bytes));
    }
    stacks->consume(stacks->ring, stacks->count);
  }
  if (frames != nullptr) {  // consumed as written, like the ring's samples
    std::uint64_t total = 0;
    std::uint32_t n = 0;
    bool complete = false;
    for (std::size_t i = 0; i < frames->count; ++i) {
      (void)frames->pcs(frames->ring, i, n, complete);
      total += n;
    }
    w.begin_frames(static_cast<std::uint32_t>(frames->count), total, frames->dropped);
    for (std::size_t i = 0; i < frames->count; ++i) {
      const std::uint32_t* pcs = frames->pcs(frames->ring, i, n, complete);
      w.frame_sample(pcs, static_cast<std::uint8_t>(n), complete);
    }
    frames->consume(frames->ring, frames->count);
  }
  if (source && ring) {
    w.sample_source({source->kind, source->counter_slot, source->period, ring->dropped()});
    const std::size_t count = ring->size();
    const TaskDump* tags = extras.tasks != nullptr && extras.tasks->write_tags != nullptr ? extras.tasks : nullptr;
    const std::uint32_t first = tags != nullptr ? tags->oldest(tags->ring) : 0;
    w.begin_samples(static_cast<std::uint32_t>(count));
    Sample smp;
    for (std::size_t i = 0; i < count && ring->pop(smp); ++i) w.sample(smp.pc, smp.lr);
    if (tags != nullptr) tags->write_tags(tags->ring, w, first, static_cast<std::uint32_t>(count));
  }
  return w.finish();
}

}  // namespace detail

// A Sampler's SampleRing: its samples in SAMPLES chunks. extras.stacks and extras.frames, if
// given, are other interrupts' samples (each interrupt records into one ring).
template <Backend B, std::size_t N, RingFull Policy>
pmu::dump::Status write_dump(pmu::dump::Writer& w, const DumpTarget& t, const Profiler<B>& p,
                             const Regions<B>& regions, RegionStats<B>* const* stats,
                             std::size_t num_regions, const DumpSamples* source,
                             SampleRing<N, Policy>* ring, const DumpExtras& extras = {}) {
  return detail::write_dump(w, t, p, regions, stats, num_regions, source, ring, extras);
}

// A Sampler's TaskSampleRing: its samples in SAMPLES chunks, each tagged with its task
// (extras.tasks = task_dump(counters, &ring): SAMPLE_TAGS right after them).
template <Backend B, std::size_t N, RingFull Policy>
pmu::dump::Status write_dump(pmu::dump::Writer& w, const DumpTarget& t, const Profiler<B>& p,
                             const Regions<B>& regions, RegionStats<B>* const* stats,
                             std::size_t num_regions, const DumpSamples* source,
                             TaskSampleRing<N, Policy>* ring, const DumpExtras& extras = {}) {
  return detail::write_dump(w, t, p, regions, stats, num_regions, source, ring, extras);
}

// A Sampler fed the interrupted context into a StackRing (Sampler<B, StackRing<N, Bytes>>,
// on_*(StackContext)): one sample per interrupt, with its stack, as the STACKS chunk; the sample
// source carries the ring's drops. extras.stacks must be empty (the ring is the stacks).
template <Backend B, std::size_t N, std::size_t Bytes>
pmu::dump::Status write_dump(pmu::dump::Writer& w, const DumpTarget& t, const Profiler<B>& p,
                             const Regions<B>& regions, RegionStats<B>* const* stats,
                             std::size_t num_regions, const DumpSamples* source,
                             StackRing<N, Bytes>* ring, DumpExtras extras = {}) {
  if (extras.stacks != nullptr || ring == nullptr) return pmu::dump::Status::bad_argument;
  const StackView view = StackView::of(*ring);
  extras.stacks = &view;
  detail::NoSampleRecords none{ring->dropped()};
  return detail::write_dump(w, t, p, regions, stats, num_regions, source, &none, extras);
}

}  // namespace prof
