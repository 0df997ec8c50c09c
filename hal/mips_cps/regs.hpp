#pragma once
// MIPS CPS Coherence Manager performance counters: register descriptors (no code).
//
// Sources (hal/mips_cps/README.md lists each and every decision):
// - MIPS CPS training, "Performance Registers (GCR)": the global debug block at GCR base + 0x6000,
//   GCR_DB_PC_CTL 0x100, _OV 0x120, _EVENT 0x130, _CYCLE 0x180, _QUAL0 0x190, _CNT0 0x198,
//   _QUAL1 0x1A0, _CNT1 0x1A8, their fields and the event list (events.hpp). Every register is 32
//   bits. Names below are that text's (GCR_DB_ prefix dropped).
// - MIPS32 Privileged Resource Architecture: Config.M chain to Config3, Config3.CMGCR (bit 29),
//   CMGCRBase (CP0 15 select 3), EBase.CPUNum (CP0 15 select 1).
// - Facts only, from public code (Linux arch/mips mips-cm.h / mips-cm.c, QEMU hw/misc/mips_cmgcr.c):
//   CMGCRBase holds the physical base >> 4 in bits 31:11; GCR_BASE (+0x008) holds it in bits 31:15;
//   GCR_REV (+0x030) MAJOR 15:8 = 6 CM2, 7 CM2.5, 8 CM3, 9 CM3.5.
#include <cstdint>

#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"

namespace pmu::mips_cps {

// ---------------------------------------------------------------------------------------------
// CP0: discovery and the current core (MIPS32 PRA). Read only: the toolkit writes none of them.
// ---------------------------------------------------------------------------------------------
inline constexpr Layout<u32> kReadOnly{Access::RO, 0, 0, 0};

// Config, Config1, Config2: bit 31 (M) says the next Config register exists. On cores before
// MIPS32 release 2 an mfc0 with a non-zero select is a reserved instruction: read under fault::traps.
using Config = Reg<"Config", Cp0<16, 0>, u32, kReadOnly>;
using Config1 = Reg<"Config1", Cp0<16, 1>, u32, kReadOnly>;
using Config2 = Reg<"Config2", Cp0<16, 2>, u32, kReadOnly>;
inline constexpr Field<Config, 31, 1, Access::RO, "M"> config_m{};
inline constexpr Field<Config1, 31, 1, Access::RO, "M"> config1_m{};
inline constexpr Field<Config2, 31, 1, Access::RO, "M"> config2_m{};
// Config3.CMGCR: the Coherence Manager's GCRs exist and CMGCRBase says where.
using Config3 = Reg<"Config3", Cp0<16, 3>, u32, kReadOnly>;
inline constexpr Field<Config3, 29, 1, Access::RO, "CMGCR"> config3_cmgcr{};

// CMGCRBase: physical address bits 35:15 of the GCR block in bits 31:11 (physical = field << 15,
// i.e. (value & ~0x7ff) << 4).
using CMGCRBase = Reg<"CMGCRBase", Cp0<15, 3>, u32, kReadOnly>;
inline constexpr Field<CMGCRBase, 11, 21, Access::RO, "CMGCR_BASE_ADDR"> cmgcrbase_addr{};
constexpr std::uint64_t gcr_phys_of_cmgcrbase(u32 v) {
  return std::uint64_t{cmgcrbase_addr.extract(v)} << 15;
}

// EBase.CPUNum: which VP (virtual processor) of the cluster executes this code. The owner id of
// the shared counters (driver.hpp).
using EBase = Reg<"EBase", Cp0<15, 1>, u32, kReadOnly>;
inline constexpr Field<EBase, 0, 10, Access::RO, "CPUNum"> ebase_cpunum{};

// ---------------------------------------------------------------------------------------------
// GCR global control block (offsets from the GCR base). Read only here: GCR_BASE is writable in
// hardware (a write relocates the whole block), and the toolkit never moves it.
// ---------------------------------------------------------------------------------------------
// GCR_BASE: the block's own physical address, bits 31:15 (CM2; wider on CM3). Read back to check
// that a GCR really answers at the address CP0 gave (QEMU's Malta reports one even where none is
// mapped, and its empty bus slot reads 0).
using GCR_BASE = Reg<"GCR_BASE", Mmio<0x0008>, u32, kReadOnly>;
inline constexpr Field<GCR_BASE, 15, 17, Access::RO, "GCRBASE"> gcr_base_gcrbase{};
// GCR_REV: the CM revision.
using GCR_REV = Reg<"GCR_REV", Mmio<0x0030>, u32, kReadOnly>;
inline constexpr Field<GCR_REV, 8, 8, Access::RO, "MAJOR_REV"> gcr_rev_major{};
inline constexpr Field<GCR_REV, 0, 8, Access::RO, "MINOR_REV"> gcr_rev_minor{};

enum class Revision : std::uint8_t {
  unknown,  // not read yet, or a MAJOR_REV this table does not list (the 1004K's first CM: < 6)
  cm2,      // MAJOR_REV 6
  cm2_5,    // 7
  cm3,      // 8 (what QEMU's CPS reports, even for a P5600)
  cm3_5,    // 9
};
constexpr Revision revision_of(u32 gcr_rev) {
  switch (gcr_rev_major.extract(gcr_rev)) {
    case 6: return Revision::cm2;
    case 7: return Revision::cm2_5;
    case 8: return Revision::cm3;
    case 9: return Revision::cm3_5;
    default: return Revision::unknown;
  }
}
constexpr const char* revision_name(Revision r) {
  switch (r) {
    case Revision::cm2: return "CM2";
    case Revision::cm2_5: return "CM2.5";
    case Revision::cm3: return "CM3";
    case Revision::cm3_5: return "CM3.5";
    case Revision::unknown: break;
  }
  return "unknown CM revision";
}
// Revisions whose debug-block counter layout is published (the layout below, from the CPS
// training and MIPS's own GCR headers for CM2-era and CM2.5 parts). CM3's GCRs are 64 bits wide
// and no public text gives its counter offsets: refused unless the firmware forces a revision.
constexpr bool layout_published(Revision r) { return r == Revision::cm2 || r == Revision::cm2_5; }

// ---------------------------------------------------------------------------------------------
// GCR global debug block: the performance counters (GCR base + 0x6000 + offset).
// ---------------------------------------------------------------------------------------------
inline constexpr u32 kDebugBlock = 0x6000;

// PC_CTL, Counter Control (0x100). The Reset bits act on the write that sets them ("the counter and
// its overflow bit are reset before counting is started"), so a read-modify-write never writes
// them back (Layout action bits). Perf_Num_Cnt (3:0) is read-only, "always 2"; bits 31, 28:10 are
// not defined and written as zero.
inline constexpr u32 kPcCtlWritable = 0x600003F0u;
inline constexpr u32 kPcCtlResetBits = 0x000002A0u;  // P1_Reset 9, P0_Reset 7, Cycl_Cnt_Reset 5
using PC_CTL = Reg<"PC_CTL", Mmio<kDebugBlock + 0x100>, u32,
                   Layout<u32>{.write_mask = kPcCtlWritable, .action = kPcCtlResetBits}>;
// Perf_Int_En: CM_PCInt is raised while a counter has overflowed (one enable for all three).
inline constexpr Field<PC_CTL, 30, 1, Access::RW, "Perf_Int_En"> pc_ctl_int_en{};
// Perf_Ovf_Stop: all three counters stop when any overflows (else it rolls over to 0).
inline constexpr Field<PC_CTL, 29, 1, Access::RW, "Perf_Ovf_Stop"> pc_ctl_ovf_stop{};
inline constexpr Field<PC_CTL, 9, 1, Access::RW, "P1_Reset"> pc_ctl_p1_reset{};
inline constexpr Field<PC_CTL, 8, 1, Access::RW, "P1_CountOn"> pc_ctl_p1_counton{};
inline constexpr Field<PC_CTL, 7, 1, Access::RW, "P0_Reset"> pc_ctl_p0_reset{};
inline constexpr Field<PC_CTL, 6, 1, Access::RW, "P0_CountOn"> pc_ctl_p0_counton{};
inline constexpr Field<PC_CTL, 5, 1, Access::RW, "Cycl_Cnt_Reset"> pc_ctl_cycl_reset{};
inline constexpr Field<PC_CTL, 4, 1, Access::RW, "Cycl_Cnt_CountOn"> pc_ctl_cycl_counton{};
inline constexpr Field<PC_CTL, 0, 4, Access::RO, "Perf_Num_Cnt"> pc_ctl_num_cnt{};
// The same bits per slot (slot 0 = cycle counter, 1 = counter 0, 2 = counter 1).
inline constexpr FieldArray<PC_CTL, 1, Access::RW, "CountOn", 4, 6, 8> pc_ctl_counton{};
inline constexpr FieldArray<PC_CTL, 1, Access::RW, "Reset", 5, 7, 9> pc_ctl_reset{};
// "This will always be set to 2."
inline constexpr u32 kPerfNumCnt = 2;

// PC_OV, Counter Overflow Status (0x120): set by the hardware, cleared by writing 1. Bit n is
// slot n (Cycl_Cnt 0, P0 1, P1 2).
using PC_OV = Reg<"PC_OV", Mmio<kDebugBlock + 0x120>, u32, Layout<u32>{.write_mask = 0x7u, .w1c = 0x7u}>;
inline constexpr Field<PC_OV, 0, 1, Access::W1C, "Cycl_Cnt_Overflow"> pc_ov_cycl{};
inline constexpr Field<PC_OV, 1, 1, Access::W1C, "P0_Overflow"> pc_ov_p0{};
inline constexpr Field<PC_OV, 2, 1, Access::W1C, "P1_Overflow"> pc_ov_p1{};
inline constexpr FieldArray<PC_OV, 1, Access::W1C, "Overflow", 0, 1, 2> pc_ov_overflow{};

// PC_EVENT, Counter Event Select (0x130): P1_Event 15:8, P0_Event 7:0.
using PC_EVENT = Reg<"PC_EVENT", Mmio<kDebugBlock + 0x130>, u32, Layout<u32>{.write_mask = 0xFFFFu}>;
inline constexpr Field<PC_EVENT, 0, 8, Access::RW, "P0_Event"> pc_event_p0{};
inline constexpr Field<PC_EVENT, 8, 8, Access::RW, "P1_Event"> pc_event_p1{};
inline constexpr FieldArray<PC_EVENT, 8, Access::RW, "Event", 0, 8> pc_event{};  // counter n

// The counters, 32 bits each, and the qualifiers (a 32-bit value whose layout depends on the event:
// the CPS Software User's Manual of each core, not public; taken raw from the caller).
using PC_CYCLE = Reg<"PC_CYCLE", Mmio<kDebugBlock + 0x180>, u32>;
using PC_QUAL0 = Reg<"PC_QUAL0", Mmio<kDebugBlock + 0x190>, u32>;
using PC_CNT0 = Reg<"PC_CNT0", Mmio<kDebugBlock + 0x198>, u32>;
using PC_QUAL1 = Reg<"PC_QUAL1", Mmio<kDebugBlock + 0x1A0>, u32>;
using PC_CNT1 = Reg<"PC_CNT1", Mmio<kDebugBlock + 0x1A8>, u32>;

// Every GCR offset this toolkit touches (a firmware test compares them with QEMU's access log).
inline constexpr u32 kTouchedOffsets[] = {
    GCR_BASE::location::offset, GCR_REV::location::offset, PC_CTL::location::offset,
    PC_OV::location::offset,    PC_EVENT::location::offset, PC_CYCLE::location::offset,
    PC_QUAL0::location::offset, PC_CNT0::location::offset,  PC_QUAL1::location::offset,
    PC_CNT1::location::offset};

}  // namespace pmu::mips_cps
