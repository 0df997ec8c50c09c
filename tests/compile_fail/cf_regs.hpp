#pragma once
// Registers for the must-fail compile tests. The C++ names (RegA, field_x...) differ on purpose
// from the manual names in the descriptors ("EVTSEL", "evtCount0"...): a test that looks for a
// manual name in the diagnostic then proves it came from the type, not from the echoed source line.
#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"

namespace cf {
using pmu::Access;
using pmu::Field;
using pmu::Reg;
using pmu::u32;

using Bus = pmu::Regs<pmu::MockBus<>>;

// Event selection: two 8-bit fields.
using RegA = Reg<"EVTSEL", pmu::Cp14<8, 1>, u32>;
inline constexpr Field<RegA, 0, 8, Access::RW, "evtCount0"> field_a0{};
inline constexpr Field<RegA, 8, 8, Access::RW, "evtCount1"> field_a1{};

// Control with a read-only field and a W1C flag.
using RegB = Reg<"PMNC", pmu::Cp14<0, 1>, u32, pmu::Layout<u32>{.write_mask = 0x0000010F, .w1c = 0x00000100}>;
inline constexpr Field<RegB, 0, 1, Access::RW, "E"> field_b_enable{};
inline constexpr Field<RegB, 8, 1, Access::W1C, "CCNT_OVF"> field_b_flag{};
inline constexpr Field<RegB, 24, 8, Access::RO, "IDCODE"> field_b_id{};

// Read-only register (CP15 main ID).
using RegRO = Reg<"MIDR", pmu::Cp15<0, 0>, u32, pmu::Layout<u32>{.access = Access::RO}>;
inline constexpr Field<RegRO, 13, 3, Access::RO, "ARCH"> field_ro_arch{};

// Read-write register with a write-only field, and a write-only register.
using RegW = Reg<"PMLCB", pmu::Pmr<272>, u32>;
inline constexpr Field<RegW, 0, 6, Access::RW, "THRESHOLD"> field_w_thresh{};
inline constexpr Field<RegW, 31, 1, Access::WO, "KICK"> field_w_kick{};
using RegWO = Reg<"CMD", pmu::Pmr<7>, u32, pmu::Layout<u32>{.access = Access::WO}>;
inline constexpr Field<RegWO, 0, 4, Access::WO, "OP"> field_wo_op{};

// A CP0 register, for the bus-on-the-wrong-architecture cases.
using RegC0 = Reg<"PerfCtl0", pmu::Cp0<25>, u32>;
}  // namespace cf
