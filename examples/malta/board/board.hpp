#pragma once
// Board support for MIPS firmware on QEMU's Malta board:
//   CPS builds (-march=mips32r2): qemu-system-mips -M malta -cpu P5600 -smp 2 (a cluster with a
//   Coherence Manager; start.S parks every VP but VP 0)
//   RM7000 builds (-march=rm7000, MIPS IV): qemu-system-mips64 -M malta -cpu 5Kc
//   (the 5Kc is a MIPS64 core, a superset of MIPS IV, so it runs -march=rm7000 code, the RM7000's
//   `mul` included, whose encoding MIPS32/64 kept; QEMU has no RM7000 and none of its CPUs has the
//   RM7000's performance counter).
//
// What the startup code (start.S) has done before main():
//   - Status = CU0 only (kernel mode, interrupts off, BEV = 0, ERL/EXL clear), Cause = 0;
//   - the general exception vector (0x80000180) jumps to the board's handler: timer interrupts
//     (Count/Compare, IP7) go to the tick callback, the RM7000's performance counter interrupt
//     (IP13) to the PMU callback, reserved-instruction, coprocessor-unusable and data bus error
//     exceptions through pmu_fault_catch(); anything else prints what happened and exits with kExitFault;
//   - stack, .bss zeroed, .init_array constructors run (constructors must not print).
#include <cstddef>
#include <cstdint>

#include "examples/common/console.hpp"
#include "hal/core/bus/irq.hpp"
#include "profiler/sampler.hpp"

namespace board {

// Interrupt callback: `pc` is the interrupted instruction (EPC), `lr` the interrupted $ra. Runs
// with Status.EXL set (interrupts masked): keep it short.
using IrqHandler = void (*)(std::uint32_t pc, std::uint32_t lr);

// UART (the Malta's 16550 at ISA I/O 0x3f8) set up; timer quiet. Call first in main().
void init();

void putc(char c);
// Non-blocking output for the live stream (profiler/stream/drainer.hpp): while LSR.THRE says the
// 16550's 16-byte transmit FIFO is empty (FIFOs on), writes up to kTxBurst of the n bytes and
// returns how many; else returns 0 at once. try_putc: the same for one byte.
inline constexpr std::size_t kTxBurst = 16;
std::size_t try_write(const std::uint8_t* data, std::size_t n);
bool try_putc(char c);
inline constexpr examples::Console console{&putc};

// Prints "EXIT <code>" on its own line, then exits QEMU with that status (UHI exit under
// -semihosting, which the board's QEMU arguments give).
[[noreturn]] void exit(int code);
inline constexpr int kExitFail = 1;   // firmware-detected failure
inline constexpr int kExitFault = 3;  // unexpected exception (after the "<name> at" line)

// CP0 Count: a 32-bit counter at half the pipeline clock on MIPS32 cores and R4000-class cores
// alike. QEMU 7.2's Malta clocks its CPU at 333.33 MHz and Count at half that: one tick every
// 6 ns of virtual time (hw/mips/malta.c, target/mips/cpu.c; measured here: 20006 instructions under
// `-icount shift=0`, one instruction per nanosecond, read 3334 ticks). On silicon Count runs at
// half the core clock: take the rate from the board. Under pmusim (tools/sim/), whose pipeline
// clock is one per instruction, Count ticks once per two instructions: three times kCountHz.
std::uint32_t count();
inline constexpr std::uint32_t kCountNs = 6;
inline constexpr std::uint32_t kCountHz = 1'000'000'000u / kCountNs;  // 166'666'666

// PRId, CP0 register 15.
std::uint32_t prid();

// Periodic Count/Compare interrupt (IP7) every `period_ticks` Count ticks; `on_tick` runs in each.
// Taken only while Status.IE is set (irq_enable). period_ticks must be non-zero.
void timer_start(std::uint32_t period_ticks, IrqHandler on_tick);
void timer_stop();

// From inside an exception callback: the interrupted $sp (and 0: $fp is not kept), for a stack
// capture (profiler/stack.hpp); the stack ends at stack_top().
void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp);
extern std::uint32_t g_irq_sp;  // the same $sp, read inline (the unwind example: no call in its tick)
std::uintptr_t stack_top();

// The general exception vector (0x80000180) rewritten with a handler image (position-independent
// words from `image` to `image_end`, at most kVectorImageWords, run in place) and the timer started
// every `period_ticks` with its IM7; the image takes every exception first, so it must handle the
// timer (write Compare) and jump to malta_exception for anything else. false (nothing changed) for
// an image too long or a period of 0. timer_stop() and timer_start() put the board's vector back.
// On silicon the copy is written back from the D-cache and the I-cache lines invalidated (synci on
// MIPS32r2, CACHE Hit_Writeback_Inv_D / Hit_Invalidate_I on MIPS IV); QEMU has no caches, so that
// part is untested.
// 0x180 .. 0x280: past 0x200, where Cause.IV = 1 would vector; start.S keeps IV = 0, and the
// first MiB below the image holds nothing else there (malta.ld).
inline constexpr unsigned kVectorImageWords = 64;
bool timer_vector_start(std::uint32_t period_ticks, const std::uint32_t* image, const std::uint32_t* image_end);

}  // namespace board

extern "C" {
extern const std::uint32_t malta_fast_vector[], malta_fast_vector_end[];  // start.S
extern void* volatile malta_fast_ring;
extern volatile std::uint32_t malta_fast_period;
// The fast PMU vectors (start.S), one per image's ISA, and what they read.
extern const std::uint32_t malta_fast_pmu_vector_cm[], malta_fast_pmu_vector_cm_end[];
extern const std::uint32_t malta_fast_pmu_vector_rm7000[], malta_fast_pmu_vector_rm7000_end[];
// One %hi reaches all three words (16-byte aligned); start.S's PMU_* offsets.
struct alignas(16) MaltaFastPmuState {
  volatile std::uint32_t counter;  // CM: PC_CYCLE's uncached address
  volatile std::uint32_t period;
  volatile std::uint32_t* volatile folds;  // prof::Profiler::fold_count_word
};
static_assert(offsetof(MaltaFastPmuState, period) == 4 && offsetof(MaltaFastPmuState, folds) == 8);
extern MaltaFastPmuState malta_fast_pmu_state;
}

namespace board {

// Fast timer sampling: the vector runs malta_fast_vector (start.S) in place, which checks Cause for
// the timer alone (anything else goes to the board's handler), re-arms Compare one period from
// Count and records EPC (the interrupted instruction, or the branch when it sat in a delay slot)
// and $ra into `ring`, with no frame and no call, k0 and k1 only: 22 instructions from the vector
// to eret, one more for an interrupt taken on a delay slot (the branch runs again after eret).
// period_ticks as timer_start().
template <class Ring>
bool fast_sampling_start(std::uint32_t period_ticks, Ring& ring) {
  static_assert(prof::kAssemblyFastRing<Ring>,
                "malta_fast_vector writes a prof::SampleRing<256, prof::RingFull::keep_newest>");
  malta_fast_ring = &ring;
  malta_fast_period = period_ticks;
  return timer_vector_start(period_ticks, malta_fast_vector, malta_fast_vector_end);
}

// The general exception vector rewritten with a PMU overflow handler image (as timer_vector_start:
// position-independent words, at most kVectorImageWords, run in place; the image must jump to
// malta_exception for anything but the PMU's interrupt) and the PMU's line unmasked where Status
// masks it: CM_PCInt's Status.IM6 (pmusim's wiring, set_cm_pcint_handler). The RM7000's IP13 is
// masked by Interrupt Control IM13 alone, which the driver's set_overflow_interrupt owns. The timer
// is stopped first. false (nothing changed) for an image too long. pmu_vector_stop() puts the
// board's vector and Status.IM6 back.
bool pmu_vector_start(const std::uint32_t* image, const std::uint32_t* image_end);
void pmu_vector_stop();

// Fast PMU overflow sampling: the vector runs this ISA's malta_fast_pmu_vector_* (start.S) in
// place: the Cause check for the PMU's interrupt alone, *folds + 1 (prof::Profiler::
// fold_count_word: a read it interrupted retries), the acknowledge and the rewind of the sampled
// counter by `period` (slot 0: PC_CYCLE on the CM, whose uncached address is `counter_address`;
// PerfCount on the RM7000, counter_address unused), EPC and $ra into `ring`, k0 and k1 only (29
// instructions on the RM7000, 32 on the CM, vector to eret). The counter must already be armed
// (preset, interrupt enabled: Sampler::arm). The re-arms are the ring's head: prof::Profiler::
// count_rearms_in adds head x period to the counter's value. period in 64..2^31 (its rewind's bit
// 31 says ahead).
template <class Ring>
bool fast_pmu_sampling_start(std::uint32_t period, std::uintptr_t counter_address, Ring& ring,
                             volatile std::uint32_t* folds) {
  static_assert(prof::kAssemblyFastRing<Ring>,
                "malta_fast_pmu_vector_* write a prof::SampleRing<256, prof::RingFull::keep_newest>");
  if (period < 64 || period > 0x80000000u || folds == nullptr) return false;
  malta_fast_ring = &ring;
  malta_fast_pmu_state.period = period;
  malta_fast_pmu_state.counter = static_cast<std::uint32_t>(counter_address);
  malta_fast_pmu_state.folds = folds;
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
  return pmu_vector_start(malta_fast_pmu_vector_cm, malta_fast_pmu_vector_cm_end);
#else
  return pmu_vector_start(malta_fast_pmu_vector_rm7000, malta_fast_pmu_vector_rm7000_end);
#endif
}

// The RM7000's performance counter interrupt (IP13, Cause bit 21 in the RM7000's Cause layout).
// The handler must clear PerfCount bit 31 or it is taken again at once. Routed only on a core
// whose PRId says RM7000: returns false elsewhere (on QEMU always), and IP13 is then never looked at.
bool set_perf_handler(IrqHandler on_perf);

// The Coherence Manager's CM_PCInt, where this board has it wired: pmusim's Malta (tools/sim/) wires
// it to hardware interrupt 4 (Cause.IP6, Status.IM6); QEMU's Malta has no wiring for it. Returns
// false (and routes nothing) where it is not wired. The handler must clear the CM's overflow bits
// (the level drops with them) or it is taken again at once.
bool set_cm_pcint_handler(IrqHandler on_pcint);
inline constexpr int kCmPcintSource = 4;  // hardware interrupt 4, for Driver::set_pcint_source

// The Malta REVISION register (physical 0x1FC00010; QEMU reads 0x00000420 there, CoreLV). pmusim's
// Malta (tools/sim/) reads "PMUS" (0x504D5553): there the RM7000 counter is the project's model and
// one clock is one instruction.
std::uint32_t revision();
inline bool under_pmusim() { return revision() == 0x504D5553u; }

// The CPS's second VP (MIPS32r2 builds on the P5600 cluster; QEMU -smp 2, pmusim's CM machine):
// cpu() is this VP's EBase.CPUNum (0 on MIPS IV); start_vp1 places the Cluster Power Controller at
// kCpcPhys through GCR_CPC_BASE and releases VP 1 from reset (VP_RUN); VP 1 then runs `entry` on
// the stack ending at `stack_top` with interrupts off (start.S), and must never return. true once
// VP_RUNNING shows VP 1. The timer (timer_start/timer_stop) is per VP: each has its own Count and
// Compare. Everything else of the board is shared: one console, one vector. Untested on silicon.
inline constexpr unsigned kMaxVps = 2;
inline constexpr std::uint32_t kGcrPhys = 0x1FBF8000u;  // QEMU's Malta (CMGCRBase reads it)
inline constexpr std::uint32_t kCpcPhys = 0x1BDE0000u;  // where start_vp1 puts the CPC
unsigned cpu();
bool start_vp1(void (*entry)(), std::uintptr_t stack_top);

// Status.IE.
void irq_enable();
void irq_disable();
bool irq_enabled();

// Clears Status.IE for its lifetime and restores it; nests. The kit's guard (hal/core/bus/irq.hpp).
using CriticalSection = pmu::IrqGuard;

}  // namespace board
