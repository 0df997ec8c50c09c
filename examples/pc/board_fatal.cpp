// The other half of fault catching on the PC board: an exception nobody expected (ud2 here, an
// invalid opcode that is not a PMU access) must be reported with its address and end the run
// with kExitFault.
#include "board/board.hpp"

int main() {
  board::init();
  board::console.line("board fatal: ud2 with no handler");
  asm volatile("ud2");
  board::console.line("SHOULD NOT RESUME");
  return 0;
}
