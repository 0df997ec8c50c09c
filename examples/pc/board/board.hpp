#pragma once
// Board support for i386 firmware on QEMU's PC (`qemu-system-i386`, booted by QEMU's Multiboot 1
// loader; examples/pc/README.md), also the shape a Pentium 4 board would take.
//
// What the startup code (start.S) has done before main():
//   - its own flat GDT loaded (code 0x08, data 0x10), every segment register reloaded, a 64 KiB
//     stack, .bss zeroed, the IDT loaded (pc_idt_init), .init_array constructors run (they must not
//     print), interrupts off;
//   - every exception and the 8259s' and local APIC's vectors go to the board's dispatcher
//     (pc_trap_c): the PIT tick (IRQ 0, vector 32) to the tick callback, the local APIC's
//     performance-counter LVT (vector kPmiVector) to the PMU callback; #UD and #GP on rdmsr,
//     wrmsr or rdpmc through pmu_fault_catch() (resumed after the 2-byte instruction); anything
//     else prints what happened and exits with kExitFault.
#include <cstddef>
#include <cstdint>

#include "examples/common/console.hpp"
#include "hal/core/bus/irq.hpp"
#include "profiler/sampler.hpp"

extern "C" void pc_fast_sample();  // start.S
extern "C" void* pc_fast_ring;     // start.S: the ring pc_fast_sample records into
extern "C" void pc_pmu_fast();           // pmu_fast.S: the PMI's fast vector
extern "C" std::uint32_t pc_pmu_period;  // pmu_fast.S: its period
extern "C" std::uint32_t pc_pmu_lvt;     // pmu_fast.S: the LVT performance-counter entry's address
extern "C" volatile std::uint32_t* pc_pmu_folds;  // pmu_fast.S: the profiler's fold count

namespace board {

// Interrupt callback: `pc` is the interrupted EIP, `lr` the interrupted function's return address
// where its frame pointer shows one (the board builds with frame pointers), else 0.
using IrqHandler = void (*)(std::uint32_t pc, std::uint32_t lr);

// COM1 (16550 at I/O 0x3f8) set up, both 8259s remapped to vectors 32-47 and masked, the PIT
// quiet. Call first in main().
void init();

void putc(char c);
// Non-blocking output for the live stream (profiler/stream/drainer.hpp): while LSR.THRE says
// COM1's 16-byte transmit FIFO is empty (a 16550, FIFOs on), writes up to kTxBurst of the n bytes
// and returns how many; else returns 0 at once. try_putc: the same for one byte.
inline constexpr std::size_t kTxBurst = 16;
std::size_t try_write(const std::uint8_t* data, std::size_t n);
bool try_putc(char c);
inline constexpr examples::Console console{&putc};

// Prints "EXIT <code>" on its own line, then exits QEMU through the isa-debug-exit device at I/O
// 0xf4, which the board's QEMU arguments add: QEMU's exit status is then (code << 1) | 1, which the
// board's tests and scripts decode. code must be 0..127.
[[noreturn]] void exit(int code);
inline constexpr int kExitFail = 1;   // firmware-detected failure
inline constexpr int kExitFault = 3;  // unexpected exception (after the "<name> at" line)

// The time-stamp counter (rdtsc). Under QEMU's TCG it counts virtual nanoseconds, so under
// `-icount shift=0` one tick per instruction; on a Pentium 4 it counts core clocks.
std::uint64_t tsc();
inline constexpr std::uint64_t kQemuTscHz = 1'000'000'000u;

// The 8254 PIT's input clock (channel 0 drives IRQ 0).
inline constexpr std::uint32_t kPitHz = 1'193'182u;

// Periodic PIT channel 0 interrupt (mode 2) every `period_ticks` PIT ticks (2..65535); `on_tick`
// runs in each. Taken only while EFLAGS.IF is set (irq_enable).
void timer_start(std::uint16_t period_ticks, IrqHandler on_tick);
void timer_stop();

// From inside an interrupt callback: the interrupted ESP and EBP, for a stack capture
// (profiler/stack.hpp); the stack ends at stack_top().
void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp);
extern std::uint32_t g_irq_sp, g_irq_fp;  // the same ESP and EBP, read inline (the unwind example: no call in its tick)
std::uintptr_t stack_top();
std::uintptr_t stack_bottom();

// The PIT on another handler of IRQ 0 (IDT vector 32): an interrupt routine that sends the
// master 8259 its EOI and returns with iret. timer_stop() puts the board's dispatcher back.
void timer_vector_start(std::uint16_t period_ticks, void (*handler)());

// Fast PIT sampling: IRQ 0 straight to pc_fast_sample (start.S), which sends the EOI and records
// the interrupted EIP into `ring` with no frame and no call, 15 instructions from the gate to
// iret. x86 has no link register: the sample's lr is 0 (the dispatcher's frame-pointer walk is
// what this path leaves out).
template <class Ring>
void fast_sampling_start(std::uint16_t period_ticks, Ring& ring) {
  static_assert(prof::kAssemblyFastRing<Ring>,
                "pc_fast_sample writes a prof::SampleRing<256, prof::RingFull::keep_newest>");
  pc_fast_ring = &ring;
  timer_vector_start(period_ticks, &pc_fast_sample);
}

// The local APIC: its physical base from IA32_APIC_BASE, and whether CPUID says there is one.
bool has_apic();
std::uintptr_t apic_base();

// Routes the local APIC's performance-counter interrupt: `on_perf` runs for vector kPmiVector,
// followed by the APIC's EOI; the APIC is software-enabled (spurious vector 255). The PMU driver
// programs the LVT entry itself (its vector, its mask). false where there is no local APIC.
inline constexpr std::uint8_t kPmiVector = 240;
bool set_perf_handler(IrqHandler on_perf);

// The performance-counter interrupt (IDT vector kPmiVector) on another handler: an interrupt
// routine that clears the counter's OVF, unmasks the LVT entry, sends the APIC's EOI and returns with
// iret. The PMU driver programs the LVT entry (set_pmi_vector) as for set_perf_handler. false
// where there is no local APIC. pmi_vector_stop() puts the board's dispatcher back.
bool pmi_vector_start(void (*handler)());
void pmi_vector_stop();

// PMU overflow sampling's fast vector: the PMI straight to pc_pmu_fast (pmu_fast.S), which bumps
// *folds (prof::Profiler::fold_count_word), re-arms counter 0 by rewinding it `period` events (CCCR0's OVF cleared when that puts the next
// overflow ahead), unmasks the LVT entry, sends the EOI and records the interrupted EIP and its
// frame's return address into `ring`, with no frame and no call. The re-arms are the ring's head
// (prof::Profiler::count_rearms_in adds them to counter 0's value). Arm counter 0's interrupt
// first (its preset, OVF_PMI: prof::Sampler::arm). Shares pc_fast_ring with fast_sampling_start.
template <class Ring>
bool pmu_fast_start(std::uint32_t period, Ring& ring, volatile std::uint32_t* folds) {
  static_assert(prof::kAssemblyFastRing<Ring>,
                "pc_pmu_fast writes a prof::SampleRing<256, prof::RingFull::keep_newest>");
  pc_fast_ring = &ring;
  pc_pmu_period = period;
  pc_pmu_folds = folds;
  return pmi_vector_start(&pc_pmu_fast);
}

// Whether this runs under pmusim (tools/sim/): CPUID.1:ECX bit 31 (a hypervisor) and the signature
// "pmukitpmusim" in CPUID leaf 0x40000000. There the NetBurst PMU is the project's model and one
// clock is one instruction (pmusim's stated cost model).
bool under_pmusim();

// EFLAGS.IF (sti / cli).
void irq_enable();
void irq_disable();
bool irq_enabled();

// Clears EFLAGS.IF for its lifetime and restores it; nests. The kit's guard (hal/core/bus/irq.hpp).
using CriticalSection = pmu::IrqGuard;

}  // namespace board
