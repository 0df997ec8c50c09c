// Compiled by writer_cross_compile.cmake with each cross compiler, freestanding, to show the
// firmware-side writer builds for every target with no hosted library: a whole dump through a
// memory buffer and through UART text frames.
#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/dump/writer.hpp"

namespace {

std::uint8_t g_buffer[4096];
volatile char g_uart;

void uart_putc(char c) { g_uart = c; }

pmu::dump::Status write_all(pmu::dump::Sink sink) {
  pmu::dump::Writer w(sink);
  w.begin({"xscale", "xscale-xsc2", 400000000u, 32, 4});
  const pmu::dump::CounterInfo counters[] = {{0, 32, 0xFF, "cycles", "cycles"},
                                             {1, 32, 0x0B, "DCACHE_MISS", nullptr}};
  w.counters(counters, 2);
  const pmu::dump::CounterStats stats[] = {{1000, 9, 11, 2}, {5, 0, 1, 0}};
  w.region({"loop", 100, stats, 2});
  const pmu::dump::MuxEventInfo events[] = {{0xFF, 0, 0, "cycles", "cycles", pmu::dump::kMuxPinned},
                                            {0x0B, 0, 0, "DCACHE_MISS", nullptr, 0}};
  w.mux_events({400000000u, 12, events, 2});
  const pmu::dump::MuxValue values[] = {{1000, 1000, 1000}, {5, 1000, 250}};
  w.mux_region({"run", pmu::dump::kMuxWholeRun, 1, values, 2});
  w.sample_source({pmu::dump::SampleSourceKind::pmu_overflow, 0, 10000, 0});
  const pmu::dump::TaskInfo tasks[] = {{1, "net"}, {2, "idle"}};
  w.tasks(tasks, 2);
  w.core(0, 2);
  w.begin_samples(1);
  w.sample(0x8000, 0x8100);
  w.begin_sample_tags(1, pmu::dump::kTagTask | pmu::dump::kTagCore);
  w.sample_tag(1, 0);
  const std::uint64_t counts[] = {900, 4};
  w.task_counts(1, 3, counts, 2);
  w.begin_histogram(1);
  w.bin(0x8000, 3);
  return w.finish();
}

}  // namespace

extern "C" int dump_to_memory() {
  pmu::dump::BufferSink mem{g_buffer, sizeof g_buffer};
  return static_cast<int>(write_all(mem.sink()));
}

extern "C" int dump_to_uart() {
  pmu::dump::TextFrameSink uart(&uart_putc);
  return static_cast<int>(write_all(uart.sink()));
}
