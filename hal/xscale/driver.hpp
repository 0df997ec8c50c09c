#pragma once
// XScale core PMU driver: pmu::xscale::Xsc2<Bus> (4 counters) and Xsc1<Bus> (2 counters).
//
// Slot map (prof::Backend numbering): slot 0 = CCNT, slot 1 + n = PMNn. Xsc2: 5 slots, Xsc1: 3.
// Every slot is 32 bits wide and wraps to 0, setting its overflow flag. No linking (kLink = none).
//
// One driver for both variants: the logic is the same, and the differences (where the interrupt
// enables, overflow flags and event selects live) stay in two small layouts, Xsc2Layout and
// Xsc1Layout. Drivers hold no asm: the Bus (Cp14Bus on silicon, MockBus in host tests) does.
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
//    flag is cleared. service_overflow() does the stop-read-clear-restart sequence in one call.
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

namespace detail {

template <class Bus, class R>
bool read_traps() {
  return fault::traps([] { (void)Regs<Bus>::template read_raw<R>(); });
}

// Time for a counter to advance during probe(); a volatile loop, no asm.
inline void spin(std::uint32_t n) {
  volatile std::uint32_t i = 0;
  while (i < n) i = i + 1;
}

template <unsigned Slot>
struct Xsc2Counter;
template <> struct Xsc2Counter<0> { using type = xsc2::CCNT; };
template <> struct Xsc2Counter<1> { using type = xsc2::PMN0; };
template <> struct Xsc2Counter<2> { using type = xsc2::PMN1; };
template <> struct Xsc2Counter<3> { using type = xsc2::PMN2; };
template <> struct Xsc2Counter<4> { using type = xsc2::PMN3; };

template <unsigned Slot>
struct Xsc1Counter;
template <> struct Xsc1Counter<0> { using type = xsc1::CCNT; };
template <> struct Xsc1Counter<1> { using type = xsc1::PMN0; };
template <> struct Xsc1Counter<2> { using type = xsc1::PMN1; };

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// XSC2: INTEN, FLAG and EVTSEL are registers of their own; INTEN/FLAG bit n is slot n.
struct Xsc2Layout {
  static constexpr unsigned kPmns = 4;
  static constexpr const PmuCatalog& catalog = kXsc2Catalog;
  using PMNC = xsc2::PMNC;
  using CCNT = xsc2::CCNT;
  static constexpr auto E = xsc2::pmnc::E;
  static constexpr auto P = xsc2::pmnc::P;
  static constexpr auto C = xsc2::pmnc::C;
  static constexpr auto D = xsc2::pmnc::D;
  template <unsigned Slot>
  using Counter = typename detail::Xsc2Counter<Slot>::type;
  static constexpr u32 kFlagRegister = kRegFLAG;  // where the overflow flags are read

  // 31:5 read unpredictable: keep the five flag bits only.
  template <class Bus> static u32 flags() {
    return Regs<Bus>::template read_raw<xsc2::FLAG>() & xsc2::FLAG::w1c_mask;
  }
  // W1C: exactly the named flags are cleared (a write of 0 leaves a flag alone, §8.3).
  template <class Bus> static void clear_flags(u32 slots) {
    Regs<Bus>::template write_raw<xsc2::FLAG>(slots);
  }
  template <class Bus> static u32 take_flags() {
    const u32 f = flags<Bus>();
    if (f != 0) clear_flags<Bus>(f);
    return f;
  }
  template <class Bus> static u32 inten() {
    return Regs<Bus>::template read_raw<xsc2::INTEN>() & xsc2::INTEN::write_mask;
  }
  template <class Bus> static void set_inten(u32 slots, bool on) {
    const u32 cur = inten<Bus>();
    Regs<Bus>::template write_raw<xsc2::INTEN>(on ? (cur | slots) : (cur & ~slots));
  }
  template <class Bus> static u32 event(unsigned pmn) {
    return (Regs<Bus>::template read_raw<xsc2::EVTSEL>() >> (8 * pmn)) & 0xFFu;
  }
  template <class Bus> static void set_event(unsigned pmn, u32 code) {
    using R = Regs<Bus>;
    switch (pmn) {
      case 0: R::modify(xsc2::evtsel::evtCount0(code)); break;
      case 1: R::modify(xsc2::evtsel::evtCount1(code)); break;
      case 2: R::modify(xsc2::evtsel::evtCount2(code)); break;
      case 3: R::modify(xsc2::evtsel::evtCount3(code)); break;
      default: break;
    }
  }

  // --- probe steps (skip registers that trapped) ---
  template <class Bus> static u32 trapped() {
    u32 t = 0;
    if (detail::read_traps<Bus, xsc2::PMNC>()) t |= kRegPMNC;
    if (detail::read_traps<Bus, xsc2::CCNT>()) t |= kRegCCNT;
    if (detail::read_traps<Bus, xsc2::INTEN>()) t |= kRegINTEN;
    if (detail::read_traps<Bus, xsc2::FLAG>()) t |= kRegFLAG;
    if (detail::read_traps<Bus, xsc2::EVTSEL>()) t |= kRegEVTSEL;
    if (detail::read_traps<Bus, xsc2::PMN0>()) t |= kRegPMN0 << 0;
    if (detail::read_traps<Bus, xsc2::PMN1>()) t |= kRegPMN0 << 1;
    if (detail::read_traps<Bus, xsc2::PMN2>()) t |= kRegPMN0 << 2;
    if (detail::read_traps<Bus, xsc2::PMN3>()) t |= kRegPMN0 << 3;
    return t;
  }
  // Stopped, interrupts off, flags clear (flags first, so no stale flag meets an enable);
  // with `reset`, all counters reset to 0.
  template <class Bus> static void quiesce(u32 trapped, bool reset) {
    using R = Regs<Bus>;
    if (reset)
      R::write(E.val<0>(), P.val<1>(), C.val<1>());
    else
      R::write(E.val<0>());
    if (!(trapped & kRegFLAG)) R::template write_raw<xsc2::FLAG>(0x1F);
    if (!(trapped & kRegINTEN)) R::template write_raw<xsc2::INTEN>(0);
  }
  // PMN slots whose event select keeps a written value.
  template <class Bus> static u32 test_selects(u32 trapped) {
    if (trapped & kRegEVTSEL) return 0;
    using namespace xsc2::evtsel;
    constexpr u32 pattern[kPmns] = {event::DC_ACCESS, event::DC_MISS, event::BRANCH,
                                    event::BRANCH_MISPRED};
    Regs<Bus>::write(evtCount0(pattern[0]), evtCount1(pattern[1]), evtCount2(pattern[2]),
                     evtCount3(pattern[3]));
    u32 holds = 0;
    for (unsigned n = 0; n < kPmns; ++n)
      if (event<Bus>(n) == pattern[n]) holds |= 2u << n;
    return holds;
  }
  template <class Bus> static bool test_inten(u32 trapped) {
    if (trapped & (kRegINTEN | kRegFLAG)) return false;  // never enable beside an unclearable flag
    Regs<Bus>::template write_raw<xsc2::INTEN>(0x1F);
    const bool holds = inten<Bus>() == 0x1F;
    Regs<Bus>::template write_raw<xsc2::INTEN>(0);
    return holds;
  }
  template <class Bus> static void select_all(u32 trapped, u32 code) {
    using namespace xsc2::evtsel;
    if (!(trapped & kRegEVTSEL))
      Regs<Bus>::write(evtCount0(code), evtCount1(code), evtCount2(code), evtCount3(code));
  }
};

// ---------------------------------------------------------------------------------------------
// XSC1: enables, flags and event selects are PMNC fields, at bit positions unrelated to slots.
struct Xsc1Layout {
  static constexpr unsigned kPmns = 2;
  static constexpr const PmuCatalog& catalog = kXsc1Catalog;
  using PMNC = xsc1::PMNC;
  using CCNT = xsc1::CCNT;
  static constexpr auto E = xsc1::pmnc::E;
  static constexpr auto P = xsc1::pmnc::P;
  static constexpr auto C = xsc1::pmnc::C;
  static constexpr auto D = xsc1::pmnc::D;
  template <unsigned Slot>
  using Counter = typename detail::Xsc1Counter<Slot>::type;
  static constexpr u32 kFlagRegister = kRegPMNC;

  static constexpr u32 to_slots(u32 pmnc, const u32 (&bit)[3]) {
    u32 s = 0;
    for (unsigned i = 0; i < 3; ++i)
      if (pmnc & bit[i]) s |= 1u << i;
    return s;
  }
  static constexpr u32 to_bits(u32 slots, const u32 (&bit)[3]) {
    u32 b = 0;
    for (unsigned i = 0; i < 3; ++i)
      if (slots & (1u << i)) b |= bit[i];
    return b;
  }
  template <class Bus> static void update(u32 clear_bits, u32 set_bits) {
    Regs<Bus>::template modify_raw<PMNC>(clear_bits, set_bits);
  }

  template <class Bus> static u32 flags() {
    return to_slots(Regs<Bus>::template read_raw<PMNC>(), xsc1::kFlagBit);
  }
  // PMNC read-modify-write that writes 1 only to the named flags: enables, event selects, E and D
  // are written back as read, every other flag as 0 (no change).
  template <class Bus> static void clear_flags(u32 slots) {
    update<Bus>(0, to_bits(slots, xsc1::kFlagBit));
  }
  template <class Bus> static u32 take_flags() {
    const u32 v = Regs<Bus>::template read_raw<PMNC>();
    const u32 f = v & PMNC::w1c_mask;
    if (f != 0) Regs<Bus>::template write_raw<PMNC>((v & ~PMNC::volatile_bits) | f);
    return to_slots(f, xsc1::kFlagBit);
  }
  template <class Bus> static u32 inten() {
    return to_slots(Regs<Bus>::template read_raw<PMNC>(), xsc1::kIntenBit);
  }
  template <class Bus> static void set_inten(u32 slots, bool on) {
    const u32 bits = to_bits(slots, xsc1::kIntenBit);
    update<Bus>(on ? 0 : bits, on ? bits : 0);
  }
  template <class Bus> static u32 event(unsigned pmn) {
    const auto s = Regs<Bus>::template read<PMNC>();
    return pmn == 0 ? s.get(xsc1::pmnc::evtCount0) : s.get(xsc1::pmnc::evtCount1);
  }
  template <class Bus> static void set_event(unsigned pmn, u32 code) {
    const u32 mask = pmn == 0 ? xsc1::pmnc::evtCount0.mask : xsc1::pmnc::evtCount1.mask;
    const u32 offset = pmn == 0 ? xsc1::pmnc::evtCount0.offset : xsc1::pmnc::evtCount1.offset;
    if (pmn < kPmns) update<Bus>(mask, (code << offset) & mask);
  }

  template <class Bus> static u32 trapped() {
    u32 t = 0;
    if (detail::read_traps<Bus, xsc1::PMNC>()) t |= kRegPMNC;
    if (detail::read_traps<Bus, xsc1::CCNT>()) t |= kRegCCNT;
    if (detail::read_traps<Bus, xsc1::PMN0>()) t |= kRegPMN0 << 0;
    if (detail::read_traps<Bus, xsc1::PMN1>()) t |= kRegPMN0 << 1;
    return t;
  }
  template <class Bus> static void quiesce(u32, bool reset) {
    using namespace xsc1::pmnc;
    // One write: stopped, enables and selects 0, every flag cleared (written 1).
    if (reset)
      Regs<Bus>::write(E.val<0>(), P.val<1>(), C.val<1>(), flag_ccnt.val<1>(),
                       flag_pmn0.val<1>(), flag_pmn1.val<1>());
    else
      Regs<Bus>::write(E.val<0>(), flag_ccnt.val<1>(), flag_pmn0.val<1>(), flag_pmn1.val<1>());
  }
  template <class Bus> static u32 test_selects(u32) {
    using namespace xsc1::pmnc;
    update<Bus>(evtCount0.mask | evtCount1.mask,
                evtCount0(event::DC_ACCESS).value << evtCount0.offset |
                    evtCount1(event::DC_MISS).value << evtCount1.offset);
    u32 holds = 0;
    if (event<Bus>(0) == event::DC_ACCESS) holds |= 2u;
    if (event<Bus>(1) == event::DC_MISS) holds |= 4u;
    return holds;
  }
  template <class Bus> static bool test_inten(u32) {
    set_inten<Bus>(0x7, true);
    const bool holds = inten<Bus>() == 0x7;
    set_inten<Bus>(0x7, false);
    return holds;
  }
  template <class Bus> static void select_all(u32, u32 code) {
    set_event<Bus>(0, code);
    set_event<Bus>(1, code);
  }
};

// ---------------------------------------------------------------------------------------------
// The driver proper: static members only, templated on the bus and the variant's layout.
template <class Bus, class L>
struct Pmu {
  using Layout = L;
  using PMNC = typename L::PMNC;
  using CCNT = typename L::CCNT;
  template <unsigned Slot>
  using CounterReg = typename L::template Counter<Slot>;

  static constexpr unsigned kPmns = L::kPmns;
  static constexpr unsigned kSlots = kPmns + 1;  // slot 0 = CCNT, slot 1 + n = PMNn
  static constexpr std::uint32_t kAllSlots = (1u << kSlots) - 1;
  static constexpr std::uint32_t kPmnSlots = kAllSlots & ~1u;
  static constexpr const PmuCatalog& catalog = L::catalog;
  static constexpr LinkKind kLink = LinkKind::none;
  static constexpr std::uint32_t kProbeSpin = 2000;  // busy-loop iterations while probing

  // ---- static description ----
  static constexpr unsigned width(unsigned slot) { return slot < kSlots ? 32u : 0u; }
  // CCNT takes only the pseudo event kCcntEvent; every PMN takes every event of Table 8-12.
  static constexpr std::uint32_t slots_for(std::uint32_t code) {
    if (code == kCcntEvent) return 1u;
    return find_event(catalog, code) != nullptr ? kPmnSlots : 0u;
  }

  // ---- PMNC: enable, reset, divider (each one PMNC read and one write) ----
  static void enable() { Regs<Bus>::modify(L::E.template val<1>()); }
  static void disable() { Regs<Bus>::modify(L::E.template val<0>()); }
  static bool enabled() { return Regs<Bus>::read(L::E) != 0; }
  static void reset_pmns() { Regs<Bus>::modify(L::P.template val<1>()); }   // P: all PMNs to 0
  static void reset_ccnt() { Regs<Bus>::modify(L::C.template val<1>()); }   // C: CCNT to 0
  static void reset_counters() { Regs<Bus>::modify(L::P.template val<1>(), L::C.template val<1>()); }
  // D: CCNT advances once every 64 core cycles (for runs longer than 2^32 cycles).
  static void set_ccnt_divider(bool every_64th) { Regs<Bus>::modify(L::D(every_64th ? 1u : 0u)); }
  static bool ccnt_divider() { return Regs<Bus>::read(L::D) != 0; }
  static Snapshot<PMNC> pmnc() { return Regs<Bus>::template read<PMNC>(); }

  // ---- event selection (evtCountN) ----
  static Status select_event(unsigned pmn, std::uint32_t code) {
    if (pmn >= kPmns) return Status::bad_argument;
    if (code > kMaxEventCode) return Status::unsupported_event;  // e.g. kCcntEvent
    L::template set_event<Bus>(pmn, code);
    return Status::ok;
  }
  static std::uint32_t selected_event(unsigned pmn) {
    return pmn < kPmns ? L::template event<Bus>(pmn) : 0u;
  }

  // ---- counters ----
  // One MRC: the slot is fixed at compile time.
  template <unsigned Slot>
  static std::uint64_t read() {
    static_assert(Slot < kSlots, "slot out of range for this XScale variant");
    return Regs<Bus>::template read_raw<CounterReg<Slot>>();
  }
  static std::uint64_t read(unsigned slot) { return read_dyn(slot); }
  static std::uint32_t ccnt() { return Regs<Bus>::template read_raw<CCNT>(); }
  static std::uint32_t pmn(unsigned n) { return static_cast<std::uint32_t>(read(n + 1)); }
  // Counters are 32 bits: a wider value is masked and reported to pmu::field_error_hook.
  static void write(unsigned slot, std::uint64_t value) { write_dyn(slot, value); }

  // ---- overflow flags and interrupts (slot masks) ----
  static std::uint32_t flags() { return L::template flags<Bus>() & kAllSlots; }
  static void clear_flags(std::uint32_t slots) {
    if ((slots & kAllSlots) != 0) L::template clear_flags<Bus>(slots & kAllSlots);
  }
  static std::uint32_t interrupt_enables() { return L::template inten<Bus>() & kAllSlots; }

  // The overflow sequence: stop, read the flags, clear exactly those (W1C), handle(slots), restart
  // (only if it was running). Counters are frozen while `handle` runs, so it can read them, extend
  // them to 64 bits and preset them. An overflow that lands before the stop is in the flags read;
  // none can land after it. Returns the slots whose flags were taken (handle is not called for 0).
  // Caveat (XSC1 A-stepping erratum, pmu-facts §2): a second overflow may clear an earlier flag in
  // hardware; no sequence can recover that flag.
  template <class F>
  static std::uint32_t service_overflow(F&& handle) {
    const u32 v = Regs<Bus>::template read_raw<PMNC>();
    const bool was_running = L::E.extract(v) != 0;
    if (was_running) Regs<Bus>::template write_raw<PMNC>(v & ~(PMNC::volatile_bits | L::E.mask));
    const u32 taken = L::template take_flags<Bus>() & kAllSlots;
    if (taken != 0) handle(taken);
    if (was_running) enable();
    return taken;
  }

  // ---- prof::Backend ----
  // Finds out at run time what this part really has: which registers trap, which event selects
  // hold, whether the interrupt enables hold, which counters advance over a busy loop, whether a
  // CCNT overflow sets its flag. Leaves the PMU stopped, counters 0, interrupts off, flags clear.
  // Call it before any other access on a part that may lack the PMU (those accesses would trap).
  static ProbeResult probe() {
    ProbeReport r{};
    r.trapped = L::template trapped<Bus>();
    if (r.trapped & (kRegPMNC | kRegCCNT)) {
      r.result = {Status::pmu_absent, 0};
      return remember(r);
    }
    L::template quiesce<Bus>(r.trapped, false);
    r.select_holds = L::template test_selects<Bus>(r.trapped);
    r.inten_holds = L::template test_inten<Bus>(r.trapped);

    // Does each counter advance? Read while running, and compare differences, not resets: QEMU
    // ignores C and reads CCNT as 0 while stopped.
    L::template select_all<Bus>(r.trapped, event::INSTR);
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
    if ((working & 1u) && !(r.trapped & L::kFlagRegister)) {
      Regs<Bus>::template write_raw<CCNT>(0xFFFFFFFFu);
      enable();
      detail::spin(kProbeSpin);
      disable();
      r.ccnt_overflow = (flags() & 1u) != 0;
    }

    L::template quiesce<Bus>(r.trapped, true);
    r.result = {working != 0 ? Status::ok : Status::pmu_absent, working};
    return remember(r);
  }
  static const ProbeReport& probe_report() { return s_report; }
  // Tests: act as if probe() had never run (configure() then trusts the manual).
  static void forget_probe() {
    s_report = ProbeReport{};
    s_probed = false;
  }

  // qualifier and options must be 0: XScale events have none. Does not start or clear the counter.
  static Status configure(unsigned slot, EventConfig ev) {
    if (slot >= kSlots) return Status::bad_argument;
    if (ev.qualifier != 0 || ev.options != 0) return Status::bad_argument;
    if ((slots_for(ev.code) & (1u << slot)) == 0) return Status::unsupported_event;
    if (s_probed && !(s_report.result.working_slots & (1u << slot)))
      return Status::counter_unavailable;
    if (enabled()) return Status::busy;  // E is global: reprogramming would disturb the others
    if (slot != 0) L::template set_event<Bus>(slot - 1, ev.code);
    return Status::ok;
  }
  // PMNC.E is one switch for all counters: any slot in the mask starts (stops) them all.
  static void start(std::uint32_t mask) {
    if (mask & kAllSlots) enable();
  }
  static void stop(std::uint32_t mask) {
    if (mask & kAllSlots) disable();
  }
  static std::uint32_t overflow_status() { return flags(); }
  static void clear_overflow(std::uint32_t mask) { clear_flags(mask); }
  static void set_overflow_interrupt(std::uint32_t mask, bool on) {
    if ((mask & kAllSlots) != 0) L::template set_inten<Bus>(mask & kAllSlots, on);
  }
  static Status link(unsigned lo, unsigned hi) {
    return (lo < kSlots && hi < kSlots) ? Status::not_linkable : Status::bad_argument;
  }

 private:
  template <unsigned S = 0>
  static std::uint64_t read_dyn(unsigned slot) {
    if constexpr (S < kSlots) {
      return slot == S ? read<S>() : read_dyn<S + 1>(slot);
    } else {
      (void)slot;
      return 0;
    }
  }
  template <unsigned S = 0>
  static void write_dyn(unsigned slot, std::uint64_t value) {
    if constexpr (S < kSlots) {
      using R = CounterReg<S>;
      if (slot != S) return write_dyn<S + 1>(slot, value);
      if (value > 0xFFFFFFFFull && field_error_hook) field_error_hook(R::name, "value", value);
      Regs<Bus>::template write_raw<R>(static_cast<std::uint32_t>(value));
    } else {
      (void)slot;
      (void)value;
    }
  }

  static bool slot_trapped(u32 trapped, unsigned slot) {
    return (trapped & (slot == 0 ? u32{kRegCCNT} : u32{kRegPMN0} << (slot - 1))) != 0;
  }
  static ProbeResult remember(const ProbeReport& r) {
    s_report = r;
    s_probed = true;
    return r.result;
  }

  static inline ProbeReport s_report{};
  static inline bool s_probed = false;
};

template <class Bus>
struct Xsc2 : Pmu<Bus, Xsc2Layout> {};
template <class Bus>
struct Xsc1 : Pmu<Bus, Xsc1Layout> {};

}  // namespace pmu::xscale
