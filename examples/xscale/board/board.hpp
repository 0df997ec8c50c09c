#pragma once
// Board support for the Intel PXA270 "mainstone" board (QEMU: -M mainstone -semihosting).
//
// What firmware gets after reset (board/startup.S): main() runs in SYS mode on its own stack with
// IRQ and FIQ masked, .bss zeroed and constructors run; main's return value becomes the exit status.
// Call board::init() first. Everything here is polled or interrupt driven, with no heap.
//
// Hardware facts and where they come from are listed at the top of board.cpp.
#include <cstddef>
#include <cstdint>

#include "examples/common/console.hpp"
#include "hal/core/bus/irq.hpp"

namespace board {

// ---- Output and exit ------------------------------------------------------------------------------

// Programs the FFUART (0x40100000) for 115200 8N1, masks every interrupt source and stops the OS timer
// channel this board uses. Call once, first.
void init();

// Polled output on the FFUART (QEMU -nographic shows it on stdout). No newline translation.
void putc(char c);
// Non-blocking output for the live stream (profiler/stream/drainer.hpp): while LSR.TDRQ says the
// transmit FIFO wants data (PXA27x manual ch. 10: 64 bytes, half or more empty; QEMU models a
// 16550 whose 16-byte FIFO is then empty), writes up to kTxBurst of the n bytes and returns how
// many; else returns 0 at once. try_putc: the same for one byte.
inline constexpr std::size_t kTxBurst = 16;
std::size_t try_write(const std::uint8_t* data, std::size_t n);
bool try_putc(char c);
void write(const char* s);

// Number formatting over putc (examples/common/console.hpp).
inline constexpr examples::Console console{&putc};

// Exit status conventions of this board (0 = pass).
inline constexpr int kExitFail = 1;                // firmware-detected failure
inline constexpr int kExitUndefinedInstruction = 3;
inline constexpr int kExitPrefetchAbort = 4;
inline constexpr int kExitDataAbort = 5;
inline constexpr int kExitUnexpectedSwi = 6;
inline constexpr int kExitUnexpectedFiq = 7;
inline constexpr int kExitReservedVector = 8;

// Ends the program through ARM semihosting SYS_EXIT_EXTENDED: QEMU's exit status is `code`. Masks
// interrupts and drains the UART first. Without -semihosting QEMU traps the SVC; the SWI handler then
// says so and halts (there is no other way out of the emulator).
[[noreturn]] void exit(int code);

// ---- CPU interrupt mask (CPSR I bit; ARMv5 has no CPS instruction) ----------------------------------

inline std::uint32_t cpsr() {
  std::uint32_t v;
  asm volatile("mrs %0, cpsr" : "=r"(v));
  return v;
}
// CPSR's I (0x80) and F (0x40) mask bits, read-modify-write of the control byte.
template <std::uint32_t Bit>
inline void cpsr_clear() {
  std::uint32_t tmp;
  asm volatile("mrs %0, cpsr\n\tbic %0, %0, %1\n\tmsr cpsr_c, %0" : "=&r"(tmp) : "I"(Bit) : "memory");
}
template <std::uint32_t Bit>
inline void cpsr_set() {
  std::uint32_t tmp;
  asm volatile("mrs %0, cpsr\n\torr %0, %0, %1\n\tmsr cpsr_c, %0" : "=&r"(tmp) : "I"(Bit) : "memory");
}
inline void irq_enable() { cpsr_clear<0x80>(); }
inline void irq_disable() { cpsr_set<0x80>(); }
inline bool irq_enabled() { return (cpsr() & 0x80u) == 0; }

// IRQ masked for the lifetime of the object; nests. The kit's guard (CPSR.I in firmware builds),
// so the self-test checks on the emulator the very mask the profiler takes.
using CriticalSection = pmu::IrqGuard;

// ---- OS timer: periodic tick and timebase ------------------------------------------------------------

// The PXA27x OS timer channels 0-3 count a fixed 3.25 MHz clock (PXA25x: 3.6864 MHz). Under
// `qemu -icount shift=0` one tick is 1e9/3.25e6 = ~307.7 guest instructions.
inline constexpr std::uint32_t kTimerHz = 3'250'000;
constexpr std::uint32_t timer_hz() { return kTimerHz; }

// Free-running OS timer count (OSCR0), kTimerHz ticks per second, wraps at 2^32 (~22 minutes).
std::uint32_t timebase();

// The tick callback: pc = the interrupted instruction (LR_irq - 4, where execution resumes); lr = the
// interrupted mode's own link register (SYS for main's code). LR is banked per mode, so the IRQ stub
// reads it by switching to the mode named in SPSR_irq (USR through SYS, which shares its bank) with
// IRQ and FIQ still masked, then switching back (vectors.S). The callback runs in IRQ mode on the IRQ
// stack with IRQ and FIQ masked; keep it short.
using TickFn = void (*)(std::uint32_t pc, std::uint32_t lr);

// Smallest accepted period: the handler needs this much headroom to re-arm the match register
// before the counter passes it (a missed match only recurs after a full 2^32 wrap).
inline constexpr std::uint32_t kMinPeriodTicks = 32;

// Calls on_tick every period_ticks OS timer ticks from OS timer match register 0 (interrupt source
// 26). Does not touch the CPSR: call irq_enable() to let the interrupt in. Returns false (and does
// nothing) if period_ticks < kMinPeriodTicks or on_tick is null. Restarting replaces the callback.
bool timer_start(std::uint32_t period_ticks, TickFn on_tick);
void timer_stop();
// Ticks delivered since the last timer_start().
std::uint32_t timer_ticks();

// From inside an IRQ callback (timer or PMU): the interrupted mode's stack pointer and r11, for a
// stack capture (profiler/stack.hpp). The stack that code runs on ends at stack_top().
void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp);
std::uintptr_t stack_top();

// ---- PMU interrupt -----------------------------------------------------------------------------------

// Calls on_pmu(pc, lr) (the TickFn conventions above) on each IRQ from the core PMU, interrupt
// controller primary source 12 on the PXA27x, routed to IRQ. Unmasks that source only; the PMU's own
// INTEN decides which overflows raise it, and the callback must clear the PMU's flags. Does not
// touch the CPSR. Returns false (and does nothing) if on_pmu is null. No emulator raises it but
// pmusim (tools/sim/): QEMU's PXA270 PMU never interrupts.
bool pmu_irq_start(TickFn on_pmu);
void pmu_irq_stop();

// ---- Fast interrupt (FIQ): timer sampling at the cost of a hand-written handler -------------------

// The FIQ vector jumps straight to FIQ mode's banked r8 (vectors.S), so the handler is chosen at run
// time without a dispatcher or a callback. A handler is an [[gnu::interrupt("FIQ")]] function: GCC
// saves what it uses of r0-r7 (r8-r12 are FIQ mode's own) and returns with the SPSR restored.
// Every other exception path of this board runs with FIQ masked (vectors.S), so a FIQ only ever
// interrupts SYS or USR code: fiq_interrupted_lr() is then always the interrupted code's LR. Time in
// the board's IRQ handler is charged to the instruction it interrupted (the usual skid of a masked
// region). The profiler's IrqGuard masks IRQ only: a FIQ handler must not touch the PMU, only the
// timer and a sample ring (whose producer side needs no lock).
using FiqHandler = void (*)();

// Installs h as the FIQ handler (nullptr: the fatal report). Takes effect at the next FIQ.
void fiq_set_handler(FiqHandler h);

inline void fiq_enable() { cpsr_clear<0x40>(); }
inline void fiq_disable() { cpsr_set<0x40>(); }

// Routes OS timer match 0 to FIQ (ICLR bit 26) with its first match period_ticks from now. The
// handler re-arms it with fiq_timer_rearm<period_ticks>(). Same period rule as timer_start(); the
// IRQ-routed tick and this one are exclusive (starting one stops the other's routing).
bool fiq_timer_start(std::uint32_t period_ticks);
void fiq_timer_stop();

// In the FIQ handler: next match PeriodTicks after now, then acknowledge (OSSR write-1-to-clear,
// PXA255 manual 4.4.2.5). Re-basing from OSCR0 never misses a match; the period stretches by the
// entry latency (well under a tick at 3.25 MHz).
template <std::uint32_t PeriodTicks>
inline void fiq_timer_rearm() {
  static_assert(PeriodTicks >= 32, "the OS timer period must leave the handler time to re-arm");
  auto* const ost = reinterpret_cast<volatile std::uint32_t*>(0x40A00000);  // OSMR0
  ost[0] = ost[4] + PeriodTicks;  // OSMR0 = OSCR0 (+0x10) + period
  ost[5] = 1;                     // OSSR (+0x14): clear M0
}

// In the FIQ handler: the interrupted SYS/USR code's LR, read from the user bank by STM's ^ form
// (ARM ARM A4.1.98, STM (2)): one store instead of two mode switches. Before ARMv6 the instruction
// after it must not touch a banked register, hence the NOP.
[[gnu::always_inline]] inline std::uint32_t fiq_interrupted_lr() {
  std::uint32_t lr;
  asm volatile("stmdb sp, {lr}^\n\tnop\n\tldr %0, [sp, #-4]" : "=r"(lr) : : "memory");
  return lr;
}

// In the FIQ handler: where the interrupted code resumes (GCC's FIQ entry has already taken 4 off
// LR_fiq, ARM ARM A2.6.7).
[[gnu::always_inline]] inline std::uint32_t fiq_interrupted_pc() {
  return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

// ---- PMU overflow straight into a ring (FIQ): sampling at the cost of a hand-written handler -------

// The PMU's interrupt (source 12) routed to FIQ, into handler h (nullptr: the board's fast vector,
// pmu_fast.S, which pmu_fast_start() set up). Every other exception path masks FIQ, and the
// profiler's IrqGuard masks IRQ only: while it is routed, the program may read the PMU (regions,
// read()) but must not program it (arm, disarm, start, stop): route it back first. Does not touch
// the CPSR's F bit: fiq_enable() lets it in. The fast timer FIQ and this one are exclusive.
bool pmu_fiq_start(FiqHandler h);
void pmu_fiq_stop();  // source 12 back to IRQ and masked; FIQ masked

// The fast vector (pmu_fast.S): CCNT's overflow bumps *folds (prof::Profiler::fold_count_word),
// rewinds CCNT by `period` (FLAG.C acknowledged when that puts the next overflow ahead), records
// the interrupted PC and LR into `ring`, a prof::SampleRing<256, keep_newest> (256 samples of 8
// bytes, then its head), and returns; the re-arms are the ring's head (prof::Profiler::
// count_rearms_in adds them to CCNT's value). Arm CCNT's interrupt (INTEN.C, its preset) first, as
// prof::Sampler::arm does. Routes it; then fiq_enable().
inline constexpr std::uint32_t kPmuFastRingSize = 256;
bool pmu_fast_start(void* ring, std::uint32_t period, volatile std::uint32_t* folds);

// Instructions one timer interrupt executes outside the callback, from the IRQ vector fetch to the
// return into the interrupted code: 18 in the entry stub (vectors.S: vector, FIQ mask, 15 to the call, the
// return) plus 37 in board_irq_dispatch as GCC 12 -O2 compiles it (it tail-calls the callback). A
// callback of k instructions makes one interrupt cost kIrqPathInstructions + k. Measured under QEMU
// -icount shift=0 with CCNT (44 before the PMU source was added to the dispatcher, 49 before the
// interrupted SP and r11 were kept for stack capture); the self-test fails if the figure goes
// stale. A sampling profiler can subtract it from counts.
inline constexpr std::uint32_t kIrqPathInstructions = 55;

}  // namespace board
