#pragma once
// The streaming example (docs/stream-format.md), the same on every board: the three workloads run forever
// (or for STREAM_SECONDS of the board's clock) in small pieces, each piece a region, the board's
// timer samples them into a ring, and between pieces the idle loop's Drainer::poll() streams
// HELLO, SAMPLES, COUNTS and the regions' CHUNK snapshots (docs/stream-format.md) over the console
// UART without ever waiting for it. The board's file gives a struct of static members:
//
//   struct MyBoard {
//     static constexpr const char* kTarget = "xscale";   // the dump's target id
//     static constexpr bool kWithLr = true;               // false where there is no lr (x86)
//     static constexpr std::uint64_t kClockHz = ...;      // clock()'s rate
//     static std::uint32_t clock();                       // free-running, wraps at 2^32
//     static std::size_t try_write(const std::uint8_t*, std::size_t);  // UART: what it takes now
//     static bool tick_start(std::uint32_t hz, void (*)(std::uint32_t pc, std::uint32_t lr));
//     static void irq_enable();
//     [[noreturn]] static void exit(int code);
//   };
//   int main() { board::init(); return examples::stream_run<MyBoard, Backend>(); }
//
// STREAM_SAMPLE_HZ (default 2000): the timer's rate. STREAM_PACE_BAUD (default 0: none): send no
// faster than a UART at that baud rate (8N1, 10 bits a byte) would, timed by the board's clock,
// for QEMU's UART, which takes every byte at once. STREAM_SORT (default 1): sort each SAMPLES
// frame's samples by pc. STREAM_SECONDS (default 0: forever).
#include <cstddef>
#include <cstdint>

#include "examples/common/workloads.hpp"
#include "profiler/dump/image.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"
#include "profiler/stream/drainer.hpp"

#ifndef STREAM_SAMPLE_HZ
#define STREAM_SAMPLE_HZ 2000
#endif
#ifndef STREAM_PACE_BAUD
#define STREAM_PACE_BAUD 0
#endif
#ifndef STREAM_SORT
#define STREAM_SORT 1
#endif
#ifndef STREAM_SECONDS
#define STREAM_SECONDS 0
#endif

namespace examples::stream {

inline constexpr std::uint32_t kSampleHz = STREAM_SAMPLE_HZ;
inline constexpr std::uint32_t kPaceBaud = STREAM_PACE_BAUD;
inline constexpr std::uint32_t kSeconds = STREAM_SECONDS;
inline constexpr unsigned kRegions = 3;

template <class Board, prof::Backend B>
struct Run {
  using Ring = prof::SampleRing<1024>;
  static inline prof::Profiler<B> profiler;
  static inline Ring ring;
  static inline prof::Sampler<B, Ring> sampler{profiler, ring};
  static inline prof::Regions<B> regions{profiler};
  static inline prof::RegionStats<B> stats[kRegions];
  static inline pmu::dump::ImageInfo image{};  // this_image() once: its code CRC reads the whole image
  static inline std::uint32_t line_free = 0;  // pacing: the clock when the line has sent all it took

  static void on_tick(std::uint32_t pc, std::uint32_t lr) { sampler.on_timer_tick(pc, lr); }

  static std::size_t write(void*, const std::uint8_t* p, std::size_t n) {
    if constexpr (kPaceBaud != 0) {
      // A 16-byte FIFO emptied onto a line at kPaceBaud: what it has room for now.
      constexpr std::uint32_t per_byte = static_cast<std::uint32_t>(Board::kClockHz * 10 / kPaceBaud);
      constexpr std::uint32_t kFifo = 16;
      const std::uint32_t now = Board::clock();
      if (static_cast<std::int32_t>(line_free - now) < 0) line_free = now;
      const std::uint32_t queued = (line_free - now + per_byte - 1) / per_byte;
      if (queued >= kFifo) return 0;
      if (n > kFifo - queued) n = kFifo - queued;
      const std::size_t took = Board::try_write(p, n);
      line_free += static_cast<std::uint32_t>(took) * per_byte;
      return took;
    } else {
      return Board::try_write(p, n);
    }
  }

  static void describe(void*, pmu::dump::Writer& w, std::uint64_t dropped) {
    constexpr unsigned kMax = prof::Profiler<B>::kMaxCounters;
    const unsigned n = profiler.counters_added();
    pmu::dump::CounterInfo c[kMax]{};
    unsigned width = 0;
    for (unsigned i = 0; i < n; ++i) {
      const prof::Counter h{static_cast<std::uint8_t>(i)};
      const unsigned s = profiler.slot_of(h), bits = prof::register_bits(B::width(s));
      const char* preset = profiler.preset_of(h);
      c[i] = {static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(bits), profiler.event_of(h).code,
              profiler.event_name(h), preset ? preset : ""};
      if (bits > width) width = bits;
    }
    // The PMU's clock rate is not known here (0, as the profile examples say); COUNTS carry the
    // board clock's own rate (time_hz).
    w.begin({Board::kTarget, B::catalog.id, 0, static_cast<std::uint8_t>(width), 4});
    w.counters(c, n);
    w.sample_source({pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter, 1'000'000'000u / kSampleHz, dropped});
    w.image(image);
  }
  static bool snapshot(void*, std::size_t i, pmu::dump::Writer& w) {
    if (i >= kRegions) return false;
    constexpr unsigned kMax = prof::Profiler<B>::kMaxCounters;
    const unsigned n = profiler.counters_added();
    pmu::dump::CounterStats cs[kMax]{};
    const prof::RegionStats<B>& r = stats[i];
    for (unsigned k = 0; k < n; ++k) cs[k] = {r.total[k], r.min[k], r.max[k], regions.overhead(k)};
    w.region({r.name, r.calls, cs, n, r.clamped, r.voided, r.interrupts});
    return true;
  }
  // 64-bit totals: the timer samples, no PMU interrupt folds, so the counters' overflows are
  // folded here (at least once per wrap: COUNTS go out every second, CCNT wraps in 4.3 s at 1 GHz).
  // No counter added (a PMU that probe() found absent, QEMU's e500): no fold, which would read the
  // PMU's status (a trap there).
  static std::size_t counts(void*, std::uint64_t* out, std::size_t max) {
    const unsigned n = profiler.counters_added();
    if (n != 0) (void)profiler.fold();
    std::size_t k = 0;
    for (; k < n && k < max; ++k) out[k] = profiler.read(prof::Counter{static_cast<std::uint8_t>(k)});
    return k;
  }
  static std::uint32_t clock(void*) { return Board::clock(); }

  // Console text after the stream (a bounded run's figures): bytes outside frames, which a
  // decoder skips and counts.
  static void say(const char* s) {
    while (*s)
      if (Board::try_write(reinterpret_cast<const std::uint8_t*>(s), 1) == 1) ++s;
  }
  static void say(std::uint64_t v) {
    char b[21];
    unsigned n = 0;
    do b[n++] = static_cast<char>('0' + v % 10);
    while ((v /= 10) != 0);
    char r[22];
    for (unsigned i = 0; i < n; ++i) r[i] = b[n - 1 - i];
    r[n] = 0;
    say(r);
  }

  static int main() {
    if (profiler.probe().status == pmu::Status::ok) {
      prof::Counter c;
      profiler.add(pmu::Preset::cycles, c);
      profiler.add(pmu::Preset::instructions, c);
      profiler.start();
    }
    image = pmu::dump::this_image();
    regions.calibrate();
    stats[0].name = "crc32";
    stats[1].name = "sort";
    stats[2].name = "fib";
    work::fill();

    pmu::stream::Source src;
    src.describe = &describe;
    src.snapshot = &snapshot;
    src.counts = &counts;
    src.clock = &clock;
    src.clock_hz = Board::kClockHz;
    pmu::stream::Options opt;
    opt.boot_id = Board::clock();
    opt.with_lr = Board::kWithLr;
    opt.sort = STREAM_SORT != 0;
    opt.counts_per_s = 1;          // COUNTS and the 3 regions' snapshots: ~320 bytes a second
    opt.max_bytes_per_poll = 16;  // a 16550's transmit FIFO
    static pmu::stream::Drainer<Ring> drain{ring, {&write, nullptr}, src, opt};

    if (!Board::tick_start(kSampleHz, &on_tick)) Board::exit(1);
    Board::irq_enable();
    const std::uint32_t start = Board::clock();
    std::uint64_t elapsed = 0;
    std::uint32_t last = start;
    std::uint32_t seed = 1;
    // The board clock's ticks inside poll(): all of them, and those of the polls that built a
    // SAMPLES frame (popped, sorted, encoded, sealed and sent the first bytes of it).
    std::uint64_t poll_ticks = 0, samples_ticks = 0;
    const auto poll = [&] {
      const std::uint64_t frames = drain.stats().frames[static_cast<unsigned>(pmu::stream::FrameType::samples)];
      const std::uint32_t t0 = Board::clock();
      drain.poll();
      const std::uint32_t t = Board::clock() - t0;
      poll_ticks += t;
      if (drain.stats().frames[static_cast<unsigned>(pmu::stream::FrameType::samples)] != frames) samples_ticks += t;
    };
    for (;;) {
      // Pieces of a few thousand instructions each, a poll between any two.
      {
        prof::Region r(regions, stats[0]);
        work::sink = work::crc32(work::buffer + (seed & 7) * 256, 256);
      }
      poll();
      {
        prof::Region r(regions, stats[1]);
        for (std::uint32_t i = 0; i < 16; ++i) work::table[i] = (seed = seed * 1103515245u + 12345u) >> 8;
        work::insertion_sort(work::table, 16);
      }
      poll();
      {
        prof::Region r(regions, stats[2]);
        work::sink = work::fib(10 + (seed & 3));
      }
      poll();
      const std::uint32_t now = Board::clock();
      elapsed += now - last;
      last = now;
      if (kSeconds != 0 && elapsed >= std::uint64_t{kSeconds} * Board::kClockHz) break;
    }
    while (drain.pending()) drain.poll();
    const pmu::stream::DrainStats& st = drain.stats();
    say("\nstream: ");
    say(st.samples);
    say(" samples sent, ");
    say(st.dropped);
    say(" dropped, ");
    say(st.bytes);
    say(" bytes, ");
    say(poll_ticks);
    say(" clock ticks in poll() (");
    say(samples_ticks);
    say(" in the ");
    say(drain.stats().frames[static_cast<unsigned>(pmu::stream::FrameType::samples)]);
    say(" polls that built a SAMPLES frame) of ");
    say(elapsed);
    say("\n");
    Board::exit(0);
    return 0;
  }
};

template <class Board, prof::Backend B>
int stream_run() {
  return Run<Board, B>::main();
}

}  // namespace examples::stream
