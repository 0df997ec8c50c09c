// The live stream example (examples/common/stream_run.hpp, docs/stream-format.md) on the MPC8544DS: the
// decrementer samples (QEMU's e500 has no PMU), DUART channel 0 carries the frames.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/stream_run.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/e500/driver.hpp"

namespace {
struct Mpc8544ds {
  static constexpr const char* kTarget = "e500";
  static constexpr bool kWithLr = true;
  static constexpr std::uint64_t kClockHz = board::kTimebaseHz;  // TBL
  static std::uint32_t clock() { return board::timebase_lo(); }
  static std::size_t try_write(const std::uint8_t* p, std::size_t n) { return board::try_write(p, n); }
  static bool tick_start(std::uint32_t hz, board::IrqHandler f) {
    board::decrementer_start(board::kTimebaseHz / hz, f);
    return true;
  }
  static void irq_enable() { board::ee_enable(); }
  [[noreturn]] static void exit(int code) { board::exit(code); }
};
}  // namespace

int main() {
  board::init();
  return examples::stream::stream_run<Mpc8544ds, pmu::e500::Driver<pmu::PmrBus>>();
}
