// The standalone pmusim program (cross presets build it with the host compiler); `pmukit sim` is
// the same command inside the host tool. Usage and exit status: tools/sim/run.cpp.
#include <string>
#include <vector>

#include "tools/sim/run.hpp"

int main(int argc, char** argv) { return pmusim::run_command(std::vector<std::string>(argv + 1, argv + argc)); }
