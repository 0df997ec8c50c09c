// What the C library subset (libc.cpp) needs from a board without newlib (e500, pc, malta): the
// console, set up on first use, and the exit, both from the board's own board/board.hpp
// (board::init, board::putc, board::exit: "EXIT <code>", then the board's way to stop). mainstone
// (newlib) takes pmukit_board_init from here for its _write; --gc-sections drops the rest.
#include "board/board.hpp"

extern "C" {

namespace {
bool g_board_ready = false;
}

// The board's init, once, from whichever comes first: the profile entry or the first output.
void pmukit_board_init(void) {
  if (g_board_ready) return;
  g_board_ready = true;
  board::init();
}

void pmukit_libc_putc(char c) {
  pmukit_board_init();
  board::putc(c);
}

[[noreturn]] void pmukit_libc_exit(int code) { board::exit(code); }

}  // extern "C"
