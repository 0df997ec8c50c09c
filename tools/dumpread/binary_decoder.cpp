#include "tools/dumpread/binary_decoder.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "profiler/dump/format.hpp"
#include "tools/dumpread/crc32_host.hpp"
#include "tools/dumpread/decode_error.hpp"
#include "tools/dumpread/pair_counter.hpp"

namespace pmukit {
namespace {

namespace fmt = pmu::dump;

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08" PRIx32, v);
  return buf;
}

const char* chunk_name(unsigned type) {
  switch (static_cast<fmt::ChunkType>(type)) {
    case fmt::ChunkType::target: return "TARGET";
    case fmt::ChunkType::counters: return "COUNTERS";
    case fmt::ChunkType::region: return "REGION";
    case fmt::ChunkType::sample_source: return "SAMPLE_SOURCE";
    case fmt::ChunkType::samples: return "SAMPLES";
    case fmt::ChunkType::histogram: return "HISTOGRAM";
    case fmt::ChunkType::trace: return "TRACE";
    case fmt::ChunkType::stacks: return "STACKS";
    case fmt::ChunkType::frames: return "FRAMES";
    case fmt::ChunkType::image: return "IMAGE";
    case fmt::ChunkType::mux_events: return "MUX_EVENTS";
    case fmt::ChunkType::mux_region: return "MUX_REGION";
    case fmt::ChunkType::tasks: return "TASKS";
    case fmt::ChunkType::sample_tags: return "SAMPLE_TAGS";
    case fmt::ChunkType::task_counts: return "TASK_COUNTS";
    case fmt::ChunkType::core: return "CORE";
    case fmt::ChunkType::end: return "END";
  }
  return "unknown";
}

// Bounded reader over one byte range in the dump's byte order. `where` names the range in errors.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size, std::uint64_t base, ByteOrder order,
         std::string where)
      : data_(data), size_(size), base_(base), order_(order), where_(std::move(where)) {}

  std::uint64_t uint(unsigned n, const char* field) {
    need(n, field);
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) {
      const unsigned shift = 8 * (order_ == ByteOrder::big ? n - 1 - i : i);
      v |= std::uint64_t{data_[pos_ + i]} << shift;
    }
    pos_ += n;
    return v;
  }
  const std::uint8_t* here() const { return data_ + pos_; }
  std::uint8_t u8(const char* f) { return static_cast<std::uint8_t>(uint(1, f)); }
  std::uint16_t u16(const char* f) { return static_cast<std::uint16_t>(uint(2, f)); }
  std::uint32_t u32(const char* f) { return static_cast<std::uint32_t>(uint(4, f)); }
  std::uint64_t u64(const char* f) { return uint(8, f); }
  std::string str(const char* field) {
    const std::size_t n = u8(field);
    need(n, field);
    std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }
  std::size_t left() const { return size_ - pos_; }
  // Past n bytes the caller read itself (after need_items()).
  void skip(std::size_t n) {
    need(n, "skipped bytes");
    pos_ += n;
  }
  // Checks that `count` items of `item_size` bytes fit before anything is allocated for them.
  void need_items(std::uint64_t count, unsigned item_size, const char* what) {
    if (count * item_size > size_ - pos_)
      throw DecodeError(where_ + ": " + std::to_string(count) + " " + what + " need " +
                        std::to_string(count * item_size) + " bytes, only " +
                        std::to_string(size_ - pos_) + " left");
  }

 private:
  void need(std::size_t n, const char* field) {
    if (n > size_ - pos_)
      throw DecodeError(where_ + ": too short for " + field + " at offset " +
                        std::to_string(base_ + pos_) + " (needs " + std::to_string(n) +
                        " bytes, " + std::to_string(size_ - pos_) + " left)");
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::uint64_t base_;
  ByteOrder order_;
  std::string where_;
};

// Bytes between two checkpoints of a long pass (the CRC, the samples) handed to
// DecodeOptions::consumed.
constexpr std::size_t kConsumeBlock = std::size_t{4} << 20;

struct ChunkRef {
  unsigned type, flags;
  std::uint64_t offset;  // of the chunk header
  std::uint32_t length;
};

class Decoder {
 public:
  Decoder(const std::uint8_t* data, std::size_t size, const DecodeOptions& options)
      : data_(data), size_(size), options_(options) {}

  Dump run() {
    header();
    const std::vector<ChunkRef> chunks = walk();
    // A sample chunk's SAMPLE_TAGS follows it: read first, so each sample is counted with its tag.
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      tags_.clear();
      tags_at_ = nullptr;
      if (is_sample_chunk(chunks[i].type) && i + 1 < chunks.size() &&
          chunks[i + 1].type == static_cast<unsigned>(fmt::ChunkType::sample_tags) && have_target_)
        sample_tags(chunks[i + 1]);
      content(chunks[i]);
      previous_ = chunks[i].type;
    }
    if (!have_target_) throw DecodeError("dump has no TARGET chunk");
    dump_.sample_counts = pairs_.take();
    return std::move(dump_);
  }

 private:
  void header() {
    if (!has_dump_magic(data_, size_))
      throw DecodeError("not a pmukit dump: no 'PMUD' magic at offset 0");
    if (size_ < fmt::kHeaderSize)
      throw DecodeError("truncated dump: the " + std::to_string(fmt::kHeaderSize) +
                        "-byte header is cut off at byte " + std::to_string(size_));
    const std::uint8_t* bom = data_ + 4;
    if (std::memcmp(bom, "\x01\x02\x03\x04", 4) == 0) {
      dump_.byte_order = ByteOrder::big;
    } else if (std::memcmp(bom, "\x04\x03\x02\x01", 4) == 0) {
      dump_.byte_order = ByteOrder::little;
    } else {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "unknown endianness tag %02x %02x %02x %02x at offset 4 (expected 01 02 03 04 "
                    "for big-endian or 04 03 02 01 for little-endian)",
                    bom[0], bom[1], bom[2], bom[3]);
      throw DecodeError(buf);
    }
    Reader r(data_ + 8, 8, 8, dump_.byte_order, "header");
    dump_.version_major = r.u16("version");
    dump_.version_minor = r.u16("version");
    if (dump_.version_major != fmt::kVersionMajor)
      throw DecodeError("unsupported dump version " + std::to_string(dump_.version_major) + "." +
                        std::to_string(dump_.version_minor) + " at offset 8 (this pmukit reads " +
                        std::to_string(fmt::kVersionMajor) + ".x)");
    header_size_ = r.u16("header size");
    if (header_size_ < fmt::kHeaderSize)
      throw DecodeError("bad header size " + std::to_string(header_size_) +
                        " at offset 12 (at least 16)");
    if (header_size_ > size_)
      throw DecodeError("truncated dump: header of " + std::to_string(header_size_) +
                        " bytes is cut off at byte " + std::to_string(size_));
  }

  // Finds every chunk up to END and checks the CRC before any payload is interpreted.
  std::vector<ChunkRef> walk() {
    std::vector<ChunkRef> chunks;
    std::uint64_t pos = header_size_;
    for (;;) {
      if (size_ - pos < fmt::kChunkHeaderSize)
        throw DecodeError("truncated dump: ends at byte " + std::to_string(size_) +
                          " inside the chunk header at offset " + std::to_string(pos) +
                          " (no END chunk)");
      Reader r(data_ + pos, fmt::kChunkHeaderSize, pos, dump_.byte_order, "chunk header");
      ChunkRef c{r.u16("type"), r.u16("flags"), pos, r.u32("length")};
      const std::uint64_t payload = pos + fmt::kChunkHeaderSize;
      if (c.length > size_ - payload)
        throw DecodeError("truncated dump: " + std::string(chunk_name(c.type)) +
                          " chunk at offset " + std::to_string(pos) + " declares " +
                          std::to_string(c.length) + " payload bytes, only " +
                          std::to_string(size_ - payload) + " left");
      if (c.type == static_cast<unsigned>(fmt::ChunkType::end)) {
        check_crc(c);
        dump_.size = payload + c.length;
        dump_.trailing_bytes = size_ - dump_.size;
        return chunks;
      }
      chunks.push_back(c);
      pos = payload + c.length;
    }
  }

  void check_crc(const ChunkRef& end) {
    const std::uint64_t crc_at = end.offset + fmt::kChunkHeaderSize;
    Reader r(data_ + crc_at, end.length, crc_at, dump_.byte_order, "END chunk");
    const std::uint32_t stored = r.u32("CRC-32");
    HostCrc32 crc;
    for (std::uint64_t at = 0; at < crc_at; at += kConsumeBlock) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kConsumeBlock, crc_at - at));
      crc.update(data_ + at, n);
      consumed(data_ + at, n);
    }
    const std::uint32_t computed = crc.value();
    if (stored != computed)
      throw DecodeError("bad CRC-32: END chunk at offset " + std::to_string(end.offset) +
                        " says " + hex32(stored) + ", bytes 0.." + std::to_string(crc_at - 1) +
                        " give " + hex32(computed) + " (the dump is corrupted)");
    dump_.crc = stored;
  }

  void content(const ChunkRef& c) {
    const std::string where = std::string(chunk_name(c.type)) + " chunk at offset " +
                              std::to_string(c.offset);
    Reader r(data_ + c.offset + fmt::kChunkHeaderSize, c.length,
             c.offset + fmt::kChunkHeaderSize, dump_.byte_order, where);
    if (c.type != static_cast<unsigned>(fmt::ChunkType::target) && !have_target_)
      throw DecodeError(where + ": the first chunk must be TARGET");
    switch (static_cast<fmt::ChunkType>(c.type)) {
      case fmt::ChunkType::target: return target(r, where);
      case fmt::ChunkType::counters: return counters(r, where);
      case fmt::ChunkType::region: return region(r, where);
      case fmt::ChunkType::sample_source: return source(r, where);
      case fmt::ChunkType::samples: return samples(r);
      case fmt::ChunkType::histogram: return histogram(r);
      case fmt::ChunkType::trace: return trace(r, where);
      case fmt::ChunkType::stacks: return stacks(r);
      case fmt::ChunkType::frames: return frames(r, where);
      case fmt::ChunkType::image: return image(r, where);
      case fmt::ChunkType::mux_events: return mux_events(r, where);
      case fmt::ChunkType::mux_region: return mux_region(r, where);
      case fmt::ChunkType::tasks: return tasks(r, where);
      case fmt::ChunkType::sample_tags: return tags_placed(where);
      case fmt::ChunkType::task_counts: return task_counts(r, where);
      case fmt::ChunkType::core: return core(r, where);
      case fmt::ChunkType::end: break;  // walk() stops at END
    }
    if (c.flags & fmt::kChunkRequired) {
      char buf[120];
      std::snprintf(buf, sizeof buf,
                    "chunk type 0x%04x at offset %llu is marked required but this pmukit does "
                    "not know it (a newer dump format?)",
                    c.type, static_cast<unsigned long long>(c.offset));
      throw DecodeError(buf);
    }
    dump_.skipped.push_back({c.type, c.flags, c.offset, c.length});
  }

  void target(Reader& r, const std::string& where) {
    if (have_target_) throw DecodeError(where + ": second TARGET chunk");
    Target& t = dump_.target;
    t.id = r.str("target id");
    t.pmu = r.str("PMU id");
    t.counter_clock_hz = r.u64("counter clock");
    t.counter_width_bits = r.u8("counter width");
    t.address_bytes = r.u8("address size");
    if (t.address_bytes != 4 && t.address_bytes != 8)
      throw DecodeError(where + ": address size " + std::to_string(t.address_bytes) +
                        " (must be 4 or 8)");
    have_target_ = true;
  }

  void counters(Reader& r, const std::string& where) {
    if (have_counters_) throw DecodeError(where + ": second COUNTERS chunk");
    const unsigned n = r.u8("counter count");
    for (unsigned i = 0; i < n; ++i) {
      Counter c;
      c.slot = r.u8("counter slot");
      c.width_bits = r.u8("counter width");
      c.event_code = r.u32("event code");
      c.name = r.str("counter name");
      c.preset = r.str("preset name");
      dump_.counters.push_back(std::move(c));
    }
    have_counters_ = true;
  }

  void region(Reader& r, const std::string& where) {
    if (!have_counters_) throw DecodeError(where + ": REGION before the COUNTERS chunk");
    Region g;
    g.name = r.str("region name");
    g.calls = r.u64("call count");
    const unsigned n = r.u8("stats count");
    if (n != dump_.counters.size())
      throw DecodeError(where + ": region '" + g.name + "' has " + std::to_string(n) +
                        " counter results, the COUNTERS chunk has " +
                        std::to_string(dump_.counters.size()) + " counters");
    for (unsigned i = 0; i < n; ++i) {
      CounterStats s;
      s.total = r.u64("total");
      s.min = r.u64("min");
      s.max = r.u64("max");
      s.overhead = r.u64("overhead");
      g.stats.push_back(s);
    }
    if (r.left() >= 24) {  // 1.3; a 1.2 region ends here (unknown)
      g.clamped = r.u64("clamped calls");
      g.voided = r.u64("voided calls");
      g.interrupts = r.u64("sampling interrupts inside");
    }
    dump_.regions.push_back(std::move(g));
  }

  void mux_events(Reader& r, const std::string& where) {
    if (!have_counters_) throw DecodeError(where + ": MUX_EVENTS before the COUNTERS chunk");
    if (dump_.mux) throw DecodeError(where + ": second MUX_EVENTS chunk");
    MuxEvents m;
    m.clock_hz = r.u64("multiplexing clock");
    m.rotations = r.u64("rotations");
    const unsigned n = r.u8("multiplexed event count");
    for (unsigned i = 0; i < n; ++i) {
      MuxEvent e;
      e.event_code = r.u32("event code");
      e.qualifier = r.u32("event qualifier");
      e.options = r.u32("event options");
      e.name = r.str("event name");
      e.preset = r.str("preset name");
      e.flags = r.u8("event flags");
      m.events.push_back(std::move(e));
    }
    dump_.mux = std::move(m);
  }

  void mux_region(Reader& r, const std::string& where) {
    if (!dump_.mux) throw DecodeError(where + ": MUX_REGION before the MUX_EVENTS chunk");
    MuxRegion g;
    g.name = r.str("region name");
    g.flags = r.u8("region flags");
    g.calls = r.u64("call count");
    const unsigned n = r.u8("value count");
    if (n != dump_.mux->events.size())
      throw DecodeError(where + ": region '" + g.name + "' has " + std::to_string(n) +
                        " multiplexed values, the MUX_EVENTS chunk has " +
                        std::to_string(dump_.mux->events.size()) + " events");
    for (unsigned i = 0; i < n; ++i) {
      MuxValue v;
      v.raw = r.u64("raw count");
      v.enabled = r.u64("time enabled");
      v.running = r.u64("time running");
      // No event runs longer than its region had the multiplexing enabled.
      if (v.running > v.enabled)
        throw DecodeError(where + ": region '" + g.name + "', event '" + dump_.mux->events[i].name + "': running " +
                          std::to_string(v.running) + " ticks, more than its " + std::to_string(v.enabled) +
                          " enabled (the dump is inconsistent)");
      g.values.push_back(v);
    }
    dump_.mux_regions.push_back(std::move(g));
  }

  static bool is_sample_chunk(unsigned type) {
    return type == static_cast<unsigned>(fmt::ChunkType::samples) ||
           type == static_cast<unsigned>(fmt::ChunkType::stacks) ||
           type == static_cast<unsigned>(fmt::ChunkType::frames);
  }

  // TASKS (1.5): at most one; ids unique, never the reserved "no task".
  void tasks(Reader& r, const std::string& where) {
    if (dump_.tasks) throw DecodeError(where + ": second TASKS chunk");
    const unsigned n = r.u16("task count");
    r.need_items(n, 3, "tasks");
    std::vector<Task> list;
    list.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
      Task t;
      t.id = r.u16("task id");
      t.name = r.str("task name");
      if (t.id == kNoTask)
        throw DecodeError(where + ": task '" + t.name + "' has the id 0xFFFF, reserved for no task");
      for (const Task& before : list)
        if (before.id == t.id)
          throw DecodeError(where + ": task id " + std::to_string(t.id) + " listed twice ('" + before.name +
                            "' and '" + t.name + "')");
      list.push_back(std::move(t));
    }
    dump_.tasks = std::move(list);
  }

  // SAMPLE_TAGS (1.5), read before the sample chunk it follows (run()): its flags, and the tag of
  // each sample, which content() then counts with the sample.
  void sample_tags(const ChunkRef& c) {
    tags_where_ = "SAMPLE_TAGS chunk at offset " + std::to_string(c.offset);
    Reader r(data_ + c.offset + fmt::kChunkHeaderSize, c.length, c.offset + fmt::kChunkHeaderSize,
             dump_.byte_order, tags_where_);
    const std::uint32_t n = r.u32("tag count");
    const unsigned flags = r.u8("tag flags");
    if ((flags & ~unsigned{fmt::kTagTask | fmt::kTagCore}) != 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, ": reserved flag bits 0x%02x set", flags & ~unsigned{fmt::kTagTask | fmt::kTagCore});
      throw DecodeError(tags_where_ + buf);
    }
    r.need_items(n, 3, "sample tags");
    tags_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      Tag t;
      t.task = r.u16("task id");
      t.core = r.u8("core");
      if ((flags & fmt::kTagTask) == 0 && t.task != kNoTask)
        throw DecodeError(tags_where_ + ": tag " + std::to_string(i) + " has task " + std::to_string(t.task) +
                          " but the flags say no task ids (must be 0xFFFF)");
      if ((flags & fmt::kTagCore) == 0 && t.core != 0)
        throw DecodeError(tags_where_ + ": tag " + std::to_string(i) + " has core " + std::to_string(t.core) +
                          " but the flags say no core numbers (must be 0)");
      tags_[i] = PairCounter::pack(t);
    }
    tags_at_ = &c;
    dump_.tag_flags |= flags;
  }
  // The tags of the sample chunk being read: its count must be theirs.
  void check_tag_count(std::uint32_t n, const char* chunk, const char* what) {
    if (tags_at_ != nullptr && tags_.size() != n)
      throw DecodeError(tags_where_ + ": " + std::to_string(tags_.size()) + " tags, the " + chunk +
                        " chunk before it has " + std::to_string(n) + " " + what);
  }
  const std::uint32_t* tags_of(std::uint32_t first) const { return tags_at_ != nullptr ? tags_.data() + first : nullptr; }
  Tag tag_of(std::uint32_t i) const {
    if (tags_at_ == nullptr) return {};
    return {static_cast<std::uint16_t>(tags_[i] >> 8), static_cast<std::uint8_t>(tags_[i])};
  }
  // A SAMPLE_TAGS chunk in content(): read with the chunk before it, which must be a sample chunk.
  void tags_placed(const std::string& where) const {
    if (!is_sample_chunk(previous_))
      throw DecodeError(where + ": must come right after a SAMPLES, STACKS or FRAMES chunk (it follows " +
                        (previous_ == 0 ? std::string("the header") : std::string(chunk_name(previous_))) + ")");
  }

  // TASK_COUNTS (1.5): after COUNTERS, one count per counter, at most one per task id.
  void task_counts(Reader& r, const std::string& where) {
    if (!have_counters_) throw DecodeError(where + ": TASK_COUNTS before the COUNTERS chunk");
    TaskCounts t;
    t.task = r.u16("task id");
    t.switches_in = r.u64("switches in");
    const unsigned n = r.u8("counter count");
    if (n != dump_.counters.size())
      throw DecodeError(where + ": task " + std::to_string(t.task) + " has " + std::to_string(n) +
                        " counts, the COUNTERS chunk has " + std::to_string(dump_.counters.size()) + " counters");
    for (const TaskCounts& before : dump_.task_counts)
      if (before.task == t.task)
        throw DecodeError(where + ": second TASK_COUNTS chunk for task " + std::to_string(t.task));
    for (unsigned i = 0; i < n; ++i) t.counts.push_back(r.u64("count"));
    dump_.task_counts.push_back(std::move(t));
  }

  // CORE (1.5): at most one; the core is one of the cores.
  void core(Reader& r, const std::string& where) {
    if (dump_.core) throw DecodeError(where + ": second CORE chunk");
    CoreInfo c;
    c.number = r.u8("core number");
    c.cores = r.u8("cores");
    if (c.number >= c.cores)
      throw DecodeError(where + ": core " + std::to_string(c.number) + " of " + std::to_string(c.cores) +
                        " cores (the number must be below the count)");
    dump_.core = c;
  }

  void source(Reader& r, const std::string& where) {
    if (dump_.source) throw DecodeError(where + ": second SAMPLE_SOURCE chunk");
    SampleSource s;
    s.kind = r.u8("source kind");
    s.counter_slot = r.u8("counter slot");
    s.period = r.u64("period");
    s.dropped = r.u64("dropped count");
    dump_.source = s;
  }

  // Fields appended by a later minor version are ignored (docs/dump-format.md, Compatibility).
  void image(Reader& r, const std::string& where) {
    if (dump_.image) throw DecodeError(where + ": second IMAGE chunk");
    Image im;
    im.elf_machine = r.u16("ELF machine");
    const unsigned n = r.u8("build-id length");
    r.need_items(n, 1, "build-id bytes");
    for (unsigned i = 0; i < n; ++i) im.build_id.push_back(r.u8("build-id"));
    im.has_code = r.u8("code range flag") != 0;
    if (im.has_code) {
      const unsigned a = dump_.target.address_bytes;
      im.code_lo = r.uint(a, "code start");
      im.code_hi = r.uint(a, "code end");
      im.code_crc = r.u32("code CRC");
      if (im.code_hi <= im.code_lo)
        throw DecodeError(where + ": empty or inverted code range");
    }
    dump_.image = std::move(im);
  }

  void samples(Reader& r) {
    const std::uint32_t n = r.u32("sample count");
    const unsigned a = dump_.target.address_bytes;
    r.need_items(n, 2 * a, "samples");
    check_tag_count(n, "SAMPLES", "samples");
    if (options_.raw_samples) dump_.samples.reserve(dump_.samples.size() + n);
    // need_items() checked the records fit: read them without a check per field, in blocks of
    // kConsumeBlock bytes (a whole number of records) handed to consumed() as they are done.
    const std::uint8_t* p = r.here();
    const std::size_t record = 2 * a;
    const std::size_t per_block = kConsumeBlock / record;
    const bool big = dump_.byte_order == ByteOrder::big;
    for (std::uint32_t i = 0; i < n;) {
      const std::uint32_t k = static_cast<std::uint32_t>(std::min<std::uint64_t>(per_block, n - i));
      if (a == 4) read_samples<4>(p, k, big, i);
      else read_samples<8>(p, k, big, i);
      consumed(p, k * record);
      p += k * record;
      i += k;
    }
    r.skip(std::size_t{n} * record);
    dump_.sample_records += n;
  }
  template <unsigned A>
  void read_samples(const std::uint8_t* p, std::uint32_t n, bool big, std::uint32_t first) {
    std::uint64_t pcs[PairCounter::kBatch], lrs[PairCounter::kBatch];
    for (std::uint32_t i = 0; i < n;) {
      const std::uint32_t k = std::min<std::uint32_t>(PairCounter::kBatch, n - i);
      for (std::uint32_t j = 0; j < k; ++j, p += 2 * A) {
        pcs[j] = big ? load_big<A>(p) : load_little<A>(p);
        lrs[j] = big ? load_big<A>(p + A) : load_little<A>(p + A);
        if (options_.raw_samples) dump_.samples.push_back({pcs[j], lrs[j], tag_of(first + i + j)});
      }
      pairs_.add(pcs, lrs, k, tags_of(first + i));
      i += k;
    }
  }
  template <unsigned A>
  static std::uint64_t load_little(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < A; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    return v;
  }
  template <unsigned A>
  static std::uint64_t load_big(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < A; ++i) v = v << 8 | p[i];
    return v;
  }

  void consumed(const std::uint8_t* p, std::size_t n) const {
    if (options_.consumed != nullptr && n != 0) options_.consumed(p, n);
  }

  void histogram(Reader& r) {
    const std::uint32_t n = r.u32("bin count");
    const unsigned a = dump_.target.address_bytes;
    r.need_items(n, a + 4, "histogram bins");
    dump_.histogram.reserve(dump_.histogram.size() + n);
    for (std::uint32_t i = 0; i < n; ++i) {
      HistogramBin b;
      b.pc = r.uint(a, "pc");
      b.count = r.u32("count");
      dump_.histogram.push_back(b);
    }
  }

  void stacks(Reader& r) {
    const std::uint32_t n = r.u32("stack sample count");
    const unsigned a = dump_.target.address_bytes;
    r.need_items(n, 4 * a + 2, "stack samples");
    check_tag_count(n, "STACKS", "samples");
    dump_.stacks.reserve(dump_.stacks.size() + n);
    for (std::uint32_t i = 0; i < n; ++i) {
      StackSampleRecord s;
      s.pc = r.uint(a, "pc");
      s.lr = r.uint(a, "lr");
      s.sp = r.uint(a, "sp");
      s.fp = r.uint(a, "fp");
      const unsigned bytes = r.u16("stack bytes");
      r.need_items(bytes, 1, "stack bytes");
      s.stack.resize(bytes);
      for (unsigned k = 0; k < bytes; ++k) s.stack[k] = r.u8("stack byte");
      s.tag = tag_of(i);
      pairs_.add(s.pc, s.lr, PairCounter::pack(s.tag));
      dump_.sample_records += 1;
      dump_.stacks.push_back(std::move(s));
    }
    dropped_after_items(r, dump_.stacks_dropped, "stack samples dropped");
  }

  // 1.3 appends the capture's dropped count after the items; a 1.2 chunk ends with them (unknown).
  static void dropped_after_items(Reader& r, std::optional<std::uint64_t>& dropped, const char* field) {
    if (r.left() < 8) return;
    dropped = dropped.value_or(0) + r.u64(field);
  }

  void frames(Reader& r, const std::string& where) {
    const std::uint32_t n = r.u32("frame sample count");
    const unsigned a = dump_.target.address_bytes;
    r.need_items(n, 2 + a, "frame samples");
    check_tag_count(n, "FRAMES", "samples");
    dump_.frames.reserve(dump_.frames.size() + n);
    for (std::uint32_t i = 0; i < n; ++i) {
      FrameSampleRecord f;
      const unsigned count = r.u8("frame count");
      if (count == 0) throw DecodeError(where + ": sample " + std::to_string(i) + " has no frames");
      f.complete = (r.u8("frame flags") & 1u) != 0;
      r.need_items(count, a, "frames");
      for (unsigned k = 0; k < count; ++k) f.pcs.push_back(r.uint(a, "frame"));
      f.tag = tag_of(i);
      pairs_.add(f.pcs[0], f.pcs.size() > 1 ? f.pcs[1] : 0, PairCounter::pack(f.tag));
      dump_.sample_records += 1;
      dump_.frames.push_back(std::move(f));
    }
    dropped_after_items(r, dump_.frames_dropped, "frame samples dropped");
  }

  void trace(Reader& r, const std::string& where) {
    const std::uint32_t n = r.u32("trace event count");
    dump_.trace_dropped += r.u64("trace events dropped");
    r.need_items(n, 2 + 8 + 8, "trace events");
    dump_.trace.reserve(dump_.trace.size() + n);
    for (std::uint32_t i = 0; i < n; ++i) {
      TraceEvent e;
      e.region = r.u16("trace region");
      e.begin = r.u64("trace begin");
      e.end = r.u64("trace end");
      if (e.region >= dump_.regions.size())
        throw DecodeError(where + ": event " + std::to_string(i) + " names region " + std::to_string(e.region) +
                          " but only " + std::to_string(dump_.regions.size()) + " came before it");
      dump_.trace.push_back(e);
    }
  }

  const std::uint8_t* data_;
  std::size_t size_;
  const DecodeOptions& options_;
  PairCounter pairs_;
  unsigned header_size_ = 0;
  bool have_target_ = false;
  bool have_counters_ = false;
  unsigned previous_ = 0;               // the type of the chunk before the current one (0: none)
  std::vector<std::uint32_t> tags_;     // the current sample chunk's tags, packed (PairCounter::pack)
  const ChunkRef* tags_at_ = nullptr;   // their SAMPLE_TAGS chunk, if the sample chunk has one
  std::string tags_where_;
  Dump dump_;
};

}  // namespace

bool has_dump_magic(const std::uint8_t* data, std::size_t size) {
  return size >= 4 && std::memcmp(data, fmt::kMagic, 4) == 0;
}

Dump decode_dump(const std::uint8_t* data, std::size_t size, const DecodeOptions& options) {
  return Decoder(data, size, options).run();
}

}  // namespace pmukit
