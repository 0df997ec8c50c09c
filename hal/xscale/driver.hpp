#pragma once
// XScale core PMU driver: pmu::xscale::Xsc2<Bus> (4 counters) and Xsc1<Bus> (2 counters).
//
// Slot map (prof::Backend numbering): slot 0 = CCNT, slot 1 + n = PMNn. Xsc2: 5 slots, Xsc1: 3.
// Every slot is 32 bits wide and wraps to 0, setting its overflow flag. No linking (kLink = none).
//
// One driver for both variants: the logic is the same, and the differences (where the interrupt
// enables, overflow flags and event selects live) are data: two register views, Xsc2Regs and
// Xsc1Regs, whose per-slot field arrays (regs.hpp) place each slot's bit or byte. Counter reads
// and writes come from the kit's CounterDriver. No asm: the Bus (Cp14Bus on silicon, MockBus in
// host tests) has it.
//
// Rules from the core manual (chapter 8) that shape the code:
//  - PMNC.E starts and stops all counters at once (§8.2.4, §8.3): start(mask)/stop(mask) act on the
//    whole PMU whenever mask names any slot.
//  - P and C are actions that read back unpredictable: every read-modify-write of PMNC writes them
//    as 0 unless asked (PMNC's Layout.action, honoured by Regs::modify/modify_raw), or one enable()
//    could reset the counters.
//  - Overflow flags are write-1-to-clear. On XSC1 they share PMNC with the enables and event
//    selects, so every PMNC update writes the flags as 0 (no change) unless told to clear one.
//  - Counters keep counting after an overflow (§8.2.4.1); the interrupt stays asserted until the
//    flag is cleared. The stop-read-clear-restart sequence is the profiler's (prof::Sampler).
//  - What a part really has is learned at run time by probe(), never from an #ifdef: QEMU 7.2's
//    PXA270 has only PMNC and CCNT (PMN3 traps), and its CCNT reads 0 while stopped.
//
// Typical use:
//   using Pmu = pmu::xscale::Xsc2<pmu::Cp14Bus>;
//   if (Pmu::probe().status != pmu::Status::ok) ...;     // learn what this part really has
//   Pmu::configure(1, {pmu::xscale::event::DC_MISS});     // PMN0 counts D-cache misses
//   Pmu::reset_counters(); Pmu::start(0b11); work();
//   auto cycles = Pmu::read<0>(), misses = Pmu::read<1>();  // read before stop(): see QEMU above
//   Pmu::stop(0b11);
#include <cstdint>
#include <type_traits>

#include "hal/core/driver.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/probe_memo.hpp"
#include "hal/core/reg.hpp"
#include "hal/xscale/events.hpp"
#include "hal/xscale/regs.hpp"

namespace pmu::xscale {

// Registers a probe found trapping (ProbeReport::trapped).
enum RegisterBit : std::uint32_t {
  kRegPMNC = 1u << 0,
  kRegCCNT = 1u << 1,
  kRegINTEN = 1u << 2,   // XSC2 only
  kRegFLAG = 1u << 3,    // XSC2 only
  kRegEVTSEL = 1u << 4,  // XSC2 only
  kRegPMN0 = 1u << 5,    // PMNn = kRegPMN0 << n
};

// What probe() learned, beyond the prof::ProbeResult it returns.
struct ProbeReport {
  ProbeResult result{};            // status, and slots whose counter really advanced
  std::uint32_t trapped = 0;       // RegisterBit: registers whose read trapped
  std::uint32_t select_holds = 0;  // PMN slots whose evtCount field kept a written value
  bool inten_holds = false;        // the interrupt enables kept a written value
  bool ccnt_overflow = false;      // CCNT preset to 0xFFFFFFFF wrapped and set its flag
  // A stopped CCNT keeps its value (the manual). False on QEMU 7.2, whose CCNT reads 0 while
  // PMNC.E=0: there, read counters before stopping them.
  bool ccnt_holds_when_stopped = false;
};

// The two variants as data: where each register and per-slot field lives.
struct Xsc2Regs {
  using PMNC = xsc2::PMNC;
  using CCNT = xsc2::CCNT;
  using Counters = RegList<xsc2::CCNT, xsc2::PMN0, xsc2::PMN1, xsc2::PMN2, xsc2::PMN3>;
  static constexpr auto E = xsc2::pmnc::E;
  static constexpr auto P = xsc2::pmnc::P;
  static constexpr auto C = xsc2::pmnc::C;
  static constexpr auto D = xsc2::pmnc::D;
  static constexpr auto inten = xsc2::inten_slot;
  static constexpr auto flag = xsc2::flag_slot;
  static constexpr auto evt = xsc2::evt_count;
  static constexpr const PmuCatalog& catalog = kXsc2Catalog;
};
struct Xsc1Regs {
  using PMNC = xsc1::PMNC;
  using CCNT = xsc1::CCNT;
  using Counters = RegList<xsc1::CCNT, xsc1::PMN0, xsc1::PMN1>;
  static constexpr auto E = xsc1::pmnc::E;
  static constexpr auto P = xsc1::pmnc::P;
  static constexpr auto C = xsc1::pmnc::C;
  static constexpr auto D = xsc1::pmnc::D;
  static constexpr auto inten = xsc1::inten_slot;
  static constexpr auto flag = xsc1::flag_slot;
  static constexpr auto evt = xsc1::evt_count;
  static constexpr const PmuCatalog& catalog = kXsc1Catalog;
};

// XSC3 keeps the XSC2 register map (Marvell's PXA3xx BSP, FreeBSD): only the catalog differs.
struct Xsc3Regs : Xsc2Regs {
  static constexpr const PmuCatalog& catalog = kXsc3Catalog;
};
// The 80200: XSC1 registers with its product events 0x10-0x16 (events.hpp).
struct X80200Regs : Xsc1Regs {
  static constexpr const PmuCatalog& catalog = k80200Catalog;
};

namespace detail {
// Time for a counter to advance during probe(); a volatile loop, no asm.
inline void spin(std::uint32_t n) {
  volatile std::uint32_t i = 0;
  while (i < n) i = i + 1;
}
}  // namespace detail

// The driver proper: static members only, templated on the bus and the variant's register view.
template <class Bus, class V>
struct Pmu : CounterDriver<Bus, typename V::Counters, 32>, ProbeMemo<ProbeReport, Pmu<Bus, V>> {
  using Base = CounterDriver<Bus, typename V::Counters, 32>;
  // probe_report() and forget_probe(): what probe() found (hal/core/probe_memo.hpp).
  using Memo = ProbeMemo<ProbeReport, Pmu>;
  using Base::kAllSlots;
  using Base::kSlots;
  using Base::read;
  using Base::write;
  using R = Regs<Bus>;
  using PMNC = typename V::PMNC;
  using CCNT = typename V::CCNT;
  template <unsigned Slot>
  using CounterReg = typename V::Counters::template at<Slot>;
  using FlagReg = typename decltype(V::flag)::reg;
  using IntenReg = typename decltype(V::inten)::reg;
  using EvtReg = typename decltype(V::evt)::reg;

  static constexpr unsigned kPmns = kSlots - 1;  // slot 0 = CCNT, slot 1 + n = PMNn
  static constexpr std::uint32_t kPmnSlots = kAllSlots & ~1u;
  static constexpr const PmuCatalog& catalog = V::catalog;
  static constexpr LinkKind kLink = LinkKind::none;
  static constexpr Capabilities kCapabilities{.overflow = true, .interrupt = true, .link = false, .sampling = true};
  static constexpr std::uint32_t kProbeSpin = 2000;  // busy-loop iterations while probing

  // CCNT takes only the pseudo event kCcntEvent; every PMN takes every event of Table 8-12.
  static constexpr std::uint32_t slots_for(std::uint32_t code) {
    if (code == kCcntEvent) return 1u;
    return has_event(catalog, code) ? kPmnSlots : 0u;
  }

  // ---- PMNC: enable, reset, divider (each one PMNC read and one write) ----
  static void enable() { R::modify(V::E(1)); }
  static void disable() { R::modify(V::E(0)); }
  static bool enabled() { return R::read(V::E) != 0; }
  static void reset_pmns() { R::modify(V::P(1)); }  // P: all PMNs to 0
  static void reset_ccnt() { R::modify(V::C(1)); }  // C: CCNT to 0
  static void reset_counters() { R::modify(V::P(1), V::C(1)); }
  // D: CCNT advances once every 64 core cycles (for runs longer than 2^32 cycles).
  static void set_ccnt_divider(bool every_64th) { R::modify(V::D.runtime(every_64th ? 1u : 0u)); }
  static bool ccnt_divider() { return R::read(V::D) != 0; }
  static Snapshot<PMNC> pmnc() { return R::template read<PMNC>(); }

  // ---- event selection (evtCountN) ----
  // busy while PMNC.E is set: the core manual has the counters disabled while their event
  // selection changes (chapter 8), so stop() first.
  static Status select_event(unsigned pmn, std::uint32_t code) {
    if (pmn >= kPmns) return Status::bad_argument;
    if (code > kMaxEventCode) return Status::unsupported_event;  // e.g. kCcntEvent
    const auto sel = V::evt.at(pmn, code);
    if constexpr (std::is_same_v<EvtReg, PMNC>) {  // XSC1: E and the selects in one read
      const auto pmnc = R::template read<PMNC>();
      if (pmnc.test(V::E)) return Status::busy;
      R::modify_from(pmnc, sel);
    } else {
      if (enabled()) return Status::busy;
      R::modify(sel);
    }
    return Status::ok;
  }
  static std::uint32_t selected_event(unsigned pmn) {
    return pmn < kPmns ? R::template read<EvtReg>().get(V::evt, pmn) : 0u;
  }

  // ---- counters (read<S>(), read(slot), write(slot, v): CounterDriver) ----
  static std::uint32_t ccnt() { return R::template read_raw<CCNT>(); }
  static std::uint32_t pmn(unsigned n) { return static_cast<std::uint32_t>(read(n + 1)); }

  // ---- overflow flags and interrupts (slot masks) ----
  // Flags are W1C: the write names exactly the flags to clear (§8.2.4, §8.3). On XSC1 they share
  // PMNC with the enables and selects, so the update is a read-modify-write that writes every
  // other flag as 0 (the engine's W1C rule); on XSC2 FLAG holds only flags and one write does.
  static std::uint32_t flags() { return V::flag.slots_set(R::template read_raw<FlagReg>()); }
  static void clear_flags(std::uint32_t slots) {
    if ((slots & kAllSlots) == 0) return;
    write_flags(slots);
  }
  // The W1C write itself; no slot in `slots` changes nothing (XSC1: PMNC written back as read).
  static void write_flags(std::uint32_t slots) {
    if constexpr (FlagReg::write_mask == FlagReg::w1c_mask)
      R::write(V::flag.each(slots & kAllSlots, 1));
    else
      R::modify(V::flag.each(slots & kAllSlots, 1));
  }
  static std::uint32_t interrupt_enables() {
    return V::inten.slots_set(R::template read_raw<IntenReg>());
  }

  // ---- prof::Backend ----
  // Finds out at run time what this part really has: which registers trap, which event selects
  // hold, whether the interrupt enables hold, which counters advance over a busy loop, whether a
  // CCNT overflow sets its flag. Leaves the PMU stopped, counters 0, interrupts off, flags clear.
  // Call it before any other access on a part that may lack the PMU (those accesses would trap).
  static ProbeResult probe() {
    ProbeReport r{};
    r.trapped = trapped_registers();
    if (r.trapped & (kRegPMNC | kRegCCNT)) {
      r.result = {Status::pmu_absent, 0};
      return Memo::remember(r);
    }
    quiesce(r.trapped, false);
    r.select_holds = test_selects(r.trapped);
    r.inten_holds = test_inten(r.trapped);

    // Does each counter advance? Read while running, and compare differences, not resets: QEMU
    // ignores C and reads CCNT as 0 while stopped.
    if (!(r.trapped & reg_bit<EvtReg>())) put(V::evt.each(kAllSlots >> 1, event::INSTR));
    std::uint32_t before[kSlots]{};
    std::uint32_t working = 0;
    enable();
    for (unsigned s = 0; s < kSlots; ++s)
      if (!slot_trapped(r.trapped, s)) before[s] = static_cast<std::uint32_t>(read(s));
    detail::spin(kProbeSpin);
    for (unsigned s = 0; s < kSlots; ++s) {
      if (slot_trapped(r.trapped, s)) continue;
      if (s != 0 && !(r.select_holds & (1u << s))) continue;  // cannot choose what it counts
      if (static_cast<std::uint32_t>(read(s)) != before[s]) working |= 1u << s;
    }
    const std::uint32_t last = ccnt();
    disable();
    const std::uint32_t stopped = ccnt();
    detail::spin(kProbeSpin / 8);
    r.ccnt_holds_when_stopped = (working & 1u) && ccnt() == stopped && stopped - last < 4096u;

    // Forced overflow: CCNT one cycle before wrapping must set its flag.
    if ((working & 1u) && !(r.trapped & reg_bit<FlagReg>())) {
      R::template write_raw<CCNT>(0xFFFFFFFFu);
      enable();
      detail::spin(kProbeSpin);
      disable();
      r.ccnt_overflow = (flags() & 1u) != 0;
    }

    quiesce(r.trapped, true);
    // Park every PMN on the power-saving event until configure() gives it one.
    if (!(r.trapped & reg_bit<EvtReg>())) put(V::evt.each(kAllSlots >> 1, event::POWER_SAVE));
    r.result = {working != 0 ? Status::ok : Status::pmu_absent, working};
    return Memo::remember(r);
  }

  // qualifier and options must be 0: XScale events have none. Does not start or clear the counter.
  static Status configure(unsigned slot, EventConfig ev) {
    if (const Status s = check_event(slot, ev); s != Status::ok) return s;
    return program(slot, ev);
  }
  // configure() checked at compile time, then program() (configure_fixed, hal/core/driver.hpp).
  template <unsigned Slot, EventConfig Ev>
  static Status configure() {
    return configure_fixed<Pmu, Slot, Ev>();
  }
  // What configure() does once the event is known valid.
  static Status program(unsigned slot, EventConfig ev) {
    if (Memo::found_unavailable(slot)) return Status::counter_unavailable;
    if (enabled()) return Status::busy;  // E is global: reprogramming would disturb the others
    if (slot != 0) R::modify(V::evt.at(slot - 1, ev.code));
    return Status::ok;
  }
  // configure()'s validation, without touching the hardware.
  static constexpr Status check_event(unsigned slot, EventConfig ev) {
    if (slot >= kSlots) return Status::bad_argument;
    if (ev.qualifier != 0 || ev.options != 0) return Status::bad_argument;
    if ((slots_for(ev.code) & (1u << slot)) == 0) return Status::unsupported_event;
    return Status::ok;
  }
  // PMNC.E is one switch for all counters: any slot in the mask starts (stops) them all.
  // Declared for users that share the PMU (prof::Multiplexer beside a Profiler).
  static constexpr bool kGlobalEnable = true;
  static void start(std::uint32_t mask) {
    if (mask & kAllSlots) enable();
  }
  static void stop(std::uint32_t mask) {
    if (mask & kAllSlots) disable();
  }
  static std::uint32_t overflow_status() { return flags(); }
  static void clear_overflow(std::uint32_t mask) { clear_flags(mask); }
  // Sampling's common case (hal/core/driver.hpp): the flag's W1C write, then the counter rewound
  // (XSC2 FLAG: one store; XSC1: PMNC's read-modify-write, the other flags written as 0). The flag
  // stays set when a whole period came since the overflow: the interrupt is a level (PXA27x), so
  // it is taken again for the next period.
  template <unsigned Slot>
  static void rearm(std::uint64_t period) {
    Base::template rewind<Slot>(period, [](std::uint32_t ack) { write_flags(ack); });
  }
  static void set_overflow_interrupt(std::uint32_t mask, bool on) {
    if ((mask & kAllSlots) != 0) R::modify(V::inten.each(mask & kAllSlots, on ? 1u : 0u));
  }
  static Status link(unsigned lo, unsigned hi) {
    return (lo < kSlots && hi < kSlots) ? Status::not_linkable : Status::bad_argument;
  }

 private:
  // Which RegisterBit a register's trap sets (XSC1 keeps INTEN, FLAG and EVTSEL in PMNC).
  template <class Reg>
  static constexpr std::uint32_t reg_bit() {
    if constexpr (std::is_same_v<Reg, PMNC>) return kRegPMNC;
    else if constexpr (std::is_same_v<Reg, xsc2::INTEN>) return kRegINTEN;
    else if constexpr (std::is_same_v<Reg, xsc2::FLAG>) return kRegFLAG;
    else return kRegEVTSEL;
  }
  template <class Reg>
  static bool traps() {
    return fault::traps([] { (void)R::template read_raw<Reg>(); });
  }
  static std::uint32_t trapped_registers() {
    std::uint32_t t = 0;
    if (traps<PMNC>()) t |= kRegPMNC;
    if (traps<CCNT>()) t |= kRegCCNT;
    if constexpr (!std::is_same_v<IntenReg, PMNC>) {
      if (traps<IntenReg>()) t |= kRegINTEN;
      if (traps<FlagReg>()) t |= kRegFLAG;
      if (traps<EvtReg>()) t |= kRegEVTSEL;
    }
    for_each_slot<kSlots>(kPmnSlots, [&](auto s) {
      constexpr unsigned n = decltype(s)::value;
      if constexpr (n > 0)
        if (traps<CounterReg<n>>()) t |= std::uint32_t{kRegPMN0} << (n - 1);
    });
    return t;
  }
  // A value that sets every writable bit of its register is one write; else read-modify-write.
  template <class BV>
  static void put(BV bv) {
    if (bv.mask == BV::reg::write_mask)
      R::write(bv);
    else
      R::modify(bv);
  }
  // Stopped, interrupts off, flags clear (flags first, so no stale flag meets an enable); with
  // `reset`, all counters reset to 0. XSC1: one PMNC write does it all.
  static void quiesce(std::uint32_t trapped, bool reset) {
    const auto flags_all = V::flag.each(kAllSlots, 1);
    if constexpr (std::is_same_v<FlagReg, PMNC>) {
      if (reset) R::write(V::E(0), V::P(1), V::C(1), flags_all);
      else R::write(V::E(0), flags_all);
    } else {
      if (reset) R::write(V::E(0), V::P(1), V::C(1));
      else R::write(V::E(0));
      if (!(trapped & kRegFLAG)) R::write(flags_all);
      if (!(trapped & kRegINTEN)) R::write(V::inten.each(kAllSlots, 0));
    }
  }
  // PMN slots whose event select keeps a written value.
  static std::uint32_t test_selects(std::uint32_t trapped) {
    if (trapped & reg_bit<EvtReg>()) return 0;
    constexpr std::uint32_t pattern[] = {event::DC_ACCESS, event::DC_MISS, event::BRANCH,
                                         event::BRANCH_MISPRED};
    auto bv = V::evt.each(0, 0);
    for (unsigned n = 0; n < kPmns; ++n) {
      const auto e = V::evt.at(n, pattern[n]);
      bv.mask |= e.mask;
      bv.bits |= e.bits;
    }
    put(bv);
    std::uint32_t holds = 0;
    for (unsigned n = 0; n < kPmns; ++n)
      if (selected_event(n) == pattern[n]) holds |= 2u << n;
    return holds;
  }
  static bool test_inten(std::uint32_t trapped) {
    // Never enable beside an unclearable flag.
    if (trapped & (reg_bit<IntenReg>() | reg_bit<FlagReg>())) return false;
    set_overflow_interrupt(kAllSlots, true);
    const bool holds = interrupt_enables() == kAllSlots;
    set_overflow_interrupt(kAllSlots, false);
    return holds;
  }
  static bool slot_trapped(std::uint32_t trapped, unsigned slot) {
    return (trapped & (slot == 0 ? std::uint32_t{kRegCCNT} : std::uint32_t{kRegPMN0} << (slot - 1))) != 0;
  }
};

template <class Bus>
struct Xsc2 : Pmu<Bus, Xsc2Regs> {};
template <class Bus>
struct Xsc1 : Pmu<Bus, Xsc1Regs> {};
template <class Bus>
struct Xsc3 : Pmu<Bus, Xsc3Regs> {};
template <class Bus>
struct X80200 : Pmu<Bus, X80200Regs> {};

}  // namespace pmu::xscale
