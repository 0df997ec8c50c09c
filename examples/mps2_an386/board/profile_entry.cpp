// The one entry point on this board (profiler/profile_main.h): pmukit_add_firmware(... PROFILE)
// links it. The PMU is the Cortex-M4's DWT (hal/cortex_m_dwt/): CYCCNT counts cycles where it is
// there, and has no overflow interrupt, so SysTick samples and, at each tick, polls the counters
// (Profiler::fold, at least once per 2^32 cycles: 171 s at 25 MHz). QEMU 7.2 maps no DWT (DEMCR
// and the DWT read 0): the probe finds no counter there, and the run is the region "main" with its
// calls only, sampled by SysTick (the console says so).
#include <cstdint>

#include "board/board.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/cortex_m_dwt/driver.hpp"

using pmukit_backend = pmu::cortex_m_dwt::Driver<pmu::MmioBus<pmu::cortex_m_dwt::ScsBase>>;
#include "profiler/c_api_impl.hpp"
#include "profiler/profile_main_impl.hpp"

namespace {

// SysTick every 2,500 core clocks: 100 us at 25 MHz (10,000 samples a second).
constexpr std::uint32_t kTickPeriod = 2500;

pmukit::IrqCallback sample = nullptr;
void tick(std::uint32_t pc, std::uint32_t lr) {
  pmukit_c::state.profiler.fold();  // the DWT's 64-bit extension, by polling
  if (sample != nullptr) sample(pc, lr);
}

struct Mps2An386 {
  static void putc(char c) { board::putc(c); }
  static bool timer_start(pmukit::IrqCallback t) {
    sample = t;
    return board::timer_start(kTickPeriod, &tick);
  }
  static void timer_stop() { board::timer_stop(); }
  static bool pmu_interrupt(pmukit::IrqCallback) { return false; }  // the DWT has none
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
};

}  // namespace

extern "C" int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* options) {
  const pmukit::BoardProfile bp{"cortex-m4", board::kCoreHz,
                                std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kCoreHz, false};
  return pmukit::profile_main<Mps2An386>(run, options, bp);
}

extern "C" int pmukit_profile_main(int (*run)(void)) { return pmukit_profile_main_with(run, nullptr); }
