#pragma once
// NetBurst (Pentium 4) performance monitoring driver, templated on the bus: on silicon
// pmu::netburst::HwBus (MSRs, CPUID, the local APIC's MMIO; the kit's composite bus), in host tests
// a MockBus with hal/netburst/model.hpp. Static members only; no asm, no heap.
//
// Slot map: slot n = counter n (MSR 0x300 + n, CCCR 0x360 + n), 0..17. Counter 1 (BPU_COUNTER1) is
//   never used: its enable is unreliable (Linux's P4 driver, "counter 1 is broken (erratum)").
// Width: 40 (the counters are 40 bits and wrap to 0, setting the CCCR's sticky OVF).
// Link: cascade (SDM 18.15.5.6): counter hi starts when its partner lo overflows. Pairs:
//   0<->2, 1<->3 in each block of four (BPU 0-3, MS 4-7, FLAME 8-11, IQ 12-15), and 14->16,
//   15->17 (16 and 17 cascade only from 14 and 15, never into them). Counter 1 takes no part.
//
// EventConfig for this PMU (encode.hpp turns an event string into one):
//   code      = row of kEvents (events.hpp)
//   qualifier = the ESCR event mask (16 bits; only the event's named bits); 0 = the event's
//               zero_qualifier_mask (events.hpp), bad_argument for an event that has none
//   options   = kOptOs | kOptUsr (0: both), kOptEdge, kOptComplement, threshold << kOptThresholdShift,
//               tag value << kOptTagShift (execution tagging events only)
//
// Configuration state (which ESCR each counter uses, its CCCR set-up, the cascade pairs) is kept
// here, written by probe/reset/configure/link in thread context and only read by the functions
// the overflow handler calls.
#include <cstdint>
#include <type_traits>

#include "hal/core/bus/composite.hpp"
#include "hal/core/bus/cpuid.hpp"
#include "hal/core/bus/irq.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/core/bus/msr.hpp"
#include "hal/core/driver.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"
#include "hal/netburst/encode.hpp"
#include "hal/netburst/events.hpp"
#include "hal/netburst/regs.hpp"

namespace pmu::netburst {

struct ApicTag;
using ApicBase = RuntimeBase<ApicTag>;  // the local APIC's MMIO base (set_apic_base; 0xFEE00000)
using HwBus = CompositeBus<MsrBus, PmcBus, CpuidBus, MmioBus<ApicBase>>;

// How the driver reads a counter. rdpmc (the default): allowed at CPL 0 always and elsewhere while
// CR4.PCE is set (SDM Vol. 2B, RDPMC). rdmsr of the counter's
// MSR: for an environment that intercepts rdpmc but passes the MSRs through. Either way the probe
// reads with it, so a path that faults makes the PMU absent rather than a later read wrong.
enum class CounterRead : std::uint8_t { rdpmc, rdmsr };
template <CounterRead Read>
using CounterReadRegs = std::conditional_t<Read == CounterRead::rdpmc, CounterPmcRegs, CounterRegs>;

using CPUID0_EBX = Reg<"CPUID.0:EBX", Cpuid<0, 1>, u32, Layout<u32>{Access::RO, 0, 0, 0}>;  // "Genu"
inline constexpr u32 kGenu = 0x756E6547u;
using CPUID1_EAX = Reg<"CPUID.1:EAX", Cpuid<1, 0>, u32, Layout<u32>{Access::RO, 0, 0, 0}>;
using CPUID1_EBX = Reg<"CPUID.1:EBX", Cpuid<1, 1>, u32, Layout<u32>{Access::RO, 0, 0, 0}>;
using CPUID1_EDX = Reg<"CPUID.1:EDX", Cpuid<1, 3>, u32, Layout<u32>{Access::RO, 0, 0, 0}>;

inline constexpr u32 kOptOs = 1u << 0;
inline constexpr u32 kOptUsr = 1u << 1;
inline constexpr u32 kOptEdge = 1u << 2;
inline constexpr u32 kOptComplement = 1u << 3;
inline constexpr unsigned kOptThresholdShift = 4;  // 4 bits
inline constexpr unsigned kOptTagShift = 8;  // 4 bits: execution tagging's tag value (0: none)
inline constexpr u32 kOptKnown = 0xFFFu;

// The event's ESCR that feeds `counter`, or none.
constexpr EscrId escr_for(const NbEvent& e, unsigned counter) {
  for (EscrId id : e.escr)
    if (id != EscrId::none && (escr_info(id).counters >> counter & 1u)) return id;
  return EscrId::none;
}
// The cascade rule: may `hi` start when `lo` overflows?
constexpr bool cascade_legal(unsigned lo, unsigned hi) {
  if (lo >= kCounters || hi >= kCounters || lo == 1 || hi == 1) return false;
  if (lo < 16 && hi < 16) return (lo ^ 2u) == hi && (lo & ~3u) == (hi & ~3u);
  return (lo == 14 && hi == 16) || (lo == 15 && hi == 17);
}

// EventConfig <-> Request (encode.hpp).
constexpr EventConfig config_of(const Request& r) {
  u32 o = (r.os ? kOptOs : 0u) | (r.usr ? kOptUsr : 0u) | (r.edge ? kOptEdge : 0u) |
          (r.complement ? kOptComplement : 0u) | (u32{r.threshold} << kOptThresholdShift) |
          (u32{r.tag} << kOptTagShift);
  return {static_cast<u32>(r.event), r.mask, o};
}
constexpr Request request_of(EventConfig ev) {
  Request r{};
  r.event = ev.code;
  r.mask = static_cast<std::uint16_t>(ev.qualifier);
  const u32 modes = ev.options & (kOptOs | kOptUsr);
  r.os = modes == 0 || (modes & kOptOs);
  r.usr = modes == 0 || (modes & kOptUsr);
  r.edge = (ev.options & kOptEdge) != 0;
  r.complement = (ev.options & kOptComplement) != 0;
  r.threshold = static_cast<std::uint8_t>((ev.options >> kOptThresholdShift) & 0xFu);
  r.tag = static_cast<std::uint8_t>((ev.options >> kOptTagShift) & 0xFu);
  return r;
}

template <class Bus, CounterRead Read = CounterRead::rdpmc>
struct Driver : CounterDriver<Bus, CounterRegs, 40, CounterReadRegs<Read>> {
  using Base = CounterDriver<Bus, CounterRegs, 40, CounterReadRegs<Read>>;
  using Base::kAllSlots;
  using Base::kSlots;
  using Base::read;
  using R = Regs<Bus>;

  // --- static description (pmu::Driver) ---
  static constexpr const PmuCatalog& catalog = pmu::netburst::catalog;
  static constexpr LinkKind kLink = LinkKind::cascade;
  static constexpr Capabilities kCapabilities{.overflow = true, .interrupt = true, .link = true, .sampling = true};
  static constexpr std::uint32_t slots_for(std::uint32_t code) {
    return code < kNumEvents ? event_counters(kEvents[code]) : 0u;
  }
  static constexpr unsigned kProbeSpins = 64;
  // The PMI comes "on the next event count after the counter has overflowed" (Intel SDM Vol. 3B,
  // 18.15.3, the CCCR's OVF_PMI flag; 18.15.5.8: preset -99 for an interrupt on the 100th event):
  // a sampling preset is 2^40 - (period - 1) (preset_for_sampling, prof::sampling_preset).
  static constexpr unsigned kPmiEventsAfterOverflow = 1;
  // A sampling preset keeps bit 39 set (2^40 - (period - 1)), which the late-OVF check relies on;
  // the profiler's Sampler refuses longer periods.
  static constexpr std::uint64_t kMaxSamplingPeriod = std::uint64_t{1} << 39;

  struct Identity {
    u32 family = 0, model = 0;
    bool hyper_threading = false;
  };

  // ---------------------------------------------------------------------------------------
  // Detection and reset
  // ---------------------------------------------------------------------------------------

  // CPUID: GenuineIntel, family 0Fh; IA32_MISC_ENABLE bit 7; then every PMU register cleared
  // (reset()) and one counter run briefly on global_power_events: it must advance. Every MSR and
  // counter access runs under fault::traps (a hypervisor may #GP them). unsupported_core: not
  // family 0Fh (no MSR touched). pmu_absent: bit 7 clear (QEMU), an access trapped, or the
  // counter did not advance (MSRs that read 0).
  static ProbeResult probe() {
    const u32 eax = R::template read_raw<CPUID1_EAX>();
    id_.family = (eax >> 8) & 0xFu;
    id_.model = ((eax >> 4) & 0xFu) | (id_.family == 0xF ? ((eax >> 16) & 0xFu) << 4 : 0u);
    id_.hyper_threading = ((R::template read_raw<CPUID1_EDX>() >> 28) & 1u) &&
                          ((R::template read_raw<CPUID1_EBX>() >> 16) & 0xFFu) > 1;
    // An Intel family 0Fh part (AMD's K8 and later report base family 0Fh too, with another PMU).
    if (id_.family != 0xF || R::template read_raw<CPUID0_EBX>() != kGenu) return {Status::unsupported_core, 0};
    std::uint64_t misc = 0;
    if (fault::traps([&] { misc = R::template read_raw<IA32_MISC_ENABLE>(); })) return {Status::pmu_absent, 0};
    if (!misc_perfmon_available.extract(misc)) return {Status::pmu_absent, 0};
    if (fault::traps([] { reset(); })) return {Status::pmu_absent, 0};
    bool advanced = false;
    constexpr Request cycles = checked("global_power_events:RUNNING");
    Status configured = Status::bad_argument;
    if (!fault::traps([&] { configured = configure(0, config_of(cycles)); }) && configured == Status::ok) {
      std::uint64_t first = 0;
      if (!fault::traps([&] {
            start(1u);
            first = read(0);
          })) {
        for (unsigned i = 0; i < kProbeSpins && !advanced; ++i) {
          std::uint64_t v = first;
          if (fault::traps([&] { v = read(0); })) break;
          advanced = v != first;
        }
      }
    }
    (void)fault::traps([] { reset(); });
    return advanced ? ProbeResult{Status::ok, kUsableCounters} : ProbeResult{Status::pmu_absent, 0};
  }
  static const Identity& identity() { return id_; }
  // IQ_ESCR0/1 exist on models 1 and 2 only (Table 18-63).
  static bool early_model() { return id_.model < 3; }

  // Every CCCR, ESCR and counter, IA32_PEBS_ENABLE and PEBS_MATRIX_VERT to 0 (a previous boot stage
  // may have left counters running and interrupting). The driver's configuration is forgotten.
  static void reset() {
    static_for<kCounters>([](auto s) { R::template write_raw<Cccr<decltype(s)::value>>(0); });
    for_all<kEscrs>([](auto e) {
      if (!kEscrTable[decltype(e)::value].early_models_only || early_model())
        R::template write_raw<Escr<decltype(e)::value>>(0);
    });
    static_for<kCounters>([](auto s) { write<decltype(s)::value>(0); });
    R::template write_raw<IA32_PEBS_ENABLE>(0);
    R::template write_raw<PEBS_MATRIX_VERT>(0);
    for (auto& e : slot_escr_) e = 0;
    used_ = 0;
    cascade_hi_ = 0;
  }

  // ---------------------------------------------------------------------------------------
  // pmu::Driver
  // ---------------------------------------------------------------------------------------

  // Programs the event's ESCR (the one that feeds this counter) and the counter's CCCR, counting
  // off. One ESCR serves one event set-up at a time: an ESCR another counter uses with another
  // value is no_free_counter here (another counter of the event may still take it).
  //   bad_argument       slot out of range or counter 1, mask bits the event does not name,
  //                      unknown option bits
  //   unsupported_event  no such event, or it cannot be counted on this counter (or model)
  //   no_free_counter    its ESCR is taken by another set-up
  //   busy               the counter is counting: stop it first
  static Status configure(unsigned slot, EventConfig ev) {
    const Status s = check_event(slot, ev);
    if (s != Status::ok) return s;
    const NbEvent& e = kEvents[ev.code];
    const EscrId id = escr_for(e, slot);
    if (id == EscrId::none || model_lacks(e, id)) return Status::unsupported_event;
    if (is_enabled(slot)) return Status::busy;
    const Request rq = request_for(ev);
    const u32 escr_v = escr_for_thread(rq);
    if (escr_taken(slot, id, escr_v)) return Status::no_free_counter;
    release(slot);
    write_escr(id, escr_v);
    write_cccr(slot, cccr_value(rq) & ~cccr::ENABLE);
    remember(slot, id, escr_v);
    return Status::ok;
  }

  // The same with the slot and event known at compile time: an invalid one, or an event without
  // an ESCR for this counter, is a compile error, and the ESCR and CCCR are written by number (no
  // event table or 45-way ESCR dispatch linked in: bench/footprint, "minimal"). For a counter set
  // up once: a slot that already has a set-up is busy here (deconfigure() it first).
  template <unsigned Slot, EventConfig Ev>
  static Status configure() {
    return configure_fixed<Driver, Slot, Ev>();
  }
  // configure<Slot, Ev>()'s step after its compile-time check (configure_fixed).
  template <unsigned Slot, EventConfig Ev>
  static Status program() {
    constexpr NbEvent e = kEvents[Ev.code];
    constexpr EscrId id = escr_for(e, Slot);
    static_assert(id != EscrId::none, "configure<Slot, Ev>: no ESCR of this event feeds this counter");
    if constexpr (escr_info(id).early_models_only || (e.flags & kModel3Plus) != 0) {  // rare: a model check
      if (model_lacks(e, id)) return Status::unsupported_event;
    }
    if (slot_escr_[Slot] != 0 || is_enabled(Slot)) return Status::busy;
    constexpr Request rq = request_for(Ev);
    const u32 escr_v = escr_for_thread(rq);
    if (escr_taken(Slot, id, escr_v)) return Status::no_free_counter;
    R::template write_raw<Escr<static_cast<unsigned>(id)>>(escr_v);
    R::template write_raw<Cccr<Slot>>(cccr_value(rq) & ~cccr::ENABLE);
    remember(Slot, id, escr_v);
    return Status::ok;
  }

  // ENABLE on (a cascade's high counter: CASCADE on, ENABLE stays off: it starts at its partner's
  // overflow) / off (a cascade's high counter: CASCADE off, which halts it). Per counter one
  // read-modify-write of its CCCR that keeps every overflow (modify_cccr).
  static void start(std::uint32_t mask) {
    each(mask, [](auto s) {
      constexpr unsigned n = decltype(s)::value;
      modify_cccr<n>(0, (cascade_hi_ >> n & 1u) ? cccr::CASCADE : cccr::ENABLE);
    });
  }
  static void stop(std::uint32_t mask) {
    each(mask, [](auto s) { modify_cccr<decltype(s)::value>(cccr::ENABLE | cccr::CASCADE, 0); });
  }

  // Counter writes go twice (erratum N15 of the Pentium 4 specification update: a write may not
  // take; the second write is what Linux and OProfile found to work). Write a counter while it is
  // stopped: a 40-bit write lands in two parts (Xeon MP erratum O8).
  template <unsigned Slot>
  static void write(std::uint64_t value) {
    Base::template write<Slot>(value);  // masks to 40 bits and reports a narrowing, once
    R::template write_raw<typename CounterRegs::template at<Slot>>(value & kCounterMask);
  }
  static void write(unsigned slot, std::uint64_t value) {
    if (!for_slot<kSlots>(slot, [&](auto s) { write<decltype(s)::value>(value); }))
      report_narrowing("counter", "slot", slot);
  }

  // Configured counters whose CCCR has OVF, and, for a counter with its PMI enabled (a sampling
  // counter, preset with bit 39 set: kMaxSamplingPeriod keeps it so), one whose bit 39 has gone
  // clear: the PMI can arrive before OVF is set (Linux's P4 driver, "the overflow might issue an
  // NMI but did not set P4_CCCR_OVF"). Enable a counter's PMI only with such a preset.
  static std::uint32_t overflow_status() {
    std::uint32_t m = 0;
    each(used_, [&](auto s) {
      constexpr unsigned n = decltype(s)::value;
      const u64 c = R::template read_raw<Cccr<n>>();
      bool ovf = (c & cccr::OVF) != 0;
      if (!ovf && (c & cccr::OVF_PMI_T0)) ovf = ((Base::template read<n>() >> 39) & 1u) == 0;
      if (ovf) m |= 1u << n;
    });
    return m;
  }
  // OVF cleared by a read-modify-write of each CCCR. Clearing a cascade low counter's OVF halts its
  // high counter (SDM "Halting Event Counting"): the profiler never clears a linked low counter.
  // On the PMI path clear OVF first and unmask the LVT entry last (pmi_acknowledge): an overflowed
  // counter keeps asserting its interrupt.
  // When the driver owns the LVT entry (set_pmi_vector), the unmask follows here, after the OVF
  // bits are clear: the Sampler's handler then needs nothing NetBurst-specific.
  static void clear_overflow(std::uint32_t mask) {
    each(mask, [](auto s) { R::template modify_raw<Cccr<decltype(s)::value>>(cccr::OVF, 0); });
    // Also with an empty mask: a PMI may come with no OVF to clear, and the entry is masked anyway.
    if (owns_lvt_ && R::read(lvt_mask)) pmi_acknowledge();
  }
  // Sampling's common case (hal/core/driver.hpp), in clear_overflow's order: one CCCR write
  // stops the counter, the counter is rewound while stopped (erratum O8 above), the next CCCR
  // write restores ENABLE and clears OVF, and the LVT entry is unmasked last. That write keeps
  // OVF set only when the rewound count, in 40 bits, has bit 39 clear: a period or more since the
  // overflow (also where OVF came late, see overflow_status); the counter asserts its PMI again,
  // and the unmask brings the next period's sample. Bit 39 set clears it: fewer than `period`
  // events since the overflow (the count went back past 0), or no overflow at all, a PMI the local
  // APIC held in its IRR from before the counter got its preset (Intel SDM Vol. 3A, 10.8.4: an
  // overflow after the CPU masked interrupts, taken after disarm and the next arm). OVF set there
  // would ask for a period no event filled, and each of those PMIs for one more: 2^40 / period of
  // them. That PMI rewinds one period, counted like the others. Its one test is who owns that
  // entry (set_pmi_vector), fixed while sampling.
  template <unsigned Slot>
  static void rearm(std::uint64_t period) {
    using C = Cccr<Slot>;
    const u32 c = static_cast<u32>(R::template read_raw<C>());  // bits 63:32 reserved
    R::template write_raw<C>(c & ~cccr::ENABLE);
    const u64 left = Base::template read<Slot>() - period;
    // Bit 39 (the high word's bit 7) moved onto OVF's bit 31, inverted: set when bit 39 is clear.
    const u32 ovf = ~(static_cast<u32>(left >> 32) << 24) & static_cast<u32>(cccr::OVF);
    write<Slot>(left & kCounterMask);
    R::template write_raw<C>((c & ~static_cast<u32>(cccr::OVF)) | ovf);
    if (owns_lvt_) pmi_acknowledge();
  }
  // OVF_PMI_T0 per counter (the PMI goes to logical processor 0).
  static void set_overflow_interrupt(std::uint32_t mask, bool enable) {
    IrqGuard guard;  // the handler read-modify-writes the same CCCRs (stop/start)
    each(mask, [&](auto s) {
      constexpr unsigned n = decltype(s)::value;
      if (enable)
        modify_cccr<n>(0, cccr::OVF_PMI_T0);
      else
        modify_cccr<n>(cccr::OVF_PMI_T0, 0);
    });
  }

  // The profiler forgets these counters (Profiler::clear): their ESCRs are free again.
  static void deconfigure(std::uint32_t mask) {
    for (unsigned n = 0; n < kCounters; ++n)
      if (mask >> n & 1u) release(n);
  }

  // Cascade: hi starts when lo overflows (header comment for the pairs). Both must be configured;
  // hi's CCCR gets CASCADE instead of ENABLE from start().
  static Status link(unsigned lo, unsigned hi) {
    if (!cascade_legal(lo, hi)) return Status::not_linkable;
    if (!(used_ >> lo & 1u) || !(used_ >> hi & 1u)) return Status::bad_argument;
    if (is_enabled(hi)) return Status::busy;
    cascade_hi_ |= 1u << hi;
    return Status::ok;
  }

  // ---------------------------------------------------------------------------------------
  // NetBurst's own controls
  // ---------------------------------------------------------------------------------------

  // FORCE_OVF: every increment is an overflow (self-test of the PMI path).
  static void force_overflow(unsigned slot, bool on) {
    each(slot < kCounters ? 1u << slot : 0u, [&](auto s) {
      constexpr unsigned n = decltype(s)::value;
      if (on)
        modify_cccr<n>(0, cccr::FORCE_OVF);
      else
        modify_cccr<n>(cccr::FORCE_OVF, 0);
    });
  }

  // The local APIC's LVT performance counter entry. NetBurst masks it on every PMI: the handler
  // clears OVF first, then calls pmi_acknowledge() as its last step.
  // The local APIC's MMIO base (default 0xFEE00000, taken by set_pmi_vector if none was set).
  static void set_apic_base(std::uintptr_t base) { ApicBase::value = base; }
  // Fixed delivery of `vector`, unmasked; from now on clear_overflow() unmasks it after each PMI.
  static void set_pmi_vector(std::uint8_t vector) {
    if (ApicBase::value == 0) ApicBase::value = kDefaultApicBase;  // xAPIC default, unless set_apic_base
    R::write(lvt_vector.runtime(vector), lvt_delivery_mode(0), lvt_mask(0));
    owns_lvt_ = true;
  }
  // Masks the entry and hands it back to the board.
  static void release_pmi_vector() {
    R::modify(lvt_mask(1));
    owns_lvt_ = false;
  }
  static void pmi_acknowledge() { R::modify(lvt_mask(0)); }
  static bool pmi_masked() { return R::read(lvt_mask) != 0; }

  // Presets a counter for its PMI to come on exactly the `period`-th event: it overflows after
  // period - 1 events and the PMI comes on the next one (SDM 18.15.5.8: -99 for the 100th), so the
  // preset is 2^40 - (period - 1), period in 2..2^39 (bit 39 stays set, which the late-OVF check
  // relies on; one event cannot be had from a preset: FORCE_OVF interrupts on every increment).
  static Status preset_for_sampling(unsigned slot, std::uint64_t period) {
    if (slot >= kSlots || period <= kPmiEventsAfterOverflow || period > kMaxSamplingPeriod)
      return Status::bad_argument;
    write(slot, (std::uint64_t{1} << 40) - (period - kPmiEventsAfterOverflow));
    return Status::ok;
  }

  // configure()'s validation, without touching the hardware.
  static constexpr Status check_event(unsigned slot, EventConfig ev) {
    if (slot >= kSlots || slot == 1 || (ev.options & ~kOptKnown)) return Status::bad_argument;
    if (ev.code >= kNumEvents) return Status::unsupported_event;
    const NbEvent& e = kEvents[ev.code];
    if (ev.qualifier > 0xFFFFu || (ev.qualifier & ~known_mask_bits(e))) return Status::bad_argument;
    if (ev.qualifier == 0 && zero_qualifier_mask(ev.code) == 0) return Status::bad_argument;
    if ((ev.options >> kOptTagShift & 0xFu) && !(e.flags & kExecTagging)) return Status::bad_argument;
    if (!(event_counters(e) >> slot & 1u)) return Status::unsupported_event;
    return Status::ok;
  }
  static EscrId escr_of(unsigned slot) { return slot < kCounters ? escr_at(slot) : EscrId::none; }
  static std::uint32_t cascades() { return cascade_hi_; }

 private:
  template <class F>
  static void each(std::uint32_t mask, F&& f) {
    for_each_slot<kCounters>(mask & kUsableCounters, f);
  }
  // A read-modify-write of counter n's CCCR that keeps every overflow. OVF is a plain read-write
  // bit (regs.hpp): writing back the value read clears an OVF that a running counter set between
  // the read and the write, which loses 2^40 of a counting counter and the start of a cascade's
  // high counter (SDM "Halting Event Counting": the high counter runs while its partner's OVF is
  // set). So the counter is read around the update, and OVF written again if it wrapped meanwhile:
  // its bit 39 went from 1 to 0, which only a wrap does (no caller clears OVF here: where the
  // value read had OVF, the value written has it too, and writing it again changes nothing).
  // In 32-bit words: CCCR bits 63:32 are reserved (regs.hpp) and bit 39 is in the counter's high
  // word; 64-bit values cost i386 register spills here (bench/footprint, NetBurst's minimal job:
  // 109 B).
  template <unsigned n>
  static void modify_cccr(u64 clear, u64 set) {
    const u32 before = high_word(Base::template read<n>());
    const u32 c = static_cast<u32>(R::template read_raw<Cccr<n>>());
    const u32 v = (c & ~static_cast<u32>(clear)) | static_cast<u32>(set);
    R::template write_raw<Cccr<n>>(v);
    const bool wrapped = (before & ~high_word(Base::template read<n>())) >> (39 - 32) & 1u;
    if (wrapped) R::template write_raw<Cccr<n>>(v | static_cast<u32>(cccr::OVF));
  }
  static constexpr u32 high_word(u64 x) { return static_cast<u32>(x >> 32); }
  static bool is_enabled(unsigned slot) {
    bool on = false;
    each(1u << slot, [&](auto s) {
      on = (static_cast<u32>(R::template read_raw<Cccr<decltype(s)::value>>()) & (cccr::ENABLE | cccr::CASCADE)) != 0;
    });
    return on;
  }
  static void write_cccr(unsigned slot, u64 v) {
    each(1u << slot, [&](auto s) { R::template write_raw<Cccr<decltype(s)::value>>(v); });
  }
  static void write_escr(EscrId id, u64 v) {
    for_index<kEscrs>(static_cast<unsigned>(id), [&](auto e) { R::template write_raw<Escr<decltype(e)::value>>(v); });
  }
  // configure()'s rules, for both its forms.
  // Event rows only some models have: ESCRs of the early models, instr_completed from model 3.
  static bool model_lacks(const NbEvent& e, EscrId id) {
    return (escr_info(id).early_models_only && !early_model()) || ((e.flags & kModel3Plus) && early_model());
  }
  // A zero mask means the event's default mask (check_event refuses an event without one).
  static constexpr Request request_for(EventConfig ev) {
    Request rq = request_of(ev);
    if (rq.mask == 0) rq.mask = zero_qualifier_mask(ev.code);
    return rq;
  }
  static u32 escr_for_thread(const Request& rq) {
    u32 v = static_cast<u32>(escr_value(rq));  // bits 63:31 reserved (regs.hpp)
    if (!id_.hyper_threading) v &= ~(escr::T1_OS | escr::T1_USR);  // reserved without HT
    return v;
  }
  // One ESCR serves one set-up: another counter holds it with another value.
  // Another counter holds ESCR `id` with another value. Only the counters that ESCR feeds can
  // (EscrInfo::counters, at most 3); with the slot and ESCR known at compile time this folds to
  // those few tests, not a loop over all 18.
  static bool escr_taken(unsigned slot, EscrId id, u32 escr_v) {
    bool taken = false;
    each(escr_info(id).counters & ~(1u << slot), [&](auto s) {
      constexpr unsigned n = decltype(s)::value;
      taken |= escr_at(n) == id && escr_v_[n] != escr_v;
    });
    return taken;
  }
  static void remember(unsigned slot, EscrId id, u32 escr_v) {
    slot_escr_[slot] = static_cast<std::uint8_t>(static_cast<unsigned>(id) + 1);
    escr_v_[slot] = escr_v;
    used_ |= 1u << slot;
  }
  // The counter's previous set-up is dropped (its ESCR is cleared when no other counter uses it).
  static EscrId escr_at(unsigned slot) {
    return slot_escr_[slot] ? static_cast<EscrId>(slot_escr_[slot] - 1) : EscrId::none;
  }
  static void release(unsigned slot) {
    const EscrId id = escr_at(slot);
    slot_escr_[slot] = 0;
    cascade_hi_ &= ~(1u << slot);
    used_ &= ~(1u << slot);
    if (id == EscrId::none) return;
    for (unsigned o = 0; o < kCounters; ++o)
      if (escr_at(o) == id) return;
    write_escr(id, 0);
  }

  static inline Identity id_{};
  static inline std::uint8_t slot_escr_[kCounters]{};  // ESCR id + 1; 0: none
  static inline u32 escr_v_[kCounters]{};  // ESCR bits 63:31 are reserved (regs.hpp)
  static inline std::uint32_t used_ = 0;
  static inline std::uint32_t cascade_hi_ = 0;
  static inline bool owns_lvt_ = false;
};

}  // namespace pmu::netburst
