#pragma once
// A decoded profile dump: what the firmware wrote, in host types. Filled by decode_dump().
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pmukit {

enum class ByteOrder { little, big };

struct Target {
  std::string id;   // "xscale"
  std::string pmu;  // "xscale-xsc2"
  std::uint64_t counter_clock_hz = 0;
  unsigned counter_width_bits = 0;
  unsigned address_bytes = 4;
};

struct Counter {
  unsigned slot = 0;
  unsigned width_bits = 0;
  std::uint32_t event_code = 0;
  std::string name;
  std::string preset;  // empty: a raw event
};

struct CounterStats {
  std::uint64_t total = 0, min = 0, max = 0;
  std::uint64_t overhead = 0;  // per call, already subtracted from total/min/max
};

struct Region {
  std::string name;
  std::uint64_t calls = 0;
  std::vector<CounterStats> stats;  // one per Dump::counters entry, same order
  // Calls that added 0: below the calibrated overhead, or across a reset of the counters (1.3;
  // absent from a 1.2 dump: unknown).
  std::optional<std::uint64_t> clamped, voided;
  // Sampling interrupts that fell inside its calls: their handlers' events are in the counts (1.3).
  std::optional<std::uint64_t> interrupts;
};

// One multiplexed event (MUX_EVENTS chunk, format 1.4): rotated onto the counters with the others.
struct MuxEvent {
  std::uint32_t event_code = 0;
  std::uint32_t qualifier = 0;  // the EventConfig's qualifier (e500 threshold, ...); 0: none
  std::uint32_t options = 0;
  std::string name;
  std::string preset;           // empty: a raw event
  unsigned flags = 0;           // bit 0: pinned (never rotated out); the others reserved
  bool pinned() const { return (flags & 1u) != 0; }
};

struct MuxEvents {
  std::uint64_t clock_hz = 0;   // the clock enabled and running count in; 0: unknown
  std::uint64_t rotations = 0;  // group rotations the firmware did
  std::vector<MuxEvent> events;
};

// One event's counts in a multiplexed region: what it counted while on a counter (raw), the
// clock ticks the region ran with the multiplexing enabled, and those with this event on a
// counter (running <= enabled; the decoder checks). The estimate is raw * enabled / running.
struct MuxValue {
  std::uint64_t raw = 0, enabled = 0, running = 0;
};

struct MuxRegion {
  std::string name;
  unsigned flags = 0;           // bit 0: the whole run; the others reserved
  std::uint64_t calls = 0;
  std::vector<MuxValue> values;  // one per MuxEvents::events entry, same order
  bool whole_run() const { return (flags & 1u) != 0; }
};

struct SampleSource {
  unsigned kind = 0;          // pmu::dump::SampleSourceKind value (unknown values kept)
  unsigned counter_slot = 0;  // 0xFF for a timer
  std::uint64_t period = 0;   // events (pmu overflow) or nanoseconds (timer)
  std::uint64_t dropped = 0;
};

// Who ran a sample (SAMPLE_TAGS chunk, format 1.5): the task current when it was taken (kNoTask:
// none, or the chunk carried no task ids) and the core that took it (0 when not carried). A sample
// chunk without SAMPLE_TAGS is untagged: no task, core 0.
inline constexpr std::uint16_t kNoTask = 0xFFFF;
struct Tag {
  std::uint16_t task = kNoTask;
  std::uint8_t core = 0;
  auto operator<=>(const Tag&) const = default;
};

struct Sample {
  std::uint64_t pc = 0;
  std::uint64_t lr = 0;  // 0: none
  Tag tag;
  Sample() = default;
  Sample(std::uint64_t pc_, std::uint64_t lr_, Tag tag_ = {}) : pc(pc_), lr(lr_), tag(tag_) {}
};

// One distinct (pc, lr, tag) of the sample chunks and how many records had it.
struct SampleCount {
  std::uint64_t pc = 0;
  std::uint64_t lr = 0;
  std::uint64_t count = 0;
  Tag tag;
  SampleCount() = default;
  SampleCount(std::uint64_t pc_, std::uint64_t lr_, std::uint64_t count_, Tag tag_ = {})
      : pc(pc_), lr(lr_), count(count_), tag(tag_) {}
};

// A task the firmware knew (TASKS chunk, format 1.5).
struct Task {
  std::uint16_t id = 0;
  std::string name;
};

// One task's share of the counters while it was current (TASK_COUNTS chunk, format 1.5); task
// kNoTask: the time no task was current.
struct TaskCounts {
  std::uint16_t task = kNoTask;
  std::uint64_t switches_in = 0;
  std::vector<std::uint64_t> counts;  // one per Dump::counters entry, same order
};

// The core that wrote the dump, on a multi-core part (CORE chunk, format 1.5).
struct CoreInfo {
  unsigned number = 0;
  unsigned cores = 1;
};

// One region call on the timeline (TRACE chunk, format 1.2): its REGION's index in Dump::regions,
// and the first counter's values at its begin and end.
struct TraceEvent {
  std::uint32_t region = 0;
  std::uint64_t begin = 0, end = 0;
};

// A sample with its stack (STACKS chunk, format 1.2): the registers the unwinder starts from and
// the bytes that were above sp, as they were in the target's memory.
struct StackSampleRecord {
  std::uint64_t pc = 0, lr = 0, sp = 0, fp = 0;
  std::vector<std::uint8_t> stack;
  Tag tag;
};

// A sample with the call chain the target walked (FRAMES chunk, format 1.2): pcs leaf first;
// complete when the chain ended, not the walk's depth or a frame outside the stack.
struct FrameSampleRecord {
  std::vector<std::uint64_t> pcs;
  bool complete = false;
  Tag tag;
};

struct HistogramBin {
  std::uint64_t pc = 0;
  std::uint32_t count = 0;
};

// Which program wrote the dump (IMAGE chunk, format 1.1): checked against the --elf.
struct Image {
  unsigned elf_machine = 0;            // e_machine; 0: unknown
  std::vector<std::uint8_t> build_id;  // empty: none
  bool has_code = false;               // code_lo/hi/crc present
  std::uint64_t code_lo = 0, code_hi = 0;
  std::uint32_t code_crc = 0;
};

struct SkippedChunk {
  unsigned type = 0;
  unsigned flags = 0;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
};

struct Dump {
  ByteOrder byte_order = ByteOrder::little;
  unsigned version_major = 0, version_minor = 0;
  std::uint64_t size = 0;            // bytes up to and including the END chunk
  std::uint64_t trailing_bytes = 0;  // bytes after the END chunk (ignored)
  std::uint32_t crc = 0;
  Target target;
  std::vector<Counter> counters;
  std::vector<Region> regions;
  std::optional<MuxEvents> mux;          // multiplexed events (1.4), where the firmware rotated them
  std::vector<MuxRegion> mux_regions;    // their counts per region, in the dump's order
  std::optional<Image> image;
  std::optional<SampleSource> source;
  // The SAMPLES records counted per distinct (pc, lr), sorted by pc then lr: memory grows with
  // the distinct pairs, not the records. Always filled.
  std::vector<SampleCount> sample_counts;
  std::uint64_t sample_records = 0;  // records in the SAMPLES chunks (the sum of the counts)
  // The records themselves, in order: only when decoded with DecodeOptions::raw_samples.
  std::vector<Sample> samples;
  std::vector<HistogramBin> histogram;
  std::vector<TraceEvent> trace;      // region timings, where the firmware kept them
  // Samples with stacks. Each is also counted in sample_counts (its pc and lr), so every report
  // sees it; the unwinder (tools/elf/unwind.hpp) reads these.
  std::vector<StackSampleRecord> stacks;
  // Samples with walked call chains, also counted in sample_counts (pc, and the first return
  // address as lr); the profile takes their stacks as they are.
  std::vector<FrameSampleRecord> frames;
  std::uint64_t trace_dropped = 0;    // events its trace ring could not keep
  // Captures the stack and frame rings could not keep (1.3; absent from a 1.2 chunk: unknown).
  std::optional<std::uint64_t> stacks_dropped, frames_dropped;
  std::vector<SkippedChunk> skipped;  // unknown, optional chunks
  // Tasks and cores (1.5): the TASKS chunk (absent: none), the union of the SAMPLE_TAGS flags
  // (bit 0: some samples carry a task, bit 1: a core), the TASK_COUNTS chunks in the dump's order,
  // and the CORE chunk.
  std::optional<std::vector<Task>> tasks;
  unsigned tag_flags = 0;
  std::vector<TaskCounts> task_counts;
  std::optional<CoreInfo> core;

  std::uint64_t total_samples() const;  // raw records plus histogram counts
  // A task id's display name: its TASKS name, "task N" for an id TASKS does not list, "[no task]"
  // for kNoTask.
  std::string task_name(std::uint16_t id) const;
};

const char* source_kind_name(unsigned kind);  // "pmu-overflow", "timer", "unknown"

}  // namespace pmukit
