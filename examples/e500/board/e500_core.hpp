#pragma once
// e500v2 core registers used by the board layer: SPR numbers, the bits the board touches, and the
// only inline asm of this example besides the kit (mfspr/mtspr/mfmsr/wrteei). References are to the PowerPC e500
// Core Family Reference Manual, Rev. 1 (E500CORERM, "CRM" below). Bit numbers in comments are the
// manual's 32..63 numbering (bit 63 is the least significant bit).
#include <cstdint>

namespace board::e500 {

// SPR numbers (CRM Table 2-2, SPR summary).
inline constexpr unsigned DEC = 22;      // decrementer (2.6.4)
inline constexpr unsigned SRR0 = 26;     // save/restore 0: return PC of non-critical interrupts (2.7.1.1)
inline constexpr unsigned SRR1 = 27;     // save/restore 1: MSR at the interrupt
inline constexpr unsigned DECAR = 54;    // decrementer auto-reload (2.6.5), write-only
inline constexpr unsigned CSRR0 = 58;    // critical save/restore 0 (critical input, watchdog, debug)
inline constexpr unsigned DEAR = 61;     // data exception address (2.7.1.3)
inline constexpr unsigned ESR = 62;      // exception syndrome (2.7.1.6)
inline constexpr unsigned TBL_R = 268;   // time base lower, read (2.6.3)
inline constexpr unsigned TBU_R = 269;   // time base upper, read
inline constexpr unsigned SPRG3 = 275;   // software-use register 3 (2.9)
inline constexpr unsigned TSR = 336;     // timer status, write-1-to-clear (2.6.2)
inline constexpr unsigned TCR = 340;     // timer control (2.6.1)
inline constexpr unsigned IVOR10 = 410;  // decrementer interrupt vector offset (2.7.1.5)
inline constexpr unsigned IVOR35 = 531;  // performance monitor interrupt vector offset (2.7.1.5)
inline constexpr unsigned SPRG4 = 276;   // software-use register 4, written (2.9; read at 260)
inline constexpr unsigned SPRG5 = 277;   // software-use register 5, written (2.9; read at 261)
inline constexpr unsigned MCSRR0 = 570;  // machine check save/restore 0 (2.7.2)
inline constexpr unsigned MCSR = 572;    // machine check syndrome (2.7.2.4)
inline constexpr unsigned HID0 = 1008;   // hardware implementation-dependent 0 (2.10.1)

// TCR / TSR: Book E layout (CRM 2.6.1, 2.6.2; interrupt conditions in 5.7.9).
inline constexpr std::uint32_t TCR_DIE = 1u << (63 - 37);  // decrementer interrupt enable
inline constexpr std::uint32_t TCR_FIE = 1u << (63 - 40);  // fixed-interval timer interrupt enable
inline constexpr std::uint32_t TCR_ARE = 1u << (63 - 41);  // DEC reloads from DECAR on 1 -> 0
inline constexpr std::uint32_t TSR_DIS = 1u << (63 - 36);  // decrementer interrupt status (w1c)
inline constexpr std::uint32_t TSR_FIS = 1u << (63 - 37);  // fixed-interval timer status (w1c)

// MSR (CRM 2.5.1, Figure 2-2).
inline constexpr std::uint32_t MSR_EE = 1u << (63 - 48);   // external input, DEC, FIT, perfmon enable

// HID0 (CRM 2.10.1): the time base counts only while TBEN is set (9.3).
inline constexpr std::uint32_t HID0_TBEN = 1u << (63 - 49);

// ESR (CRM 2.7.1.6, Figure 2-10).
inline constexpr std::uint32_t ESR_PIL = 1u << (63 - 36);  // program interrupt: illegal instruction

template <unsigned Spr>
inline std::uint32_t mfspr() {
  std::uint32_t v;
  asm volatile("mfspr %0, %1" : "=r"(v) : "n"(Spr));
  return v;
}

template <unsigned Spr>
inline void mtspr(std::uint32_t v) {
  asm volatile("mtspr %0, %1" : : "n"(Spr), "r"(v) : "memory");
}

inline void isync() { asm volatile("isync" : : : "memory"); }

inline std::uint32_t mfmsr() {
  std::uint32_t v;
  asm volatile("mfmsr %0" : "=r"(v));
  return v;
}

// wrteei changes only MSR[EE] (Book E), so no read-modify-write race on the other bits.
inline void wrteei_1() { asm volatile("wrteei 1" : : : "memory"); }
inline void wrteei_0() { asm volatile("wrteei 0" : : : "memory"); }

}  // namespace board::e500
