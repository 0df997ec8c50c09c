#include "tools/stream/live_dump.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace pmukit::stream {
namespace {

constexpr unsigned kSamples = 0x0005, kSampleSource = 0x0004, kSampleTags = 0x000E, kEnd = 0x00FF;
constexpr std::uint32_t kChunkSamples = 1u << 16;  // samples per SAMPLES chunk
constexpr std::uint64_t kPage = 4096;

std::runtime_error sys_error(const std::string& what, int e) {
  return std::runtime_error(what + ": " + std::strerror(e));
}

}  // namespace

void LiveDump::u(std::vector<std::uint8_t>& v, std::uint64_t x, unsigned n) const {
  for (unsigned i = 0; i < n; ++i) v.push_back(static_cast<std::uint8_t>(x >> (8 * (big_ ? n - 1 - i : i))));
}

LiveDump::LiveDump(std::string path, Mode mode) : path_(std::move(path)), mode_(mode) {
  target_ = path_;
  if (mode_ == Mode::replace) {
    char* r = ::realpath(path_.c_str(), nullptr);  // a link: the file it names
    if (r != nullptr) {
      target_ = r;
      std::free(r);
    }
  }
}

LiveDump::~LiveDump() {
  if (fd_ >= 0) ::close(fd_);
}

void LiveDump::write_at(std::uint64_t offset, const std::uint8_t* p, std::size_t n) {
  while (n != 0) {
    const ssize_t w = ::pwrite(fd_, p, n, static_cast<off_t>(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw sys_error("cannot write '" + path_ + "'", w < 0 ? errno : EIO);
    p += w;
    n -= static_cast<std::size_t>(w);
    offset += static_cast<std::uint64_t>(w);
  }
}

void LiveDump::sync() {
  if (::fdatasync(fd_) != 0 && errno != EINVAL) throw sys_error("cannot sync '" + path_ + "'", errno);
}

void LiveDump::begin(const std::vector<std::uint8_t>& preamble) {
  big_ = preamble.size() > 4 && preamble[4] == 0x01;
  const auto get = [&](std::size_t at, unsigned n) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= std::uint64_t{preamble[at + i]} << (8 * (big_ ? n - 1 - i : i));
    return v;
  };
  // The head: the header and every preamble chunk but SAMPLE_SOURCE, which goes to the tail with
  // the latest dropped count. (The decoder checked the preamble's chunks.)
  const std::size_t header = static_cast<std::size_t>(get(12, 2));
  std::vector<std::uint8_t> head(preamble.begin(), preamble.begin() + static_cast<std::ptrdiff_t>(header));
  for (std::size_t at = header; at + 8 <= preamble.size();) {
    const std::size_t len = 8 + static_cast<std::size_t>(get(at + 4, 4));
    const auto first = preamble.begin() + static_cast<std::ptrdiff_t>(at);
    const auto last = first + static_cast<std::ptrdiff_t>(len);
    if (get(at, 2) == kSampleSource) source_.assign(first, last);
    else head.insert(head.end(), first, last);
    if (get(at, 2) == 0x0001 && len >= 8 + 2) {
      // TARGET: two strings, u64 clock, u8 width, u8 address_bytes.
      std::size_t p = at + 8;
      p += 1 + preamble[p];
      p += 1 + preamble[p];
      if (p + 9 < at + len) address_bytes_ = preamble[p + 9];
    }
    at += len;
  }
  if (mode_ == Mode::spool) {
    std::string t = (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
                    "/pmukit-record-XXXXXX";
    fd_ = ::mkstemp(t.data());
    if (fd_ < 0) throw sys_error("cannot create a spool file in " + t, errno);
    ::unlink(t.c_str());
  } else if (mode_ == Mode::in_place) {
    fd_ = ::open(target_.c_str(), O_RDWR | O_TRUNC | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw sys_error("cannot write '" + path_ + "'", errno);
  } else {
    tmp_ = target_ + ".pmukit-" + std::to_string(::getpid()) + ".tmp";
    fd_ = ::open(tmp_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd_ < 0) throw sys_error("cannot create '" + tmp_ + "'", errno);
    struct stat st{};
    if (::stat(target_.c_str(), &st) == 0) (void)::fchmod(fd_, st.st_mode & 07777);
  }
  if ((head.size() + 4) % kPage > kPage - 4) {  // the anchor's length field within one page
    u(head, kSamples, 2), u(head, 0, 2), u(head, 4, 4), u(head, 0, 4);
  }
  body_crc_.update(head.data(), head.size());
  body_end_ = head.size();
  tail_ = tail(true);
  std::vector<std::uint8_t> all(head);
  all.insert(all.end(), tail_.begin(), tail_.end());
  HostCrc32 c = body_crc_;
  c.update(tail_.data(), tail_.size());
  u(all, c.value(), 4);
  write_at(0, all.data(), all.size());
  sync();
  if (mode_ == Mode::replace) {
    // From here the output is a valid dump, updated in place.
    if (::rename(tmp_.c_str(), target_.c_str()) != 0) {
      const int e = errno;
      ::unlink(tmp_.c_str());
      throw sys_error("cannot write '" + path_ + "'", e);
    }
    tmp_.clear();
  }
}

void LiveDump::add_samples(const std::vector<StreamSample>& samples, bool tasks) {
  pending_.insert(pending_.end(), samples.begin(), samples.end());
  pending_tasks_ = pending_tasks_ || tasks;
}

void LiveDump::snapshot(const std::string& key, const std::vector<std::uint8_t>& chunk, std::uint64_t order) {
  auto it = snapshots_.find(key);
  if (it == snapshots_.end()) {
    snapshot_keys_.push_back(key);
    snapshots_.emplace(key, std::make_pair(order, chunk));
  } else if (order >= it->second.first) {
    it->second = {order, chunk};  // a late frame's older snapshot never replaces a newer one
  } else {
    return;
  }
  dirty_ = true;
}

std::vector<std::uint8_t> LiveDump::tail(bool anchor) const {
  std::vector<std::uint8_t> t;
  if (anchor) {
    u(t, kSamples, 2), u(t, 0, 2), u(t, 4, 4), u(t, 0, 4);
  }
  if (!source_.empty()) {
    t.insert(t.end(), source_.begin(), source_.end());
    // SAMPLE_SOURCE: u8 kind, u8 slot, u64 period, u64 dropped: the firmware's latest count.
    const std::size_t at = t.size() - source_.size() + 8 + 10;
    if (have_dropped_ && source_.size() >= 8 + 18) {
      std::vector<std::uint8_t> d;
      u(d, dropped_, 8);
      std::memcpy(t.data() + at, d.data(), 8);
    }
  }
  for (const std::string& k : snapshot_keys_) {
    const auto& c = snapshots_.at(k).second;
    t.insert(t.end(), c.begin(), c.end());
  }
  u(t, kEnd, 2), u(t, 0, 2), u(t, 4, 4);
  return t;  // the CRC is appended by the caller, who knows the body's
}

std::vector<std::uint8_t> LiveDump::sample_chunks() {
  std::vector<std::uint8_t> out;
  for (std::size_t at = 0; at < pending_.size(); at += kChunkSamples) {
    const std::size_t n = std::min<std::size_t>(kChunkSamples, pending_.size() - at);
    u(out, kSamples, 2), u(out, 0, 2), u(out, 4 + n * 2 * address_bytes_, 4), u(out, n, 4);
    for (std::size_t i = at; i < at + n; ++i) u(out, pending_[i].pc, address_bytes_), u(out, pending_[i].lr, address_bytes_);
    if (pending_tasks_) {
      // SAMPLE_TAGS (dump 1.5): u32 count, u8 flags (task ids), then u16 task and u8 core each.
      u(out, kSampleTags, 2), u(out, 0, 2), u(out, 5 + n * 3, 4), u(out, n, 4);
      out.push_back(0x01);
      for (std::size_t i = at; i < at + n; ++i) u(out, pending_[i].task, 2), out.push_back(0);
    }
  }
  samples_written_ += pending_.size();
  pending_.clear();
  pending_tasks_ = false;
  return out;
}

bool LiveDump::checkpoint() {
  if (fd_ < 0 || (pending_.empty() && !dirty_ && !have_dropped_)) return false;
  std::vector<std::uint8_t> add = sample_chunks();
  std::vector<std::uint8_t> t = tail(true);
  const std::uint64_t old_tail = body_end_, old_end = body_end_ + tail_.size() + 4;
  if (add.empty() && !dirty_ && t == tail_) return false;
  // The new anchor's length field must not cross a page, so its rewrite is one page's write.
  if ((old_end + add.size() + 4) % kPage > kPage - 4) {
    std::vector<std::uint8_t> pad;
    u(pad, kSamples, 2), u(pad, 0, 2), u(pad, 4, 4), u(pad, 0, 4);
    add.insert(add.begin(), pad.begin(), pad.end());
  }
  // The old tail as it will read once voided: its anchor's payload covers all of it.
  std::vector<std::uint8_t> voided(tail_);
  {
    HostCrc32 c = body_crc_;
    c.update(tail_.data(), tail_.size());
    std::vector<std::uint8_t> v;
    u(v, c.value(), 4);
    voided.insert(voided.end(), v.begin(), v.end());  // the old CRC bytes are in the file
  }
  std::vector<std::uint8_t> len;
  u(len, voided.size() - 8, 4);
  std::memcpy(voided.data() + 4, len.data(), 4);
  HostCrc32 body = body_crc_;
  body.update(voided.data(), voided.size());
  body.update(add.data(), add.size());
  HostCrc32 c = body;
  c.update(t.data(), t.size());
  std::vector<std::uint8_t> bytes(add);
  bytes.insert(bytes.end(), t.begin(), t.end());
  u(bytes, c.value(), 4);
  // 1. New samples and tail after the old END: the file's dump is still the old one.
  write_at(old_end, bytes.data(), bytes.size());
  sync();
  // 2. The old tail becomes padding: the file's dump is now the new one.
  write_at(old_tail + 4, len.data(), 4);
  sync();
  padding_ += voided.size();
  body_crc_ = body;
  body_end_ = old_end + add.size();
  tail_ = std::move(t);
  dirty_ = false;
  if (mode_ == Mode::replace && padding_ > compact_after_ && padding_ > body_end_ / 2) compact_now();
  return true;
}

// The file without its padding, written beside it and renamed into place: still a checkpointed
// dump with an anchor, so the checkpoints go on in the new file.
void LiveDump::compact_now() {
  const std::string tmp = target_ + ".pmukit-" + std::to_string(::getpid()) + ".tmp";
  const int out = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666);
  if (out < 0) throw sys_error("cannot create '" + tmp + "'", errno);
  struct stat st{};
  if (::fstat(fd_, &st) == 0) (void)::fchmod(out, st.st_mode & 07777);
  std::uint64_t at = 0, body_end = 0;
  HostCrc32 body_crc;
  try {
    copy_compact([&](const std::uint8_t* p, std::size_t n) {
      while (n != 0) {
        const ssize_t w = ::pwrite(out, p, n, static_cast<off_t>(at));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) throw sys_error("cannot write '" + tmp + "'", w < 0 ? errno : EIO);
        p += w, n -= static_cast<std::size_t>(w), at += static_cast<std::uint64_t>(w);
      }
    }, true, &body_end, &body_crc);
    if (::fdatasync(out) != 0 && errno != EINVAL) throw sys_error("cannot sync '" + tmp + "'", errno);
    if (::rename(tmp.c_str(), target_.c_str()) != 0) throw sys_error("cannot write '" + path_ + "'", errno);
  } catch (...) {
    ::close(out);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd_);
  fd_ = out;
  body_end_ = body_end;
  body_crc_ = body_crc;
  tail_ = tail(true);
  padding_ = 0;
}

template <class Out>
void LiveDump::copy_compact(Out&& out, bool anchor, std::uint64_t* body_end, HostCrc32* body_crc) {
  std::uint64_t written = 0;
  HostCrc32 crc;
  std::vector<std::uint8_t> buf(1 << 16);
  const auto read_at = [&](std::uint64_t at, std::uint8_t* p, std::size_t n) {
    while (n != 0) {
      const ssize_t r = ::pread(fd_, p, n, static_cast<off_t>(at));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) throw sys_error("cannot read back '" + path_ + "'", r < 0 ? errno : EIO);
      p += r, at += static_cast<std::uint64_t>(r), n -= static_cast<std::size_t>(r);
    }
  };
  const auto emit = [&](const std::uint8_t* p, std::size_t n) {
    crc.update(p, n);
    out(p, n);
    written += n;
  };
  const auto get = [&](const std::uint8_t* p, unsigned n) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * (big_ ? n - 1 - i : i));
    return v;
  };
  std::uint8_t h[16];
  read_at(0, h, 16);
  std::uint64_t at = get(h + 12, 2);
  for (std::uint64_t copied = 0; copied < at;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), at - copied));
    read_at(copied, buf.data(), n);
    emit(buf.data(), n);
    copied += n;
  }
  while (at < body_end_) {
    std::uint8_t ch[12];
    read_at(at, ch, 8);
    const std::uint64_t len = get(ch + 4, 4);
    bool skip = false;
    if (get(ch, 2) == kSamples && len >= 4) {
      read_at(at + 8, ch + 8, 4);
      skip = get(ch + 8, 4) == 0;  // an anchor or padding: no sample
    }
    if (!skip) {
      for (std::uint64_t done = 0; done < 8 + len;) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), 8 + len - done));
        read_at(at + done, buf.data(), n);
        emit(buf.data(), n);
        done += n;
      }
    }
    at += 8 + len;
  }
  if (anchor && (written + 4) % kPage > kPage - 4) {
    std::vector<std::uint8_t> pad;
    u(pad, kSamples, 2), u(pad, 0, 2), u(pad, 4, 4), u(pad, 0, 4);
    emit(pad.data(), pad.size());
  }
  if (body_end != nullptr) *body_end = written;
  if (body_crc != nullptr) *body_crc = crc;
  const std::vector<std::uint8_t> t = tail(anchor);
  emit(t.data(), t.size());
  std::vector<std::uint8_t> v;
  u(v, crc.value(), 4);
  out(v.data(), v.size());
}

void LiveDump::finish() {
  if (fd_ < 0) return;
  checkpoint();
  if (mode_ == Mode::in_place) return;  // the other names keep the inode: left as checkpointed
  if (mode_ == Mode::spool) {
    const int out = ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (out < 0) throw sys_error("cannot write '" + path_ + "'", errno);
    try {
      copy_compact([&](const std::uint8_t* p, std::size_t n) {
        while (n != 0) {
          const ssize_t w = ::write(out, p, n);
          if (w < 0 && errno == EINTR) continue;
          if (w <= 0) throw sys_error("cannot write '" + path_ + "'", w < 0 ? errno : EIO);
          p += w, n -= static_cast<std::size_t>(w);
        }
      }, false);
    } catch (...) {
      ::close(out);
      throw;
    }
    ::close(out);
    return;
  }
  const std::string tmp = target_ + ".pmukit-" + std::to_string(::getpid()) + ".tmp";
  const int out = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666);
  if (out < 0) throw sys_error("cannot create '" + tmp + "'", errno);
  struct stat st{};
  if (::fstat(fd_, &st) == 0) (void)::fchmod(out, st.st_mode & 07777);
  std::uint64_t at = 0;
  try {
    copy_compact([&](const std::uint8_t* p, std::size_t n) {
      while (n != 0) {
        const ssize_t w = ::pwrite(out, p, n, static_cast<off_t>(at));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) throw sys_error("cannot write '" + tmp + "'", w < 0 ? errno : EIO);
        p += w, n -= static_cast<std::size_t>(w), at += static_cast<std::uint64_t>(w);
      }
    }, false);
    if (::fdatasync(out) != 0 && errno != EINVAL) throw sys_error("cannot sync '" + tmp + "'", errno);
  } catch (...) {
    ::close(out);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(out);
  if (::rename(tmp.c_str(), target_.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw sys_error("cannot write '" + path_ + "'", e);
  }
}

}  // namespace pmukit::stream
