#pragma once
// A compiler barrier: no instruction, only an order the compiler keeps for memory accesses on
// either side. It is what the single-core producer/consumer rings and the fault window need (the
// interrupt runs on the same core). std::atomic_signal_fence means the same, but clang 14 lowers it
// to a call to __sync_synchronize on ARMv5 (XScale), which bare metal does not have.
namespace pmu {

[[gnu::always_inline]] inline void compiler_barrier() { asm volatile("" ::: "memory"); }

}  // namespace pmu
