// Zero-cost probe, RM7000 (MIPS IV): the register engine on Cp0Bus (no sel; mtc0 followed by two
// nops for the CP0 write hazard) against hand-written mfc0/mtc0. Same rules as probe_xscale.cpp.
//
// PerfControl is CP0 $22, PerfCount CP0 $25 (RM7000 datasheet, performance counter section).
#include <cstdint>

#include "hal/core/bus/cp0.hpp"
#include "hal/core/reg.hpp"

#if !defined(__mips__) || (defined(__mips_isa_rev) && __mips_isa_rev >= 2)
#error "probe_rm7000.cpp is built for MIPS IV (-DPMU_MIPS_ARCH=rm7000)"
#endif

namespace {
using pmu::Access;
using pmu::Cp0;
using pmu::Field;
using pmu::Reg;
using pmu::u32;
using C0 = pmu::Regs<pmu::Cp0Bus>;
static_assert(!pmu::Cp0Bus::has_select);

// PerfControl: event 4:0, count in kernel 8, in user 9, count enable 10; 7:5 and 31:11 reserved
// (write zero).
using PERFCONTROL = Reg<"PerfControl", Cp0<22>, u32, pmu::Layout<u32>{.write_mask = 0x71F}>;
constexpr Field<PERFCONTROL, 0, 5, Access::RW, "Event"> perfcontrol_event{};
constexpr Field<PERFCONTROL, 8, 1, Access::RW, "Kernel"> perfcontrol_kernel{};
constexpr Field<PERFCONTROL, 9, 1, Access::RW, "User"> perfcontrol_user{};
constexpr Field<PERFCONTROL, 10, 1, Access::RW, "Enable"> perfcontrol_enable{};
// PerfCount: 32-bit counter; interrupt when bit 31 becomes set.
using PERFCOUNT = Reg<"PerfCount", Cp0<25>, u32>;
constexpr Field<PERFCOUNT, 31, 1, Access::RW, "Overflow"> perfcount_overflow{};
}  // namespace

#define HAND_MFC0(reg, v) asm volatile("mfc0 %0, $" #reg : "=r"(v) : : "memory")
#define HAND_MTC0(reg, v)                                                                    \
  asm volatile(".set push\n\t.set noreorder\n\tmtc0 %z0, $" #reg "\n\tnop\n\tnop\n\t.set pop" \
               :                                                                            \
               : "dJ"(v)                                                                    \
               : "memory")

extern "C" {

// --- read_raw: PerfCount ---
u32 ours_read_raw() { return C0::read_raw<PERFCOUNT>(); }
u32 hand_read_raw() {
  u32 v;
  HAND_MFC0(25, v);
  return v;
}

// --- read_snapshot: PerfControl, Event and Enable from one read ---
u32 ours_read_snapshot() {
  const auto s = C0::read<PERFCONTROL>();
  return s.get(perfcontrol_event) + s.get(perfcontrol_enable);
}
u32 hand_read_snapshot() {
  u32 v;
  HAND_MFC0(22, v);
  return (v & 0x1Fu) + ((v >> 10) & 1u);
}

// --- read_field: PerfCount overflow bit ---
u32 ours_read_field() { return C0::read(perfcount_overflow); }
u32 hand_read_field() {
  u32 v;
  HAND_MFC0(25, v);
  return v >> 31;
}

// --- write_const: PerfControl = event 0x0B (I-cache misses), kernel + user, enabled ---
void ours_write_const() {
  C0::write(perfcontrol_event.val<0x0B>(), perfcontrol_kernel(1), perfcontrol_user(1),
            perfcontrol_enable(1));
}
void hand_write_const() {
  const u32 v = 0x0Bu | (1u << 8) | (1u << 9) | (1u << 10);
  HAND_MTC0(22, v);
}

// --- write_raw: PerfCount = v (e.g. a sampling preset 0x80000000 - N) ---
void ours_write_raw(u32 v) { C0::write_raw<PERFCOUNT>(v); }
void hand_write_raw(u32 v) { HAND_MTC0(25, v); }

// --- modify: PerfControl: stop counting (Enable = 0) and drop user mode, rest kept ---
void ours_modify() { C0::modify(perfcontrol_enable(0), perfcontrol_user(0)); }
void hand_modify() {
  u32 v;
  HAND_MFC0(22, v);
  v = (v & ~0x600u) & 0x71Fu;
  HAND_MTC0(22, v);
}

// --- modify_runtime: PerfControl.Event = run-time event (already masked by the caller) ---
void ours_modify_runtime(u32 ev) { C0::modify(perfcontrol_event.runtime(ev & 0x1Fu)); }
void hand_modify_runtime(u32 ev) {
  u32 v;
  HAND_MFC0(22, v);
  v = ((v & ~0x1Fu) | (ev & 0x1Fu)) & 0x71Fu;
  HAND_MTC0(22, v);
}

// (w1c: the RM7000 performance counter has no write-1-to-clear register.)

// --- info_write_unchecked (not gated): run-time value of unknown range into the 5-bit Event ---
void ours_info_write_unchecked(u32 ev) { C0::write(perfcontrol_event.runtime(ev)); }
void hand_info_write_unchecked(u32 ev) {
  const u32 v = ev & 0x1Fu;
  HAND_MTC0(22, v);
}

}  // extern "C"
