// Zero-cost probe, NetBurst (Pentium 4, i686): the register engine on MsrBus against hand-written
// rdmsr/wrmsr with the MSR address as an ECX immediate, rdpmc with the counter index, and rdtsc.
// Same rules as hal/xscale/tests/zero_cost_probe.cpp. wrmsr is serializing (SDM Vol. 2B), so neither side adds a barrier.
//
// MSR addresses and bits: Intel SDM Vol. 3B, NetBurst performance monitoring (chapter 18) and Appendix B: BPU_COUNTER0 0x300,
// BPU_CCCR0 0x360, BSU_ESCR0 0x3A0. Counters are 40 bits; reserved MSR bits are written as zero
// (a non-zero reserved bit makes wrmsr raise #GP), so both sides mask.
#include <cstdint>

#include "bench/zero_cost/window.hpp"
#include "hal/core/bus/msr.hpp"
#include "hal/core/reg.hpp"
#include "hal/netburst/driver.hpp"

#if !defined(__i386__)
#error "the netburst zero-cost probe is built for i686 only"
#endif

namespace {
using pmu::Access;
using pmu::Field;
using pmu::Msr;
using pmu::Reg;
using pmu::u32;
using pmu::u64;
using Bus = pmu::Regs<pmu::MsrBus>;

// BPU_COUNTER0: 40-bit counter in a 64-bit MSR.
using COUNTER0 = Reg<"BPU_COUNTER0", Msr<0x300>, u64, pmu::Layout<u64>{.write_mask = 0xFFFFFFFFFFull}>;
constexpr Field<COUNTER0, 0, 40, Access::RW, "count"> counter_count{};
constexpr Field<COUNTER0, 39, 1, Access::RW, "bit39"> counter_bit39{};
// BPU_CCCR0: bits 11:0, 29:28 and 63:32 reserved.
using CCCR0 = Reg<"BPU_CCCR0", Msr<0x360>, u64, pmu::Layout<u64>{.write_mask = 0xCFFFF000ull}>;
constexpr Field<CCCR0, 31, 1, Access::RW, "OVF"> cccr_ovf{};
constexpr Field<CCCR0, 26, 1, Access::RW, "OVF_PMI_T0"> cccr_ovf_pmi_t0{};
constexpr Field<CCCR0, 16, 2, Access::RW, "ACTIVE_THREAD"> cccr_active_thread{};
constexpr Field<CCCR0, 13, 3, Access::RW, "ESCR_SELECT"> cccr_escr_select{};
constexpr Field<CCCR0, 12, 1, Access::RW, "ENABLE"> cccr_enable{};
// BSU_ESCR0: bit 31 and 63:32 reserved.
using ESCR0 = Reg<"BSU_ESCR0", Msr<0x3A0>, u64, pmu::Layout<u64>{.write_mask = 0x7FFFFFFFull}>;
constexpr Field<ESCR0, 25, 6, Access::RW, "event_select"> escr_event_select{};
constexpr Field<ESCR0, 9, 16, Access::RW, "event_mask"> escr_event_mask{};
constexpr Field<ESCR0, 3, 1, Access::RW, "T0_OS"> escr_t0_os{};
constexpr Field<ESCR0, 2, 1, Access::RW, "T0_USR"> escr_t0_usr{};

// EDX:EAX reads as one 64-bit value ("=A"): how i386 code writes them by hand.
inline u64 hand_rdmsr(u32 msr) {
  u64 v;
  asm volatile("rdmsr" : "=A"(v) : "c"(msr) : "memory");
  return v;
}
inline void hand_wrmsr(u32 msr, u64 v) {
  asm volatile("wrmsr"
               :
               : "c"(msr), "a"(static_cast<u32>(v)), "d"(static_cast<u32>(v >> 32))
               : "memory");
}
inline u64 hand_rdpmc_inline(u32 index) {
  u64 v;
  asm volatile("rdpmc" : "=A"(v) : "c"(index) : "memory");
  return v;
}
// A CCCR update that keeps an overflow landing between its rdmsr and its wrmsr: the counter read
// by rdpmc around it, OVF written again when bit 39 went from 1 to 0 (a wrap); where the value read
// had OVF, the value written has it already and the second write changes nothing (IQ_CCCR0, MSR
// 0x36C; IQ_COUNTER0, rdpmc 12). In 32-bit words, as by hand: CCCR bits 63:32 are reserved and
// bit 39 is in the counter's high word.
inline void hand_update_iq_cccr0(u32 clear, u32 set) {
  const u32 before = static_cast<u32>(hand_rdpmc_inline(12) >> 32);
  const u32 c = static_cast<u32>(hand_rdmsr(0x36C));
  const u32 v = ((c & ~clear) | set) & 0xCFFFF000u;
  hand_wrmsr(0x36C, v);
  if ((before & ~static_cast<u32>(hand_rdpmc_inline(12) >> 32)) >> 7 & 1u) hand_wrmsr(0x36C, v | 0x80000000u);
}
}  // namespace

extern "C" {

// --- read_raw: BPU_COUNTER0, whole 64-bit value ---
u64 ours_read_raw() { return Bus::read_raw<COUNTER0>(); }
u64 hand_read_raw() { return hand_rdmsr(0x300); }

// --- read_field: the 40-bit count ---
u64 ours_read_field() { return Bus::read(counter_count); }
u64 hand_read_field() { return hand_rdmsr(0x300) & 0xFFFFFFFFFFull; }

// --- read_field_hi: bit 39 (an overflow with OVF unset shows as bit 39 cleared) ---
u32 ours_read_field_hi() { return static_cast<u32>(Bus::read(counter_bit39)); }
u32 hand_read_field_hi() { return static_cast<u32>(hand_rdmsr(0x300) >> 39) & 1u; }

// --- read_snapshot: BPU_CCCR0, OVF and ENABLE from one read ---
u32 ours_read_snapshot() {
  const auto s = Bus::read<CCCR0>();
  return static_cast<u32>(s.get(cccr_ovf) + s.get(cccr_enable));
}
u32 hand_read_snapshot() {
  const u64 v = hand_rdmsr(0x360);
  return static_cast<u32>(((v >> 31) & 1u) + ((v >> 12) & 1u));
}

// --- write_const: BPU_CCCR0 = ENABLE, ESCR_SELECT 7, ACTIVE_THREAD 3, PMI on overflow ---
void ours_write_const() {
  Bus::write(cccr_enable(1), cccr_escr_select.val<7>(), cccr_active_thread.val<3>(),
             cccr_ovf_pmi_t0(1));
}
void hand_write_const() { hand_wrmsr(0x360, (1u << 12) | (7u << 13) | (3u << 16) | (1u << 26)); }

// --- write_runtime: BSU_ESCR0 = event 0x06 with a run-time 16-bit event mask, T0 OS + USR ---
void ours_write_runtime(std::uint16_t mask) {
  Bus::write(escr_event_select.val<0x06>(), escr_event_mask.runtime(mask), escr_t0_os(1), escr_t0_usr(1));
}
void hand_write_runtime(std::uint16_t mask) {
  hand_wrmsr(0x3A0, (0x06ull << 25) | (static_cast<u64>(mask) << 9) | (1u << 3) | (1u << 2));
}

// --- write_raw: BPU_COUNTER0 = v (40 bits, e.g. -N to interrupt after N events) ---
void ours_write_raw(u64 v) { Bus::write_raw<COUNTER0>(v); }
void hand_write_raw(u64 v) { hand_wrmsr(0x300, v & 0xFFFFFFFFFFull); }

// --- modify: BPU_CCCR0: clear OVF (sticky; cleared by writing 0) and ENABLE = 1, rest kept ---
void ours_modify() { Bus::modify(cccr_ovf(0), cccr_enable(1)); }
void hand_modify() {
  u64 v = hand_rdmsr(0x360);
  v = ((v & ~0x80001000ull) | 0x1000ull) & 0xCFFFF000ull;
  hand_wrmsr(0x360, v);
}

// (w1c: NetBurst has no write-1-to-clear MSR bits; OVF is cleared by writing 0.)

// --- rdpmc: the bus helper against the hand-written instruction ---
u64 ours_rdpmc(u32 index) { return pmu::PmcBus::rdpmc(index); }
u64 hand_rdpmc(u32 index) {
  u64 v;
  asm volatile("rdpmc" : "=A"(v) : "c"(index) : "memory");
  return v;
}

// --- rdtsc ---
u64 ours_rdtsc() { return pmu::MsrBus::rdtsc(); }
u64 hand_rdtsc() {
  u64 v;
  asm volatile("rdtsc" : "=A"(v) : : "memory");
  return v;
}

// ---------------- the NetBurst driver (hal/netburst/driver.hpp) ----------------
using Driver = pmu::netburst::Driver<pmu::netburst::HwBus>;

// --- driver_read: Driver::read<12>() (IQ_COUNTER0), one rdpmc with ECX = 12 ---
u64 ours_driver_read() { return Driver::read<12>(); }
u64 hand_driver_read() {
  u64 v;
  asm volatile("rdpmc" : "=A"(v) : "c"(12u) : "memory");
  return v;
}

// --- driver_read_msr: the rdmsr read path (CounterRead::rdmsr), one rdmsr of MSR 0x30C ---
using DriverMsr = pmu::netburst::Driver<pmu::netburst::HwBus, pmu::netburst::CounterRead::rdmsr>;
u64 ours_driver_read_msr() { return DriverMsr::read<12>(); }
u64 hand_driver_read_msr() { return hand_rdmsr(0x30C); }

// --- driver_write: Driver::write<12>(v): two wrmsr of the 40-bit value (erratum N15) ---
void ours_driver_write(u64 v) { Driver::write<12>(v & 0xFFFFFFFFFFull); }
void hand_driver_write(u64 v) {
  v &= 0xFFFFFFFFFFull;
  hand_wrmsr(0x30C, v);
  hand_wrmsr(0x30C, v);
}

// --- driver_start: Driver::start(1 << 12): IQ_CCCR0.ENABLE (CASCADE instead for a cascade's high
// counter, a run-time choice), overflow kept ---
void ours_driver_start() { Driver::start(1u << 12); }
void hand_driver_start() {
  hand_update_iq_cccr0(0, (Driver::cascades() >> 12 & 1u) ? 0x40000000u : 0x1000u);
}

// --- driver_stop: Driver::stop(1 << 12): ENABLE and CASCADE cleared, overflow kept ---
void ours_driver_stop() { Driver::stop(1u << 12); }
void hand_driver_stop() { hand_update_iq_cccr0(0x40001000u, 0); }

// --- info_write_unchecked (not gated): run-time value of unknown range into the 6-bit select ---
void ours_info_write_unchecked(u32 ev) { Bus::write(escr_event_select.runtime(ev)); }
void hand_info_write_unchecked(u32 ev) { hand_wrmsr(0x3A0, static_cast<u64>(ev & 0x3Fu) << 25); }

}  // extern "C"

// Fast-region windows (check.py, "Windows"): rdpmc ECX = 12, 13 (IQ counters).
// Counter reads: rdpmc (rdmsr where a counter is read as its MSR). The window's gate is 3: rdpmc
// takes its index in ECX, which a call may clobber (System V i386 ABI), so the second read loads
// it again after any body; the window calibrated and gated includes that load.
PMU_ZC_COUNTER_READ(R"(^(rdpmc|rdmsr))");
PMU_ZC_WINDOW_LIMIT(3);
PMU_ZC_WINDOW(Driver, 12)
PMU_ZC_WINDOW_REGION(Driver)
PMU_ZC_WINDOW_REGION_N(Driver, 2)
PMU_ZC_WINDOW_REGION_N(Driver, 3)
PMU_ZC_WINDOW_RUN_REGION(Driver, 4)
PMU_ZC_WINDOW_CALL(Driver, 12)
PMU_ZC_WINDOW_CALIBRATE(Driver, 12)
PMU_ZC_WINDOW2(Driver, 12, 13)
PMU_ZC_PMU_IRQ(Driver, 0, 2)  // 2: the common case, and whether the driver owns the LVT entry
