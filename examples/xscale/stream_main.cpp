// The live stream example (examples/common/stream_run.hpp, docs/stream-format.md) on the PXA270: the OS
// timer samples (QEMU's PXA270 PMU never interrupts), the FFUART carries the frames.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/stream_run.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"

namespace {
struct Mainstone {
  static constexpr const char* kTarget = "xscale";
  static constexpr bool kWithLr = true;
  static constexpr std::uint64_t kClockHz = board::kTimerHz;  // OSCR0
  static std::uint32_t clock() { return board::timebase(); }
  static std::size_t try_write(const std::uint8_t* p, std::size_t n) { return board::try_write(p, n); }
  static bool tick_start(std::uint32_t hz, board::TickFn f) { return board::timer_start(board::kTimerHz / hz, f); }
  static void irq_enable() { board::irq_enable(); }
  [[noreturn]] static void exit(int code) { board::exit(code); }
};
}  // namespace

int main() {
  board::init();
  return examples::stream::stream_run<Mainstone, pmu::xscale::Xsc2<pmu::Cp14Bus>>();
}
