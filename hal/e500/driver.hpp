#pragma once
// PowerPC e500 core performance monitor driver, templated on the bus (PmrBus on silicon, a
// MockBus with hal/e500/model.hpp in host tests). Static members only; no asm, no heap.
//
// Slot map: slot n = PMCn, n = 0..3 (CRM 7.2.7).
// Width: 31. A PMC is 32 bits; its overflow condition is bit 31 set (PMCn[OV], Table 7-6), so a
//   counter preset to 0x8000_0000 - N raises it after exactly N events; software extension adds
//   2^31 per acknowledged condition (clear_overflow clears bit 31).
// Link: chain. link(lo, hi) makes PMChi count event 82+lo, "PMClo rolled over to zero" (CRM 7.6.1);
//   the pair's value is hi * 2^32 + lo, read consistently by the profiler (prof::Profiler::read).
//
// EventConfig for this PMU:
//   code      = PMLCa[EVENT] (CRM Table 7-10, events.hpp).
//   qualifier = PMLCb: THRESHOLD | THRESHMUL << 8 (the register's own layout, Table 7-5). Non-zero
//               only for threshold events 76..81 on PMC0/PMC1; the threshold is THRESHOLD x
//               2^THRESHMUL and only occurrences longer than it are counted (CRM 7.6.2).
//   options   = freeze conditions, the PMLCa bits in place (Tables 7-4, 7-8):
//               kFreezeSupervisor (FCS, don't count when MSR[PR]=0), kFreezeUser (FCU, MSR[PR]=1),
//               kFreezeMarked (FCM1, MSR[PMM]=1), kFreezeUnmarked (FCM0, MSR[PMM]=0). 0 = count
//               always.
//
// Polling (the 31-bit condition): the overflow state is bit 31 itself, not a sticky flag. A counter
//   whose overflow is caught neither by the interrupt (CE and PMIE) nor by a freeze (FCECE) must be
//   folded (prof::Profiler::fold) at least once every 2^31 events: a fold leaves it below 2^31, so
//   it cannot wrap before the next one. If it does wrap (past 0xFFFFFFFF, bit 31 clear again),
//   2^32 counts are gone and nothing shows it. kMaxEventsBetweenFolds and max_fold_interval_ns()
//   give the bound: a counter "can increment by 0, 1, 2, 3, or 4" at a time (CRM 7.2.7), so at
//   1.5 GHz the worst case is 0.36 s (0.72 s for instructions completed, at most 2 a cycle).
//   Sampled counters are caught by their interrupt.
//
// Interrupts: a PMCn overflow condition (bit 31 set while PMLCan[CE]=1) signals the performance
// monitor interrupt if PMGC0[PMIE] is set, and freezes every counter (sets PMGC0[FAC]) if
// PMGC0[FCECE] is set (CRM 7.4). The e500 clears PMIE when the interrupt occurs (Table 7-3), so
// clear_overflow() re-enables PMIE for the acknowledged counters that still have CE set. Under
// FCECE, start() and unfreeze_all() leave FAC set while a condition exists, so the freeze holds
// whether silicon re-freezes on the condition or froze only when it appeared (README).
#include <cstdint>

#include "hal/core/bus/irq.hpp"
#include "hal/core/driver.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/reg.hpp"
#include "hal/e500/events.hpp"
#include "hal/e500/regs.hpp"

namespace pmu::e500 {

// EventConfig::options bits: PMLCa freeze conditions, in place (CRM Table 7-4).
inline constexpr std::uint32_t kFreezeSupervisor = 0x40000000u;  // FCS
inline constexpr std::uint32_t kFreezeUser = 0x20000000u;        // FCU
inline constexpr std::uint32_t kFreezeMarked = 0x10000000u;      // FCM1
inline constexpr std::uint32_t kFreezeUnmarked = 0x08000000u;    // FCM0
static_assert((kFreezeSupervisor | kFreezeUser | kFreezeMarked | kFreezeUnmarked) ==
              kPmlcaFreezeConditions);

// The 31-bit condition (header comment): fold at least once per this many events of a counter.
inline constexpr std::uint64_t kMaxEventsBetweenFolds = std::uint64_t{1} << 31;
// ... which at clock_hz with at most events_per_cycle occurrences a cycle is this many nanoseconds
// (rounded down); 0 for a zero clock or rate.
constexpr std::uint64_t max_fold_interval_ns(std::uint64_t clock_hz, unsigned events_per_cycle) {
  if (clock_hz == 0 || events_per_cycle == 0) return 0;
  return kMaxEventsBetweenFolds * 1000000000ull / (clock_hz * events_per_cycle);
}

// EventConfig::qualifier for a threshold event: threshold x 2^multiplier (Table 7-5).
constexpr std::uint32_t threshold_qualifier(std::uint32_t threshold, std::uint32_t threshmul) {
  return (threshold & 0x3Fu) | ((threshmul & 0x7u) << 8);
}
inline constexpr std::uint32_t kQualifierBits = kPmlcbWritable;  // 0x73F

template <class Bus>
struct Driver : CounterDriver<Bus, FamilyRegs<PMCFamily>, 31> {
  using Base = CounterDriver<Bus, FamilyRegs<PMCFamily>, 31>;
  using Base::each_slot;
  using Base::kAllSlots;
  using Base::kSlots;
  using Base::read;
  using Base::write;
  using R = Regs<Bus>;

  // --- static description (pmu::Driver) ---
  static constexpr const PmuCatalog& catalog = pmu::e500::catalog;
  static constexpr LinkKind kLink = LinkKind::chain;
  static constexpr Capabilities kCapabilities{.overflow = true, .interrupt = true, .link = true, .sampling = true};
  static constexpr std::uint32_t slots_for(std::uint32_t code) { return counters_for(code); }

  // Reads of the counters while probe() waits for them to advance.
  static constexpr unsigned kProbeSpins = 256;

  // ---------------------------------------------------------------------------------------
  // Detection and reset
  // ---------------------------------------------------------------------------------------

  // Detects the PMU. On a core without it every mfpmr is a program interrupt (QEMU 7.2 traps on
  // all of them): the first access runs under fault::traps() and the probe returns pmu_absent.
  // If present: every counter counts cycles (event 1) for a short while, unfrozen, and the slots
  // whose counter advanced are reported. Leaves the PMU reset: all frozen (FAC, FC), zeroed.
  // First the core (PVR, unless force_core() said): e500mc and later cores have another PMU
  // (wider EVENT, other event numbers) and get unsupported_core without a single PMR access.
  static ProbeResult probe() {
    ProbeResult r{};
    core_.detect([] {
      std::uint32_t pvr = 0;
      return fault::traps([&] { pvr = R::template read_raw<PVR>(); }) ? Core::unknown : core_of_pvr(pvr);
    });
    r.status = Status::unsupported_core;
    if (core_.core == Core::e500mc_or_later) return r;
    r.status = Status::pmu_absent;
    if (fault::traps([] { (void)R::template read_raw<PMGC0>(); })) return r;

    // fault::traps() does not nest: each guarded step below is its own call.
    if (fault::traps([] {
          reset();
          each_slot(kAllSlots, [](auto n) {
            R::write(pmlca_event<PMLCa<n>>(1));  // cycles; FC=0, CE=0, no conditions
          });
          R::write(pmgc0_fac<>(0));  // release all counters at once (CRM 7.2.7 sequence)
        }))
      return r;
    std::uint32_t trapped = 0;
    std::uint32_t advanced = 0;
    for (unsigned i = 0; i < kProbeSpins && (advanced | trapped) != kAllSlots; ++i) {
      each_slot(kAllSlots & ~trapped & ~advanced, [&](auto n) {
        std::uint32_t v = 0;
        if (fault::traps([&] { v = R::template read_raw<PMC<n>>(); }))
          trapped |= 1u << n;
        else if (v != 0)
          advanced |= 1u << n;
      });
    }
    (void)fault::traps([] { reset(); });
    r.working_slots = advanced;
    if (advanced != 0) r.status = Status::ok;
    return r;
  }

  // Freeze everything, then clear every control and counter (CRM 7.2.7: set FAC first, program,
  // and only then release). Afterwards PMGC0 = FAC only (PMIE, FCECE, TBEE off), every PMLCan =
  // FC only, every PMLCbn and PMCn = 0.
  static void reset() {
    R::write(pmgc0_fac<>(1));
    each_slot(kAllSlots, [](auto n) {
      R::write(pmlca_fc<PMLCa<n>>(1));
      R::template write_raw<PMLCb<n>>(0);
      R::template write_raw<PMC<n>>(0);
    });
  }

  // ---------------------------------------------------------------------------------------
  // pmu::Driver
  // ---------------------------------------------------------------------------------------

  // Programs slot's event, freeze conditions and threshold; leaves the counter frozen (FC=1)
  // with its condition disabled (CE=0) and its value untouched.
  //   bad_argument      slot > 3; qualifier on a non-threshold event or outside THRESHOLD |
  //                     THRESHMUL; options outside FCS|FCU|FCM1|FCM0
  //   unsupported_event no such event, or not on this counter (threshold events on PMC2/PMC3)
  //   busy              the slot is counting a real event right now: stop() it first
  static Status configure(unsigned slot, EventConfig ev) {
    const Status s = check_event(slot, ev);
    if (s != Status::ok) return s;
    if (!on_this_core(ev.code)) return Status::unsupported_event;
    if (counting(slot)) return Status::busy;
    for_slot<kSlots>(slot, [&](auto n) { write_event<decltype(n)::value>(ev); });
    return Status::ok;
  }
  // The same with the slot and event known at compile time: an invalid one is a compile error,
  // and no event table is linked in for the check (configure_fixed; bench/footprint, "minimal").
  template <unsigned Slot, EventConfig Ev>
  static Status configure() {
    return configure_fixed<Driver, Slot, Ev>();
  }
  // configure<Slot, Ev>()'s step after its compile-time check: the core (event 90) and busy checks
  // of configure(), and the writes by number.
  template <unsigned Slot, EventConfig Ev>
  static Status program() {
    if constexpr (Ev.code == kEventTimeBaseTransition) {
      if (!on_this_core(Ev.code)) return Status::unsupported_event;
    }
    if (counting(Slot)) return Status::busy;
    write_event<Slot>(Ev);
    return Status::ok;
  }

  // Starts counting on these slots (clears PMLCan[FC]). If all counters are globally frozen
  // (FAC=1, e.g. after reset() or a freeze on an enabled condition) the slots are released together
  // by clearing FAC last; note FAC is global: every slot with FC=0 resumes with them. Under FCECE,
  // FAC stays set while an enabled condition exists (release): acknowledge it first.
  // Chained pairs (CRM 7.6.1): a high counter is released before the counters it chains from and
  // frozen after them, so no rollover of a running low counter meets a frozen high one.
  static void start(std::uint32_t mask) {
    mask &= kAllSlots;
    if (!mask) return;
    IrqGuard guard;  // PMGC0 read once, written last (update_pmgc0)
    const auto g = R::template read<PMGC0>();
    set_fc(mask, 0);
    // Likely: a start mostly follows reset() or a freeze of all (and the layout keeps
    // bench/footprint's minimal job under 512 B).
    if (g.test(pmgc0_fac<>)) [[likely]] release(g);
  }

  // Stops (freezes) these slots: PMLCan[FC]=1. Stopping all four sets PMGC0[FAC] first, so they
  // stop on the same instruction.
  static void stop(std::uint32_t mask) {
    mask &= kAllSlots;
    if (!mask) return;
    if (mask == kAllSlots) freeze_all();
    set_fc(mask, 1);
  }

  // read(slot), read<S>() and write(slot, v) come from CounterDriver: one mfpmr / mtpmr each. CRM
  // 7.2.7 discourages loading a value with bit 31 set: with CE and PMIE set it interrupts before
  // any event is counted. A value wider than 32 bits is masked and reported (report_narrowing).

  // Slots whose counter is in the overflow state (PMCn[OV], bit 31), whether or not CE is set.
  static std::uint32_t overflow_status() {
    std::uint32_t m = 0;
    each_slot(kAllSlots, [&](auto n) {
      if (R::read(pmc_ov<PMC<n>>)) m |= 1u << n;
    });
    return m;
  }

  // Acknowledges overflows: clears bit 31 of each counter in mask, keeping bits 30..0. Call it with
  // the counters frozen (stop()), as the profiler and sampler do: a rewrite of a running counter
  // loses the events that land between its read and its write (the e500 has no atomic clear), and
  // a counter chained to one in mask would count the msb's fall as that counter's overflow (Table
  // 7-10; README, "Chain events"). The profiler never acknowledges a chain's low counter.
  // Then re-enables PMGC0[PMIE] if any of these counters has CE set, since the e500 clears PMIE
  // when it takes the interrupt (Table 7-3); an interrupt still pending elsewhere is then taken.
  static void clear_overflow(std::uint32_t mask) {
    mask &= kAllSlots;
    if (!mask) return;
    bool rearm = false;
    each_slot(mask, [&](auto n) {
      const std::uint32_t v = R::template read_raw<PMC<n>>();
      if (v & kPmcOverflow) R::template write_raw<PMC<n>>(v & ~kPmcOverflow);
      if (R::read(pmlca_ce<PMLCa<n>>)) rearm = true;
    });
    if (rearm) enable_interrupt(true);
  }

  // Sampling's common case (hal/core/driver.hpp), in the interrupt (MSR[EE] clear, so PMGC0's
  // read-modify-write needs no guard). The rewind takes bit 31 (the condition) away when fewer
  // than `period` events came since the overflow; otherwise the condition stays and the next
  // interrupt samples the next period, as it should. Then PMGC0[PMIE] on again: the e500 cleared
  // it when it took the interrupt (Table 7-3). A freeze by FCECE is not released: a firmware that
  // sets set_freeze_on_condition samples through the general path (its stop and start).
  template <unsigned Slot>
  static void rearm(std::uint64_t period) {
    Base::template rewind<Slot>(period);
    R::modify(pmgc0_pmie<>(1));
  }

  // enable: PMLCan[CE]=1 for these slots and PMGC0[PMIE]=1. disable: CE=0 (PMIE is left alone:
  // with no CE set it has nothing to signal).
  static void set_overflow_interrupt(std::uint32_t mask, bool enable) {
    mask &= kAllSlots;
    if (!mask) return;
    each_slot(mask, [&](auto n) { R::modify(pmlca_ce<PMLCa<n>>.runtime(enable ? 1u : 0u)); });
    if (enable) enable_interrupt(true);
  }

  // Chains hi to lo (CRM 7.6.1): PMChi counts event 82+lo, "PMClo rolled over to zero", so the
  // pair counts lo's event over 64 bits. hi keeps its FC and CE; its freeze conditions are cleared
  // (lo's own conditions already decide which events roll lo over, and every rollover must reach
  // hi) and so is its threshold. lo's CE is cleared, as Table 7-4 recommends for a chained counter:
  // lo passes through bit 31 every 2^32 events and must not interrupt or freeze. lo and hi need
  // not be adjacent; chains of more than two counters are built with several calls.
  //   bad_argument  a slot > 3;  not_linkable  lo == hi
  static Status link(unsigned lo, unsigned hi) {
    if (lo >= kSlots || hi >= kSlots) return Status::bad_argument;
    if (lo == hi) return Status::not_linkable;
    const std::uint32_t code = chain_event(lo);
    for_slot<kSlots>(hi, [&](auto n) {
      R::modify(pmlca_event<PMLCa<n>>.runtime(code), pmlca_fcs<PMLCa<n>>(0),
                pmlca_fcu<PMLCa<n>>(0), pmlca_fcm1<PMLCa<n>>(0), pmlca_fcm0<PMLCa<n>>(0));
      R::template write_raw<PMLCb<n>>(0);
    });
    for_slot<kSlots>(lo, [](auto n) { R::modify(pmlca_ce<PMLCa<n>>(0)); });
    return Status::ok;
  }

  // ---------------------------------------------------------------------------------------
  // The e500's own controls, in the manual's words
  // ---------------------------------------------------------------------------------------

  // PMGC0[FAC]: freeze / release all counters at once (CRM 7.2.1). Releasing keeps FAC set while
  // FCECE holds an enabled condition (release).
  static void freeze_all() { update_pmgc0(pmgc0_fac<>(1)); }
  static void unfreeze_all() {
    IrqGuard guard;  // one read-modify-write (update_pmgc0)
    release(R::template read<PMGC0>());
  }
  static bool all_frozen() { return R::read(pmgc0_fac<>) != 0; }

  // PMLCan[FC] for one counter.
  static Status freeze_counter(unsigned slot, bool freeze) {
    const bool ok = for_slot<kSlots>(
        slot, [&](auto n) { R::modify(pmlca_fc<PMLCa<n>>.runtime(freeze ? 1u : 0u)); });
    return ok ? Status::ok : Status::bad_argument;
  }

  // PMLCan[FCS, FCU, FCM1, FCM0] (options bits above; Table 7-8 lists the useful combinations).
  static Status set_freeze_conditions(unsigned slot, std::uint32_t conditions) {
    if (slot >= kSlots || (conditions & ~kPmlcaFreezeConditions)) return Status::bad_argument;
    for_slot<kSlots>(slot, [&](auto n) {
      R::modify(pmlca_fcs<PMLCa<n>>.runtime((conditions & kFreezeSupervisor) != 0),
                pmlca_fcu<PMLCa<n>>.runtime((conditions & kFreezeUser) != 0),
                pmlca_fcm1<PMLCa<n>>.runtime((conditions & kFreezeMarked) != 0),
                pmlca_fcm0<PMLCa<n>>.runtime((conditions & kFreezeUnmarked) != 0));
    });
    return Status::ok;
  }

  // PMLCan[EVENT] only, other PMLCa bits kept. Same event/counter checks as configure().
  static Status select_event(unsigned slot, std::uint32_t code) {
    if (slot >= kSlots) return Status::bad_argument;
    if (!(counters_for(code) & (1u << slot)) || !on_this_core(code)) return Status::unsupported_event;
    for_slot<kSlots>(slot, [&](auto n) { R::modify(pmlca_event<PMLCa<n>>.runtime(code)); });
    return Status::ok;
  }

  // PMLCbn: threshold x 2^threshmul. Only PMC0 and PMC1 take thresholds (CRM 7.2.5):
  // unsupported_event on PMC2/PMC3; bad_argument if threshold > 63 or threshmul > 7.
  static Status set_threshold(unsigned slot, std::uint32_t threshold, std::uint32_t threshmul) {
    if (slot >= kSlots) return Status::bad_argument;
    if (!(kThresholdCounters & (1u << slot))) return Status::unsupported_event;
    if (threshold > 0x3F || threshmul > 7) return Status::bad_argument;
    for_slot<kSlots>(slot, [&](auto n) {
      R::write(pmlcb_threshold<PMLCb<n>>.runtime(threshold),
               pmlcb_threshmul<PMLCb<n>>.runtime(threshmul));
    });
    return Status::ok;
  }

  // PMGC0[TBSEL]: the time-base bit whose 0-to-1 transitions event 90 counts (0 TBL[31], 1 TBL[23],
  // 2 TBL[19], 3 TBL[15]; CRM 7.2.1, Table 7-3). e500v2 only: unsupported_core elsewhere, since on
  // e500v1 these bits are reserved and must be written as zero; bad_argument if select > 3.
  static Status select_timebase_bit(unsigned select) {
    if (core_.core != Core::e500v2) return Status::unsupported_core;
    if (select > 3) return Status::bad_argument;
    update_pmgc0(pmgc0_tbsel<>.runtime(select));
    return Status::ok;
  }
  // PMGC0[TBEE]: "This count is enabled by setting PMGC0[TBEE]" (CRM 9.3.2): event 90 counts only
  // with it. Each transition is then also an enabled event (Table 7-3): it interrupts under PMIE
  // and freezes under FCECE, which no overflow explains to the kit's Sampler; count event 90 with
  // both off. e500v2 only: unsupported_core elsewhere (reserved bit).
  static Status enable_timebase_event(bool on) {
    if (core_.core != Core::e500v2) return Status::unsupported_core;
    update_pmgc0(pmgc0_tbee<>.runtime(on ? 1u : 0u));
    return Status::ok;
  }

  // The core probe() found (Core::unknown before it), and the firmware's override for a part whose
  // PVR this file does not list. A forced core is kept by later probes; forcing Core::unknown
  // returns to detection.
  static Core core() { return core_.core; }
  static void force_core(Core c) { core_.force(c); }

  // PMGC0[FCECE]: an enabled condition (bit 31 with CE) freezes every counter by setting FAC. It
  // also makes start() and unfreeze_all() check for one before they clear FAC (release): the
  // driver's one way to set FCECE, so a firmware that never freezes on a condition links no check.
  static void set_freeze_on_condition(bool on) {
    release_ = &release_unless_held;
    update_pmgc0(pmgc0_fcece<>.runtime(on ? 1u : 0u));
  }
  // PMGC0[PMIE]. Hardware clears it when the interrupt occurs (Table 7-3).
  static void enable_interrupt(bool on) {
    IrqGuard guard;  // the test and the write are one step (update_pmgc0)
    if ((R::read(pmgc0_pmie<>) != 0) == on) return;
    R::modify(pmgc0_pmie<>.runtime(on ? 1u : 0u));
  }

  // Presets a counter to raise its overflow condition after exactly `period` events:
  // 0x8000_0000 - period, period in 1..0x8000_0000 (bad_argument otherwise).
  static Status preset_for_sampling(unsigned slot, std::uint32_t period) {
    if (slot >= kSlots || period == 0 || period > kPmcOverflow) return Status::bad_argument;
    write(slot, kPmcOverflow - period);
    return Status::ok;
  }

  // Checks an EventConfig against this PMU without touching it (configure's validation).
  static constexpr Status check_event(unsigned slot, EventConfig ev) {
    if (slot >= kSlots) return Status::bad_argument;
    if (!(counters_for(ev.code) & (1u << slot))) return Status::unsupported_event;
    if (ev.qualifier & ~kQualifierBits) return Status::bad_argument;
    if (ev.qualifier && !takes_threshold(ev.code)) return Status::bad_argument;
    if (ev.options & ~kPmlcaFreezeConditions) return Status::bad_argument;
    return Status::ok;
  }

 private:
  static inline CoreChoice<Core> core_{};

  // PMLCan: frozen, the event and freeze conditions; PMLCbn: the threshold (CRM 7.2.3, 7.2.5).
  template <unsigned n>
  static void write_event(EventConfig ev) {
    R::write(pmlca_fc<PMLCa<n>>(1), pmlca_event<PMLCa<n>>.runtime(ev.code),
             pmlca_fcs<PMLCa<n>>.runtime((ev.options & kFreezeSupervisor) != 0),
             pmlca_fcu<PMLCa<n>>.runtime((ev.options & kFreezeUser) != 0),
             pmlca_fcm1<PMLCa<n>>.runtime((ev.options & kFreezeMarked) != 0),
             pmlca_fcm0<PMLCa<n>>.runtime((ev.options & kFreezeUnmarked) != 0));
    R::write(pmlcb_threshold<PMLCb<n>>.runtime(ev.qualifier & 0x3Fu),
             pmlcb_threshmul<PMLCb<n>>.runtime((ev.qualifier >> 8) & 0x7u));
  }

  // Event 90 exists on e500v2 only (CRM 9.3.2, "Performance Monitor Time Base Event"); elsewhere
  // the event table is the same.
  static bool on_this_core(std::uint32_t code) {
    return code != kEventTimeBaseTransition || core_.core == Core::e500v2;
  }

  // Clears PMGC0[FAC] (g: PMGC0 as read, interrupts masked since), unless FCECE is set and an
  // enabled condition exists (bit 31 with CE). Table 7-3 lets the counters count "only until an
  // enabled condition or event occurs" and defines the condition as a state (msb = 1 and CE = 1):
  // silicon that reads it so sets FAC again at once; silicon that freezes only when a condition
  // appears would let them run on past it. Kept set, both hold the freeze until the condition is
  // acknowledged (clear_overflow), which is what FCECE asks. release_ is the plain release until
  // set_freeze_on_condition points it at the check: a firmware that never sets FCECE (nothing
  // else in the driver does) links no scan of the counters.
  static void release(Snapshot<PMGC0> g) { release_(g.raw); }
  static void release_plain(u32 g) { R::modify_from(Snapshot<PMGC0>{g}, pmgc0_fac<>(0)); }
  static void release_unless_held(u32 g) {
    if (Snapshot<PMGC0>{g}.test(pmgc0_fcece<>) && enabled_conditions() != 0) return;
    release_plain(g);
  }
  static inline void (*release_)(u32) = &release_plain;
  // Slots with an enabled condition: bit 31 set and PMLCan[CE] (CRM 7.4).
  static std::uint32_t enabled_conditions() {
    std::uint32_t m = 0;
    each_slot(kAllSlots, [&](auto n) {
      if (R::read(pmc_ov<PMC<n>>) && R::read(pmlca_ce<PMLCa<n>>)) m |= 1u << n;
    });
    return m;
  }

  // Every PMGC0 read-modify-write runs with interrupts masked. The e500 clears PMGC0[PMIE] when it
  // takes the performance monitor interrupt (Table 7-3); an interrupt taken between the read and
  // the write would have its PMIE=0 overwritten by the stale 1, and a handler that chose not to
  // re-arm would get a second interrupt. Masked, the interrupt is taken after the write instead.
  template <class... FV>
  static void update_pmgc0(FV... fv) {
    IrqGuard guard;
    R::modify(fv...);
  }

  // PMLCan[FC] = fc for the slots in mask, one read and one write each: chain highs (event 82-85)
  // first when releasing, last when freezing. One slot known at compile time has no order to
  // keep: one read-modify-write and no dispatch (bench/footprint, "minimal").
  [[gnu::always_inline]] static void set_fc(std::uint32_t mask, std::uint32_t fc) {
    if (__builtin_constant_p(mask) && mask != 0 && (mask & (mask - 1)) == 0) {
      for_slot<kCounters>(static_cast<unsigned>(__builtin_ctz(mask)),
                          [&](auto n) { R::modify(pmlca_fc<PMLCa<n>>.runtime(fc)); });
      return;
    }
    set_fc_ordered(mask, fc);
  }
  static void set_fc_ordered(std::uint32_t mask, std::uint32_t fc) {
    std::uint32_t pmlca[kCounters]{};
    std::uint32_t highs = 0;
    each_slot(mask, [&](auto n) {
      pmlca[n] = R::template read_raw<PMLCa<n>>();
      const std::uint32_t ev = pmlca_event<PMLCa<n>>.extract(pmlca[n]);
      if (ev >= kEventPmcOverflowBase && ev < kEventPmcOverflowBase + kCounters) highs |= 1u << n;
    });
    auto put = [&](auto n) { R::modify_from(Snapshot<PMLCa<n>>{pmlca[n]}, pmlca_fc<PMLCa<n>>.runtime(fc)); };
    each_slot(fc ? mask & ~highs : mask & highs, put);
    each_slot(fc ? mask & highs : mask & ~highs, put);
  }

  // Counting a real event on an unfrozen counter right now (reset state: FC=0 but EVENT=0).
  static bool counting(unsigned slot) {
    bool live = false;
    for_slot<kSlots>(slot, [&](auto n) {
      const auto a = R::template read<PMLCa<n>>();
      live = !a.test(pmlca_fc<PMLCa<n>>) && a.get(pmlca_event<PMLCa<n>>) != 0;
    });
    return live && !R::read(pmgc0_fac<>);
  }
};

}  // namespace pmu::e500
