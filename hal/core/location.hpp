#pragma once
// Where a register lives. One small type per kind of bus; the encoding is carried as template
// arguments so a bus can print it into its instruction as an immediate. `key` identifies the
// location uniquely across all kinds (the mock bus files registers under it).
#include <cstdint>

namespace pmu {

enum class BusKind : std::uint32_t { arm_cp = 1, pmr = 2, msr = 3, cp0 = 4, mmio = 5, spr = 6, cpuid = 7, pmc = 8,
                                     selected = 9 };

namespace detail {
constexpr std::uint32_t make_key(BusKind k, std::uint32_t enc) {
  return (static_cast<std::uint32_t>(k) << 24) | enc;
}
}  // namespace detail

// ARM coprocessor register: MRC/MCR p<Coproc>, Opc1, Rd, CRn, CRm, Opc2.
template <unsigned Coproc, unsigned CRn, unsigned CRm, unsigned Opc1 = 0, unsigned Opc2 = 0>
struct ArmCp {
  static_assert(Coproc < 16 && CRn < 16 && CRm < 16 && Opc1 < 8 && Opc2 < 8,
                "ARM coprocessor encoding out of range");
  static constexpr BusKind kind = BusKind::arm_cp;
  static constexpr unsigned coproc = Coproc, crn = CRn, crm = CRm, opc1 = Opc1, opc2 = Opc2;
  static constexpr std::uint32_t key =
      detail::make_key(kind, (Coproc << 16) | (Opc1 << 12) | (CRn << 8) | (CRm << 4) | Opc2);
};
// CP14: debug and performance monitoring (XScale PMU). CP15: system control (MIDR).
template <unsigned CRn, unsigned CRm, unsigned Opc1 = 0, unsigned Opc2 = 0>
using Cp14 = ArmCp<14, CRn, CRm, Opc1, Opc2>;
template <unsigned CRn, unsigned CRm, unsigned Opc1 = 0, unsigned Opc2 = 0>
using Cp15 = ArmCp<15, CRn, CRm, Opc1, Opc2>;

// Book E performance monitor register: mfpmr/mtpmr with a 10-bit PMR number.
template <unsigned N>
struct Pmr {
  static_assert(N < 1024, "PMR numbers are 10 bits");
  static constexpr BusKind kind = BusKind::pmr;
  static constexpr unsigned number = N;
  static constexpr std::uint32_t key = detail::make_key(kind, N);
};

// PowerPC special-purpose register: mfspr/mtspr with a 10-bit SPR number (e.g. PVR, 287).
template <unsigned N>
struct Spr {
  static_assert(N < 1024, "SPR numbers are 10 bits");
  static constexpr BusKind kind = BusKind::spr;
  static constexpr unsigned number = N;
  static constexpr std::uint32_t key = detail::make_key(kind, N);
};

// x86 model-specific register: rdmsr/wrmsr with the address in ECX.
template <std::uint32_t Address>
struct Msr {
  static_assert(Address < (1u << 24), "MSR address outside the range this toolkit files");
  static constexpr BusKind kind = BusKind::msr;
  static constexpr std::uint32_t address = Address;
  static constexpr std::uint32_t key = detail::make_key(kind, Address);
};

// x86 performance-monitoring counter read with rdpmc (counter index in ECX). Read only: counters are
// written through their MSRs.
template <std::uint32_t Index>
struct Pmc {
  static_assert(Index < (1u << 24), "rdpmc counter index outside the range this toolkit files");
  static constexpr BusKind kind = BusKind::pmc;
  static constexpr std::uint32_t index = Index;
  static constexpr std::uint32_t key = detail::make_key(kind, Index);
};

// MIPS coprocessor 0 register: mfc0/mtc0 $Reg, Sel (Sel must be 0 before MIPS32).
template <unsigned Reg, unsigned Sel = 0>
struct Cp0 {
  static_assert(Reg < 32 && Sel < 8, "CP0 encoding out of range");
  static constexpr BusKind kind = BusKind::cp0;
  static constexpr unsigned reg = Reg, sel = Sel;
  static constexpr bool control = false;
  static constexpr std::uint32_t key = detail::make_key(kind, (Reg << 3) | Sel);
};

// MIPS IV coprocessor 0 *control* register: cfc0/ctc0 $Reg, a second register space of the same
// coprocessor (RM7000: Interrupt Control is control register 20, while mtc0 $20 is XContext). The
// CP0 bus reaches both spaces; MIPS32 reuses these encodings for mfhc0/mthc0, so only MIPS IV
// builds may use it (hal/core/bus/cp0.hpp).
template <unsigned Reg>
struct Cp0Control {
  static_assert(Reg < 32, "CP0 control register numbers are 5 bits");
  static constexpr BusKind kind = BusKind::cp0;
  static constexpr unsigned reg = Reg, sel = 0;
  static constexpr bool control = true;
  static constexpr std::uint32_t key = detail::make_key(kind, 0x100u | Reg);
};

// Memory-mapped register at a byte offset from a base chosen at run time (e.g. the GCR base).
template <std::uint32_t Offset>
struct Mmio {
  static_assert(Offset % 4 == 0, "MMIO registers here are 32-bit aligned");
  static_assert(Offset < (1u << 24), "MMIO offset outside the range this toolkit files");
  static constexpr BusKind kind = BusKind::mmio;
  static constexpr std::uint32_t offset = Offset;
  static constexpr std::uint32_t key = detail::make_key(kind, Offset);
};

// x86 CPUID: one output register (0 EAX, 1 EBX, 2 ECX, 3 EDX) of a basic leaf, sub-leaf 0. Read only.
template <std::uint32_t Leaf, unsigned Out>
struct Cpuid {
  static_assert(Leaf < (1u << 20) && Out < 4, "basic CPUID leaves only; Out is 0 EAX, 1 EBX, 2 ECX, 3 EDX");
  static constexpr BusKind kind = BusKind::cpuid;
  static constexpr std::uint32_t leaf = Leaf;
  static constexpr unsigned out = Out;
  static constexpr std::uint32_t key = detail::make_key(kind, (Leaf << 2) | Out);
};

// A register that one location reaches for several registers, which one chosen by a select
// register written first (ARMv7-A: PMXEVCNTR and PMXEVTYPER are the event counter PMSELR.SEL
// names). Banked<Loc> marks such a location: alone it reaches no register in particular, so the
// register engine refuses it (reg.hpp, Regs); only Selected<> reaches it.
template <class Loc>
struct Banked : Loc {
  static constexpr bool banked = true;
};

// Select-then-access: one register behind a select. Regs<Bus> reaches it as three steps, always in
// this order: write Index to Select, the bus's select_barrier() (the select must take effect before
// the access: ARMv7-A needs an ISB, ARM ARM ARMv7-A/R, chapter B3 and B4.1 PMSELR), then the access to Access. The
// sequence is not atomic: an interrupt between the steps that writes Select itself must restore
// it (the driver's InterruptScope, hal/core/driver.hpp). `key` names the register (select and index
// together) for the mock's register file; the bus itself sees the two locations' own keys.
template <class Select, unsigned Index, class Access>
struct Selected {
  static_assert(Access::banked, "Selected<>: the access location is a Banked<> one");
  static_assert(!requires { Select::banked; }, "Selected<>: the select register is not banked itself");
  static_assert(Select::kind == Access::kind, "Selected<>: select and access go through one bus");
  static_assert(Index < 256, "Selected<>: select values up to 255");
  using select = Select;
  using access = Access;
  static constexpr unsigned index = Index;
  static constexpr BusKind kind = Access::kind;
  static constexpr std::uint32_t key = detail::make_key(BusKind::selected, (Index << 16) | (Access::key & 0xFFFFu));
};
// The mock register file's key of Access's register selected by `sel` (Selected<...>::key).
constexpr std::uint32_t selected_key(std::uint32_t access_key, std::uint32_t sel) {
  return detail::make_key(BusKind::selected, ((sel & 0xFFu) << 16) | (access_key & 0xFFFFu));
}
template <class Loc>
concept SelectedLocation = requires { typename Loc::select; typename Loc::access; Loc::index; };

template <class Loc, BusKind K>
concept LocationOf = (Loc::kind == K);

}  // namespace pmu
