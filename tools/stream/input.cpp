#include "tools/stream/input.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace pmukit::stream {
namespace {

volatile sig_atomic_t g_stop = 0;
void on_stop(int) { g_stop = 1; }

std::runtime_error sys_error(const std::string& what, int e) {
  return std::runtime_error(what + ": " + std::strerror(e));
}

speed_t baud_constant(unsigned baud) {
  switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 2000000: return B2000000;
  }
  throw std::runtime_error("--baud " + std::to_string(baud) +
                           " is not one of 9600 19200 38400 57600 115200 230400 460800 921600 1000000 2000000");
}

// HOST:PORT (HOST may be empty or [v6]); throws on a missing port.
void split_host_port(const std::string& s, std::string& host, std::string& port) {
  const std::size_t colon = s.rfind(':');
  if (colon == std::string::npos) {
    host.clear();
    port = s;
  } else {
    host = s.substr(0, colon);
    port = s.substr(colon + 1);
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (port.empty()) throw std::runtime_error("'" + s + "' has no port");
}

int tcp_socket(const std::string& host, const std::string& port, bool listen_side) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (listen_side) hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  const int g = ::getaddrinfo(host.empty() ? (listen_side ? nullptr : "127.0.0.1") : host.c_str(), port.c_str(), &hints, &res);
  if (g != 0) throw std::runtime_error("cannot resolve '" + host + ":" + port + "': " + ::gai_strerror(g));
  int e = 0;
  for (addrinfo* a = res; a != nullptr; a = a->ai_next) {
    const int s = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (s < 0) {
      e = errno;
      continue;
    }
    if (listen_side) {
      const int one = 1;
      (void)::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
      if (::bind(s, a->ai_addr, a->ai_addrlen) == 0 && ::listen(s, 1) == 0) {
        ::freeaddrinfo(res);
        int c;
        do c = ::accept4(s, nullptr, nullptr, SOCK_CLOEXEC);
        while (c < 0 && errno == EINTR && !g_stop);
        e = errno;
        ::close(s);
        if (c < 0) throw sys_error("no connection on port " + port, g_stop ? EINTR : e);
        return c;
      }
    } else {
      // A server just started (QEMU with -serial tcp::PORT,server) may not listen yet: a few
      // seconds of retries on a refused connection.
      for (int tries = 0;; ++tries) {
        if (::connect(s, a->ai_addr, a->ai_addrlen) == 0) {
          ::freeaddrinfo(res);
          return s;
        }
        if (errno != ECONNREFUSED || tries >= 50 || g_stop) break;
        ::usleep(100000);
      }
    }
    e = errno;
    ::close(s);
  }
  ::freeaddrinfo(res);
  throw sys_error(std::string(listen_side ? "cannot listen on " : "cannot connect to ") + host + ":" + port, e);
}

}  // namespace

bool stop_requested() { return g_stop != 0; }

void install_stop_signals() {
  struct sigaction sa{};
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked read or poll returns at once
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
}

Input::Input(const std::string& spec, unsigned baud, bool follow) : follow_(follow), name_(spec) {
  if (spec == "-") {
    fd_ = STDIN_FILENO;
    own_ = false;
    name_ = "<stdin>";
  } else if (spec.rfind("tcp-listen:", 0) == 0) {
    std::string host, port;
    split_host_port(spec.substr(11), host, port);
    fd_ = tcp_socket(host, port, true);
    return;
  } else if (spec.rfind("tcp:", 0) == 0) {
    std::string host, port;
    split_host_port(spec.substr(4), host, port);
    fd_ = tcp_socket(host, port, false);
    return;
  } else {
    path_ = spec;
    do fd_ = ::open(spec.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC);
    while (fd_ < 0 && errno == EINTR && !g_stop);
    if (fd_ < 0) throw sys_error("cannot open '" + spec + "'", errno);
  }
  struct stat st{};
  if (::fstat(fd_, &st) == 0) regular_ = S_ISREG(st.st_mode);
  if (::isatty(fd_)) {
    // A serial line or pty: raw bytes, no echo, no line editing or CR/LF translation.
    tty_ = true;
    termios t{};
    if (::tcgetattr(fd_, &t) == 0) {
      saved_ = t;
      restore_ = true;
      ::cfmakeraw(&t);
      t.c_cflag |= CLOCAL | CREAD;
      t.c_cc[VMIN] = 1;
      t.c_cc[VTIME] = 0;
      if (baud != 0) {
        const speed_t s = baud_constant(baud);
        ::cfsetispeed(&t, s);
        ::cfsetospeed(&t, s);
      }
      if (::tcsetattr(fd_, TCSANOW, &t) != 0) throw sys_error("cannot set '" + spec + "' to raw mode", errno);
    }
  } else if (baud != 0) {
    throw std::runtime_error("--baud: '" + spec + "' is not a terminal");
  }
  if (follow_ && !regular_) follow_ = false;  // only a file can grow under us
}

Input::~Input() {
  if (restore_) ::tcsetattr(fd_, TCSANOW, &saved_);
  if (own_ && fd_ >= 0) ::close(fd_);
}

long Input::read(std::uint8_t* p, std::size_t n, int timeout_ms) {
  if (!regular_) {
    pollfd f{fd_, POLLIN, 0};
    const int r = ::poll(&f, 1, timeout_ms);
    if (r < 0 && errno == EINTR) return -1;
    if (r < 0) throw sys_error("cannot read '" + name_ + "'", errno);
    if (r == 0) return -1;
  }
  const ssize_t got = ::read(fd_, p, n);
  if (got < 0 && (errno == EINTR || errno == EAGAIN)) return -1;
  if (got < 0 && errno == EIO && tty_) return 0;  // the other side of a pty closed
  if (got < 0) throw sys_error("cannot read '" + name_ + "'", errno);
  if (got == 0 && follow_) {
    // tail -f: the file may grow; look again shortly.
    const int wait = timeout_ms < 100 ? timeout_ms : 100;
    if (wait > 0) ::usleep(static_cast<useconds_t>(wait) * 1000);
    return -1;
  }
  return static_cast<long>(got);
}

}  // namespace pmukit::stream
