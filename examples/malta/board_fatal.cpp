// The other half of fault catching on the Malta board: an exception nobody expected (a syscall
// here) must be reported with its address and Cause and end the run with kExitFault.
#include "board/board.hpp"

int main() {
  board::init();
  board::console.line("board fatal: syscall with no handler");
  asm volatile("syscall");
  board::console.line("SHOULD NOT RESUME");
  return 0;
}
