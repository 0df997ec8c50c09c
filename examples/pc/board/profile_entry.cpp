// The one entry point on this board (profiler/profile_main.h): pmukit_add_firmware(... PROFILE)
// links it. A family 0Fh GenuineIntel CPU (QEMU's -cpu qemu32,family=15,model=2): the NetBurst
// PMU (Intel SDM Vol. 3B, 18.15, "Performance Monitoring (Processors Based on Intel NetBurst
// Microarchitecture)") is there when IA32_MISC_ENABLE bit 7 says so. QEMU's TCG reads that bit as
// 0 (and rdpmc raises #UD), so there the program runs uncounted as the region "main" and the PIT samples it, and the entry says so.
// Under pmusim the PMU is the project's model: global_power_events counts cycles, instr_retired
// instructions, and the cycles counter's PMI through the local APIC samples. Stacks are copied
// from the same interrupt (board::interrupted_stack gives the interrupted ESP and EBP).
#include <cstdint>

#include "board/board.hpp"
#include "hal/netburst/driver.hpp"

using pmukit_backend = pmu::netburst::Driver<pmu::netburst::HwBus>;
#include "profiler/c_api_impl.hpp"
#include "profiler/profile_main_impl.hpp"

extern "C" void pmukit_board_init(void);  // examples/common/libc/board_glue.cpp

namespace {

// PIT channel 0 every 12 input clocks: 10.06 us (board.hpp).
constexpr std::uint16_t kTickPeriod = 12;

struct PcP4 {
  static void putc(char c) { board::putc(c); }
  static bool timer_start(pmukit::IrqCallback tick) {
    board::timer_start(kTickPeriod, tick);
    return true;
  }
  static void timer_stop() { board::timer_stop(); }
  // The PMI: the board routes the APIC vector, the driver owns the LVT entry.
  static bool pmu_interrupt(pmukit::IrqCallback irq) {
    if (!board::set_perf_handler(irq)) return false;
    pmukit_backend::set_apic_base(board::apic_base());
    pmukit_backend::set_pmi_vector(board::kPmiVector);
    return true;
  }
  static void irq_enable() { board::irq_enable(); }
  static void irq_disable() { board::irq_disable(); }
  static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) { board::interrupted_stack(sp, fp); }
  static std::uintptr_t stack_top() { return board::stack_top(); }
};

}  // namespace

extern "C" int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* options) {
  pmukit_board_init();
  const bool counting = pmukit_c::state.profiler.probe().status == pmu::Status::ok;
  const pmukit::BoardProfile bp{"netburst", 0, std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kPitHz,
                                counting && board::has_apic()};
  return pmukit::profile_main<PcP4>(run, options, bp);
}

extern "C" int pmukit_profile_main(int (*run)(void)) { return pmukit_profile_main_with(run, nullptr); }
