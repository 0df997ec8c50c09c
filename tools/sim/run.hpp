#pragma once
// pmusim's command line, shared by the `pmusim` program and `pmukit sim` (run.cpp).
#include <string>
#include <vector>

namespace pmusim {

// args: what follows the command name. Returns the process exit status.
int run_command(const std::vector<std::string>& args);

}  // namespace pmusim
