#include "tools/report/run_program.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

namespace pmukit {

ProgramOutput run_program(const std::vector<std::string>& argv) {
  ProgramOutput r;
  int fds[2];
  if (argv.empty() || ::pipe(fds) != 0) return r;
  std::fflush(nullptr);  // nothing buffered here is written twice by the child
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  r.started = true;
  ::close(fds[1]);
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) r.out.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.ok = r.exit_status == 0;
  return r;
}

}  // namespace pmukit
