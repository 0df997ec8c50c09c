#pragma once
// A compiler barrier: no instruction, only an order the compiler keeps for memory accesses on
// either side. It is what the single-core producer/consumer rings and the fault window need (the
// interrupt runs on the same core). std::atomic_signal_fence means the same, but clang 14 lowers it
// to a call to __sync_synchronize on ARMv5 (XScale), which bare metal does not have.
#include <cstdint>

namespace pmu {

[[gnu::always_inline]] inline void compiler_barrier() { asm volatile("" ::: "memory"); }

// Only an order for instructions: GCC's schedulers move nothing across a volatile asm (it may use
// and clobber everything, as far as they know), and with no clobber the register allocator keeps
// every value where it was (a "memory" clobber would store a local that is not yet in registers).
[[gnu::always_inline]] inline void schedule_barrier() { asm volatile(""); }

// A use of v by a volatile asm (no instruction): the load or read that produced v stays before
// this point. A volatile load is not ordered against an empty asm by every pass: MIPS's delay-slot
// filler moves one past it into a following call's delay slot.
[[gnu::always_inline]] inline void keep_before(std::uint32_t v) { asm volatile("" : : "r"(v)); }

}  // namespace pmu

namespace pmu {

// No instruction either, but to the compiler a call, for registers: every register the ABI lets a
// callee clobber is written here. Code after it loads again what code after a real call loads (an
// operand held in a caller-saved register: rdpmc's index in ECX), so a sequence measured around
// nothing (a calibration) and around a call pays the same loads; and values live across it sit
// where they would across a call. Memory is not clobbered (a local would be stored to the stack
// for it): what lives in memory is forgotten by name (MmioBus::forget_base). A volatile asm, so a
// scheduling barrier too. Registers per ABI: AAPCS r0-r3, r12, lr (Procedure Call Standard for
// the ARM Architecture, 5.1.1); PowerPC r0, r3-r12, ctr, lr, xer, cr0, cr1, cr5-cr7 (System V ABI
// PowerPC Processor Supplement, Registers); MIPS o32 $2-$15, $24, $25, $31, hi, lo (System V ABI
// MIPS Processor Supplement, Registers: $1 is the assembler's own); i386 EAX, ECX, EDX (System V
// ABI Intel386 Supplement, Registers); x86-64 RAX, RCX, RDX, RSI, RDI, R8-R11 (System V AMD64 ABI,
// 3.2.1); elsewhere none.
[[gnu::always_inline]] inline void call_barrier() {
#if defined(__arm__)
  asm volatile("" ::: "cc", "r0", "r1", "r2", "r3", "r12", "lr");
#elif defined(__powerpc__) && !defined(__powerpc64__)
  asm volatile("" ::: "cc", "r0", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
               "r12", "ctr", "lr", "xer", "cr0", "cr1", "cr5", "cr6", "cr7");
#elif defined(__mips__) && _MIPS_SIM == _ABIO32
  asm volatile("" ::: "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10", "$11", "$12",
               "$13", "$14", "$15", "$24", "$25", "$31", "hi", "lo");
#elif defined(__i386__)
  asm volatile("" ::: "cc", "eax", "ecx", "edx");
#elif defined(__x86_64__)
  asm volatile("" ::: "cc", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
#else
  asm volatile("");
#endif
}

}  // namespace pmu
