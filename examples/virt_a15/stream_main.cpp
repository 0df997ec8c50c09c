// The live stream example (examples/common/stream_run.hpp, docs/stream-format.md) on QEMU virt with
// a Cortex-A15: the generic timer's virtual timer samples, the PL011 carries the frames, PMCCNTR and
// INST_RETIRED count (QEMU's own PMU). QEMU only: untested on silicon.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/stream_run.hpp"
#include "hal/armv7a/driver.hpp"
#include "hal/core/bus/arm_cp.hpp"

namespace {
struct Virt {
  static constexpr const char* kTarget = "armv7a";
  static constexpr bool kWithLr = true;
  // CNTFRQ on QEMU virt: 62.5 MHz (checked at start: main() refuses another rate).
  static constexpr std::uint64_t kClockHz = 62'500'000;
  static std::uint32_t clock() { return static_cast<std::uint32_t>(virt::Board::timer_count()); }
  static std::size_t try_write(const std::uint8_t* p, std::size_t n) { return virt::Board::try_write(p, n); }
  static bool tick_start(std::uint32_t hz, virt::IrqCallback f) { return virt::Board::timer_start(f, hz); }
  static void irq_enable() { virt::Board::irq_enable(); }
  [[noreturn]] static void exit(int code) { virt::Board::exit(code); }
};
}  // namespace

int main() {
  if (virt::Board::timer_frequency() != Virt::kClockHz) {
    virt::Board::puts("stream: CNTFRQ is not 62.5 MHz\n");
    virt::Board::exit(1);
  }
  return examples::stream::stream_run<Virt, pmu::armv7a::CortexA15<pmu::ArmCpBus>>();
}
