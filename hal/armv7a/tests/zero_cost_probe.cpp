// Zero-cost probe, ARMv7-A (Cortex-A15 class): the register engine and the armv7a driver on
// ArmCpBus against hand-written MRC/MCR (README.md: pairs, counting rule, gate).
//
// The read cost, per counter (hal/core/driver.hpp, the interrupt contract): PMCCNTR is one MRC;
// an event counter is select-then-access, MCR PMSELR, ISB, MRC PMXEVCNTR (three instructions).
// Descriptors: hal/armv7a/regs.hpp (ARM ARM ARMv7-A/R, B4.1); the hand side spells the CP15 c9
// encodings out from the same entries.
#include <cstdint>

#include "hal/armv7a/driver.hpp"
#include "hal/armv7a/regs.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/core/reg.hpp"
#include "bench/zero_cost/window.hpp"

#if !defined(__arm__) || defined(__thumb__) || __ARM_ARCH < 7
#error "the armv7a zero-cost probe is built for ARMv7-A in ARM state (-mcpu=cortex-a15 -marm)"
#endif

namespace {
using pmu::u32;
using Bus = pmu::Regs<pmu::ArmCpBus>;
using A15 = pmu::armv7a::CortexA15<pmu::ArmCpBus>;
namespace a = pmu::armv7a;
}  // namespace

#define HAND_MRC(crm, op2, v) asm volatile("mrc p15, 0, %0, c9, c" #crm ", " #op2 : "=r"(v) : : "memory")
#define HAND_MCR(crm, op2, v) asm volatile("mcr p15, 0, %0, c9, c" #crm ", " #op2 : : "r"(v) : "memory")
#define HAND_ISB() asm volatile("isb" ::: "memory")

extern "C" {

// --- driver_read_ccnt: A15::read<0>() = PMCCNTR (c9, c13, 0): one MRC ---
std::uint64_t ours_driver_read_ccnt() { return A15::read<0>(); }
std::uint64_t hand_driver_read_ccnt() {
  u32 v;
  HAND_MRC(13, 0, v);
  return v;
}

// --- driver_read_pmn2: A15::read<3>() = event counter 2: PMSELR = 2, ISB, PMXEVCNTR ---
std::uint64_t ours_driver_read_pmn2() { return A15::read<3>(); }
std::uint64_t hand_driver_read_pmn2() {
  u32 sel = 2, v;
  HAND_MCR(12, 5, sel);
  HAND_ISB();
  HAND_MRC(13, 2, v);
  return v;
}

// --- driver_write_pmn0: A15::write<1>(v): PMSELR = 0, ISB, PMXEVCNTR = v ---
void ours_driver_write_pmn0(u32 v) { A15::write<1>(v); }
void hand_driver_write_pmn0(u32 v) {
  u32 sel = 0;
  HAND_MCR(12, 5, sel);
  HAND_ISB();
  HAND_MCR(13, 2, v);
}

// --- driver_start: A15::start(slots 0, 1): PMCNTENSET = C | P0, then PMCR.E if clear ---
void ours_driver_start() { A15::start(0b11); }
void hand_driver_start() {
  u32 v = 0x80000001u, pmcr;
  HAND_MCR(12, 1, v);
  HAND_MRC(12, 0, pmcr);
  if (!(pmcr & 1u)) {
    pmcr = (pmcr & 0x38u) | 1u;  // writable bits kept, P and C written as 0, E set
    HAND_MCR(12, 0, pmcr);
  }
}

// --- driver_stop: A15::stop(slot 1): one PMCNTENCLR write ---
void ours_driver_stop() { A15::stop(0b10); }
void hand_driver_stop() {
  u32 v = 1u;
  HAND_MCR(12, 2, v);
}

// --- driver_overflow_status: PMOVSR rotated into slot order ---
u32 ours_driver_overflow_status() { return A15::overflow_status(); }
u32 hand_driver_overflow_status() {
  u32 v;
  HAND_MRC(12, 3, v);
  return ((v << 1) | (v >> 31)) & 0x7Fu;
}

// --- configure_pmn1: PMXEVTYPER of event counter 1 = INST_RETIRED (0x08) ---
void ours_configure_pmn1() { Bus::write(a::EvtCount<1>{}(a::event::INST_RETIRED)); }
void hand_configure_pmn1() {
  u32 sel = 1, v = 0x08;
  HAND_MCR(12, 5, sel);
  HAND_ISB();
  HAND_MCR(13, 1, v);
}

// --- reset_counters: PMCR P and C (a read-modify-write: E, D, X, DP kept) ---
void ours_reset_counters() { A15::reset_counters(); }
void hand_reset_counters() {
  u32 v;
  HAND_MRC(12, 0, v);
  v = (v & 0x39u) | 0x6u;
  HAND_MCR(12, 0, v);
}

}  // extern "C"

// Fast-region windows (check.py, "Windows"): slot 0 = PMCCNTR, gated; slots 0 and 1 (an event
// counter: its select and ISB sit in the window) reported. The PMU interrupt's common case for
// PMCCNTR: on_pmu_interrupt<0>, with the InterruptScope's PMSELR save and restore.
// Counter reads: PMCCNTR and PMXEVCNTR (MRC p15, 0, <Rt>, c9, c13, {0, 2}).
PMU_ZC_COUNTER_READ(R"(^mrc2? p?15, 0, R, cr9, cr13, \{[02]\})");
PMU_ZC_WINDOW(A15, 0)
PMU_ZC_WINDOW_CALL(A15, 0)
PMU_ZC_WINDOW_CALIBRATE(A15, 0)
PMU_ZC_WINDOW2(A15, 0, 1)
PMU_ZC_PMU_IRQ(A15, 0, 1)
