// The live stream example (examples/common/stream_run.hpp, docs/stream-format.md) on Malta: the CP0
// Count/Compare timer samples (QEMU's CM and 5Kc counters do not count), the 16550 behind the
// PIIX4 carries the frames. STREAM_CPS: the P5600 build (CM counters), else the RM7000 one.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/stream_run.hpp"
#if defined(STREAM_CPS)
#include "hal/mips_cps/driver.hpp"
using Backend = pmu::mips_cps::Driver<pmu::mips_cps::HwBus>;
constexpr const char* kTargetId = "mips-cm";
#else
#include "hal/core/bus/cp0.hpp"
#include "hal/rm7000/driver.hpp"
using Backend = pmu::rm7000::Driver<pmu::Cp0Bus>;
constexpr const char* kTargetId = "rm7000";
#endif

namespace {
struct Malta {
  static constexpr const char* kTarget = kTargetId;
  static constexpr bool kWithLr = true;
  static constexpr std::uint64_t kClockHz = board::kCountHz;  // CP0 Count
  static std::uint32_t clock() { return board::count(); }
  static std::size_t try_write(const std::uint8_t* p, std::size_t n) { return board::try_write(p, n); }
  static bool tick_start(std::uint32_t hz, board::IrqHandler f) {
    board::timer_start(board::kCountHz / hz, f);
    return true;
  }
  static void irq_enable() { board::irq_enable(); }
  [[noreturn]] static void exit(int code) { board::exit(code); }
};
}  // namespace

int main() {
  board::init();
  return examples::stream::stream_run<Malta, Backend>();
}
