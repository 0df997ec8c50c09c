#include "tools/stream/stream_decoder.hpp"

#include <cstring>

#include "tools/dumpread/binary_decoder.hpp"
#include "tools/dumpread/crc32_host.hpp"
#include "tools/dumpread/decode_error.hpp"

namespace pmukit::stream {
namespace {

std::uint16_t le16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }
std::uint32_t le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

// An integer of the dump bytes a payload carries: the target's byte order.
std::uint64_t target_uint(const std::uint8_t* p, unsigned n, bool big) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * (big ? n - 1 - i : i));
  return v;
}
void put_target_uint(std::vector<std::uint8_t>& out, std::uint64_t v, unsigned n, bool big) {
  for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * (big ? n - 1 - i : i))));
}

// The preamble (and extra chunks) closed with an END chunk, decoded by the dump decoder: the
// same checks as a dump file's. Throws DecodeError.
Dump decode_with_end(const std::vector<std::uint8_t>& preamble, const std::uint8_t* extra, std::size_t n) {
  if (preamble.size() < 16) throw DecodeError("preamble shorter than a dump header");
  const bool big = preamble[4] == 0x01;
  std::vector<std::uint8_t> d(preamble);
  d.insert(d.end(), extra, extra + n);
  put_target_uint(d, 0x00FF, 2, big);
  put_target_uint(d, 0, 2, big);
  put_target_uint(d, 4, 4, big);
  put_target_uint(d, host_crc32(d.data(), d.size()), 4, big);
  DecodeOptions o;
  o.raw_samples = false;
  return decode_dump(d.data(), d.size(), o);
}

constexpr std::size_t kMissingWindow = 4096;  // gap numbers remembered for late frames

}  // namespace

bool read_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
  v = 0;
  for (unsigned i = 0; i < 10; ++i) {
    if (p == end) return false;
    const std::uint8_t b = *p++;
    if (i == 9 && b > 1) return false;  // more than 64 bits
    v |= std::uint64_t{b & 0x7Fu} << (7 * i);
    if ((b & 0x80u) == 0) return true;
  }
  return false;
}

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

void Decoder::feed(const std::uint8_t* data, std::size_t size) {
  stats_.bytes += size;
  buf_.insert(buf_.end(), data, data + size);
  while (!handler_.full() && try_frame(false) != Scan::need_more) {
  }
  compact();
}

void Decoder::finish() {
  while (!handler_.full() && pos_ < buf_.size()) try_frame(true);
  compact();
}

void Decoder::compact() {
  if (pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  } else if (pos_ > (std::size_t{1} << 16)) {
    buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(pos_));
    pos_ = 0;
  }
}

Decoder::Scan Decoder::try_frame(bool at_end) {
  // Bytes before the next sync are not a frame's: skipped.
  std::size_t i = pos_;
  const std::size_t n = buf_.size();
  while (i + 1 < n && !(buf_[i] == kSync0 && buf_[i + 1] == kSync1)) ++i;
  if (i + 1 >= n) {
    // No sync; a last A5 may be the start of one, unless the input ended.
    const std::size_t keep = (!at_end && i < n && buf_[i] == kSync0) ? 1 : 0;
    stats_.skipped_bytes += n - pos_ - keep;
    pos_ = n - keep;
    return at_end ? Scan::failed : Scan::need_more;
  }
  stats_.skipped_bytes += i - pos_;
  pos_ = i;
  const std::uint8_t* h = buf_.data() + i;
  const std::size_t have = n - i;
  bool failed = false;
  if (have < kFrameHeader) {
    if (!at_end) return Scan::need_more;
    failed = true;
  }
  std::size_t length = 0;
  if (!failed) {
    length = le16(h + 6);
    if (length > kMaxPayload) failed = true;
  }
  if (!failed && have < kFrameHeader + length + kFrameCrc) {
    if (!at_end) return Scan::need_more;
    failed = true;  // a frame cut at the end of the input
  }
  if (!failed && host_crc32(h + 2, kFrameHeader - 2 + length) != le32(h + kFrameHeader + length)) failed = true;
  if (failed) {
    // Not a frame: search again from the byte after this sync, so a cut frame never hides the next.
    ++stats_.corrupt;
    ++stats_.skipped_bytes;
    ++pos_;
    return Scan::failed;
  }
  const std::size_t total = kFrameHeader + length + kFrameCrc;
  ++stats_.frames;
  stats_.frame_bytes += total;
  pos_ += total;
  // The frame's bytes are copied: a handler may feed nothing back, but buf_ must stay valid.
  const std::vector<std::uint8_t> payload(h + kFrameHeader, h + kFrameHeader + length);
  frame(h[2], le16(h + 4), payload.data(), payload.size(), total);
  return Scan::frame;
}

bool Decoder::sequence(std::uint16_t seq, std::uint64_t& order) {
  const std::uint16_t d = static_cast<std::uint16_t>(seq - static_cast<std::uint16_t>(next_));
  if (d < 0x8000) {
    // In order, or after a gap: the numbers in between were lost.
    stats_.lost += d;
    for (std::uint64_t u = d > kMissingWindow ? next_ + d - kMissingWindow : next_; u < next_ + d; ++u) {
      missing_.insert(u);
      missing_order_.push_back(u);
    }
    while (missing_order_.size() > kMissingWindow) {
      missing_.erase(missing_order_.front());
      missing_order_.pop_front();
    }
    order = next_ + d;
    next_ = order + 1;
    return true;
  }
  // Behind: a frame that a later one overtook (it was counted lost: it is not), or a repeat.
  const std::uint64_t back = 0x10000u - d;
  if (back <= next_ && missing_.erase(next_ - back) != 0) {
    --stats_.lost;
    ++stats_.late;
    order = next_ - back;
    return true;
  }
  ++stats_.duplicates;
  return false;
}

void Decoder::frame(std::uint8_t type, std::uint16_t seq, const std::uint8_t* p, std::size_t n, std::size_t) {
  if (type == static_cast<std::uint8_t>(FrameType::hello)) {
    on_hello(p, n, seq);
    return;
  }
  if (!hello_) {
    ++stats_.before_hello;
    return;
  }
  std::uint64_t order = 0;
  if (!sequence(seq, order)) return;
  bool ok = true;
  switch (static_cast<FrameType>(type)) {
    case FrameType::samples: ok = on_samples(p, n, order); break;
    case FrameType::chunk: ok = on_chunk(p, n, order); break;
    case FrameType::counts: ok = on_counts(p, n, order); break;
    default: ++stats_.unknown; break;
  }
  if (!ok) {
    ++stats_.malformed;
    ++stats_.corrupt;
  }
}

void Decoder::on_hello(const std::uint8_t* p, std::size_t n, std::uint16_t seq) {
  if (n >= 1 && p[0] != kStreamVersion)
    throw StreamError("stream version " + std::to_string(p[0]) + " (this pmukit reads version " +
                      std::to_string(kStreamVersion) + ")");
  if (n < 5 + 16) {
    ++stats_.malformed;
    ++stats_.corrupt;
    return;
  }
  const std::uint32_t boot = le32(p + 1);
  if (hello_ && hello_->boot_id == boot) {
    // The same boot's periodic HELLO: a frame like the others.
    std::uint64_t order = 0;
    if (sequence(seq, order)) ++stats_.hellos;
    return;
  }
  Hello h;
  h.boot_id = boot;
  h.preamble.assign(p + 5, p + n);
  try {
    h.info = decode_with_end(h.preamble, nullptr, 0);
  } catch (const DecodeError&) {
    ++stats_.malformed;
    ++stats_.corrupt;
    return;
  }
  const bool first = !hello_;
  if (!first) {
    ++stats_.boot_changes;
    stats_.dropped = 0;
    stats_.dropped_known = false;
  }
  ++stats_.hellos;
  hello_ = std::move(h);
  // The sequence starts again at this boot's HELLO.
  next_ = std::uint64_t{seq} + 1;
  missing_.clear();
  missing_order_.clear();
  handler_.hello(*hello_, first);
}

bool Decoder::on_samples(const std::uint8_t* p, std::size_t n, std::uint64_t order) {
  const std::uint8_t* end = p + n;
  std::uint64_t dropped = 0, count = 0;
  if (!read_varint(p, end, dropped) || !read_varint(p, end, count) || p == end) return false;
  const std::uint8_t flags = *p++;
  if ((flags & ~(kSamplesHaveLr | kSamplesHaveTask)) != 0) return false;  // reserved bits
  if (count > static_cast<std::uint64_t>(end - p)) return false;            // a sample is >= 1 byte
  const unsigned width = hello_->info.target.address_bytes;
  const unsigned __int128 limit = width >= 8 ? (static_cast<unsigned __int128>(1) << 64)
                                             : (static_cast<unsigned __int128>(1) << (8 * width));
  std::vector<StreamSample> out;
  out.reserve(static_cast<std::size_t>(count));
  __int128 prev = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    std::uint64_t v = 0;
    if (!read_varint(p, end, v)) return false;
    // 8-byte addresses: the 64-bit difference wraps (every u64 is an address); narrower ones
    // must land inside their width.
    __int128 pc = prev + unzigzag(v);
    if (width >= 8) pc = static_cast<__int128>(static_cast<std::uint64_t>(pc));
    if (pc < 0 || static_cast<unsigned __int128>(pc) >= limit) return false;  // outside the address width
    StreamSample s;
    s.pc = static_cast<std::uint64_t>(pc);
    prev = pc;
    if (flags & kSamplesHaveLr) {
      if (!read_varint(p, end, v)) return false;
      __int128 lr = pc + unzigzag(v);
      if (width >= 8) lr = static_cast<__int128>(static_cast<std::uint64_t>(lr));
      if (lr < 0 || static_cast<unsigned __int128>(lr) >= limit) return false;
      s.lr = static_cast<std::uint64_t>(lr);
    }
    if (flags & kSamplesHaveTask) {
      if (!read_varint(p, end, v) || v > 0xFFFF) return false;
      s.task = static_cast<std::uint16_t>(v);
    }
    out.push_back(s);
  }
  if (p != end) return false;  // bytes after the last sample
  ++stats_.samples_frames;
  stats_.samples += count;
  if (!stats_.dropped_known || dropped > stats_.dropped) stats_.dropped = dropped;  // cumulative
  stats_.dropped_known = true;
  handler_.samples(out, flags, order);
  return true;
}

bool Decoder::on_chunk(const std::uint8_t* p, std::size_t n, std::uint64_t order) {
  if (n < 8) return false;
  const bool big = hello_->info.byte_order == ByteOrder::big;
  const unsigned type = static_cast<unsigned>(target_uint(p, 2, big));
  const std::uint64_t length = target_uint(p + 4, 4, big);
  if (length + 8 != n) return false;  // one chunk, whole
  std::string key;
  if (type == 0x0003 || type == 0x000C) {
    Dump d;
    try {
      d = decode_with_end(hello_->preamble, p, n);
    } catch (const DecodeError&) {
      return false;
    }
    if (type == 0x0003) {
      if (d.regions.empty()) return false;
      key = "REGION " + d.regions.back().name;
    } else {
      if (d.mux_regions.empty()) return false;
      key = "MUX_REGION " + d.mux_regions.back().name;
    }
  } else if (type == 0x000F) {
    // TASK_COUNTS (dump 1.5): u16 task, u64 switches in, u8 n = COUNTERS's n, n u64 counts.
    if (length < 11) return false;
    const std::size_t k = p[8 + 10];
    if (k != hello_->info.counters.size() || length < 11 + 8 * k) return false;
    key = "TASK_COUNTS " + std::to_string(target_uint(p + 8, 2, big));
  } else {
    ++stats_.unknown;  // a snapshot of a kind this recorder does not know
    return true;
  }
  ++stats_.chunk_frames;
  handler_.chunk(key, std::vector<std::uint8_t>(p, p + n), order);
  return true;
}

bool Decoder::on_counts(const std::uint8_t* p, std::size_t n, std::uint64_t order) {
  const std::uint8_t* end = p + n;
  std::uint64_t time_hz = 0, time = 0, count = 0;
  if (!read_varint(p, end, time_hz) || !read_varint(p, end, time) || !read_varint(p, end, count)) return false;
  if (count != hello_->info.counters.size()) return false;  // COUNTERS order, every counter
  std::vector<std::uint64_t> totals(static_cast<std::size_t>(count));
  for (auto& t : totals)
    if (!read_varint(p, end, t)) return false;
  if (p != end) return false;
  ++stats_.counts_frames;
  handler_.counts(time_hz, time, totals, order);
  return true;
}

}  // namespace pmukit::stream
