#pragma once
// A helper program run without a shell, its standard output collected: the cross objdump for
// `pmukit annotate`, pmukit-llvm-cfi for the unwinder (tools/elf/unwind_llvm.hpp). Every run is
// bounded: a helper that hangs, loops or swells on a hostile file is killed, and says why.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pmukit {

// Generous for any firmware image (pmukit-llvm-cfi prints ~30 KB for the examples), fatal for a
// runaway. The environment's PMUKIT_HELPER_TIMEOUT (seconds) overrides the default wall time.
struct ProgramLimits {
  unsigned seconds = 0;                       // wall and CPU time; 0: PMUKIT_HELPER_TIMEOUT or 60
  std::uint64_t memory = std::uint64_t{1} << 30;  // its address space (RLIMIT_AS)
  std::size_t output = std::size_t{16} << 20;     // bytes of standard output kept
};

struct ProgramOutput {
  bool started = false;  // it ran: the pipe, the fork and the exec worked
  bool ok = false;       // it exited with status 0 within its limits
  int exit_status = -1;  // its exit status; -1 when it did not exit (a signal, a limit)
  std::string out;       // everything it wrote to standard output (up to the limit)
  std::string failure;   // why not ok, for a message: "killed by signal 11", "timed out after 60 s"
};

// argv[0] is the program's path (PATH is not searched: see find_on_path); the child's standard
// error is the caller's.
ProgramOutput run_program(const std::vector<std::string>& argv, const ProgramLimits& limits = {});

// A bare program name looked up in PATH as execvp would ("" where none is executable); a name with
// a '/' is returned as it is.
std::string find_on_path(const std::string& name);

}  // namespace pmukit
