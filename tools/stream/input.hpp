#pragma once
// Where a live stream comes from: a serial device or pseudo-terminal (raw mode), a TCP socket
// (QEMU's -serial tcp: as its client or its server), a file (followed while it grows, as tail -f),
// or standard input.
#include <cstddef>
#include <cstdint>
#include <string>

#include <termios.h>

namespace pmukit::stream {

class Input {
 public:
  // spec: "-", "tcp:HOST:PORT" (connect), "tcp-listen:[HOST:]PORT" (accept one connection), or a
  // path. baud: 0 leaves a terminal's speed. Throws std::runtime_error.
  Input(const std::string& spec, unsigned baud, bool follow);
  ~Input();
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  // Up to n bytes within timeout_ms: > 0 bytes read, 0 the end of the input, -1 nothing yet (a
  // timeout, a signal, a followed file that has not grown). Throws on a read error.
  long read(std::uint8_t* p, std::size_t n, int timeout_ms);
  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  // The file or device the input is, for -o's check that it is not the output ("" for sockets).
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  bool own_ = true;
  bool regular_ = false;
  bool follow_ = false;
  bool tty_ = false;
  bool restore_ = false;  // the terminal's settings before raw mode, put back at the end
  termios saved_{};
  std::string name_, path_;
};

// The signal flag set by SIGINT/SIGTERM once install_stop_signals() ran.
bool stop_requested();
void install_stop_signals();

}  // namespace pmukit::stream
