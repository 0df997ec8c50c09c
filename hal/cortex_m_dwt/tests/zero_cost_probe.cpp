// Zero-cost probe for the DWT, built for a Cortex-M4 (arm-none-eabi-g++ -mcpu=cortex-m4 -mthumb
// -O2) by zero_cost_check.sh: the driver's read<0>() of DWT_CYCCNT (and read<1>() of DWT_CPICNT)
// against the minimal hand accessor, one volatile load. No cross target runs the DWT here (no
// emulator models it); a fast region's window on it is not measured.
#include <cstdint>

#include "hal/core/bus/mmio.hpp"
#include "hal/cortex_m_dwt/driver.hpp"
#include "profiler/fast_region.hpp"
#include "profiler/profiler.hpp"

using Dwt = pmu::cortex_m_dwt::Driver<pmu::MmioBus<pmu::cortex_m_dwt::ScsBase>>;

extern "C" {
std::uint32_t ours_read_cyccnt() { return static_cast<std::uint32_t>(Dwt::read<0>()); }
std::uint32_t hand_read_cyccnt() { return *reinterpret_cast<volatile std::uint32_t*>(0xE0001004u); }

std::uint32_t ours_read_cpicnt() { return static_cast<std::uint32_t>(Dwt::read<1>()); }
std::uint32_t hand_read_cpicnt() { return *reinterpret_cast<volatile std::uint32_t*>(0xE0001008u); }
}
