#pragma once
// A helper program run without a shell, its standard output collected: the cross objdump for
// `pmukit annotate`, pmukit-llvm-cfi for the unwinder (tools/elf/unwind_llvm.hpp).
#include <string>
#include <vector>

namespace pmukit {

struct ProgramOutput {
  bool started = false;  // the pipe and the fork worked (an exec failure is exit status 127)
  bool ok = false;       // it exited with status 0
  int exit_status = -1;  // its exit status; -1 when it did not exit (a signal)
  std::string out;       // everything it wrote to standard output
};

// argv[0] is the program's path; the child's standard error is the caller's.
ProgramOutput run_program(const std::vector<std::string>& argv);

}  // namespace pmukit
