// The live stream example (examples/common/stream_run.hpp, docs/stream-format.md) on the PC: the PIT
// samples (QEMU's Pentium 4 has no PMU), COM1 carries the frames. x86 has no link register: the
// SAMPLES frames carry no lr.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/stream_run.hpp"
#include "hal/netburst/driver.hpp"

namespace {
struct PcP4 {
  static constexpr const char* kTarget = "netburst";
  static constexpr bool kWithLr = false;
  static constexpr std::uint64_t kClockHz = board::kQemuTscHz;  // the TSC under QEMU (virtual ns)
  static std::uint32_t clock() { return static_cast<std::uint32_t>(board::tsc()); }
  static std::size_t try_write(const std::uint8_t* p, std::size_t n) { return board::try_write(p, n); }
  static bool tick_start(std::uint32_t hz, board::IrqHandler f) {
    board::timer_start(static_cast<std::uint16_t>(board::kPitHz / hz), f);
    return true;
  }
  static void irq_enable() { board::irq_enable(); }
  [[noreturn]] static void exit(int code) { board::exit(code); }
};
}  // namespace

int main() {
  board::init();
  return examples::stream::stream_run<PcP4, pmu::netburst::Driver<pmu::netburst::HwBus>>();
}
