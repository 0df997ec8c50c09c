// Zero-cost probe, Cortex-M4 DWT (ARMv7-M, Thumb): the cortex_m_dwt driver on MmioBus<ScsBase>
// against hand-written volatile loads and stores of the same addresses (bench/zero_cost/README.md:
// pairs, counting rule, gate). check.py takes a load or store in the Private Peripheral Bus (0xE0000000..) as an
// access, by its absolute address.
//
// The read cost (hal/core/driver.hpp, the "one instruction per read" promise): read<0>() is one
// ldr of DWT_CYCCNT from the DWT base kept in a register, as a hand accessor is. Descriptors:
// hal/cortex_m_dwt/regs.hpp (ARMv7-M ARM C1.8.7 DWT_CTRL, C1.8.8 DWT_CYCCNT, C1.8.9 DWT_CPICNT,
// C1.6.5 DEMCR); the hand side spells the addresses and masks out from the same sections.
#include <cstdint>

#include "bench/zero_cost/window.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/cortex_m_dwt/driver.hpp"

#if !defined(__arm__) || !defined(__ARM_ARCH_PROFILE) || __ARM_ARCH_PROFILE != 'M'
#error "the cortex_m_dwt zero-cost probe is built for an M-profile core (-mcpu=cortex-m4 -mthumb)"
#endif

namespace {
using pmu::u32;
using Dwt = pmu::cortex_m_dwt::Driver<pmu::MmioBus<pmu::cortex_m_dwt::ScsBase>>;
}  // namespace

#define HAND_REG(addr) (*reinterpret_cast<volatile u32*>(addr))

extern "C" {

// --- driver_read_cyccnt: Dwt::read<0>() = DWT_CYCCNT (0xE0001004), one ldr ---
std::uint64_t ours_driver_read_cyccnt() { return Dwt::read<0>(); }
std::uint64_t hand_driver_read_cyccnt() { return HAND_REG(0xE0001004u); }

// --- driver_read_cpicnt: Dwt::read<1>() = DWT_CPICNT (0xE0001008), the whole word (the profiler
// keeps its 8 low bits) ---
std::uint64_t ours_driver_read_cpicnt() { return Dwt::read<1>(); }
std::uint64_t hand_driver_read_cpicnt() { return HAND_REG(0xE0001008u); }

// --- driver_write_cyccnt: Dwt::write<0>(v) = DWT_CYCCNT = v ---
void ours_driver_write_cyccnt(u32 v) { Dwt::write<0>(v); }
void hand_driver_write_cyccnt(u32 v) { HAND_REG(0xE0001004u) = v; }

// --- driver_start: CYCCNTENA = 1 in one read-modify-write of DWT_CTRL (the reserved and read-only
// bits written as 0: C1.8.7) ---
void ours_driver_start() { Dwt::start(1u); }
void hand_driver_start() {
  const u32 v = HAND_REG(0xE0001000u);
  HAND_REG(0xE0001000u) = (v | 1u) & 0x007F1FFFu;
}

// --- driver_stop: CYCCNTENA = 0, the same way ---
void ours_driver_stop() { Dwt::stop(1u); }
void hand_driver_stop() {
  const u32 v = HAND_REG(0xE0001000u);
  HAND_REG(0xE0001000u) = v & 0x007F1FFEu;
}

}  // extern "C"

// Fast-region windows (check.py, "Windows") on CYCCNT, slot 0: the only counter a fast region may
// use (an 8-bit counter there does not compile: no overflow condition to extend it by). No
// counter region (its per-slot readers) and no PMU interrupt: the DWT has none.
// Counter reads: ldr of DWT_CYCCNT (0xE0001004) and the 8-bit DWT_CPICNT .. DWT_FOLDCNT
// (0xE0001008 .. 0xE0001018), by absolute address.
PMU_ZC_COUNTER_READ(R"(^ldr \[0xe000100[48c]\]|^ldr \[0xe000101[048]\])");
PMU_ZC_WINDOW(Dwt, 0)
PMU_ZC_WINDOW_CALL(Dwt, 0)
PMU_ZC_WINDOW_CALIBRATE(Dwt, 0)
