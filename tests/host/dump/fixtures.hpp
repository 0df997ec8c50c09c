#pragma once
// Deterministic dumps, logs and symbols shared by the dump tests (and the golden files).
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/dump/writer.hpp"
#include "tools/report/symbols.hpp"

namespace dumptest {

using Bytes = std::vector<std::uint8_t>;

// A Sink appending to a vector.
struct VectorSink {
  Bytes bytes;
  pmu::dump::Sink sink();
};

// A Sink appending text frames to a string (TextFrameSink through a putc with context).
struct TextLog {
  std::string text;
  pmu::dump::TextFrameSink frames{&TextLog::putc, this};
  static void putc(void* ctx, char c) { static_cast<TextLog*>(ctx)->text += c; }
};

// What the "profile" fixture holds: two counters, three regions (one with a name that needs
// quoting in CSV/JSON/HTML), a PMU-overflow source and raw (pc, lr) samples that hit the
// synthetic symbols below in every way the profile distinguishes (leaf with caller, LR in the
// same function, lr 0, pc outside every function, LR outside every function).
void write_profile(pmu::dump::Writer& w);
// A timer-sampled dump with a PC histogram, no regions.
void write_histogram(pmu::dump::Writer& w);

Bytes profile_dump(pmu::dump::ByteOrder order);
Bytes histogram_dump(pmu::dump::ByteOrder order);
// Two regions and three of their calls on the timeline (TRACE, format 1.2), one more dropped.
Bytes trace_dump(pmu::dump::ByteOrder order);
// Four samples with 8-byte addresses and an sp under 8, 16 bytes of stack each: a rule that loads
// below the CFA reaches just under 2^64 (issue 31: the unwinder once read before its copy).
Bytes wide_stacks_dump(pmu::dump::ByteOrder order);
// Two samples with walked call chains of 3 and 1 frames (FRAMES, format 1.2).
Bytes frames_dump(pmu::dump::ByteOrder order);
// Two samples with 12 and 4 bytes of stack (STACKS, format 1.2).
Bytes stacks_dump(pmu::dump::ByteOrder order);
// Event multiplexing (MUX_EVENTS, MUX_REGION, format 1.4) on xscale-xsc2: four events rotated on
// the counters at 400 MHz (CCNT pinned, INSTR, DC_MISS, and PC_CHANGE as a raw event), a whole-run
// region 'main' where PC_CHANGE never ran and the others scale exactly (INSTR 1,000,000 raw over
// 62.50% of the time: 1,600,000), a region 'dma_copy' of 100 calls; and beside them two exact
// counters (CCNT, INSTR) and a REGION 'init'.
void write_mux(pmu::dump::Writer& w);
Bytes mux_dump(pmu::dump::ByteOrder order);
// Tasks and cores (format 1.5) on xscale-xsc2, core 0 of 2: TASKS net (1), crc (2), idle (3, no
// sample); 14 SAMPLES tagged with their task and core (net 8: memcpy from dma_copy on core 0,
// dma_copy from main on core 1; crc 4 in crc32 on core 1; 2 in main with no task on core 0), then 2
// FRAMES (crc's crc32 <- dma_copy <- main, net's memcpy <- main, both on core 0); and TASK_COUNTS of
// net, crc and the time no task was current (cycles 600,000 + 300,000 + 100,000, DCACHE_MISS 40 +
// 10 + 0, 4, 3 and 1 switches in).
void write_tasks(pmu::dump::Writer& w);
Bytes tasks_dump(pmu::dump::ByteOrder order);
// The profile dump as text frames with console output around and between the frame lines.
std::string profile_log(pmu::dump::ByteOrder order);

// Functions and lines at the addresses the fixture samples use.
pmukit::SymbolTable synthetic_symbols();

// Byte surgery for error tests. Offsets of the chunks, in order; the last is END.
struct ChunkAt {
  std::size_t offset;
  unsigned type;
  std::uint32_t length;
};
std::vector<ChunkAt> chunks(const Bytes& dump);
void put_u16(Bytes& b, std::size_t at, std::uint16_t v, pmu::dump::ByteOrder order);
void put_u32(Bytes& b, std::size_t at, std::uint32_t v, pmu::dump::ByteOrder order);
// Recomputes the END chunk's CRC after an edit.
void fix_crc(Bytes& dump, pmu::dump::ByteOrder order);
// Inserts a chunk before END and fixes the CRC.
void insert_chunk(Bytes& dump, pmu::dump::ByteOrder order, std::uint16_t type, std::uint16_t flags,
                  const Bytes& payload);

}  // namespace dumptest
