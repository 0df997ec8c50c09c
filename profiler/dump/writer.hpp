#pragma once
// Firmware-side dump writer: streams a profile dump (docs/dump-format.md) through a byte sink with
// a running CRC-32, so the dump is never held whole: the writer keeps only a 64-byte block, which
// it hands to the sink when full (one semihosting call per block, not per field) and on finish().
// Freestanding: no heap, no exceptions, no hosted headers. Every call returns a Status; the first
// error sticks and stops all further output, so a firmware may check only the result of finish()
// (a sink failure shows at the latest there).
//
// Call order: begin() once; then counters() before any region(); mux_events() at most once, after
// counters() and before any mux_region(); then image(), region(), mux_region(), sample_source(),
// begin_samples() + sample() x n, begin_histogram() + bin() x n in any order and any number;
// finish() last. Tasks and cores (1.5): tasks() and core() at most once each; task_counts() after
// counters(), at most once per task id; begin_sample_tags() + sample_tag() x n right after a
// SAMPLES, STACKS or FRAMES chunk, with its count.
#include <cstddef>
#include <cstdint>

#include "profiler/dump/crc32.hpp"
#include "profiler/dump/format.hpp"
#include "profiler/dump/sink.hpp"

namespace pmu::dump {

enum class ByteOrder : std::uint8_t { little, big };

constexpr ByteOrder native_byte_order() {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return ByteOrder::big;
#else
  return ByteOrder::little;
#endif
}

enum class Status : std::uint8_t {
  ok,
  sink_failed,        // the sink's write returned false
  out_of_order,       // a call the call order does not allow here (see above)
  string_too_long,    // a name longer than kMaxString bytes
  too_many_counters,  // more than 255 counters (or multiplexed events)
  stats_mismatch,     // region.num_stats differs from the number of counters (mux_region: num_values
                      // from mux_events()' num_events)
  address_too_wide,   // an address that does not fit TargetInfo::address_bytes
  count_mismatch,     // more or fewer sample()/bin() calls than announced
  too_large,          // a chunk longer than 4 GiB
  bad_argument,       // address_bytes not 4 or 8, a null array with a non-zero size, a multiplexed
                      // value running longer than it was enabled
};

constexpr const char* status_name(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::sink_failed: return "sink failed";
    case Status::out_of_order: return "call out of order";
    case Status::string_too_long: return "string too long";
    case Status::too_many_counters: return "too many counters";
    case Status::stats_mismatch: return "region stats do not match the counters";
    case Status::address_too_wide: return "address too wide";
    case Status::count_mismatch: return "item count differs from the announced count";
    case Status::too_large: return "chunk too large";
    case Status::bad_argument: return "bad argument";
  }
  return "?";
}

struct TargetInfo {
  const char* target_id;              // e.g. "xscale"
  const char* pmu_id;                 // e.g. "xscale-xsc2"
  std::uint64_t counter_clock_hz;     // frequency the cycle counter counts at
  std::uint8_t counter_width_bits;    // hardware counter width (32, 40, ...)
  std::uint8_t address_bytes = 4;     // size of a sampled address: 4 or 8
};

struct CounterInfo {
  std::uint8_t slot;          // hardware counter number
  std::uint8_t width_bits;    // this counter's width
  std::uint32_t event_code;   // value programmed into the event selector
  const char* name;           // display name, e.g. "cycles" or "DCACHE_MISS"
  const char* preset;         // portable preset name, or nullptr / "" for a raw event
};

// One counter's results for one region, already calibrated: each call's measurement had
// `overhead` (the measured cost of an empty region) subtracted before total/min/max were taken.
struct CounterStats {
  std::uint64_t total;
  std::uint64_t min;
  std::uint64_t max;
  std::uint64_t overhead;  // per call
};

struct RegionInfo {
  const char* name;
  std::uint64_t calls;
  const CounterStats* stats;  // one per counter, in counters() order
  std::size_t num_stats;
  std::uint64_t clamped = 0;  // calls below the calibrated overhead, counted as 0 (1.3)
  std::uint64_t voided = 0;   // calls across a reset of the counters, counted as 0 (1.3)
  std::uint64_t interrupts = 0;  // sampling interrupts inside the calls (1.3)
};

struct SampleSourceInfo {
  SampleSourceKind kind;
  std::uint8_t counter_slot;  // overflowing counter; kNoCounter for a timer
  std::uint64_t period;       // events per sample (pmu_overflow) or nanoseconds (timer)
  std::uint64_t dropped;      // samples lost (ring buffer full)
};

// Which program wrote the dump, so the host tool can refuse an ELF that is not it (IMAGE chunk).
// Fill it with this_image() (profiler/dump/image.hpp) or by hand.
struct ImageInfo {
  std::uint16_t elf_machine;        // e_machine of this code (40 ARM, 20 PowerPC, 8 MIPS, 3 i386); 0: unknown
  const std::uint8_t* build_id;     // the GNU build-id (the note's descriptor), or nullptr
  std::uint8_t build_id_len;        // at most kMaxBuildId
  std::uint64_t code_lo, code_hi;   // [lo, hi): code and read-only data as loaded; lo == hi: none
  std::uint32_t code_crc;           // CRC-32 of those bytes as they are in memory
};

// Event multiplexing (1.4): more events than counters, rotated onto the counters on a timer tick.
// Each event keeps its count while on a counter (raw), the clock ticks its region ran with the
// multiplexing enabled (enabled) and with this event on a counter (running); the host scales
// raw * enabled / running, as perf stat does.
struct MuxEventInfo {
  std::uint32_t event_code;  // the catalog code programmed into the event selector
  std::uint32_t qualifier;   // what the event's EventConfig qualifies it with (e500 threshold, ...); 0: none
  std::uint32_t options;     // the EventConfig's options (edge, privilege filters, ...); 0: none
  const char* name;          // display name
  const char* preset;        // portable preset name, or nullptr / "" for a raw event
  std::uint8_t flags;        // kMuxPinned: never rotated out
};

struct MuxInfo {
  std::uint64_t clock_hz;    // the clock enabled and running are counted in; 0: unknown
  std::uint64_t rotations;   // group rotations done
  const MuxEventInfo* events;
  std::size_t num_events;
};

struct MuxValue {
  std::uint64_t raw;      // events counted while the event was on a counter
  std::uint64_t enabled;  // ticks the region ran with the multiplexing enabled
  std::uint64_t running;  // ticks of those with this event on a counter: never more than enabled
};

// One task of a scheduler or RTOS (TASKS chunk, 1.5): the firmware's own id, never kNoTask.
struct TaskInfo {
  std::uint16_t id;
  const char* name;
};

struct MuxRegionInfo {
  const char* name;
  std::uint8_t flags;       // kMuxWholeRun: the whole run, not a region of it
  std::uint64_t calls;
  const MuxValue* values;   // one per event, in mux_events() order
  std::size_t num_values;
};

class Writer {
 public:
  explicit Writer(Sink sink, ByteOrder order = native_byte_order()) : sink_(sink), order_(order) {}

  // Header and TARGET chunk.
  Status begin(const TargetInfo& t) {
    if (!usable(State::fresh)) return status_;
    if (t.address_bytes != 4 && t.address_bytes != 8) return fail(Status::bad_argument);
    address_bytes_ = t.address_bytes;
    const std::size_t target_len = str_size(t.target_id), pmu_len = str_size(t.pmu_id);
    if (target_len > kMaxString || pmu_len > kMaxString) return fail(Status::string_too_long);
    bytes(kMagic, 4);
    u32(kByteOrderMark);
    u16(kVersionMajor);
    u16(kVersionMinor);
    u16(kHeaderSize);
    u16(0);
    chunk(ChunkType::target, 2 + target_len + pmu_len + 8 + 1 + 1);
    str(t.target_id, target_len);
    str(t.pmu_id, pmu_len);
    u64(t.counter_clock_hz);
    u8(t.counter_width_bits);
    u8(t.address_bytes);
    state_ = State::open;
    return status_;
  }

  // COUNTERS chunk: the counter configuration, in the order regions report their stats.
  Status counters(const CounterInfo* list, std::size_t n) {
    if (!usable(State::open)) return status_;
    if (n > 255) return fail(Status::too_many_counters);
    if (n != 0 && list == nullptr) return fail(Status::bad_argument);
    std::uint64_t len = 1;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t name_len = str_size(list[i].name), preset_len = str_size(list[i].preset);
      if (name_len > kMaxString || preset_len > kMaxString) return fail(Status::string_too_long);
      len += 1 + 1 + 4 + 1 + name_len + 1 + preset_len;
    }
    chunk(ChunkType::counters, len);
    u8(static_cast<std::uint8_t>(n));
    for (std::size_t i = 0; i < n; ++i) {
      u8(list[i].slot);
      u8(list[i].width_bits);
      u32(list[i].event_code);
      str(list[i].name, str_size(list[i].name));
      str(list[i].preset, str_size(list[i].preset));
    }
    num_counters_ = static_cast<std::uint8_t>(n);
    have_counters_ = true;
    return status_;
  }

  // REGION chunk: one region's calibrated results.
  Status region(const RegionInfo& r) {
    if (!usable(State::open)) return status_;
    if (!have_counters_) return fail(Status::out_of_order);
    if (r.num_stats != num_counters_) return fail(Status::stats_mismatch);
    if (r.num_stats != 0 && r.stats == nullptr) return fail(Status::bad_argument);
    const std::size_t name_len = str_size(r.name);
    if (name_len > kMaxString) return fail(Status::string_too_long);
    chunk(ChunkType::region, 1 + name_len + 8 + 1 + 32u * r.num_stats + 24);
    str(r.name, name_len);
    u64(r.calls);
    u8(static_cast<std::uint8_t>(r.num_stats));
    for (std::size_t i = 0; i < r.num_stats; ++i) {
      u64(r.stats[i].total);
      u64(r.stats[i].min);
      u64(r.stats[i].max);
      u64(r.stats[i].overhead);
    }
    u64(r.clamped);
    u64(r.voided);
    u64(r.interrupts);
    if (regions_written_ < 0xFFFF) ++regions_written_;
    return status_;
  }

  // MUX_EVENTS chunk (1.4): the multiplexed events, once, after counters().
  Status mux_events(const MuxInfo& m) {
    if (!usable(State::open)) return status_;
    if (!have_counters_ || have_mux_) return fail(Status::out_of_order);
    if (m.num_events > 255) return fail(Status::too_many_counters);
    if (m.num_events != 0 && m.events == nullptr) return fail(Status::bad_argument);
    std::uint64_t len = 8 + 8 + 1;
    for (std::size_t i = 0; i < m.num_events; ++i) {
      const std::size_t name_len = str_size(m.events[i].name), preset_len = str_size(m.events[i].preset);
      if (name_len > kMaxString || preset_len > kMaxString) return fail(Status::string_too_long);
      len += 4 + 4 + 4 + 1 + name_len + 1 + preset_len + 1;
    }
    chunk(ChunkType::mux_events, len);
    u64(m.clock_hz);
    u64(m.rotations);
    u8(static_cast<std::uint8_t>(m.num_events));
    for (std::size_t i = 0; i < m.num_events; ++i) {
      const MuxEventInfo& e = m.events[i];
      u32(e.event_code);
      u32(e.qualifier);
      u32(e.options);
      str(e.name, str_size(e.name));
      str(e.preset, str_size(e.preset));
      u8(e.flags);
    }
    num_mux_events_ = static_cast<std::uint8_t>(m.num_events);
    have_mux_ = true;
    return status_;
  }

  // MUX_REGION chunk (1.4): one region's multiplexed counts, after mux_events().
  Status mux_region(const MuxRegionInfo& r) {
    if (!usable(State::open)) return status_;
    if (!have_mux_) return fail(Status::out_of_order);
    if (r.num_values != num_mux_events_) return fail(Status::stats_mismatch);
    if (r.num_values != 0 && r.values == nullptr) return fail(Status::bad_argument);
    for (std::size_t i = 0; i < r.num_values; ++i)
      if (r.values[i].running > r.values[i].enabled) return fail(Status::bad_argument);
    const std::size_t name_len = str_size(r.name);
    if (name_len > kMaxString) return fail(Status::string_too_long);
    chunk(ChunkType::mux_region, 1 + name_len + 1 + 8 + 1 + 24u * r.num_values);
    str(r.name, name_len);
    u8(r.flags);
    u64(r.calls);
    u8(static_cast<std::uint8_t>(r.num_values));
    for (std::size_t i = 0; i < r.num_values; ++i) {
      u64(r.values[i].raw);
      u64(r.values[i].enabled);
      u64(r.values[i].running);
    }
    return status_;
  }

  // TASKS chunk (1.5): the tasks the firmware knew, at most once. Ids unique and not kNoTask.
  Status tasks(const TaskInfo* list, std::size_t n) {
    if (!usable(State::open)) return status_;
    if (have_tasks_) return fail(Status::out_of_order);
    if (n > 0xFFFF || (n != 0 && list == nullptr)) return fail(Status::bad_argument);
    std::uint64_t len = 2;
    for (std::size_t i = 0; i < n; ++i) {
      if (list[i].id == kNoTask) return fail(Status::bad_argument);
      for (std::size_t k = 0; k < i; ++k)
        if (list[k].id == list[i].id) return fail(Status::bad_argument);
      const std::size_t name_len = str_size(list[i].name);
      if (name_len > kMaxString) return fail(Status::string_too_long);
      len += 2 + 1 + name_len;
    }
    chunk(ChunkType::tasks, len);
    u16(static_cast<std::uint16_t>(n));
    for (std::size_t i = 0; i < n; ++i) {
      u16(list[i].id);
      str(list[i].name, str_size(list[i].name));
    }
    have_tasks_ = true;
    return status_;
  }

  // SAMPLE_TAGS chunk (1.5): who ran each sample of the SAMPLES, STACKS or FRAMES chunk just
  // written. Announce its count and which tags are kept (kTagTask, kTagCore), then call
  // sample_tag() exactly `count` times, in that chunk's order. A tag the flags leave out is written
  // as the spec says (task kNoTask, core 0), whatever is passed.
  Status begin_sample_tags(std::uint32_t count, std::uint8_t flags) {
    if (!usable(State::open)) return status_;
    if (!taggable_) return fail(Status::out_of_order);
    if ((flags & ~(kTagTask | kTagCore)) != 0) return fail(Status::bad_argument);
    if (count != tag_count_) return fail(Status::count_mismatch);
    tag_flags_ = flags;
    if (begin_items(ChunkType::sample_tags, State::sample_tags, count, 2 + 1, 1) == Status::ok) u8(flags);
    return status_;
  }
  Status sample_tag(std::uint16_t task, std::uint8_t core) {
    if (!usable(State::sample_tags)) return status_;
    u16((tag_flags_ & kTagTask) != 0 ? task : kNoTask);
    u8((tag_flags_ & kTagCore) != 0 ? core : 0);
    return item_done();
  }

  // TASK_COUNTS chunk (1.5): one task's counts while it was current (kNoTask: while none was),
  // one per counter in counters() order; after counters(), at most once per task id (the writer
  // remembers kTrackedTasks ids to refuse a repeat; the decoder checks them all).
  Status task_counts(std::uint16_t task, std::uint64_t switches_in, const std::uint64_t* counts, std::size_t n) {
    if (!usable(State::open)) return status_;
    if (!have_counters_) return fail(Status::out_of_order);
    if (n != num_counters_) return fail(Status::stats_mismatch);
    if (n != 0 && counts == nullptr) return fail(Status::bad_argument);
    for (std::size_t i = 0; i < tasks_counted_ && i < kTrackedTasks; ++i)
      if (counted_[i] == task) return fail(Status::out_of_order);
    chunk(ChunkType::task_counts, 2 + 8 + 1 + 8u * n);
    u16(task);
    u64(switches_in);
    u8(static_cast<std::uint8_t>(n));
    for (std::size_t i = 0; i < n; ++i) u64(counts[i]);
    if (tasks_counted_ < kTrackedTasks) counted_[tasks_counted_] = task;
    if (tasks_counted_ < 0xFFFF) ++tasks_counted_;
    return status_;
  }

  // CORE chunk (1.5): the core that wrote this dump (number < cores), at most once.
  Status core(std::uint8_t number, std::uint8_t cores) {
    if (!usable(State::open)) return status_;
    if (have_core_) return fail(Status::out_of_order);
    if (cores == 0 || number >= cores) return fail(Status::bad_argument);
    chunk(ChunkType::core, 2);
    u8(number);
    u8(cores);
    have_core_ = true;
    return status_;
  }

  // IMAGE chunk: the ELF machine, the build-id and the code CRC (each optional).
  Status image(const ImageInfo& im) {
    if (!usable(State::open)) return status_;
    if (im.build_id_len > kMaxBuildId || (im.build_id_len != 0 && im.build_id == nullptr) ||
        im.code_hi < im.code_lo)
      return fail(Status::bad_argument);
    const bool range = im.code_hi != im.code_lo;
    if (range && (!fits_address(im.code_lo) || !fits_address(im.code_hi))) return fail(Status::address_too_wide);
    chunk(ChunkType::image, 2 + 1 + im.build_id_len + 1 + (range ? 2u * address_bytes_ + 4 : 0));
    u16(im.elf_machine);
    u8(im.build_id_len);
    bytes(im.build_id, im.build_id_len);
    u8(range ? 1 : 0);
    if (range) {
      address(im.code_lo);
      address(im.code_hi);
      u32(im.code_crc);
    }
    return status_;
  }

  // SAMPLE_SOURCE chunk.
  Status sample_source(const SampleSourceInfo& s) {
    if (!usable(State::open)) return status_;
    chunk(ChunkType::sample_source, 1 + 1 + 8 + 8);
    u8(static_cast<std::uint8_t>(s.kind));
    u8(s.counter_slot);
    u64(s.period);
    u64(s.dropped);
    return status_;
  }

  // SAMPLES chunk: announce `count` records, then call sample() exactly `count` times.
  // lr is 0 where the target has no link register (x86) or it was not captured.
  Status begin_samples(std::uint32_t count) {
    return begin_items(ChunkType::samples, State::samples, count, 2u * address_bytes_);
  }
  Status sample(std::uint64_t pc, std::uint64_t lr) {
    if (!usable(State::samples)) return status_;
    if (!fits_address(pc) || !fits_address(lr)) return fail(Status::address_too_wide);
    address(pc);
    address(lr);
    return item_done();
  }

  // HISTOGRAM chunk: announce `count` bins, then call bin() exactly `count` times.
  Status begin_histogram(std::uint32_t count) {
    return begin_items(ChunkType::histogram, State::histogram, count, address_bytes_ + 4u);
  }
  Status bin(std::uint64_t pc, std::uint32_t count) {
    if (!usable(State::histogram)) return status_;
    if (!fits_address(pc)) return fail(Status::address_too_wide);
    address(pc);
    u32(count);
    return item_done();
  }

  // TRACE chunk (1.2): region timings for a timeline. `region` is the index of the event's REGION
  // chunk in the order they were written (so after them); begin and end are the first counter's
  // values. Announce `count` events and how many the firmware's trace dropped, then call
  // trace_event() exactly `count` times.
  Status begin_trace(std::uint32_t count, std::uint64_t dropped) {
    if (begin_items(ChunkType::trace, State::trace, count, 2 + 8 + 8, 8) == Status::ok) u64(dropped);
    return status_;
  }
  Status trace_event(std::uint16_t region, std::uint64_t begin, std::uint64_t end) {
    if (!usable(State::trace)) return status_;
    if (region >= regions_written_) return fail(Status::bad_argument);
    u16(region);
    u64(begin);
    u64(end);
    return item_done();
  }

  // STACKS chunk (1.2): samples with the registers an unwinder starts from and the stack above the
  // stack pointer, as it was in memory. Announce `count` samples, the sum of their stack bytes and
  // how many the capture dropped (1.3: written after the samples), then call stack_sample() exactly
  // `count` times with exactly that many bytes in all.
  Status begin_stacks(std::uint32_t count, std::uint64_t stack_bytes, std::uint64_t dropped) {
    return begin_items(ChunkType::stacks, State::stacks, count, 4u * address_bytes_ + 2, 0, stack_bytes, 1, &dropped);
  }
  Status stack_sample(std::uint64_t pc, std::uint64_t lr, std::uint64_t sp, std::uint64_t fp,
                      const std::uint8_t* stack, std::uint16_t n) {
    if (!usable(State::stacks)) return status_;
    if (!fits_address(pc) || !fits_address(lr) || !fits_address(sp) || !fits_address(fp))
      return fail(Status::address_too_wide);
    if (!take_units(n)) return fail(Status::count_mismatch);
    if (n != 0 && stack == nullptr) return fail(Status::bad_argument);
    address(pc);
    address(lr);
    address(sp);
    address(fp);
    u16(n);
    bytes(stack, n);
    return item_done();
  }

  // FRAMES chunk (1.2): samples with the call chain the target walked (profiler/frame_walk.hpp):
  // the pc, then return addresses, and whether the chain ended (complete) or the walk stopped.
  // Announce `count` samples, the sum of their addresses and how many the walk's ring dropped (1.3:
  // written after the samples), then call frame_sample() exactly `count` times with exactly that
  // many addresses in all.
  Status begin_frames(std::uint32_t count, std::uint64_t addresses, std::uint64_t dropped) {
    return begin_items(ChunkType::frames, State::frames, count, 2, 0, addresses, address_bytes_, &dropped);
  }
  Status frame_sample(const std::uint32_t* pcs, std::uint8_t n, bool complete) {
    if (!usable(State::frames)) return status_;
    if (n == 0 || !take_units(n)) return fail(Status::count_mismatch);
    if (pcs == nullptr) return fail(Status::bad_argument);
    u8(n);
    u8(complete ? 1 : 0);
    for (std::uint8_t i = 0; i < n; ++i) address(pcs[i]);
    return item_done();
  }

  // END chunk with the CRC-32 of every byte before the CRC value; then the sink's close().
  Status finish() {
    if (in_items(state_)) return fail(Status::count_mismatch);
    if (!usable(State::open)) return status_;
    chunk(ChunkType::end, 4);
    u32(crc_.value());
    flush();
    state_ = State::done;
    if (status_ == Status::ok && sink_.close != nullptr) sink_.close(sink_.ctx);
    return status_;
  }

  Status status() const { return status_; }
  // Bytes the sink has taken so far (after finish(): the whole dump).
  std::uint64_t bytes_written() const { return written_; }

 private:
  // fresh, open and done; every other state is inside a chunk of announced items.
  enum class State : std::uint8_t { fresh, open, samples, histogram, trace, stacks, frames, sample_tags, done };
  static constexpr bool in_items(State s) { return s != State::fresh && s != State::open && s != State::done; }

  bool usable(State expected) {
    if (status_ != Status::ok) return false;
    if (state_ != expected) {
      if ((in_items(state_) && expected == State::open) || (in_items(expected) && state_ == State::open))
        fail(Status::count_mismatch);
      else
        fail(Status::out_of_order);
      return false;
    }
    return true;
  }
  Status fail(Status s) {
    if (status_ == Status::ok) status_ = s;
    return status_;
  }

  // A chunk of `count` items: u32 count, `header` more bytes the caller writes next, the items of
  // item_size bytes each, and `units` variable parts of unit_size bytes shared among the items
  // (STACKS: stack bytes, FRAMES: addresses), each item taking its share through take_units();
  // then, where given, a u64 `trailer` after the last item (STACKS, FRAMES: the dropped count).
  Status begin_items(ChunkType type, State items, std::uint32_t count, std::uint32_t item_size,
                     std::uint32_t header = 0, std::uint64_t units = 0, std::uint32_t unit_size = 0,
                     const std::uint64_t* trailer = nullptr) {
    if (!usable(State::open)) return status_;
    const std::uint64_t len =
        4 + header + std::uint64_t{count} * item_size + units * unit_size + (trailer != nullptr ? 8 : 0);
    if (len > 0xFFFFFFFFu) return fail(Status::too_large);
    if (count == 0 && units != 0) return fail(Status::count_mismatch);
    chunk(type, len);
    u32(count);
    // A sample chunk's tags may follow it, with its count (chunk() cleared taggable_).
    if (type == ChunkType::samples || type == ChunkType::stacks || type == ChunkType::frames) {
      taggable_ = true;
      tag_count_ = count;
    }
    items_left_ = count;
    units_left_ = units;
    has_trailer_ = trailer != nullptr;
    trailer_ = has_trailer_ ? *trailer : 0;
    if (count != 0)
      state_ = items;
    else
      write_trailer();
    return status_;
  }
  void write_trailer() {
    if (has_trailer_) u64(trailer_);
    has_trailer_ = false;
  }
  // An item's n units: no more than are left, and the last item takes all that remain.
  bool take_units(std::uint64_t n) {
    if (n > units_left_ || (items_left_ == 1 && n != units_left_)) return false;
    units_left_ -= n;
    return true;
  }
  Status item_done() {
    if (--items_left_ == 0) {
      state_ = State::open;
      write_trailer();
    }
    return status_;
  }

  bool fits_address(std::uint64_t a) const { return address_bytes_ == 8 || a <= 0xFFFFFFFFu; }

  static std::size_t str_size(const char* s) {
    std::size_t n = 0;
    if (s != nullptr)
      while (s[n] != '\0' && n <= kMaxString) ++n;
    return n;
  }

  void chunk(ChunkType type, std::uint64_t payload_len) {
    if (payload_len > 0xFFFFFFFFu) {
      fail(Status::too_large);
      return;
    }
    taggable_ = false;
    u16(static_cast<std::uint16_t>(type));
    u16(0);
    u32(static_cast<std::uint32_t>(payload_len));
  }

  // Out of line, like uint(): inlined into every field they would make the writer tens of KB.
  [[gnu::noinline]] void bytes(const std::uint8_t* p, std::size_t n) {
    if (status_ != Status::ok) return;
    crc_.update(p, n);
    for (std::size_t i = 0; i < n && status_ == Status::ok; ++i) {
      block_[fill_++] = p[i];
      if (fill_ == kBlockSize) flush();
    }
  }
  void flush() {
    if (fill_ != 0 && status_ == Status::ok) {
      if (sink_.write(sink_.ctx, block_, fill_))
        written_ += fill_;
      else
        fail(Status::sink_failed);
    }
    fill_ = 0;
  }
  // Unsigned integer of `n` bytes in the writer's byte order.
  [[gnu::noinline]] void uint(std::uint64_t v, unsigned n) {
    std::uint8_t b[8];
    for (unsigned i = 0; i < n; ++i) {
      const unsigned shift = 8 * (order_ == ByteOrder::big ? n - 1 - i : i);
      b[i] = static_cast<std::uint8_t>(v >> shift);
    }
    bytes(b, n);
  }
  void u8(std::uint8_t v) { bytes(&v, 1); }
  void u16(std::uint16_t v) { uint(v, 2); }
  void u32(std::uint32_t v) { uint(v, 4); }
  void u64(std::uint64_t v) { uint(v, 8); }
  void address(std::uint64_t v) { uint(v, address_bytes_); }
  void str(const char* s, std::size_t n) {
    u8(static_cast<std::uint8_t>(n));
    if (n != 0) bytes(reinterpret_cast<const std::uint8_t*>(s), n);
  }

  static constexpr std::size_t kBlockSize = 64;
  static constexpr std::size_t kTrackedTasks = 16;  // TASK_COUNTS ids remembered to refuse a repeat

  Sink sink_;
  ByteOrder order_;
  std::uint8_t block_[kBlockSize] = {};
  std::size_t fill_ = 0;
  Crc32 crc_{};
  std::uint64_t units_left_ = 0;  // begin_items: variable parts announced, not yet written
  std::uint64_t trailer_ = 0;     // begin_items: written after the last item, where has_trailer_
  bool has_trailer_ = false;
  std::uint32_t regions_written_ = 0;  // REGION chunks so far: what a trace event may name
  Status status_ = Status::ok;
  State state_ = State::fresh;
  std::uint8_t address_bytes_ = 4;
  std::uint8_t num_counters_ = 0;
  bool have_counters_ = false;
  std::uint8_t num_mux_events_ = 0;
  bool have_mux_ = false;
  std::uint32_t items_left_ = 0;
  bool have_tasks_ = false;
  bool have_core_ = false;
  bool taggable_ = false;        // the last chunk was SAMPLES, STACKS or FRAMES: tags may follow
  std::uint8_t tag_flags_ = 0;   // begin_sample_tags()' flags
  std::uint32_t tag_count_ = 0;  // that chunk's count
  std::uint16_t tasks_counted_ = 0;  // TASK_COUNTS chunks so far
  std::uint16_t counted_[kTrackedTasks] = {};  // the first kTrackedTasks of their ids
  std::uint64_t written_ = 0;
};

}  // namespace pmu::dump
