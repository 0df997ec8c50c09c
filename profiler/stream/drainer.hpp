#pragma once
// The firmware side of the live stream (docs/stream-format.md): Drainer::poll(), called from the
// idle loop (or a UART's transmit-ready interrupt), takes samples out of a prof::SampleRing and
// sends them, with the run's description and snapshots, as frames through a non-blocking byte
// sink:
//
//   static prof::SampleRing<1024> ring;                 // the sampler's sink, as for a dump
//   static pmu::stream::Drainer<prof::SampleRing<1024>> drain{ring, out, source, options};
//   for (;;) { work(); drain.poll(); }                  // or drain.poll() alone when idle
//
// One poll does bounded work: it builds at most one frame (at most kMaxBatch samples popped and
// encoded, or one HELLO, COUNTS or CHUNK) and offers the sink at most Options::max_bytes_per_poll
// bytes, taking what the sink takes without waiting. It is the ring's one consumer (thread
// context: pop, size, dropped); the sampling interrupt stays its one producer and never waits for
// it (prof::SampleRing's contract). The ring's losses go out cumulative in every SAMPLES frame.
// Frames, in priority order: HELLO first and then every 1/hello_per_s s; COUNTS and a round of
// CHUNK snapshots every 1/counts_per_s s; SAMPLES when a batch is ready or every 1/samples_per_s s.
// Freestanding, like profiler/dump/writer.hpp: no heap, no exceptions.
#include <cstddef>
#include <cstdint>

#include "profiler/dump/sink.hpp"
#include "profiler/dump/writer.hpp"
#include "profiler/sampler.hpp"
#include "profiler/stream/frame.hpp"

namespace pmu::stream {

// Non-blocking output: takes what it can of the n bytes now and returns how many (0: busy).
struct ByteSink {
  std::size_t (*try_write)(void* ctx, const std::uint8_t* data, std::size_t n);
  void* ctx;
};

// A ByteSink over a board's try_putc (a UART's transmit-ready test and one write, false when the
// transmitter is busy): as many bytes as the UART takes right now.
template <bool (*TryPutc)(char)>
std::size_t try_putc_write(void*, const std::uint8_t* data, std::size_t n) {
  std::size_t i = 0;
  while (i < n && TryPutc(static_cast<char>(data[i]))) ++i;
  return i;
}
template <bool (*TryPutc)(char)>
constexpr ByteSink putc_sink() {
  return ByteSink{&try_putc_write<TryPutc>, nullptr};
}

// What the firmware says about its run, asked from poll() (thread context).
struct Source {
  void* ctx = nullptr;
  // The dump preamble through w: begin() (TARGET), counters(), then mux_events(), sample_source(),
  // image() as the run has them; no finish(). Each HELLO carries it, and each CHUNK snapshot is
  // written after it (a REGION needs its COUNTERS). `dropped`: the ring's losses so far.
  void (*describe)(void* ctx, pmu::dump::Writer& w, std::uint64_t dropped) = nullptr;
  // Snapshot i of this round (a REGION or MUX_REGION) through w; false: no snapshot i. Optional.
  bool (*snapshot)(void* ctx, std::size_t i, pmu::dump::Writer& w) = nullptr;
  // The counters' 64-bit totals so far, in COUNTERS order, into out (at most max); returns how
  // many. Optional (no COUNTS frames without it).
  std::size_t (*counts)(void* ctx, std::uint64_t* out, std::size_t max) = nullptr;
  // A free-running clock wrapping at 2^32, in the TARGET chunk's counter clock ticks, and its rate.
  // poll() extends it to 64 bits: call poll() at least once per wrap. Needed for the periodic
  // frames (HELLO at least once a second, COUNTS, snapshots, partial SAMPLES batches).
  std::uint32_t (*clock)(void* ctx) = nullptr;
  std::uint64_t clock_hz = 0;
};

struct Options {
  std::uint32_t boot_id = 0;           // a different one at each start (e.g. the clock at boot)
  bool with_lr = true;                 // SAMPLES carry lr - pc (false where there is no lr: x86)
  bool sort = true;                    // sort a frame's samples by pc: shorter deltas
  std::uint32_t hello_per_s = 2;       // the spec asks for at least 1
  std::uint32_t counts_per_s = 4;      // COUNTS and the CHUNK snapshots
  std::uint32_t samples_per_s = 20;    // a partial SAMPLES frame at least this often (latency)
  std::size_t max_bytes_per_poll = 32; // bytes offered to the sink per poll
  pmu::dump::ByteOrder order = pmu::dump::native_byte_order();  // the dump bytes' (the target's)
};

// Samples per SAMPLES frame: 96 of at most 5 + 5 bytes (a 32-bit pc delta and lr - pc, zigzagged)
// plus dropped (<= 10), count (<= 2) and flags (1) stay under the 1024-byte payload.
inline constexpr std::size_t kMaxBatch = 96;
inline constexpr std::size_t kMaxCounts = 32;

struct DrainStats {
  std::uint64_t frames[5] = {};     // by type (index = FrameType)
  std::uint64_t samples = 0;        // samples sent
  std::uint64_t bytes = 0;          // bytes the sink took
  std::uint64_t busy_polls = 0;     // polls the sink took nothing
  std::uint64_t encode_errors = 0;  // a preamble or snapshot that did not fit a frame (not sent)
  std::uint64_t dropped = 0;        // the ring's losses as last sent
};

namespace detail {
// Counts the bytes a dump writer produces, keeps none.
struct CountSink {
  std::size_t n = 0;
  pmu::dump::Sink sink() { return {&put, this}; }
  static bool put(void* ctx, const std::uint8_t*, std::size_t size) {
    static_cast<CountSink*>(ctx)->n += size;
    return true;
  }
};
// Keeps the bytes after the first `skip` (those after a known preamble) in [data, data + capacity).
struct SkipSink {
  std::size_t skip;
  std::uint8_t* data;
  std::size_t capacity;
  std::size_t size = 0;
  pmu::dump::Sink sink() { return {&put, this}; }
  static bool put(void* ctx, const std::uint8_t* p, std::size_t n) {
    auto* s = static_cast<SkipSink*>(ctx);
    for (std::size_t i = 0; i < n; ++i) {
      if (s->skip != 0) {
        --s->skip;
        continue;
      }
      if (s->size == s->capacity) return false;
      s->data[s->size++] = p[i];
    }
    return true;
  }
};
inline constexpr std::size_t kEndChunkSize = pmu::dump::kChunkHeaderSize + 4;  // END and its CRC
}  // namespace detail

template <class Ring>
class Drainer {
 public:
  Drainer(Ring& ring, ByteSink out, const Source& src, const Options& opt = {})
      : ring_(ring), out_(out), src_(src), opt_(opt) {
    hello_every_ = interval(opt.hello_per_s);
    counts_every_ = interval(opt.counts_per_s);
    samples_every_ = interval(opt.samples_per_s);
  }

  // One step: send what is pending, else build the next frame that is due and start sending it.
  void poll() {
    const std::uint64_t now = clock();
    if (pending()) {
      push();
      return;
    }
    if (!build(now)) return;
    push();
  }

  // The frame being sent has not all gone out yet.
  bool pending() const { return sent_ < frame_.size(); }
  const DrainStats& stats() const { return stats_; }
  std::uint16_t next_sequence() const { return seq_; }

 private:
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};

  // Without a clock (clock_hz 0) nothing is periodic: one HELLO, then full SAMPLES batches only.
  std::uint64_t interval(std::uint32_t per_s) const {
    return per_s == 0 || src_.clock_hz == 0 ? kNever : src_.clock_hz / per_s;
  }
  std::uint64_t clock() {
    if (src_.clock == nullptr) return 0;
    const std::uint32_t c = src_.clock(src_.ctx);
    if (c < last_clock_) clock_hi_ += std::uint64_t{1} << 32;
    last_clock_ = c;
    return clock_hi_ | c;
  }
  static bool due(std::uint64_t now, std::uint64_t last, std::uint64_t every) {
    return every != kNever && now - last >= every;
  }

  bool build(std::uint64_t now) {
    if (!started_ || due(now, last_hello_, hello_every_)) {
      started_ = true;
      last_hello_ = now;
      return hello();
    }
    if (due(now, last_counts_, counts_every_)) {
      last_counts_ = now;
      snapshot_next_ = 0;
      snapshots_due_ = src_.snapshot != nullptr;
      if (src_.counts != nullptr) return counts(now);
    }
    while (snapshots_due_) {  // one snapshot per frame; one that does not fit is counted, skipped
      if (chunk()) return true;
    }
    const std::size_t waiting = ring_.size();
    if (waiting >= kMaxBatch ||
        ((waiting != 0 || ring_.dropped() != stats_.dropped) && due(now, last_samples_, samples_every_))) {
      last_samples_ = now;
      return samples();
    }
    return false;
  }

  void seal(FrameType t) {
    frame_.seal(seq_++);
    sent_ = 0;
    ++stats_.frames[static_cast<unsigned>(t)];
  }

  bool hello() {
    frame_.begin(FrameType::hello);
    frame_.u8(kStreamVersion);
    frame_.u32le(opt_.boot_id);
    pmu::dump::BufferSink buf{frame_.tail(), frame_.room()};
    pmu::dump::Writer w(buf.sink(), opt_.order);
    if (src_.describe != nullptr) src_.describe(src_.ctx, w, ring_.dropped());
    if (w.finish() != pmu::dump::Status::ok || buf.size < detail::kEndChunkSize) {
      ++stats_.encode_errors;
      return false;
    }
    frame_.commit(buf.size - detail::kEndChunkSize);  // the preamble, without END
    seal(FrameType::hello);
    return true;
  }

  // Snapshot snapshot_next_: the chunk's bytes are what a writer produces after the preamble.
  bool chunk() {
    const std::size_t i = snapshot_next_++;
    detail::CountSink head;
    {
      pmu::dump::Writer w(head.sink(), opt_.order);
      if (src_.describe != nullptr) src_.describe(src_.ctx, w, 0);
      w.finish();
    }
    frame_.begin(FrameType::chunk);
    detail::SkipSink body{head.n - detail::kEndChunkSize, frame_.tail(), frame_.room()};
    pmu::dump::Writer w(body.sink(), opt_.order);
    if (src_.describe != nullptr) src_.describe(src_.ctx, w, 0);
    if (!src_.snapshot(src_.ctx, i, w)) {
      snapshots_due_ = false;
      return false;
    }
    if (w.finish() != pmu::dump::Status::ok || body.size <= detail::kEndChunkSize) {
      ++stats_.encode_errors;
      return false;
    }
    frame_.commit(body.size - detail::kEndChunkSize);
    seal(FrameType::chunk);
    return true;
  }

  bool counts(std::uint64_t now) {
    std::uint64_t v[kMaxCounts];
    const std::size_t n = src_.counts(src_.ctx, v, kMaxCounts);
    frame_.begin(FrameType::counts);
    frame_.varint(src_.clock_hz);  // the rate of `now` (docs/stream-format.md, COUNTS)
    frame_.varint(now);
    frame_.varint(n);
    for (std::size_t i = 0; i < n; ++i) frame_.varint(v[i]);  // 32 x 10 bytes: always fits
    seal(FrameType::counts);
    return true;
  }

  bool samples() {
    std::size_t n = 0;
    while (n < kMaxBatch && ring_.pop(batch_[n])) ++n;
    // Read after the pops: every loss before these samples (and those the pops skipped) is in it.
    const std::uint64_t dropped = ring_.dropped();
    if (opt_.sort) sort(n);
    frame_.begin(FrameType::samples);
    frame_.varint(dropped);
    frame_.varint(n);
    frame_.u8(opt_.with_lr ? kSamplesHaveLr : 0);
    std::uint32_t prev = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const prof::Sample& s = batch_[i];
      frame_.svarint(static_cast<std::int64_t>(s.pc) - static_cast<std::int64_t>(prev));
      if (opt_.with_lr) frame_.svarint(static_cast<std::int64_t>(s.lr) - static_cast<std::int64_t>(s.pc));
      prev = s.pc;
    }
    stats_.samples += n;
    stats_.dropped = dropped;
    seal(FrameType::samples);
    return true;
  }

  // Shell sort by pc (Ciura's gaps): n <= 96, no recursion, no extra memory.
  void sort(std::size_t n) {
    static constexpr std::size_t kGaps[] = {57, 23, 10, 4, 1};
    for (const std::size_t gap : kGaps) {
      for (std::size_t i = gap; i < n; ++i) {
        const prof::Sample s = batch_[i];
        std::size_t j = i;
        while (j >= gap && batch_[j - gap].pc > s.pc) {
          batch_[j] = batch_[j - gap];
          j -= gap;
        }
        batch_[j] = s;
      }
    }
  }

  void push() {
    std::size_t n = frame_.size() - sent_;
    if (n > opt_.max_bytes_per_poll) n = opt_.max_bytes_per_poll;
    const std::size_t took = out_.try_write(out_.ctx, frame_.bytes() + sent_, n);
    if (took == 0) ++stats_.busy_polls;
    sent_ += took;
    stats_.bytes += took;
  }

  Ring& ring_;
  ByteSink out_;
  Source src_;
  Options opt_;
  Frame frame_;
  std::size_t sent_ = 0;
  std::uint16_t seq_ = 0;
  bool started_ = false;
  bool snapshots_due_ = false;
  std::size_t snapshot_next_ = 0;
  std::uint32_t last_clock_ = 0;
  std::uint64_t clock_hi_ = 0;
  std::uint64_t last_hello_ = 0, last_counts_ = 0, last_samples_ = 0;
  std::uint64_t hello_every_ = kNever, counts_every_ = kNever, samples_every_ = kNever;
  prof::Sample batch_[kMaxBatch] = {};
  DrainStats stats_;
};

}  // namespace pmu::stream
