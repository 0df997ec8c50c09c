#include "tools/cli/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <streambuf>

#include "tools/cli/commands.hpp"

namespace pmukit {
namespace {

bool same_inode(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// An ostream's buffer over a file descriptor that remembers the first write error (errno), so
// ENOSPC or EPIPE is reported instead of lost in a stream's failbit.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (drain() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain(); }

 private:
  int drain() {
    for (const char* p = pbase(); p < pptr();) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        if (error_ == 0) error_ = n < 0 ? errno : EIO;
        setp(buf_, buf_ + sizeof buf_);  // drop the rest: the run fails with error_
        return -1;
      }
      p += n;
    }
    setp(buf_, buf_ + sizeof buf_);
    return 0;
  }
  int fd_;
  int error_ = 0;
  char buf_[1 << 16];
};

std::string reason(int e) { return std::strerror(e); }

// Runs body into fd; returns 0 or the first errno (the descriptor is closed either way).
int write_fd(int fd, const std::function<void(std::ostream&)>& body) {
  FdBuf buf(fd);
  std::ostream os(&buf);
  try {
    body(os);
  } catch (...) {
    ::close(fd);
    throw;
  }
  os.flush();
  int e = buf.error();
  if (e == 0 && !os) e = EIO;
  if (::close(fd) != 0 && e == 0 && errno != EINTR) e = errno;
  return e;
}

}  // namespace

void refuse_output_over_inputs(const std::string& path, const std::vector<std::string>& inputs) {
  struct stat out{};
  if (::stat(path.c_str(), &out) != 0) return;  // no such file yet: it is nobody's input
  for (const std::string& in : inputs) {
    if (in.empty()) continue;
    struct stat s{};
    const bool got = in == "-" ? ::fstat(STDIN_FILENO, &s) == 0 : ::stat(in.c_str(), &s) == 0;
    if (got && same_inode(s, out))
      throw OutputError("-o '" + path + "' is the input '" + (in == "-" ? "<stdin>" : in) +
                        "': refusing to overwrite it");
  }
}

void write_output_file(const std::string& path, const std::function<void(std::ostream&)>& body) {
  // A symbolic link is written through: the rules apply to the file it names.
  std::string target = path;
  struct stat st{};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) != nullptr) {
      target = resolved;
    } else {
      // A dangling link: creating through it makes the file it names, as `>` would.
      const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
      if (fd < 0) throw OutputError("cannot write '" + path + "': " + reason(errno));
      if (const int e = write_fd(fd, body)) throw OutputError("cannot write '" + path + "': " + reason(e));
      return;
    }
  }
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw OutputError("-o '" + path + "' is a directory");
  if (exists && (!S_ISREG(st.st_mode) || st.st_nlink > 1)) {
    // A device node, FIFO or socket is never replaced by a regular file (and a FIFO's open waits
    // for its reader, as a shell's would); a hard-linked file keeps its inode for every name.
    const int trunc = S_ISREG(st.st_mode) ? O_TRUNC : 0;
    const int fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | trunc);
    if (fd < 0) throw OutputError("cannot write '" + path + "': " + reason(errno));
    if (const int e = write_fd(fd, body)) throw OutputError("cannot write '" + path + "': " + reason(e));
    return;
  }
  // A rename would replace a file the user may not write: ask first, as `>` would fail.
  if (exists && ::access(target.c_str(), W_OK) != 0)
    throw OutputError("cannot write '" + path + "': " + reason(errno));
  const std::string tmp = target + ".pmukit-" + std::to_string(::getpid()) + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd < 0) throw OutputError("cannot create '" + tmp + "': " + reason(errno));
  if (exists) (void)::fchmod(fd, st.st_mode & 07777);  // the replaced file's permissions
  int e = 0;
  try {
    e = write_fd(fd, body);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  if (e == 0 && ::rename(tmp.c_str(), target.c_str()) != 0) e = errno;
  if (e != 0) {
    ::unlink(tmp.c_str());
    throw OutputError("cannot write '" + path + "': " + reason(e));
  }
}

}  // namespace pmukit
