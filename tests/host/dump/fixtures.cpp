#include "fixtures.hpp"

#include "profiler/dump/text_frame_sink.hpp"

namespace dumptest {

namespace pd = pmu::dump;

pd::Sink VectorSink::sink() {
  return pd::Sink{[](void* ctx, const std::uint8_t* data, std::size_t n) {
                    auto* self = static_cast<VectorSink*>(ctx);
                    self->bytes.insert(self->bytes.end(), data, data + n);
                    return true;
                  },
                  this};
}

void write_profile(pd::Writer& w) {
  w.begin({"xscale", "xscale-xsc2", 400000000u, 32, 4});
  const pd::CounterInfo counters[] = {
      {0, 32, 0xFF, "cycles", "cycles"},
      {1, 32, 0x0B, "DCACHE_MISS", nullptr},
  };
  w.counters(counters, 2);
  static constexpr std::uint8_t kBuildId[] = {0x5e, 0x1f, 0x00, 0xc0, 0xff, 0xee, 0x01, 0x02, 0x03, 0x04,
                                              0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e};
  w.image({40, kBuildId, sizeof kBuildId, 0x1000, 0x5000, 0x1234abcdu});
  const pd::CounterStats dma[] = {{123456, 1200, 1300, 12}, {400, 3, 5, 0}};
  const pd::CounterStats crc[] = {{9000, 2900, 3100, 12}, {0, 0, 0, 0}};
  const pd::CounterStats parse[] = {{77, 77, 77, 12}, {1, 1, 1, 0}};
  w.region({"dma_copy", 100, dma, 2});
  w.region({"crc_update", 3, crc, 2, 1, 1, 2});  // one call clamped, one voided, 2 interrupts inside
  w.region({"parse \"hdr\", v2 <fast>", 1, parse, 2});
  w.sample_source({pd::SampleSourceKind::pmu_overflow, 0, 10000, 3});
  struct {
    std::uint32_t pc, lr, times;
  } const samples[] = {
      {0x2010, 0x3020, 5},  // memcpy called from dma_copy
      {0x2020, 0x1010, 2},  // memcpy called from main
      {0x3040, 0x3050, 3},  // dma_copy, LR inside dma_copy: not a caller
      {0x3044, 0x1020, 1},  // dma_copy called from main
      {0x4010, 0, 2},       // crc32, no LR
      {0x4030, 0x3060, 1},  // crc32 at an inlined line from crc_table.h, called from dma_copy
      {0x9000, 0x1004, 1},  // pc outside every function
      {0x1030, 0x8000, 1},  // LR outside every function
  };
  std::uint32_t n = 0;
  for (const auto& s : samples) n += s.times;
  w.begin_samples(n);
  for (const auto& s : samples)
    for (std::uint32_t i = 0; i < s.times; ++i) w.sample(s.pc, s.lr);
  w.finish();
}

void write_histogram(pd::Writer& w) {
  w.begin({"e500", "e500", 800000000u, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 1, "cycles", "cycles"}};
  w.counters(counters, 1);
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000000, 0});
  w.begin_histogram(3);
  w.bin(0x2010, 7);
  w.bin(0x3000, 2);
  w.bin(0x4020, 1);
  w.finish();
}

void write_mux(pd::Writer& w) {
  w.begin({"xscale", "xscale-xsc2", 400000000u, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 0x100, "CCNT", "cycles"}, {1, 32, 0x07, "INSTR", "instructions"}};
  w.counters(counters, 2);
  const pd::CounterStats init[] = {{400000, 400000, 400000, 10}, {200000, 200000, 200000, 0}};
  w.region({"init", 1, init, 2});
  const pd::MuxEventInfo events[] = {
      {0x100, 0, 0, "CCNT", "cycles", pd::kMuxPinned},
      {0x07, 0, 0, "INSTR", "instructions", 0},
      {0x0B, 0, 0, "DC_MISS", "dcache_misses", 0},
      {0x0D, 0, 0, "PC_CHANGE", nullptr, 0},
  };
  w.mux_events({400000000u, 40, events, 4});
  const pd::MuxValue dma[] = {
      {1000000, 1000000, 1000000}, {300000, 1000000, 500000}, {1000, 1000000, 500000}, {7, 1000000, 250000}};
  const pd::MuxValue main[] = {
      {4000000, 4000000, 4000000}, {1000000, 4000000, 2500000}, {3000, 4000000, 1500000}, {0, 4000000, 0}};
  w.mux_region({"dma_copy", 0, 100, dma, 4});  // written first: the whole run still comes first in stat
  w.mux_region({"main", pd::kMuxWholeRun, 1, main, 4});
  w.finish();
}

Bytes mux_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  write_mux(w);
  return out.bytes;
}

Bytes trace_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  w.begin({"xscale", "xscale-xsc2", 400000000u, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 0xFF, "CCNT", "cycles"}};
  w.counters(counters, 1);
  const pd::CounterStats dma[] = {{2550, 1250, 1300, 12}};
  const pd::CounterStats crc[] = {{3100, 3100, 3100, 12}};
  w.region({"dma_copy", 2, dma, 1});
  w.region({"crc_update", 1, crc, 1});
  w.begin_trace(3, 1);
  w.trace_event(0, 100000, 101300);
  w.trace_event(1, 102000, 105100);
  w.trace_event(0, 106000, 107250);
  w.finish();
  return out.bytes;
}

Bytes stacks_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  w.begin({"xscale", "xscale-xsc2", 0, 32, 4});
  const std::uint8_t stack[] = {0x10, 0x20, 0x00, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x44, 0x30, 0x00, 0xa0};
  w.begin_stacks(2, sizeof stack + 4, 3);  // and 3 the ring dropped
  w.stack_sample(0x2010, 0x3020, 0xa0ff0000, 0, stack, sizeof stack);
  w.stack_sample(0x2014, 0x3020, 0xa0ff0010, 0xa0ff0020, stack, 4);
  w.finish();
  return out.bytes;
}

Bytes wide_stacks_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  w.begin({"host", "none", 0, 64, 8});
  const std::uint8_t stack[] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                                0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf8};
  // pcs where the test ELFs' code starts (ARM, i386, PowerPC), so the ELF fuzzer's CFI applies.
  w.begin_stacks(4, 4 * sizeof stack, 0);
  w.stack_sample(0x8000, 0x8030, 0, 0xfffffffffffffff8ull, stack, sizeof stack);
  w.stack_sample(0x08049000, 0, 0, 0, stack, sizeof stack);
  w.stack_sample(0x100000fc, 0x10000180, 4, 0, stack, sizeof stack);
  w.stack_sample(0xffff800000001000ull, 0, 4, 0, stack, sizeof stack);
  w.finish();
  return out.bytes;
}

Bytes frames_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  w.begin({"e500", "e500", 0, 32, 4});
  const std::uint32_t chain[] = {0x2010, 0x3020, 0x1010};
  w.begin_frames(2, 4, 5);  // and 5 the ring dropped
  w.frame_sample(chain, 3, true);
  w.frame_sample(chain, 1, false);
  w.finish();
  return out.bytes;
}

Bytes profile_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  write_profile(w);
  return out.bytes;
}

Bytes histogram_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  write_histogram(w);
  return out.bytes;
}

void write_tasks(pd::Writer& w) {
  w.begin({"xscale", "xscale-xsc2", 400000000u, 32, 4});
  const pd::CounterInfo counters[] = {{0, 32, 0xFF, "cycles", "cycles"}, {1, 32, 0x0B, "DCACHE_MISS", nullptr}};
  w.counters(counters, 2);
  const pd::TaskInfo tasks[] = {{1, "net"}, {2, "crc"}, {3, "idle"}};
  w.tasks(tasks, 3);
  w.core(0, 2);
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000000, 0});
  struct {
    std::uint32_t pc, lr, times;
    std::uint16_t task;
    std::uint8_t core;
  } const samples[] = {
      {0x2010, 0x3020, 5, 1, 0},            // net: memcpy called from dma_copy, core 0
      {0x3044, 0x1020, 3, 1, 1},            // net: dma_copy called from main, core 1
      {0x4010, 0, 4, 2, 1},                 // crc: crc32, core 1
      {0x1030, 0, 2, pd::kNoTask, 0},       // no task: main, core 0
  };
  w.begin_samples(14);
  for (const auto& s : samples)
    for (std::uint32_t i = 0; i < s.times; ++i) w.sample(s.pc, s.lr);
  w.begin_sample_tags(14, pd::kTagTask | pd::kTagCore);
  for (const auto& s : samples)
    for (std::uint32_t i = 0; i < s.times; ++i) w.sample_tag(s.task, s.core);
  const std::uint32_t crc_chain[] = {0x4030, 0x3060, 0x1020}, net_chain[] = {0x2020, 0x1010};
  w.begin_frames(2, 5, 0);
  w.frame_sample(crc_chain, 3, true);
  w.frame_sample(net_chain, 2, true);
  w.begin_sample_tags(2, pd::kTagTask | pd::kTagCore);
  w.sample_tag(2, 0);
  w.sample_tag(1, 0);
  const std::uint64_t net[] = {600000, 40}, crc[] = {300000, 10}, none[] = {100000, 0};
  w.task_counts(1, 4, net, 2);
  w.task_counts(2, 3, crc, 2);
  w.task_counts(pd::kNoTask, 1, none, 2);
  w.finish();
}

Bytes tasks_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  write_tasks(w);
  return out.bytes;
}

std::string profile_log(pd::ByteOrder order) {
  TextLog log;
  log.text = "U-Boot 2023.01\r\nbooting...\n[    0.001] pmu: xscale-xsc2 found\n";
  pd::Writer w(log.frames.sink(), order);
  write_profile(w);
  // Console lines between frame lines, and a timestamp before one of them.
  std::string mixed;
  std::size_t line = 0, start = 0;
  while (start < log.text.size()) {
    const std::size_t nl = log.text.find('\n', start);
    const std::string l = log.text.substr(start, nl - start + 1);
    if (l.rfind("@PMUD 0002", 0) == 0) mixed += "[    0.250] ";
    mixed += l;
    if (++line % 3 == 0) mixed += "irq: spurious interrupt 7\n";
    start = nl + 1;
  }
  return mixed + "done.\n";
}

pmukit::SymbolTable synthetic_symbols() {
  pmukit::SymbolTable t;
  t.add_function(0x1000, 0x100, "main");
  t.add_function(0x2000, 0x80, "memcpy");
  t.add_function(0x3000, 0x100, "dma_copy");
  t.add_function(0x4000, 0x40, "crc32");
  t.add_function(0x4000, 0x40, "crc32_alias");  // same address: the first added name wins
  t.add_function(0x5000, 0, "vectors");  // no size: reaches the next function (none: one byte)
  t.add_line(0x1000, 0x1010, "app/main.c", 10);
  t.add_line(0x1010, 0x1020, "app/main.c", 12);
  t.add_line(0x1020, 0x1100, "app/main.c", 14);
  t.add_line(0x2000, 0x2018, "lib/memcpy.c", 5);
  t.add_line(0x2018, 0x2080, "lib/memcpy.c", 7);
  t.add_line(0x3000, 0x3040, "drivers/dma.c", 20);
  t.add_line(0x3040, 0x3058, "drivers/dma.c", 22);
  t.add_line(0x3058, 0x3100, "drivers/dma.c", 25);
  t.add_line(0x4000, 0x4020, "lib/crc.c", 30);
  t.add_line(0x4020, 0x4040, "lib/crc_table.h", 3);
  t.finalize();
  return t;
}

namespace {
std::uint32_t get_u32(const Bytes& b, std::size_t at, pd::ByteOrder order) {
  std::uint32_t v = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned shift = 8 * (order == pd::ByteOrder::big ? 3 - i : i);
    v |= std::uint32_t{b.at(at + i)} << shift;
  }
  return v;
}
pd::ByteOrder order_of(const Bytes& b) { return b.at(4) == 1 ? pd::ByteOrder::big : pd::ByteOrder::little; }
}  // namespace

std::vector<ChunkAt> chunks(const Bytes& dump) {
  const pd::ByteOrder order = order_of(dump);
  std::vector<ChunkAt> out;
  std::size_t at = pd::kHeaderSize;
  for (;;) {
    const std::uint32_t head = get_u32(dump, at, order);
    const unsigned type = order == pd::ByteOrder::big ? head >> 16 : head & 0xFFFF;
    const std::uint32_t length = get_u32(dump, at + 4, order);
    out.push_back({at, type, length});
    if (type == static_cast<unsigned>(pd::ChunkType::end)) return out;
    at += pd::kChunkHeaderSize + length;
  }
}

void put_u16(Bytes& b, std::size_t at, std::uint16_t v, pd::ByteOrder order) {
  b.at(at + (order == pd::ByteOrder::big ? 0 : 1)) = static_cast<std::uint8_t>(v >> 8);
  b.at(at + (order == pd::ByteOrder::big ? 1 : 0)) = static_cast<std::uint8_t>(v);
}

void put_u32(Bytes& b, std::size_t at, std::uint32_t v, pd::ByteOrder order) {
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned shift = 8 * (order == pd::ByteOrder::big ? 3 - i : i);
    b.at(at + i) = static_cast<std::uint8_t>(v >> shift);
  }
}

void fix_crc(Bytes& dump, pd::ByteOrder order) {
  const std::size_t crc_at = chunks(dump).back().offset + pd::kChunkHeaderSize;
  put_u32(dump, crc_at, pd::crc32(dump.data(), crc_at), order);
}

void insert_chunk(Bytes& dump, pd::ByteOrder order, std::uint16_t type, std::uint16_t flags,
                  const Bytes& payload) {
  const std::size_t end_at = chunks(dump).back().offset;
  Bytes chunk(pd::kChunkHeaderSize);
  put_u16(chunk, 0, type, order);
  put_u16(chunk, 2, flags, order);
  put_u32(chunk, 4, static_cast<std::uint32_t>(payload.size()), order);
  chunk.insert(chunk.end(), payload.begin(), payload.end());
  dump.insert(dump.begin() + static_cast<std::ptrdiff_t>(end_at), chunk.begin(), chunk.end());
  fix_crc(dump, order);
}

}  // namespace dumptest
