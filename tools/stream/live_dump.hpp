#pragma once
// A dump file written while the stream arrives (pmukit record), so that whatever stops the
// recorder (a crash, SIGKILL, the board's power) leaves a valid dump of everything up to the last
// checkpoint. docs/stream-format.md, "What a recorder keeps".
//
// Layout: the HELLO's header and preamble chunks (but SAMPLE_SOURCE), the SAMPLES (and
// SAMPLE_TAGS) chunks of each checkpoint, then a tail: an anchor, SAMPLE_SOURCE with the latest
// dropped count, the latest snapshot of each REGION/MUX_REGION/TASK_COUNTS, END. A checkpoint
// appends the new samples and a new tail after the old tail (the file still ends its dump at the
// old END: bytes after END are ignored), syncs, then rewrites the old anchor's 4-byte length so
// that the old tail becomes the payload of an empty SAMPLES chunk, which decoders pass over
// ("a decoder ignores payload bytes after the fields it knows"). Each step leaves a valid dump;
// the one in-place write is 4 bytes within one page. At the end the padding is left out: the
// dump is written again beside the output and renamed into place.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tools/dumpread/crc32_host.hpp"
#include "tools/stream/stream_decoder.hpp"

namespace pmukit::stream {

class LiveDump {
 public:
  // How the output may be written, by tools/cli/output_file's rules.
  enum class Mode {
    replace,   // a new name, or a regular file of ours: a file beside it, renamed into place
    in_place,  // a regular file with other hard links: written in place (left padded at the end)
    spool,     // a device, FIFO or socket: spooled to a temporary file, written through at the end
  };
  LiveDump(std::string path, Mode mode);
  ~LiveDump();
  LiveDump(const LiveDump&) = delete;
  LiveDump& operator=(const LiveDump&) = delete;

  // The first HELLO's preamble: writes a valid (empty) dump. Throws std::runtime_error.
  void begin(const std::vector<std::uint8_t>& preamble);
  // Kept in memory until the next checkpoint.
  void add_samples(const std::vector<StreamSample>& samples, bool tasks);
  void snapshot(const std::string& key, const std::vector<std::uint8_t>& chunk, std::uint64_t order);
  void set_dropped(std::uint64_t dropped) { dropped_ = dropped, have_dropped_ = true; }
  // Writes what came since the last checkpoint; false if nothing changed.
  bool checkpoint();
  // The last checkpoint, without padding, in place of the output (replace, spool modes).
  void finish();

  bool begun() const { return fd_ >= 0; }
  // The checkpoints' padding that makes a replace-mode file be rewritten without it (default
  // 1 MiB, and more than half the samples); tests set it low.
  void set_compact_after(std::uint64_t bytes) { compact_after_ = bytes; }
  std::uint64_t padding() const { return padding_; }
  std::uint64_t samples_written() const { return samples_written_; }
  std::uint64_t samples_pending() const { return pending_.size(); }
  bool has_sample_source() const { return !source_.empty(); }
  const std::string& path() const { return path_; }

 private:
  std::vector<std::uint8_t> tail(bool anchor) const;
  std::vector<std::uint8_t> sample_chunks();
  void write_at(std::uint64_t offset, const std::uint8_t* p, std::size_t n);
  void sync();
  // Copies the dump without its padding to `out` (the chunks up to the body's end, then a tail).
  template <class Out> void copy_compact(Out&& out, bool anchor, std::uint64_t* body_end = nullptr,
                                         HostCrc32* body_crc = nullptr);
  void compact_now();
  void u(std::vector<std::uint8_t>& v, std::uint64_t x, unsigned n) const;

  std::string path_, target_, tmp_;
  Mode mode_;
  int fd_ = -1;
  bool big_ = false;
  unsigned address_bytes_ = 4;
  std::vector<std::uint8_t> source_;  // the preamble's SAMPLE_SOURCE chunk (empty: none)
  std::uint64_t dropped_ = 0;
  bool have_dropped_ = false;
  std::vector<StreamSample> pending_;
  bool pending_tasks_ = false;
  std::vector<std::string> snapshot_keys_;  // first-seen order
  std::map<std::string, std::pair<std::uint64_t, std::vector<std::uint8_t>>> snapshots_;
  bool dirty_ = false;
  // The file: body [0, body_end_) with its CRC state, then the tail [body_end_, +tail_.size()).
  std::uint64_t body_end_ = 0;
  HostCrc32 body_crc_;
  std::vector<std::uint8_t> tail_;
  std::uint64_t padding_ = 0;
  std::uint64_t compact_after_ = std::uint64_t{1} << 20;
  std::uint64_t samples_written_ = 0;
};

}  // namespace pmukit::stream
