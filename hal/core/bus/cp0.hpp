#pragma once
// CP0 bus: MIPS mfc0/mtc0, and cfc0/ctc0 for the CP0 control registers of MIPS IV cores. One type
// for both ISA levels, chosen by what the compiler targets:
// - MIPS32 release 2 and later (CPS cores): `sel` operand, and `ehb` after mtc0 to clear the
//   execution hazard (MIPS32 PRA, "CP0 hazards"). No control registers: MIPS32 reuses the
//   cfc0/ctc0 encodings for mfhc0/mthc0.
// - MIPS IV (RM7000, -march=rm7000): no `sel` field (it must be 0) and no ehb. After mtc0 and
//   ctc0 the bus issues PMU_MIPS4_CP0_HAZARD_NOPS nops (default 8, see below) before anything
//   else can use the new value. clang's integrated assembler has no cfc0/ctc0: under clang the
//   bus emits their instruction words.
//
// The MIPS IV hazard. No RM7000 manual text with a CP0 hazard table is available to this project.
// The RM9000-family manual, as quoted on the linux-mips list, says a CP0 register changed by MTC0 or
// CTC0 "must not be used for 4 cycles". The RM7000 issues two integer instructions a cycle, nops
// included (GCC's RM7000 pipeline description, citing the RM7000 Family User Manual), so 4 cycles
// take 8 nops; OpenBSD likewise pads an RM7000 5-cycle CP0 hazard with ten instructions (its two
// nops after mtc0 to PerfControl/PerfCount look too few by the same reasoning). Define
// PMU_MIPS4_CP0_HAZARD_NOPS to change it for a part whose manual says otherwise.
#include <cstdint>

#include "hal/core/location.hpp"

#ifndef PMU_MIPS4_CP0_HAZARD_NOPS
#define PMU_MIPS4_CP0_HAZARD_NOPS 8
#endif

namespace pmu {

struct Cp0Bus {
  static constexpr BusKind kind = BusKind::cp0;
#if defined(__mips__)
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
  static constexpr bool has_select = true;
#else
  static constexpr bool has_select = false;
#endif
  template <class Loc, class T>
  static T read() {
    check<Loc, T>();
    T v;
    if constexpr (Loc::control) {
#if defined(__clang__)
      // clang's integrated assembler knows no cfc0: its word (MIPS IV ISA, CFCz: COP0, rs = CF 2)
      // with rt pinned to $8 so the word can name it.
      register T r asm("$8");
      asm volatile(".word 0x40480000 | (%1 << 11)" : "=r"(r) : "i"(Loc::reg) : "memory");
      v = r;
#else
      asm volatile("cfc0 %0, $%1" : "=r"(v) : "i"(Loc::reg) : "memory");
#endif
    } else if constexpr (has_select)
      asm volatile("mfc0 %0, $%1, %2" : "=r"(v) : "i"(Loc::reg), "i"(Loc::sel) : "memory");
    else
      asm volatile("mfc0 %0, $%1" : "=r"(v) : "i"(Loc::reg) : "memory");
    return v;
  }
  template <class Loc, class T>
  static void write(T v) {
    check<Loc, T>();
    if constexpr (Loc::control) {
#if defined(__clang__)
      // ctc0 as its word (MIPS IV ISA, CTCz: COP0, rs = CT 6), rt pinned to $8 (see read()).
      register T r asm("$8") = v;
      asm volatile(".set push\n\t.set noreorder\n\t.word 0x40c80000 | (%1 << 11)\n\t.rept %2\n\tnop\n\t.endr\n\t.set pop"
                   :
                   : "r"(r), "i"(Loc::reg), "i"(PMU_MIPS4_CP0_HAZARD_NOPS)
                   : "memory");
#else
      asm volatile(".set push\n\t.set noreorder\n\tctc0 %z0, $%1\n\t.rept %2\n\tnop\n\t.endr\n\t.set pop"
                   :
                   : "dJ"(v), "i"(Loc::reg), "i"(PMU_MIPS4_CP0_HAZARD_NOPS)
                   : "memory");
#endif
    } else if constexpr (has_select)
      asm volatile("mtc0 %z0, $%1, %2\n\tehb" : : "dJ"(v), "i"(Loc::reg), "i"(Loc::sel) : "memory");
    else
      asm volatile(".set push\n\t.set noreorder\n\tmtc0 %z0, $%1\n\t.rept %2\n\tnop\n\t.endr\n\t.set pop"
                   :
                   : "dJ"(v), "i"(Loc::reg), "i"(PMU_MIPS4_CP0_HAZARD_NOPS)
                   : "memory");
  }

 private:
  template <class Loc, class T>
  static constexpr void check() {
    static_assert(LocationOf<Loc, BusKind::cp0>, "Cp0Bus reaches only Cp0<...> and Cp0Control<...> registers");
    static_assert(sizeof(T) == 4, "CP0 registers here are 32 bits");
    static_assert(has_select || Loc::sel == 0, "MIPS IV has no CP0 select field: sel must be 0");
    static_assert(!Loc::control || !has_select,
                  "CP0 control registers (cfc0/ctc0) exist on MIPS IV cores only: MIPS32 decodes "
                  "these instructions as mfhc0/mthc0");
  }
#else
  template <class Loc, class T>
  static T read() {
    static_assert(sizeof(Loc) == 0, "Cp0Bus exists only in MIPS builds; host tests use MockBus");
    return T{};
  }
  template <class Loc, class T>
  static void write(T) {
    static_assert(sizeof(Loc) == 0, "Cp0Bus exists only in MIPS builds; host tests use MockBus");
  }
#endif
};

}  // namespace pmu
