#include "tools/report/run_program.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

// A sanitizer's runtime reserves terabytes of address space at start-up: under RLIMIT_AS its
// helpers (built alike) would not start. Those builds bound them by time and output only.
#if defined(__SANITIZE_ADDRESS__)
#define PMUKIT_LIMIT_AS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMUKIT_LIMIT_AS 0
#endif
#endif
#ifndef PMUKIT_LIMIT_AS
#define PMUKIT_LIMIT_AS 1
#endif

namespace pmukit {
namespace {

unsigned wall_seconds(unsigned asked) {
  if (asked != 0) return asked;
  if (const char* env = std::getenv("PMUKIT_HELPER_TIMEOUT"); env != nullptr) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(env, &end, 10);
    if (end != env && *end == '\0' && v > 0 && v <= 86400) return static_cast<unsigned>(v);
  }
  return 60;
}

}  // namespace

ProgramOutput run_program(const std::vector<std::string>& argv, const ProgramLimits& limits) {
  ProgramOutput r;
  const unsigned seconds = wall_seconds(limits.seconds);
  // The child's standard output, and a close-on-exec pipe that carries errno if its exec fails.
  int out[2], err[2];
  if (argv.empty() || ::pipe2(out, O_CLOEXEC) != 0) {
    r.failure = std::string("cannot make a pipe: ") + std::strerror(errno);
    return r;
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    r.failure = std::string("cannot make a pipe: ") + std::strerror(errno);
    ::close(out[0]);
    ::close(out[1]);
    return r;
  }
  std::vector<char*> args;  // made before the fork: the child calls async-signal-safe functions only
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);  // nothing buffered here is written twice by the child
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.failure = std::string("cannot fork: ") + std::strerror(errno);
    for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    return r;
  }
  if (pid == 0) {
    ::dup2(out[1], 1);
    const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);  // never waits on the caller's terminal
    if (null >= 0) ::dup2(null, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // nor outlives a pmukit that was killed
    const rlimit cpu{seconds, seconds + 1};
    ::setrlimit(RLIMIT_CPU, &cpu);
    if (PMUKIT_LIMIT_AS) {
      // rlim_t is 32 bits on i686 and MIPS32 hosts (the cross presets run the tool under qemu-user).
      const rlim_t bytes = limits.memory < RLIM_INFINITY ? static_cast<rlim_t>(limits.memory) : RLIM_INFINITY;
      const rlimit as{bytes, bytes};
      ::setrlimit(RLIMIT_AS, &as);
    }
    ::execv(args[0], args.data());
    const int e = errno;
    (void)!::write(err[1], &e, sizeof e);
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  int exec_errno = 0;
  ssize_t got = 0;
  while ((got = ::read(err[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  ::close(err[0]);
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    ::close(out[0]);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    r.failure = std::string("cannot run it: ") + std::strerror(exec_errno);
    return r;
  }
  r.started = true;

  // Its output until end of file, the deadline or the output limit; then its exit, by the deadline.
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(seconds);
  const auto left_ms = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  };
  bool late = false, flood = false;
  char buf[1 << 16];
  for (;;) {
    const long long left = left_ms();
    if (left <= 0) {
      late = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min(left, 1000LL)));
    if (n <= 0) continue;  // the deadline, or EINTR
    const ssize_t k = ::read(out[0], buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    if (r.out.size() + static_cast<std::size_t>(k) > limits.output) {
      flood = true;
      break;
    }
    r.out.append(buf, static_cast<std::size_t>(k));
  }
  ::close(out[0]);
  // Its exit, by the same deadline: a child may close its output and linger.
  int status = 0;
  for (int nap = 1; !late && !flood; nap = std::min(nap * 2, 20)) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    if (left_ms() <= 0) late = true;
    else std::this_thread::sleep_for(std::chrono::milliseconds(nap));
  }
  if (late || flood) {
    ::kill(pid, SIGKILL);  // not reaped yet: the pid is still this child's
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.out.clear();
    char b[96];
    if (late) std::snprintf(b, sizeof b, "no answer within %u s (killed)", seconds);
    else std::snprintf(b, sizeof b, "more than %zu bytes of output (killed)", limits.output);
    r.failure = b;
    return r;
  }
  if (WIFEXITED(status)) {
    r.exit_status = WEXITSTATUS(status);
    r.ok = r.exit_status == 0;
    if (!r.ok) r.failure = "exit status " + std::to_string(r.exit_status);
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    r.failure = "killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  return r;
}

std::string find_on_path(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/bin:/usr/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const std::string candidate = (d.empty() ? "." : d) + "/" + name;
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

}  // namespace pmukit
