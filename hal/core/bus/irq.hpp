#pragma once
// Interrupt masking around a short critical section, per architecture: the one other place
// (besides the register buses) that needs inline asm. The profiler takes it where a sequence of
// register accesses must not be split by its own overflow interrupt (prof::Profiler::fold, stop).
//
//   { pmu::IrqGuard g;  ...  }   // interrupts masked inside, restored (not forced on) after
//
// ARM: CPSR.I (mrs/msr); Cortex-M: PRIMASK. PowerPC Book E: MSR[EE] (wrteei/wrtee). MIPS32r2: di/ei with ehb; MIPS IV:
// Status.IE by mfc0/mtc0 with the CP0 bus's write hazard (PMU_MIPS4_CP0_HAZARD_NOPS). x86:
// EFLAGS.IF (pushf/cli/popf).
// Which: the hardware mask in freestanding builds (firmware: -ffreestanding, as pmu_freestanding
// sets), a software mask in hosted builds (host tests, also under qemu-user, where the hardware
// instructions are privileged). PMU_IRQ_HARDWARE / PMU_IRQ_SOFTWARE override the choice. The
// software mask is what the model harness honours: an interrupt raised while masked is delivered
// when the mask is lifted, as on hardware.
#include <cstdint>

#include "hal/core/bus/cp0.hpp"  // PMU_MIPS4_CP0_HAZARD_NOPS

#if defined(PMU_IRQ_SOFTWARE) || (__STDC_HOSTED__ && !defined(PMU_IRQ_HARDWARE))
#define PMU_IRQ_SOFT 1
#else
#define PMU_IRQ_SOFT 0
#endif

namespace pmu {

namespace host_irq {
// Host builds only: whether interrupts are masked, and what to call when the mask is lifted.
inline unsigned masked = 0;
using Deferred = void (*)(void* context);
inline Deferred deferred = nullptr;
inline void* deferred_context = nullptr;
// An interrupt arrives: taken now (fn runs) unless masked, else when the mask is lifted.
inline void run_or_defer(Deferred fn, void* context) {
  if (masked) {
    deferred = fn;
    deferred_context = context;
  } else {
    fn(context);
  }
}
}  // namespace host_irq

struct IrqState {
  unsigned long saved;
};

inline IrqState irq_save() {
  unsigned long s;
#if PMU_IRQ_SOFT
  s = host_irq::masked;
  host_irq::masked = 1;
#elif defined(__arm__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
  // M profile (Cortex-M): no CPSR; PRIMASK masks every configurable-priority exception (ARMv7-M
  // ARM B1.4.3).
  asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(s) : : "memory");
#elif defined(__arm__)
  unsigned long t;
  asm volatile("mrs %0, cpsr\n\torr %1, %0, #0x80\n\tmsr cpsr_c, %1" : "=r"(s), "=r"(t) : : "memory");
#elif defined(__powerpc__)
  asm volatile("mfmsr %0\n\twrteei 0" : "=r"(s) : : "memory");
#elif defined(__mips__) && defined(__mips_isa_rev) && __mips_isa_rev >= 2
  asm volatile(".set push\n\t.set noreorder\n\tdi %0\n\tehb\n\t.set pop" : "=r"(s) : : "memory");
#elif defined(__mips__)
  unsigned long t;
  // MIPS IV: a nop after mfc0 (its result may be late on R4000-class pipelines), the CP0 write
  // hazard after mtc0 (hal/core/bus/cp0.hpp).
  asm volatile(".set push\n\t.set noreorder\n\tmfc0 %0, $12\n\tnop\n\tori %1, %0, 1\n\txori %1, %1, 1\n\t"
               "mtc0 %1, $12\n\t.rept %2\n\tnop\n\t.endr\n\t.set pop"
               : "=r"(s), "=r"(t) : "i"(PMU_MIPS4_CP0_HAZARD_NOPS) : "memory");
#elif defined(__i386__) || defined(__x86_64__)
  asm volatile("pushf\n\tpop %0\n\tcli" : "=r"(s) : : "memory");
#else
#error "pmu::irq_save: no interrupt mask for this architecture (define PMU_IRQ_SOFTWARE to use none)"
#endif
  return {s};
}

inline void irq_restore(IrqState st) {
#if PMU_IRQ_SOFT
  host_irq::masked = static_cast<unsigned>(st.saved);
  if (!host_irq::masked && host_irq::deferred) {
    const host_irq::Deferred fn = host_irq::deferred;
    host_irq::deferred = nullptr;
    fn(host_irq::deferred_context);
  }
#elif defined(__arm__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
  asm volatile("msr primask, %0" : : "r"(st.saved) : "memory");
#elif defined(__arm__)
  asm volatile("msr cpsr_c, %0" : : "r"(st.saved) : "memory");
#elif defined(__powerpc__)
  asm volatile("wrtee %0" : : "r"(st.saved) : "memory");
#elif defined(__mips__) && defined(__mips_isa_rev) && __mips_isa_rev >= 2
  if (st.saved & 1u) asm volatile(".set push\n\t.set noreorder\n\tei\n\tehb\n\t.set pop" : : : "memory");
#elif defined(__mips__)
  unsigned long t;
  asm volatile(".set push\n\t.set noreorder\n\tmfc0 %0, $12\n\tnop\n\tori %0, %0, 1\n\txori %0, %0, 1\n\t"
               "or %0, %0, %1\n\tmtc0 %0, $12\n\t.rept %2\n\tnop\n\t.endr\n\t.set pop"
               : "=&r"(t) : "r"(st.saved & 1u), "i"(PMU_MIPS4_CP0_HAZARD_NOPS) : "memory");
#elif defined(__i386__) || defined(__x86_64__)
  asm volatile("push %0\n\tpopf" : : "r"(st.saved) : "memory", "cc");
#endif
}

class IrqGuard {
 public:
  IrqGuard() : s_(irq_save()) {}
  ~IrqGuard() { irq_restore(s_); }
  IrqGuard(const IrqGuard&) = delete;
  IrqGuard& operator=(const IrqGuard&) = delete;

 private:
  IrqState s_;
};

}  // namespace pmu
