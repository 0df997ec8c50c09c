#pragma once
// The profile dump format, as constants shared by the firmware writer and the host decoder.
// docs/dump-format.md is the specification; every number here is explained there.
#include <cstddef>
#include <cstdint>

namespace pmu::dump {

// File header (16 bytes): magic, byte-order mark, version, header size, reserved.
inline constexpr std::uint8_t kMagic[4] = {'P', 'M', 'U', 'D'};
inline constexpr std::uint32_t kByteOrderMark = 0x01020304u;  // written in the writer's byte order
inline constexpr std::uint16_t kVersionMajor = 1;  // a decoder rejects any other major version
inline constexpr std::uint16_t kVersionMinor = 5;  // minor bumps only append chunks or chunk fields
inline constexpr std::uint16_t kHeaderSize = 16;
inline constexpr std::size_t kChunkHeaderSize = 8;  // type u16, flags u16, payload length u32

// Chunk types. A decoder skips unknown types unless their flags carry kChunkRequired.
enum class ChunkType : std::uint16_t {
  target = 0x0001,         // target and PMU identity, counter clock and width, address size
  counters = 0x0002,       // counter configuration
  region = 0x0003,         // one region's calibrated results
  sample_source = 0x0004,  // what triggered the samples, and how many were dropped
  samples = 0x0005,        // raw sample records (pc, lr)
  histogram = 0x0006,      // PC histogram (pc, count)
  image = 0x0007,          // which program wrote the dump: ELF machine, GNU build-id, code CRC (1.1)
  trace = 0x0008,          // region timings: (region, begin, end) in the first counter's units (1.2)
  stacks = 0x0009,         // samples with their stack: pc, lr, sp, fp and the bytes above sp (1.2;
                           // 1.3 appends the count the ring dropped)
  frames = 0x000A,         // samples with their call chain walked on the target (1.2; 1.3: dropped)
  mux_events = 0x000B,     // the multiplexed events, their clock and the rotations done (1.4)
  mux_region = 0x000C,     // one region's multiplexed counts: raw, time enabled, time running (1.4)
  tasks = 0x000D,          // the tasks the firmware knew: id and name (1.5)
  sample_tags = 0x000E,    // the task and core of each sample of the sample chunk before it (1.5)
  task_counts = 0x000F,    // one task's share of the counters while it was current (1.5)
  core = 0x0010,           // the core that wrote the dump, and how many the firmware ran on (1.5)
  end = 0x00FF,            // last chunk: CRC-32 of everything before the CRC value
};
inline constexpr std::uint16_t kChunkRequired = 0x0001;  // unknown chunk must not be skipped

enum class SampleSourceKind : std::uint8_t {
  pmu_overflow = 1,  // a counter overflow interrupt; period in events of that counter
  timer = 2,         // a periodic timer interrupt; period in nanoseconds
};
inline constexpr std::uint8_t kNoCounter = 0xFF;  // sample source counter slot for timers

// MUX_EVENTS event flags and MUX_REGION flags (1.4); the other bits are reserved (0).
inline constexpr std::uint8_t kMuxPinned = 0x01;    // the event is never rotated out
inline constexpr std::uint8_t kMuxWholeRun = 0x01;  // the region is the whole run

// Tasks and cores (1.5): the task id of "no task current" (never listed in TASKS), and the
// SAMPLE_TAGS flags saying which tags the chunk carries; the other bits are reserved (0).
inline constexpr std::uint16_t kNoTask = 0xFFFF;
inline constexpr std::uint8_t kTagTask = 0x01, kTagCore = 0x02;

inline constexpr std::size_t kMaxBuildId = 64;  // bytes of a GNU build-id we carry (SHA-1: 20)

inline constexpr std::size_t kMaxString = 255;  // strings are a u8 length and that many bytes

// Text frames over a UART log (docs/dump-format.md, "Text frames").
inline constexpr char kFrameTag[] = "@PMUD";
inline constexpr unsigned kFrameVersion = 1;
inline constexpr std::size_t kFrameBytesPerLine = 32;

}  // namespace pmu::dump
