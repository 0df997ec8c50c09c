#pragma once
// The live stream's decoder (docs/stream-format.md): bytes in, frames out. Fed whatever the link
// delivers, in pieces of any size; it finds the frames, checks them and accounts for every byte
// and every sequence number, so a recorder can say exactly what the link lost.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/dumpread/dump.hpp"

namespace pmukit::stream {

inline constexpr std::uint8_t kSync0 = 0xA5, kSync1 = 0x5A;
inline constexpr std::size_t kFrameHeader = 8;     // sync, type, flags, sequence, length
inline constexpr std::size_t kFrameCrc = 4;
inline constexpr std::size_t kMaxPayload = 1024;
inline constexpr unsigned kStreamVersion = 1;

enum class FrameType : std::uint8_t { hello = 0x01, samples = 0x02, chunk = 0x03, counts = 0x04 };

// SAMPLES flags.
inline constexpr std::uint8_t kSamplesHaveLr = 0x01, kSamplesHaveTask = 0x02;
inline constexpr std::uint16_t kNoTask = 0xFFFF;

// A HELLO with another stream version: the decoder cannot go on.
class StreamError : public std::runtime_error {
 public:
  explicit StreamError(const std::string& what) : std::runtime_error(what) {}
};

// What happened to the bytes and frames so far. Every input byte is either in a good frame
// (frame_bytes) or skipped (skipped_bytes); every sequence number after the first HELLO is a
// frame kept, lost, or (late) recovered.
struct StreamStats {
  std::uint64_t bytes = 0;          // fed
  std::uint64_t frame_bytes = 0;    // in frames whose CRC matched
  std::uint64_t skipped_bytes = 0;  // outside such frames: console output, noise, broken frames
  std::uint64_t frames = 0;         // frames whose CRC matched (any type, before HELLO too)
  std::uint64_t corrupt = 0;        // a sync whose frame failed (length, CRC, cut at the end)
  std::uint64_t malformed = 0;      // CRC matched, payload against the spec (a pc outside the
                                    // address width, a bad varint...): corrupt too, never kept
  std::uint64_t lost = 0;           // sequence numbers never seen (gaps, modulo 2^16)
  std::uint64_t late = 0;           // frames that came after a later one (reordered), kept
  std::uint64_t duplicates = 0;     // a sequence number seen twice: the second one dropped
  std::uint64_t before_hello = 0;   // good frames before the first HELLO, skipped
  std::uint64_t unknown = 0;        // good frames of an unknown type (or a CHUNK of another kind)
  std::uint64_t hellos = 0;         // HELLO frames accepted
  std::uint64_t boot_changes = 0;   // HELLOs with a new boot id
  std::uint64_t samples = 0;        // samples decoded (SAMPLES frames kept)
  std::uint64_t samples_frames = 0, chunk_frames = 0, counts_frames = 0;
  std::uint64_t dropped = 0;        // the firmware's own count (SAMPLES), this boot's latest
  bool dropped_known = false;
};

struct StreamSample {
  std::uint64_t pc = 0;
  std::uint64_t lr = 0;           // 0: none
  std::uint16_t task = kNoTask;
};

// A HELLO's content: the boot id and the dump preamble (header and chunks, no END), decoded.
struct Hello {
  std::uint32_t boot_id = 0;
  std::vector<std::uint8_t> preamble;
  Dump info;  // the preamble decoded (target, counters, sample source...)
};

class Decoder {
 public:
  struct Handler {
    virtual ~Handler() = default;
    // The first HELLO (first = true) or one with a new boot id.
    virtual void hello(const Hello& h, bool first) = 0;
    // A SAMPLES frame's samples; `order` is the frame's place in the stream (late frames have a
    // smaller one than frames already delivered).
    virtual void samples(const std::vector<StreamSample>& s, std::uint8_t flags, std::uint64_t order) = 0;
    // A CHUNK frame: one whole dump chunk, checked against the preamble; `key` names what it
    // replaces (type and region name or task id).
    virtual void chunk(const std::string& key, const std::vector<std::uint8_t>& bytes, std::uint64_t order) = 0;
    // time_hz: the rate of `time` (0: unknown, the TARGET chunk's counter clock stands in).
    virtual void counts(std::uint64_t time_hz, std::uint64_t time, const std::vector<std::uint64_t>& totals,
                        std::uint64_t order) = 0;
    // True once the handler wants no more frames (a sample count reached): the decoder stops
    // there and leaves the rest of the bytes unread (pending()).
    virtual bool full() const { return false; }
  };

  explicit Decoder(Handler& handler) : handler_(handler) {}

  // Throws StreamError for a HELLO of another stream version.
  void feed(const std::uint8_t* data, std::size_t size);
  // End of input: what is left cannot become a frame (a frame cut at the end is corrupt).
  void finish();

  const StreamStats& stats() const { return stats_; }
  const std::optional<Hello>& hello() const { return hello_; }
  std::size_t pending() const { return buf_.size() - pos_; }

 private:
  enum class Scan { frame, need_more, failed };
  Scan try_frame(bool at_end);
  void frame(std::uint8_t type, std::uint16_t seq, const std::uint8_t* p, std::size_t n, std::size_t total);
  bool sequence(std::uint16_t seq, std::uint64_t& order);
  void on_hello(const std::uint8_t* p, std::size_t n, std::uint16_t seq);
  bool on_samples(const std::uint8_t* p, std::size_t n, std::uint64_t order);
  bool on_chunk(const std::uint8_t* p, std::size_t n, std::uint64_t order);
  bool on_counts(const std::uint8_t* p, std::size_t n, std::uint64_t order);
  void compact();

  Handler& handler_;
  StreamStats stats_;
  std::vector<std::uint8_t> buf_;
  std::size_t pos_ = 0;
  std::optional<Hello> hello_;
  // Sequence tracking from the first HELLO: the next expected number, unwrapped, and the numbers
  // a gap skipped (recent ones), so a late frame is told from a duplicate.
  std::uint64_t next_ = 0;
  std::set<std::uint64_t> missing_;
  std::deque<std::uint64_t> missing_order_;
};

// LEB128 and zigzag (the stream's varint and svarint); false on a truncated or too long value.
bool read_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v);
void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v);
inline std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

}  // namespace pmukit::stream
