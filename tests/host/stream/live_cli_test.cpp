// `pmukit record` and `pmukit top` end to end, as a user runs them: from a file, over a pty and a
// TCP socket (killed with SIGKILL mid-stream: the dump on disk must hold every sample up to the
// last checkpoint), and top on a pseudo-terminal and off one. Nothing here waits on wall time
// for a result: the waits are for a condition (the dump holds N samples, the pty went raw), with
// a generous bound that only a hung tool reaches.
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/host/dump/temp_folder.hpp"
#include "tests/host/stream/stream_gen.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/dumpread/decode_error.hpp"

namespace {

using namespace streamtest;
const DumpBytes kLe{false, 4};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
void spit(const std::string& path, const Bytes& b) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}
Bytes join(const std::vector<Bytes>& v) {
  Bytes out;
  for (const Bytes& b : v) out.insert(out.end(), b.begin(), b.end());
  return out;
}

// The dump's samples, or nullopt while it does not decode.
std::optional<std::vector<Sample>> dump_samples(const std::string& path) {
  const std::string s = slurp(path);
  try {
    const pmukit::Dump d = pmukit::decode_dump(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    std::vector<Sample> out;
    for (const auto& x : d.samples) out.push_back({x.pc, x.lr, -1});
    return out;
  } catch (const pmukit::DecodeError&) {
    return std::nullopt;
  }
}

std::vector<Sample> samples_of(unsigned first, unsigned n) {
  std::vector<Sample> s;
  for (unsigned k = first; k < first + n; ++k) {
    auto f = frame_samples(k);
    s.insert(s.end(), f.begin(), f.end());
  }
  return s;
}

// "key=value ..." of the tool's totals line.
std::map<std::string, std::uint64_t> totals(const std::string& err) {
  std::map<std::string, std::uint64_t> m;
  const std::size_t at = err.find("totals: ");
  if (at == std::string::npos) return m;
  std::istringstream in(err.substr(at + 8, err.find('\n', at) - at - 8));
  std::string kv;
  while (in >> kv) {
    const std::size_t eq = kv.find('=');
    m[kv.substr(0, eq)] = std::stoull(kv.substr(eq + 1));
  }
  return m;
}

pid_t spawn(const std::vector<std::string>& args, const std::string& err_path) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int e = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(e, 2);
    const int nul = ::open("/dev/null", O_RDWR);
    ::dup2(nul, 0);
    ::dup2(nul, 1);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

int wait_status(pid_t pid) {
  int st = 0;
  ::waitpid(pid, &st, 0);
  return st;
}

// Waits (bounded generously) until cond() holds.
template <class F> bool eventually(F cond) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < until) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

void write_all(int fd, const Bytes& b) {
  std::size_t at = 0;
  while (at < b.size()) {
    const ssize_t n = ::write(fd, b.data() + at, b.size() - at);
    ASSERT_GT(n, 0);
    at += static_cast<std::size_t>(n);
  }
}

int run(const std::string& cmd) {
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// A damaged stream: started mid-way, console output, a flipped bit, a cut frame, a lost frame, a
// reordered pair, a duplicate, and a frame cut at the end. Its exact counts follow.
struct Damaged {
  Bytes bytes;
  std::vector<Sample> kept;
  std::size_t noise = 0;
};
Damaged damaged_stream() {
  Damaged d;
  std::vector<Bytes> f;
  Bytes partial = samples(900, 0, frame_samples(90));
  partial.erase(partial.begin(), partial.begin() + 3);
  f.push_back(partial);                                 // the tail of a frame: skipped bytes
  f.push_back(samples(901, 0, frame_samples(91)));      // before HELLO
  f.push_back(hello(902, 0xB007, kLe.preamble()));
  std::vector<unsigned> order;
  std::uint16_t seq = 903;
  std::vector<Bytes> frames;
  for (unsigned k = 0; k < 20; ++k) frames.push_back(samples(seq++, 10 + k, frame_samples(k)));
  const std::string console = "console: tick\r\n";
  for (unsigned k = 0; k < 20; ++k) {
    if (k == 4) {  // a flipped bit: corrupt and lost
      Bytes b = frames[k];
      b[12] ^= 0x10;
      f.push_back(b);
      continue;
    }
    if (k == 7) {  // cut in half: corrupt and lost
      Bytes b = frames[k];
      b.resize(b.size() / 2);
      f.push_back(b);
      continue;
    }
    if (k == 10) continue;  // never sent: lost
    if (k == 12) {          // 13 before 12: late, kept
      f.push_back(frames[13]);
      f.push_back(frames[12]);
      order.push_back(13), order.push_back(12);
      ++k;
      continue;
    }
    if (k == 15) f.push_back(Bytes(console.begin(), console.end()));
    f.push_back(frames[k]);
    order.push_back(k);
    if (k == 16) f.push_back(frames[k]);  // a duplicate
  }
  Bytes cut = samples(seq, 99, frame_samples(77));
  cut.resize(10);
  f.push_back(cut);
  for (const Bytes& x : frames) EXPECT_EQ(inner_syncs(x), 0u);
  d.bytes = join(f);
  for (unsigned k : order) {
    auto s = frame_samples(k);
    d.kept.insert(d.kept.end(), s.begin(), s.end());
  }
  d.noise = partial.size() + frames[4].size() + frames[7].size() / 2 + console.size() + cut.size();
  return d;
}

TEST(LiveCli, RecordFromAFileCountsEveryDamageExactly) {
  dumptest::TempFolder dir("live");
  const Damaged d = damaged_stream();
  spit(dir / "stream.bin", d.bytes);
  const pid_t pid = spawn({PMUKIT_CLI, "record", dir / "stream.bin", "-o", dir / "out.pmud"}, dir / "err");
  const int st = wait_status(pid);
  const std::string err = slurp(dir / "err");
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << err;
  const auto t = totals(err);
  EXPECT_EQ(t.at("samples"), d.kept.size()) << err;
  EXPECT_EQ(t.at("before_hello"), 1u);
  EXPECT_EQ(t.at("corrupt"), 3u);  // the flipped bit, the half frame, the frame cut at the end
  EXPECT_EQ(t.at("malformed"), 0u);
  EXPECT_EQ(t.at("lost"), 3u);     // 4, 7 and 10 (the cut at the end has no successor to show a gap)
  EXPECT_EQ(t.at("late"), 1u);
  EXPECT_EQ(t.at("duplicates"), 1u);
  EXPECT_EQ(t.at("skipped_bytes"), d.noise);
  EXPECT_EQ(t.at("bytes"), t.at("frame_bytes") + t.at("skipped_bytes"));
  EXPECT_EQ(t.at("dropped"), 29u);
  const auto got = dump_samples(dir / "out.pmud");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, d.kept);
  EXPECT_NE(err.find("3 frames lost (sequence numbers never received"), std::string::npos) << err;
  EXPECT_EQ(run(std::string(PMUKIT_CLI) + " report " + (dir / "out.pmud") + " >/dev/null 2>&1"), 0);
  // The firmware's dropped count, and only it, is the dump's.
  const std::string s = slurp(dir / "out.pmud");
  const pmukit::Dump dump = pmukit::decode_dump(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  ASSERT_TRUE(dump.source.has_value());
  EXPECT_EQ(dump.source->dropped, 29u);
}

// The damaged stream above, checked in for the README's recipe (docs' commands run as written):
// it stays the generator's. PMUKIT_WRITE_STREAM_CORPUS=1 rewrites it.
TEST(LiveCli, CorpusStreamIsTheDamagedStream) {
  const std::string path = std::string(PMUKIT_SOURCE_DIR) + "/tests/host/stream/corpus/damaged.stream";
  const Damaged d = damaged_stream();
  if (std::getenv("PMUKIT_WRITE_STREAM_CORPUS") != nullptr) spit(path, d.bytes);
  const std::string s = slurp(path);
  EXPECT_EQ(Bytes(s.begin(), s.end()), d.bytes);
}

TEST(LiveCli, RecordStopsAtASampleCountAndWithoutHelloFails) {
  dumptest::TempFolder dir("live");
  std::vector<Bytes> f{hello(0, 1, kLe.preamble())};
  for (unsigned k = 0; k < 10; ++k) f.push_back(samples(static_cast<std::uint16_t>(1 + k), 0, frame_samples(k)));
  spit(dir / "s.bin", join(f));
  const pid_t pid = spawn({PMUKIT_CLI, "record", "--samples", "12", dir / "s.bin", "-o", dir / "out.pmud"}, dir / "err");
  EXPECT_EQ(WEXITSTATUS(wait_status(pid)), 0);
  EXPECT_EQ(dump_samples(dir / "out.pmud"), samples_of(0, 3));  // the frame that reaches 12 whole
  EXPECT_NE(slurp(dir / "err").find("stopped by --samples"), std::string::npos);
  spit(dir / "none.bin", samples(5, 0, frame_samples(1)));
  const pid_t p2 = spawn({PMUKIT_CLI, "record", dir / "none.bin", "-o", dir / "none.pmud"}, dir / "err2");
  EXPECT_EQ(WEXITSTATUS(wait_status(p2)), 1);
  EXPECT_NE(slurp(dir / "err2").find("no HELLO"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "none.pmud"));
  // The output is never the input.
  const pid_t p3 = spawn({PMUKIT_CLI, "record", dir / "s.bin", "-o", dir / "s.bin"}, dir / "err3");
  EXPECT_EQ(WEXITSTATUS(wait_status(p3)), 1);
  EXPECT_EQ(slurp(dir / "s.bin").size(), join(f).size());
}

// -o by output_file's rules: a device is written through (never replaced), a FIFO gets the dump
// once at the end, a file with another hard link is written in place (both names see it), a
// link is followed.
TEST(LiveCli, RecordOutputNeverReplacesWhatItDoesNotOwn) {
  dumptest::TempFolder dir("live");
  std::vector<Bytes> f{hello(0, 1, kLe.preamble())};
  for (unsigned k = 0; k < 4; ++k) f.push_back(samples(static_cast<std::uint16_t>(1 + k), 0, frame_samples(k)));
  spit(dir / "s.bin", join(f));
  const std::string tool = PMUKIT_CLI;
  EXPECT_EQ(run(tool + " record " + (dir / "s.bin") + " -o /dev/null 2>/dev/null"), 0);
  struct stat st{};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(run("cat " + (dir / "fifo") + " >" + (dir / "from_fifo") + " & " + tool + " record " + (dir / "s.bin") +
                " -o " + (dir / "fifo") + " 2>/dev/null; wait"), 0);
  EXPECT_EQ(dump_samples(dir / "from_fifo"), samples_of(0, 4));
  spit(dir / "linked", {1, 2, 3});
  ASSERT_EQ(::link((dir / "linked").c_str(), (dir / "other_name").c_str()), 0);
  EXPECT_EQ(run(tool + " record " + (dir / "s.bin") + " -o " + (dir / "linked") + " 2>/dev/null"), 0);
  EXPECT_EQ(dump_samples(dir / "other_name"), samples_of(0, 4));
  ASSERT_EQ(::symlink((dir / "target.pmud").c_str(), (dir / "sym").c_str()), 0);
  spit(dir / "target.pmud", {});
  EXPECT_EQ(run(tool + " record " + (dir / "s.bin") + " -o " + (dir / "sym") + " 2>/dev/null"), 0);
  ASSERT_EQ(::lstat((dir / "sym").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(dump_samples(dir / "target.pmud"), samples_of(0, 4));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path), std::filesystem::directory_iterator{}), 7)
      << "a temporary file left behind";
}

// "A HELLO with another stream version stops the decoder with an error naming it": the dump
// keeps what came before it.
TEST(LiveCli, RecordStopsAtAnotherStreamVersion) {
  dumptest::TempFolder dir("live");
  spit(dir / "s.bin", join({hello(0, 1, kLe.preamble()), samples(1, 0, frame_samples(0)),
                            hello(2, 1, kLe.preamble(), 2), samples(3, 0, frame_samples(1))}));
  const pid_t pid = spawn({PMUKIT_CLI, "record", dir / "s.bin", "-o", dir / "out.pmud"}, dir / "err");
  EXPECT_EQ(WEXITSTATUS(wait_status(pid)), 1);
  EXPECT_NE(slurp(dir / "err").find("stream version 2"), std::string::npos) << slurp(dir / "err");
  EXPECT_EQ(dump_samples(dir / "out.pmud"), samples_of(0, 1));
}

// A board that restarts: stop at the new boot id, or --on-reboot split into one dump per boot.
TEST(LiveCli, RecordBootIdChange) {
  dumptest::TempFolder dir("live");
  const Bytes s = join({hello(10, 1, kLe.preamble()), samples(11, 0, frame_samples(0)), hello(0, 2, kLe.preamble()),
                        samples(1, 0, frame_samples(1)), samples(2, 0, frame_samples(2))});
  spit(dir / "s.bin", s);
  EXPECT_EQ(WEXITSTATUS(wait_status(spawn({PMUKIT_CLI, "record", dir / "s.bin", "-o", dir / "a.pmud"}, dir / "err"))), 0);
  EXPECT_EQ(dump_samples(dir / "a.pmud"), samples_of(0, 1));
  EXPECT_NE(slurp(dir / "err").find("stopped by a new boot id"), std::string::npos);
  EXPECT_EQ(WEXITSTATUS(wait_status(spawn({PMUKIT_CLI, "record", "--on-reboot", "split", dir / "s.bin", "-o",
                                           dir / "b.pmud"}, dir / "err"))), 0);
  EXPECT_EQ(dump_samples(dir / "b.pmud"), samples_of(0, 1));
  EXPECT_EQ(dump_samples(dir / "b.2.pmud"), samples_of(1, 2));
  EXPECT_EQ(totals(slurp(dir / "err")).at("boot_changes"), 1u);
}

// SIGINT ends a recording that follows a growing file: exit 0, a complete dump.
TEST(LiveCli, RecordFollowsAFileUntilSigint) {
  dumptest::TempFolder dir("live");
  spit(dir / "s.bin", join({hello(0, 1, kLe.preamble()), samples(1, 0, frame_samples(0))}));
  const pid_t pid = spawn({PMUKIT_CLI, "record", "--follow", "--checkpoint", "0.05", dir / "s.bin", "-o", dir / "out.pmud"},
                          dir / "err");
  ASSERT_TRUE(eventually([&] { return dump_samples(dir / "out.pmud") == samples_of(0, 1); }));
  {
    std::ofstream more(dir / "s.bin", std::ios::binary | std::ios::app);
    const Bytes b = join({samples(2, 0, frame_samples(1)), samples(3, 0, frame_samples(2))});
    more.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  }
  ASSERT_TRUE(eventually([&] { return dump_samples(dir / "out.pmud") == samples_of(0, 3); }));
  ::kill(pid, SIGINT);
  const int st = wait_status(pid);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << slurp(dir / "err");
  EXPECT_EQ(dump_samples(dir / "out.pmud"), samples_of(0, 3));
  EXPECT_NE(slurp(dir / "err").find("stopped by a signal"), std::string::npos);
}

// --duration on an input that never ends (a followed file): the one test that measures time, with
// wide margins.
TEST(LiveCli, RecordStopsAfterItsDuration) {
  dumptest::TempFolder dir("live");
  spit(dir / "s.bin", join({hello(0, 1, kLe.preamble()), samples(1, 0, frame_samples(0))}));
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = spawn({PMUKIT_CLI, "record", "--follow", "--duration", "1", dir / "s.bin", "-o", dir / "out.pmud"},
                          dir / "err");
  const int st = wait_status(pid);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  EXPECT_GE(took, 1.0);
  EXPECT_LT(took, 60.0);
  EXPECT_NE(slurp(dir / "err").find("stopped by --duration"), std::string::npos);
  EXPECT_EQ(dump_samples(dir / "out.pmud"), samples_of(0, 1));
}

// Kill -9 mid-stream: the dump on disk is what the last checkpoint wrote, and it reads.
void expect_killed_dump_reads(const std::string& out, unsigned frames_sent, pid_t pid) {
  ASSERT_TRUE(eventually([&] { return dump_samples(out) == samples_of(0, frames_sent); }))
      << "the recorder never checkpointed the samples sent";
  ::kill(pid, SIGKILL);
  const int st = wait_status(pid);
  EXPECT_TRUE(WIFSIGNALED(st));
  EXPECT_EQ(dump_samples(out), samples_of(0, frames_sent));
  EXPECT_EQ(run(std::string(PMUKIT_CLI) + " report " + out + " >/dev/null 2>&1"), 0);
}

TEST(LiveCli, RecordOverAPtyKilledMidStream) {
  dumptest::TempFolder dir("live");
  int master = -1, slave = -1;
  ASSERT_EQ(::openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
  const std::string name = ::ttyname(slave);
  const pid_t pid = spawn({PMUKIT_CLI, "record", "--checkpoint", "0.05", name, "-o", dir / "out.pmud"}, dir / "err");
  // The recorder puts the line in raw mode (no echo, no CR/LF translation) before it reads.
  ASSERT_TRUE(eventually([&] {
    termios t{};
    return ::tcgetattr(slave, &t) == 0 && (t.c_lflag & (ICANON | ECHO)) == 0 && (t.c_iflag & ICRNL) == 0;
  }));
  std::vector<Bytes> f{hello(0, 1, kLe.preamble())};
  for (unsigned k = 0; k < 40; ++k) f.push_back(samples(static_cast<std::uint16_t>(1 + k), 0, frame_samples(k)));
  write_all(master, join(f));
  // A frame's first half more: the recording is cut mid-frame by the kill.
  Bytes half = samples(41, 0, frame_samples(40));
  half.resize(half.size() / 2);
  write_all(master, half);
  expect_killed_dump_reads(dir / "out.pmud", 40, pid);
  ::close(master);
  ::close(slave);
}

TEST(LiveCli, RecordOverTcpKilledMidStream) {
  dumptest::TempFolder dir("live");
  const int srv = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  ASSERT_EQ(::bind(srv, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(srv, 1), 0);
  socklen_t len = sizeof a;
  ::getsockname(srv, reinterpret_cast<sockaddr*>(&a), &len);
  const std::string port = std::to_string(ntohs(a.sin_port));
  // The test is QEMU's -serial tcp::PORT,server; pmukit connects.
  const pid_t pid = spawn({PMUKIT_CLI, "record", "--checkpoint", "0.05", "tcp:127.0.0.1:" + port, "-o", dir / "out.pmud"},
                          dir / "err");
  pollfd p{srv, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 60000), 1) << slurp(dir / "err");
  const int c = ::accept(srv, nullptr, nullptr);
  ASSERT_GE(c, 0);
  // Console output first, then the stream; 60 frames in three bursts.
  const std::string banner = "QEMU board up\r\n";
  write_all(c, Bytes(banner.begin(), banner.end()));
  std::vector<Bytes> f{hello(500, 42, kLe.preamble())};
  for (unsigned k = 0; k < 60; ++k) f.push_back(samples(static_cast<std::uint16_t>(501 + k), k, frame_samples(k)));
  for (unsigned b = 0; b < 3; ++b) {
    write_all(c, join(std::vector<Bytes>(f.begin() + (b == 0 ? 0 : 1 + 20 * b), f.begin() + 1 + 20 * (b + 1))));
    ASSERT_TRUE(eventually([&] { return dump_samples(dir / "out.pmud") == samples_of(0, 20 * (b + 1)); }));
  }
  expect_killed_dump_reads(dir / "out.pmud", 60, pid);
  ::close(c);
  ::close(srv);
}

// Killed at whatever point of a checkpoint it is in (--checkpoint 0: one after every read, while
// the stream keeps coming): the dump always reads and holds a prefix of the frames sent, at least
// what it held before the kill.
TEST(LiveCli, RecordKilledWhileCheckpointingLeavesAPrefix) {
  for (int round = 0; round < 5; ++round) {
    dumptest::TempFolder dir("live");
    const int srv = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(srv, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(::listen(srv, 1), 0);
    socklen_t len = sizeof a;
    ::getsockname(srv, reinterpret_cast<sockaddr*>(&a), &len);
    const pid_t pid = spawn({PMUKIT_CLI, "record", "--checkpoint", "0", "tcp:127.0.0.1:" + std::to_string(ntohs(a.sin_port)),
                             "-o", dir / "out.pmud"}, dir / "err");
    pollfd p{srv, POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 60000), 1);
    const int c = ::accept(srv, nullptr, nullptr);
    std::atomic<bool> stop{false};
    std::thread writer([&] {
      Bytes h = hello(0, 1, kLe.preamble());
      ::send(c, h.data(), h.size(), MSG_NOSIGNAL);
      for (unsigned k = 0; k < 3000 && !stop; ++k) {
        const Bytes f = samples(static_cast<std::uint16_t>(1 + k), 0, frame_samples(k));
        if (::send(c, f.data(), f.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(f.size())) break;
        if (k % 8 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    });
    std::size_t before = 0;
    ASSERT_TRUE(eventually([&] {
      const auto s = dump_samples(dir / "out.pmud");
      before = s ? s->size() : 0;
      return before >= 50 + 40 * static_cast<std::size_t>(round);
    }));
    ::kill(pid, SIGKILL);
    wait_status(pid);
    stop = true;
    writer.join();
    ::close(c);
    ::close(srv);
    const auto got = dump_samples(dir / "out.pmud");
    ASSERT_TRUE(got.has_value()) << "round " << round;
    ASSERT_EQ(got->size() % 5, 0u);
    EXPECT_GE(got->size(), before);
    EXPECT_EQ(*got, samples_of(0, static_cast<unsigned>(got->size() / 5))) << "round " << round;
  }
}

// tcp-listen: pmukit is the server (QEMU's -serial tcp:HOST:PORT connects to it).
TEST(LiveCli, RecordAsTcpServer) {
  dumptest::TempFolder dir("live");
  // A free port: bound, read, closed (the tool binds it again with SO_REUSEADDR).
  const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(probe, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  socklen_t len = sizeof a;
  ::getsockname(probe, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(probe);
  const pid_t pid = spawn({PMUKIT_CLI, "record", "tcp-listen:127.0.0.1:" + std::to_string(ntohs(a.sin_port)), "-o",
                           dir / "out.pmud"}, dir / "err");
  int c = -1;
  ASSERT_TRUE(eventually([&] {
    if (c >= 0) ::close(c);
    c = ::socket(AF_INET, SOCK_STREAM, 0);
    return ::connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }));
  std::vector<Bytes> f{hello(0, 1, kLe.preamble())};
  for (unsigned k = 0; k < 5; ++k) f.push_back(samples(static_cast<std::uint16_t>(1 + k), 0, frame_samples(k)));
  write_all(c, join(f));
  ::close(c);  // the end of the input
  EXPECT_EQ(WEXITSTATUS(wait_status(pid)), 0) << slurp(dir / "err");
  EXPECT_EQ(dump_samples(dir / "out.pmud"), samples_of(0, 5));
}

// --- top ------------------------------------------------------------------------------------

struct TopCase {
  std::string elf;
  std::string f1, f2;  // two functions of the ELF, by nm
  Bytes stream;
};

// Samples in two functions of the ARM test ELF (addresses from its nm listing), and two COUNTS
// frames one second of the 400 MHz counter clock apart.
std::optional<TopCase> top_case() {
  TopCase t;
  t.elf = std::string(PMUKIT_TEST_ELF_DIR) + "/arm.elf";
  std::ifstream nm(t.elf + ".nm");
  if (!nm) return std::nullopt;
  std::map<std::string, std::uint64_t> at;
  std::string line;
  while (std::getline(nm, line)) {
    std::istringstream in(line);
    std::string addr, type;
    in >> addr >> type;
    std::string name;
    std::getline(in, name);
    if (type == "T" || type == "t") at[name.substr(1)] = std::stoull(addr, nullptr, 16);
  }
  t.f1 = "fw::middle(int)";
  t.f2 = "local_helper(int)";
  if (!at.count(t.f1) || !at.count(t.f2)) return std::nullopt;
  std::vector<Sample> s1(5, Sample{at[t.f1] + 4, 0, -1}), s2(3, Sample{at[t.f2], 0, -1});
  std::vector<Bytes> f{hello(0, 0xABCD, kLe.preamble()), counts(1, 1000, {0, 0})};
  std::uint16_t seq = 2;
  for (int k = 0; k < 6; ++k) f.push_back(samples(seq++, 2, s1, false));  // 30 in f1
  for (int k = 0; k < 4; ++k) f.push_back(samples(seq++, 2, s2, false));  // 12 in f2
  f.push_back(counts(seq++, 1000 + 400000000, {400000000, 200000000}));
  t.stream = join(f);
  return t;
}

TEST(LiveCli, TopOnAPseudoTerminal) {
  const auto t = top_case();
  if (!t) GTEST_SKIP() << "no ARM test ELF";
  dumptest::TempFolder dir("live");
  spit(dir / "s.bin", t->stream);
  int master = -1;
  winsize ws{};
  ws.ws_row = 30;
  ws.ws_col = 100;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, &ws);
  if (pid == 0) {
    ::execl(PMUKIT_CLI, PMUKIT_CLI, "top", "--elf", t->elf.c_str(), "--since-start", (dir / "s.bin").c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ASSERT_GT(pid, 0);
  std::string screen;
  char buf[4096];
  for (;;) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 60000) <= 0) break;
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;  // EIO: the tool exited and closed the terminal
    screen.append(buf, static_cast<std::size_t>(n));
  }
  const int st = wait_status(pid);
  ::close(master);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << screen;
  // A full-screen redraw: home and erase, then the last view.
  const std::size_t home = screen.rfind("\x1b[H");
  ASSERT_NE(home, std::string::npos) << screen;
  const std::string last = screen.substr(home);
  EXPECT_NE(last.find("\x1b[K"), std::string::npos);
  EXPECT_TRUE(std::regex_search(last, std::regex("30 +71\\.43%  fw::middle\\(int\\)"))) << last;
  EXPECT_TRUE(std::regex_search(last, std::regex("12 +28\\.57%  local_helper\\(int\\)"))) << last;
  EXPECT_NE(last.find("42 received; firmware dropped 2"), std::string::npos) << last;
  EXPECT_NE(last.find("cycles 400.00M/s"), std::string::npos) << last;
  EXPECT_NE(last.find("INSTR 200.00M/s"), std::string::npos) << last;
  // The PMU's metrics (hal/xscale/metrics.hpp) from the counts' deltas.
  EXPECT_NE(last.find("ipc 0.5 instructions/cycle"), std::string::npos) << last;
  EXPECT_NE(last.find("cpi 2 cycles/instruction"), std::string::npos) << last;
  EXPECT_NE(last.find("xscale (xscale-xsc2), boot 0x0000abcd"), std::string::npos) << last;
}

// COUNTS totals are 64-bit; a firmware that sends its 32-bit counter's value wraps: the rate
// still comes out right (one wrap per COUNTS interval at most) and the view says what it assumed.
TEST(LiveCli, TopRatesAcrossACounterThatWrapped) {
  dumptest::TempFolder dir("live");
  spit(dir / "s.bin", join({hello(0, 1, kLe.preamble()), counts(1, 0, {3000000000u, 0}),
                            counts(2, 400000000, {3000000000u + 1000000000u, 500000000}),
                            counts(3, 800000000, {(3000000000ull + 2000000000ull) - (1ull << 32), 1000000000})}));
  ASSERT_EQ(run(std::string(PMUKIT_CLI) + " top --since-start " + (dir / "s.bin") + " >" + (dir / "out") + " 2>/dev/null"), 0);
  const std::string out = slurp(dir / "out");
  EXPECT_NE(out.find("cycles 1.00G/s  INSTR 500.00M/s"), std::string::npos) << out;  // 1 s of the 400 MHz clock a step
  EXPECT_NE(out.find("a COUNTS total went down"), std::string::npos) << out;
  EXPECT_NE(out.find("ipc 0.5 instructions/cycle"), std::string::npos) << out;
}

// Live: a followed file never ends; the view refreshes until q is pressed on the terminal.
TEST(LiveCli, TopQuitsOnQ) {
  const auto t = top_case();
  if (!t) GTEST_SKIP() << "no ARM test ELF";
  dumptest::TempFolder dir("live");
  spit(dir / "s.bin", t->stream);
  int master = -1;
  winsize ws{};
  ws.ws_row = 30;
  ws.ws_col = 100;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, &ws);
  if (pid == 0) {
    ::execl(PMUKIT_CLI, PMUKIT_CLI, "top", "--elf", t->elf.c_str(), "--follow", "--interval", "0.2", "--since-start",
            (dir / "s.bin").c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ASSERT_GT(pid, 0);
  std::string screen;
  char buf[4096];
  bool seen = false, quit_sent = false;
  for (;;) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 60000) <= 0) break;
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;
    screen.append(buf, static_cast<std::size_t>(n));
    seen = seen || screen.find("local_helper(int)") != std::string::npos;
    if (seen && !quit_sent) {
      ASSERT_EQ(::write(master, "q", 1), 1);
      quit_sent = true;
    }
  }
  const int st = wait_status(pid);
  ::close(master);
  EXPECT_TRUE(seen) << screen;
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << screen;
  EXPECT_EQ(screen.find("input ended"), std::string::npos);  // it was still following
}

TEST(LiveCli, TopOffATerminalPrintsTextBlocks) {
  const auto t = top_case();
  if (!t) GTEST_SKIP() << "no ARM test ELF";
  dumptest::TempFolder dir("live");
  spit(dir / "s.bin", t->stream);
  ASSERT_EQ(run(std::string(PMUKIT_CLI) + " top --since-start --top 1 --elf " + t->elf + " " + (dir / "s.bin") + " >" +
                (dir / "out") + " 2>" + (dir / "err")), 0);
  const std::string out = slurp(dir / "out");
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex("30 +71\\.43%  fw::middle\\(int\\)"))) << out;
  EXPECT_EQ(out.find("local_helper"), std::string::npos) << out;  // --top 1
  EXPECT_NE(out.find("(1 more functions)"), std::string::npos) << out;
  EXPECT_NE(out.find("input ended"), std::string::npos) << out;
  EXPECT_EQ(totals(slurp(dir / "err")).at("samples"), 42u);
}

}  // namespace
