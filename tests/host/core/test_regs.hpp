#pragma once
// Register map used only by the core engine tests. Shapes taken from real PMUs so the cases are
// the ones drivers meet, with expected values worked out by hand in each test (never computed
// with the engine itself, so a wrong engine answer fails the test):
//   CTRL   like the XSC1 PMNC: RW control bits, W1C overflow flags, write-as-zero bits,
//          a read-only field inside the write-as-zero bits, and a non-zero reset value
//   FLAG   like the XSC2 FLAG: every bit W1C
//   STATUS read-only register (like MIDR); CMD write-only register
//   CNT40  a 40-bit counter in a 64-bit MSR (NetBurst); CCCR a 64-bit MSR with high fields
#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"

namespace coretest {

using pmu::Access;
using pmu::Field;
using pmu::Reg;
using pmu::u32;
using pmu::u64;

// CTRL:
//   bit  0     E      RW
//   bit  3     D      RW
//   bits 8-10  OVF0, OVF1, OVFC   W1C
//   bits 12-19 EVT0   RW   (reset 0x03)
//   bits 20-27 EVT1   RW   (reset 0x00)
//   bits 28-31 REV    RO, write-as-zero
//   bits 7, 11 and 1, 2, 4-6 are write-as-zero (write_mask 0x0FFFF709)
using CTRL = Reg<"CTRL", pmu::Cp14<0, 0>, u32,
                 pmu::Layout<u32>{.reset = 0x00003000, .write_mask = 0x0FFFF709, .w1c = 0x00000700}>;
inline constexpr Field<CTRL, 0, 1, Access::RW, "E"> ctrl_e{};
inline constexpr Field<CTRL, 3, 1, Access::RW, "D"> ctrl_d{};
inline constexpr Field<CTRL, 8, 1, Access::W1C, "OVF0"> ctrl_ovf0{};
inline constexpr Field<CTRL, 9, 1, Access::W1C, "OVF1"> ctrl_ovf1{};
inline constexpr Field<CTRL, 10, 1, Access::W1C, "OVFC"> ctrl_ovfc{};
inline constexpr Field<CTRL, 12, 8, Access::RW, "EVT0"> ctrl_evt0{};
inline constexpr Field<CTRL, 20, 8, Access::RW, "EVT1"> ctrl_evt1{};
inline constexpr Field<CTRL, 28, 4, Access::RO, "REV"> ctrl_rev{};

// Reset value with a W1C bit set: write() must still send 0 for it.
using CTRL2 = Reg<"CTRL2", pmu::Cp14<0, 1>, u32,
                  pmu::Layout<u32>{.reset = 0x00000181, .write_mask = 0x000001FF, .w1c = 0x00000100}>;
inline constexpr Field<CTRL2, 0, 1, Access::RW, "A"> ctrl2_a{};
inline constexpr Field<CTRL2, 1, 1, Access::RW, "B"> ctrl2_b{};
inline constexpr Field<CTRL2, 7, 1, Access::RW, "C"> ctrl2_c{};
inline constexpr Field<CTRL2, 8, 1, Access::W1C, "F"> ctrl2_f{};

// Action bits (XScale PMNC P/C style): write-only "reset" actions in a read-write register whose
// read-back is unpredictable, so no read-modify-write may send them back as read.
//   bit 0 EN RW, bit 1 RST WO action, bit 4 OVF W1C
using ACT = Reg<"ACT", pmu::Cp14<2, 1>, u32, pmu::Layout<u32>{.write_mask = 0x13, .w1c = 0x10, .action = 0x02}>;
inline constexpr Field<ACT, 0, 1, Access::RW, "EN"> act_en{};
inline constexpr Field<ACT, 1, 1, Access::WO, "RST"> act_rst{};
inline constexpr Field<ACT, 4, 1, Access::W1C, "OVF"> act_ovf{};

using FLAG = Reg<"FLAG", pmu::Cp14<5, 1>, u32, pmu::Layout<u32>{.write_mask = 0x1F, .w1c = 0x1F}>;
inline constexpr Field<FLAG, 0, 1, Access::W1C, "CCNT"> flag_ccnt{};
inline constexpr Field<FLAG, 1, 1, Access::W1C, "PMN0"> flag_pmn0{};
inline constexpr Field<FLAG, 4, 1, Access::W1C, "PMN3"> flag_pmn3{};

using STATUS = Reg<"STATUS", pmu::Cp15<0, 0>, u32, pmu::Layout<u32>{.access = Access::RO}>;
inline constexpr Field<STATUS, 13, 3, Access::RO, "GEN"> status_gen{};

using CMD = Reg<"CMD", pmu::Pmr<7>, u32, pmu::Layout<u32>{.access = Access::WO, .reset = 0x00000010}>;
inline constexpr Field<CMD, 0, 4, Access::WO, "OP"> cmd_op{};
inline constexpr Field<CMD, 4, 4, Access::WO, "ARG"> cmd_arg{};

// 40-bit counter in a 64-bit MSR; bits 63:40 reserved (write-as-zero).
using CNT40 = Reg<"CNT40", pmu::Msr<0x300>, u64, pmu::Layout<u64>{.write_mask = 0xFFFFFFFFFFull}>;
inline constexpr Field<CNT40, 0, 40, Access::RW, "count"> cnt40_count{};
inline constexpr Field<CNT40, 32, 8, Access::RW, "high8"> cnt40_high8{};
inline constexpr Field<CNT40, 39, 1, Access::RW, "bit39"> cnt40_bit39{};

// 64-bit register with fields above bit 32 and a full-width top field.
using WIDE = Reg<"WIDE", pmu::Msr<0x3A0>, u64>;
inline constexpr Field<WIDE, 0, 12, Access::RW, "lo"> wide_lo{};
inline constexpr Field<WIDE, 33, 30, Access::RW, "mid"> wide_mid{};
inline constexpr Field<WIDE, 63, 1, Access::RW, "top"> wide_top{};

// Counters for the device tests: one a model answers, one that traps, one left to the file.
using CCNT = Reg<"CCNT", pmu::Cp14<1, 1>, u32>;
using PMN3 = Reg<"PMN3", pmu::Cp14<3, 2>, u32>;
using PMN0 = Reg<"PMN0", pmu::Cp14<0, 2>, u32>;
// Same encoding on another bus kind: must be a different mock register.
using GCR_CTL = Reg<"PC_CTL", pmu::Mmio<0x6100>, u32>;
using PMGC0 = Reg<"PMGC0", pmu::Pmr<400>, u32>;

}  // namespace coretest
