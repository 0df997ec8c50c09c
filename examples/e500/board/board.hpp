#pragma once
// Board support for an e500v2 core on QEMU's mpc8544ds machine
// (`qemu-system-ppc -M mpc8544ds -nographic -no-reboot -kernel fw.elf`).
//
// What the startup code (start.S) has done before main():
//   - stack, .bss zeroed, .init_array constructors run (constructors must not print: call init()
//     first in main, which sets up the UART);
//   - IVPR/IVORs point at the board's vectors: decrementer (IVOR10) and performance monitor
//     (IVOR35) go to the callbacks below, program interrupts (IVOR6) go through pmu_fault_catch(),
//     every other interrupt prints what happened and exits with kExitFault;
//   - TLB1 entry 1 maps CCSR (0xE000_0000, 1 MiB, cache-inhibited, guarded); QEMU's TLB1 entry 0
//     maps low RAM 1:1 before entry;
//   - MSR[ME] set, MSR[EE] clear.
#include <cstddef>
#include <cstdint>

#include "board/e500_core.hpp"
#include "examples/common/console.hpp"
#include "hal/core/bus/irq.hpp"
#include "profiler/sampler.hpp"

extern "C" void e500_fast_sample();  // start.S
extern "C" void e500_pmu_fast();     // pmu_fast.S

namespace board {

// Interrupt callback: `pc` is the interrupted instruction address (SRR0), `lr` the interrupted LR.
// Runs on the interrupted stack with MSR[EE] clear (do not set it): keep it short, no waiting for
// other interrupts. A trapping access inside it is caught like anywhere else (pmu::fault::traps).
using IrqHandler = void (*)(std::uint32_t pc, std::uint32_t lr);

// CCSR base as QEMU's mpc8544ds places it (the e500plat machine uses 0xF_E000_0000 instead).
inline constexpr std::uint32_t kCcsrBase = 0xE000'0000u;

// UART setup, time base enable, decrementer and fixed-interval timer quiet. Call first in main().
void init();

// One character out of DUART channel 0 (CCSR + 0x4500), polled.
void putc(char c);
// Non-blocking output for the live stream (profiler/stream/drainer.hpp): while ULSR.THRE says the
// DUART's 16-byte transmit FIFO is empty (FIFOs on, 16550 behaviour), writes up to kTxBurst of the
// n bytes and returns how many; else returns 0 at once. try_putc: the same for one byte.
inline constexpr std::size_t kTxBurst = 16;
std::size_t try_write(const std::uint8_t* data, std::size_t n);
bool try_putc(char c);
inline constexpr examples::Console console{&putc};

// Prints "EXIT <code>" on its own line, then asks the SoC for a reset (GUTS RSTCR), which QEMU
// turns into a shutdown under -no-reboot. QEMU then exits with status 0 whatever `code` is: there is
// no semihosting on this machine, so pass/fail must be read from the serial output.
[[noreturn]] void exit(int code);
inline constexpr int kExitFail = 1;   // firmware-detected failure
inline constexpr int kExitFault = 3;  // unexpected interrupt (after the "<name> interrupt at" line)

// Time base (CRM 2.6.3). QEMU 7.2's mpc8544ds clocks the time base and decrementer at 400 MHz
// (hw/ppc/e500.c passes 400000000 to ppc_booke_timers_init and writes the same value into the
// device tree's timebase-frequency); its virtual clock is in nanoseconds, so one tick is 2.5 ns, and
// under `-icount shift=0` (one instruction per ns) one tick is 2.5 instructions. On silicon the time
// base runs at CCB/8 by default (CRM 9.3): take the value from the board's device tree instead.
inline constexpr std::uint32_t kTimebaseHz = 400'000'000u;

inline std::uint32_t timebase_lo() { return e500::mfspr<e500::TBL_R>(); }

// 64-bit time base: TBU, TBL, TBU again, retried if TBL carried into TBU in between.
inline std::uint64_t timebase() {
  std::uint32_t hi, lo, hi2;
  do {
    hi = e500::mfspr<e500::TBU_R>();
    lo = e500::mfspr<e500::TBL_R>();
    hi2 = e500::mfspr<e500::TBU_R>();
  } while (hi != hi2);
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

// Periodic decrementer interrupt every `period_ticks` time-base ticks (auto-reload from DECAR,
// TCR[ARE]); `on_tick` runs in each interrupt after TSR[DIS] is cleared. Interrupts are taken only
// while MSR[EE] is set: see ee_enable(). period_ticks must be non-zero.
// From inside an interrupt callback: the interrupted r1 (and 0 for the frame pointer, not kept),
// for a stack capture (profiler/stack.hpp); the stack ends at stack_top().
void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp);
std::uintptr_t stack_top();
std::uintptr_t stack_bottom();

void decrementer_start(std::uint32_t period_ticks, IrqHandler on_tick);
void decrementer_stop();

// The decrementer on another handler of section .text.e500_ivor (16-byte aligned, in IVPR's
// 64 KiB: an IVOR holds address bits 48-59, CRM 2.7.1.5), which must clear TSR[DIS] and return
// with rfi. false (and nothing changed) for a handler it cannot reach or a period of 0.
bool decrementer_vector_start(std::uint32_t period_ticks, void (*handler)());

// Fast decrementer sampling: IVOR10 straight to e500_fast_sample (start.S), which acknowledges the
// decrementer and records SRR0 (where the interrupted code resumes) and LR into `ring`, with no
// frame and no call: 20 instructions from the interrupt to rfi. It takes SPRG0-2 as scratch and
// SPRG3 for the ring's address; nothing else in this board uses them. decrementer_stop() puts
// IVOR10 back. period_ticks as decrementer_start().
template <class Ring>
bool fast_sampling_start(std::uint32_t period_ticks, Ring& ring) {
  static_assert(prof::kAssemblyFastRing<Ring>,
                "e500_fast_sample writes a prof::SampleRing<256, prof::RingFull::keep_newest>");
  e500::mtspr<e500::SPRG3>(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&ring)));
  return decrementer_vector_start(period_ticks, &e500_fast_sample);
}

// Performance monitor interrupt (IVOR35, CRM 7.4): taken when PMGC0[PMIE] is set, a counter with
// PMLCan[CE] overflows, and MSR[EE] is set. The handler must clear the condition (rewrite the
// overflowed PMC or clear its CE) or the interrupt is taken again at once. Wired but never raised
// under QEMU 7.2, whose e500 model has no performance monitor (every mfpmr/mtpmr is an illegal
// instruction). Without a handler, a performance monitor interrupt is fatal.
void set_perfmon_handler(IrqHandler on_perfmon);

// The performance monitor interrupt on another handler of section .text.e500_ivor or, kept only
// where referenced, .text.e500_ivor_gc (IVOR35 moved,
// the rules of decrementer_vector_start), which must re-arm the overflowed counter, set
// PMGC0[PMIE] again and return with rfi; pmu_vector_stop() puts IVOR35 back on the VECTOR 35 stub.
// false (and nothing changed) for a handler it cannot reach.
bool pmu_vector_start(void (*handler)());
void pmu_vector_stop();

// PMU overflow sampling's fast vector: IVOR35 straight to e500_pmu_fast (pmu_fast.S), which
// bumps *folds (prof::Profiler::fold_count_word), rewinds PMC0 by `period` (the condition acknowledged when that puts the next overflow ahead),
// sets PMGC0[PMIE] again and records SRR0 and LR into `ring`, with no frame and no call. It takes
// SPRG0-2 as scratch, SPRG3 for the ring's address (as fast_sampling_start), SPRG4 for the
// period and SPRG5 for `folds`. The re-arms are the ring's head (prof::Profiler::count_rearms_in adds them to PMC0's
// value). Arm PMC0's interrupt first (its preset, PMLCa0[CE], PMGC0[PMIE]: prof::Sampler::arm).
template <class Ring>
bool pmu_fast_start(std::uint32_t period, Ring& ring, volatile std::uint32_t* folds) {
  static_assert(prof::kAssemblyFastRing<Ring>,
                "e500_pmu_fast writes a prof::SampleRing<256, prof::RingFull::keep_newest>");
  if (period == 0 || period > 0x8000'0000u) return false;
  e500::mtspr<e500::SPRG3>(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&ring)));
  e500::mtspr<e500::SPRG4>(period);
  e500::mtspr<e500::SPRG5>(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(folds)));
  return pmu_vector_start(&e500_pmu_fast);
}

// True under pmusim (tools/sim/), whose board answers the global utilities' system version
// register (SVR, CCSR + 0xE00A4) with "PMUS"; QEMU answers the core's SVR.
bool under_pmusim();

// MSR[EE]: gates external input, decrementer, fixed-interval timer and performance monitor interrupts.
inline void ee_enable() { e500::wrteei_1(); }
inline void ee_disable() { e500::wrteei_0(); }
inline bool ee_enabled() { return (e500::mfmsr() & e500::MSR_EE) != 0; }

// Clears MSR[EE] for its lifetime and restores the previous MSR[EE]; nests. The kit's guard, so
// the self-test checks on the emulator the very mask the profiler takes.
using CriticalSection = pmu::IrqGuard;

}  // namespace board
