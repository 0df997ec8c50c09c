#include "tools/dumpread/load.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "tools/dumpread/binary_decoder.hpp"
#include "tools/dumpread/decode_error.hpp"
#include "tools/dumpread/text_frames.hpp"

namespace pmukit {

namespace {

DecodeError too_large(const std::string& name) {
  return DecodeError(name + ": larger than " + std::to_string(kMaxInputBytes >> 20) +
                     " MiB, the most a dump or UART log is read (a firmware dump is kilobytes; "
                     "this is not one)");
}

}  // namespace

LoadedDump load_dump(const std::vector<unsigned char>& input, std::size_t frame,
                     const DecodeOptions& options) {
  return load_dump(input.data(), input.size(), frame, options);
}

LoadedDump load_dump(const unsigned char* input, std::size_t size, std::size_t frame,
                     const DecodeOptions& options) {
  if (has_dump_magic(input, size)) {
    if (frame > 1) throw DecodeError("--frame " + std::to_string(frame) + ": a binary dump has one");
    return {decode_dump(input, size, options), "binary"};
  }
  const TextFrames frames = find_text_frames(reinterpret_cast<const char*>(input), size, frame);
  if (frames.count == 0)
    throw DecodeError("no dump found: not a binary dump (no 'PMUD' magic at offset 0) and no "
                      "'@PMUD BEGIN' line in the text");
  if (frame > frames.count)
    throw DecodeError("--frame " + std::to_string(frame) + ": the log has only " +
                      std::to_string(frames.count) + " dump frame(s)");
  const std::size_t index = frame == 0 ? frames.count : frame;
  const TextFrame& f = frames.chosen;
  std::string name = "text frame " + std::to_string(index) + " of " + std::to_string(frames.count);
  if (!f.error.empty()) throw DecodeError(name + ": " + f.error);
  name += " (lines " + std::to_string(f.begin_line) + "-" + std::to_string(f.end_line) + ")";
  try {
    DecodeOptions in_memory = options;
    in_memory.consumed = nullptr;  // the frame's bytes are a copy, not the mapping
    return {decode_dump(f.bytes.data(), f.bytes.size(), in_memory), name};
  } catch (const DecodeError& e) {
    throw DecodeError(name + ": " + e.what());
  }
}

std::vector<unsigned char> read_stream(std::FILE* f, const std::string& name) {
  std::vector<unsigned char> data;
  unsigned char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    data.insert(data.end(), buf, buf + n);
    if (data.size() > kMaxInputBytes) throw too_large(name);
  }
  if (std::ferror(f) != 0) throw DecodeError("cannot read " + name + ": " + std::strerror(errno));
  return data;
}

namespace {

// A read-only private mapping of a whole file, unmapped on scope exit.
class Mapping {
 public:
  explicit Mapping(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw DecodeError("cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return;  // not a regular file (a pipe, a device): the caller reads it instead
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > kMaxInputBytes) {
      ::close(fd);
      throw too_large("'" + path + "'");
    }
    if (size_ != 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const unsigned char*>(p);
        ::madvise(p, size_, MADV_SEQUENTIAL);
      }
    }
    ::close(fd);
    mapped_ = data_ != nullptr || size_ == 0;
  }
  ~Mapping() {
    if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  bool mapped() const { return mapped_; }
  const unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
};

// Drops the whole pages of a range the decoder is done with: clean pages of a private read-only
// mapping, so they are read again from the file if ever touched again.
void drop_pages(const std::uint8_t* data, std::size_t size) {
  static const std::uintptr_t page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(page - 1);
  if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

}  // namespace

LoadedDump load_dump_file(const std::string& path, std::size_t frame, DecodeOptions options) {
  if (path != "-") {
    const Mapping m(path);
    if (m.mapped()) {
      if (!options.raw_samples) options.consumed = &drop_pages;
      return load_dump(m.data(), m.size(), frame, options);
    }
  }
  return load_dump(read_file(path), frame, options);
}

std::vector<unsigned char> read_file(const std::string& path) {
  if (path == "-") return read_stream(stdin, "<stdin>");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw DecodeError("cannot open '" + path + "': " + std::strerror(errno));
  try {
    std::vector<unsigned char> data = read_stream(f, "'" + path + "'");
    std::fclose(f);
    return data;
  } catch (...) {
    std::fclose(f);
    throw;
  }
}

}  // namespace pmukit
