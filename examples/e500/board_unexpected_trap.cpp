// A trapping mfpmr with no fault probe armed: the board must report the program interrupt and end the
// run with a failure marker ("program interrupt at 0x... esr=0x08000000", then "EXIT 3").
#include "board/board.hpp"
#include "board/pmr_probe.hpp"

int main() {
  board::init();
  board::console.line("unexpected trap: an unarmed mfpmr PMGC0 must end this run");
  (void)board::mfpmr<400>();
  board::console.line("SHOULD NOT RESUME");
  board::exit(0);
}
