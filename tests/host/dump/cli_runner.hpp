#pragma once
// Runs the host tool as a user would and reads what it wrote: the tests of the CLI share this.
// Files go to the test's temporary directory, named per process (ctest -j runs the cases of one
// file in parallel processes) with the caller's prefix.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace dumptest {

struct CliResult {
  int status;
  std::string out, err;
};

inline std::string cli_temp_path(const std::string& prefix, const std::string& name) {
  return ::testing::TempDir() + prefix + std::to_string(getpid()) + "_" + name;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `env` runs before the tool in the shell (environment assignments, a `timeout` wrapper).
inline CliResult run_cli(const std::string& tool, const std::string& args, const std::string& prefix,
                         const std::string& env = "") {
  const std::string out = cli_temp_path(prefix, "stdout"), err = cli_temp_path(prefix, "stderr");
  const int raw = std::system((env + tool + " " + args + " >" + out + " 2>" + err).c_str());
  CliResult r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file(out), read_file(err)};
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

}  // namespace dumptest
