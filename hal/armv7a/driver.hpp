#pragma once
// ARMv7-A Performance Monitors driver: pmu::armv7a::Pmu<Bus, N, Catalog>, N event counters (PMCR.N
// of the part: CortexA15/CortexA9 6, CortexA7/CortexA8 4) and the events the part implements
// (Catalog: the core's own for CortexA15/A9/A7, every common event for CortexA8 and a bare Pmu).
//
// Slot map: slot 0 = PMCCNTR (CPU_CYCLES only), slot 1 + n = event counter n (PMXEVCNTR with
// PMSELR.SEL = n). Every slot is 32 bits and wraps to 0, setting its PMOVSR bit. No linking: the
// ARMv7 PMU has no chaining (kLink = none).
//
// Rules from the manual (ARMv7 ARM C12, B4.1) that shape the code:
//  - A counter counts while PMCR.E and its PMCNTENSET bit are both set. start(mask) sets the slots'
//    enables (one PMCNTENSET write) and PMCR.E; stop(mask) clears the slots' enables only (one
//    PMCNTENCLR write), so stopping some counters never stops the others (no kGlobalEnable).
//  - The enables, interrupt enables and overflow flags have set/clear (or W1C) registers: every
//    change is one write, never a read-modify-write, so none can undo another's change.
//  - Event counters are select-then-access (regs.hpp): the interrupt contract's InterruptScope
//    (hal/core/driver.hpp) saves PMSELR on an interrupt handler's entry and restores it on exit,
//    so a thread-side access the interrupt split still reaches the counter it selected.
//  - PMCR.P and PMCR.C are actions that read as zero: every PMCR modify writes them as 0 unless
//    named (Layout.action).
//  - What the part really has is learned at run time by probe(): PMCR.N event counters (slots past
//    it are unavailable), and which counters advance.
// No asm: the Bus (ArmCpBus on silicon, with its ISB; MockBus in host tests) has it.
#include <cstdint>

#include "hal/armv7a/events.hpp"
#include "hal/armv7a/regs.hpp"
#include "hal/core/driver.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/probe_memo.hpp"
#include "hal/core/reg.hpp"

namespace pmu::armv7a {

// What probe() learned, beyond the ProbeResult it returns.
struct ProbeReport {
  ProbeResult result{};
  unsigned counters = 0;          // PMCR.N
  std::uint32_t imp = 0, idcode = 0;
  std::uint32_t pmceid0 = 0, pmceid1 = 0;  // common events implemented (0 on PMUv1 parts)
};

namespace detail {
template <unsigned N, class Seq>
struct CounterList;
template <unsigned N, std::size_t... I>
struct CounterList<N, std::index_sequence<I...>> {
  using type = RegList<PMCCNTR, typename PMXEVCNTR::template reg<I>...>;
};
inline void spin(std::uint32_t n) {
  volatile std::uint32_t i = 0;
  while (i < n) i = i + 1;
}
}  // namespace detail

template <class Bus, unsigned N = 6, const PmuCatalog& Catalog = kCatalog<N>>
struct Pmu : CounterDriver<Bus, typename detail::CounterList<N, std::make_index_sequence<N>>::type, 32>,
             ProbeMemo<ProbeReport, Pmu<Bus, N, Catalog>> {
  static_assert(N >= 1 && N <= kMaxEventCounters, "ARMv7-A: 1 to 31 event counters");
  static_assert(Catalog.num_counters == N, "ARMv7-A: the catalog is for another number of event counters");
  using Base = CounterDriver<Bus, typename detail::CounterList<N, std::make_index_sequence<N>>::type, 32>;
  // probe_report() and forget_probe(): what probe() found (hal/core/probe_memo.hpp).
  using Memo = ProbeMemo<ProbeReport, Pmu>;
  using Base::kAllSlots;
  using Base::kSlots;
  using Base::read;
  using Base::write;
  using R = Regs<Bus>;

  static constexpr const PmuCatalog& catalog = Catalog;
  static constexpr LinkKind kLink = LinkKind::none;
  static constexpr Capabilities kCapabilities{.overflow = true, .interrupt = true, .link = false, .sampling = true};
  static constexpr std::uint32_t kEventSlots = kAllSlots & ~1u;
  static constexpr std::uint32_t kProbeSpin = 2000;

  // PMCCNTR counts CPU_CYCLES only; every event counter takes every event of the part's catalog
  // (an event the core does not implement is refused: unsupported_event, or a compile error).
  static constexpr std::uint32_t slots_for(std::uint32_t code) {
    if (!has_event(catalog, code)) return 0;
    return (code == event::CPU_CYCLES ? 1u : 0u) | kEventSlots;
  }

  // The interrupt contract (hal/core/driver.hpp): PMSELR is the state event-counter accesses
  // share. Saved on a handler's entry, written back on its exit: two accesses per interrupt.
  struct InterruptScope {
    InterruptScope() : sel(R::template read_raw<PMSELR>()) {}
    ~InterruptScope() { R::template write_raw<PMSELR>(sel); }
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;
    std::uint32_t sel;
  };

  // ---- PMCR ----
  static void enable() { R::modify(pmcr::E(1)); }
  static void disable() { R::modify(pmcr::E(0)); }
  static bool enabled() { return R::read(pmcr::E) != 0; }
  static void reset_counters() { R::modify(pmcr::P(1), pmcr::C(1)); }
  // D: PMCCNTR advances once every 64 cycles (B4.1 PMCR).
  static void set_ccnt_divider(bool every_64th) { R::modify(pmcr::D.runtime(every_64th ? 1u : 0u)); }
  static unsigned implemented_counters() { return R::read(pmcr::N); }

  // ---- events ----
  static std::uint32_t selected_event(unsigned n) {
    std::uint32_t e = 0;
    for_slot<N>(n, [&](auto i) {
      e = R::template read_raw<typename PMXEVTYPER::template reg<decltype(i)::value>>() & 0xFFu;
    });
    return e;
  }

  // ---- prof::Backend ----
  // Traps on PMCR mean no Performance Monitors Extension. Otherwise PMCR.N says which event
  // counters exist; each (and PMCCNTR) must advance over a busy loop counting CPU_CYCLES. Leaves
  // every counter disabled and 0, interrupts off, flags clear, PMCR.E set.
  static ProbeResult probe() {
    ProbeReport r{};
    if (fault::traps([] { (void)R::template read_raw<PMCR>(); })) {
      r.result = {Status::pmu_absent, 0};
      return Memo::remember(r);
    }
    const auto pmcr = R::template read<PMCR>();
    r.counters = pmcr.get(pmcr::N);
    r.imp = pmcr.get(pmcr::IMP);
    r.idcode = pmcr.get(pmcr::IDCODE);
    // PMCEID0/1 exist from PMUv2 (B4.1 PMCEID0): QEMU 7.2's ARMv7 CPUs trap them. 0: not known.
    if (!fault::traps([&] { r.pmceid0 = R::template read_raw<PMCEID0>(); })) {
      if (fault::traps([&] { r.pmceid1 = R::template read_raw<PMCEID1>(); })) r.pmceid1 = 0;
    } else {
      r.pmceid0 = 0;
    }
    const std::uint32_t present = 1u | (kEventSlots & ((r.counters >= 31 ? ~0u : (1u << r.counters) - 1) << 1));
    quiesce();
    each_event_slot(present, [](auto i) {
      R::template write_raw<typename PMXEVTYPER::template reg<decltype(i)::value - 1>>(event::CPU_CYCLES);
    });
    std::uint32_t before[kSlots]{};
    for (unsigned s = 0; s < kSlots; ++s)
      if (present & (1u << s)) before[s] = static_cast<std::uint32_t>(read(s));
    start(present);
    detail::spin(kProbeSpin);
    stop(present);
    std::uint32_t working = 0;
    for (unsigned s = 0; s < kSlots; ++s)
      if ((present & (1u << s)) && static_cast<std::uint32_t>(read(s)) != before[s]) working |= 1u << s;
    quiesce();
    r.result = {working != 0 ? Status::ok : Status::pmu_absent, working};
    return Memo::remember(r);
  }

  // Slot 0 takes CPU_CYCLES only (nothing to program); an event slot's PMXEVTYPER gets the code.
  // qualifier and options must be 0 (the PMUv2 filter bits are not offered).
  static Status configure(unsigned slot, EventConfig ev) {
    if (const Status s = check_event(slot, ev); s != Status::ok) return s;
    return program(slot, ev);
  }
  // Checked at compile time only (configure_fixed): the catalog's table stays out of the image
  // (footprint).
  template <unsigned Slot, EventConfig Ev>
  static Status configure() {
    static_assert(Ev.code > kMaxEventCode || has_event(catalog, Ev.code),
                  "ARMv7-A configure<Slot, Ev>: this core does not implement the event (not in its TRM's "
                  "event table: hal/armv7a/events.hpp)");
    return configure_fixed<Pmu, Slot, Ev>();
  }
  // configure()'s writes, after its checks (at run time, or at compile time for configure<Slot, Ev>).
  static Status program(unsigned slot, EventConfig ev) {
    if (Memo::found_unavailable(slot)) return Status::counter_unavailable;
    for_slot<kSlots>(slot, [&](auto i) {
      constexpr unsigned s = decltype(i)::value;
      if constexpr (s > 0)
        R::write(EvtCount<s - 1>{}.runtime(ev.code));
    });
    return Status::ok;
  }
  static constexpr Status check_event(unsigned slot, EventConfig ev) {
    if (slot >= kSlots) return Status::bad_argument;
    if (ev.qualifier != 0 || ev.options != 0) return Status::bad_argument;
    if (ev.code > kMaxEventCode) return Status::unsupported_event;
    if ((slots_for(ev.code) & (1u << slot)) == 0) return Status::unsupported_event;
    return Status::ok;
  }
  // One PMCNTENSET write, then PMCR.E (read, and written only when it was clear).
  static void start(std::uint32_t mask) {
    if ((mask & kAllSlots) == 0) return;
    R::template write_raw<PMCNTENSET>(counter_bits(mask & kAllSlots));
    const auto pmcr = R::template read<PMCR>();
    if (!pmcr.test(pmcr::E)) R::modify_from(pmcr, pmcr::E(1));
  }
  static void stop(std::uint32_t mask) {
    if ((mask & kAllSlots) != 0) R::template write_raw<PMCNTENCLR>(counter_bits(mask & kAllSlots));
  }
  static std::uint32_t overflow_status() { return slot_mask(R::template read_raw<PMOVSR>()) & kAllSlots; }
  static void clear_overflow(std::uint32_t mask) {
    if ((mask & kAllSlots) != 0) R::template write_raw<PMOVSR>(counter_bits(mask & kAllSlots));
  }
  // Sampling's common case (hal/core/driver.hpp): the counter rewound by the period, PMOVSR's bit
  // written (W1C) only when the next overflow is ahead; the interrupt is a level, so a flag left
  // set brings the next period's sample.
  template <unsigned Slot>
  static void rearm(std::uint64_t period) {
    Base::template rewind<Slot>(period, [](std::uint32_t ack) {
      R::template write_raw<PMOVSR>(counter_bits(ack));
    });
  }
  static void set_overflow_interrupt(std::uint32_t mask, bool on) {
    if ((mask & kAllSlots) == 0) return;
    if (on)
      R::template write_raw<PMINTENSET>(counter_bits(mask & kAllSlots));
    else
      R::template write_raw<PMINTENCLR>(counter_bits(mask & kAllSlots));
  }
  static Status link(unsigned lo, unsigned hi) {
    return (lo < kSlots && hi < kSlots) ? Status::not_linkable : Status::bad_argument;
  }
  static std::uint32_t counter_enables() { return slot_mask(R::template read_raw<PMCNTENSET>()) & kAllSlots; }
  static std::uint32_t interrupt_enables() { return slot_mask(R::template read_raw<PMINTENSET>()) & kAllSlots; }

 private:
  template <class F>
  static void each_event_slot(std::uint32_t mask, F&& f) {
    for_each_slot<kSlots>(mask & kEventSlots, [&](auto i) {
      if constexpr (decltype(i)::value > 0) f(i);
    });
  }
  // Every counter disabled, interrupts off, flags clear, counters 0; PMCR.E set, D clear.
  static void quiesce() {
    R::template write_raw<PMCNTENCLR>(~0u);
    R::template write_raw<PMINTENCLR>(~0u);
    R::template write_raw<PMOVSR>(~0u);
    R::write(pmcr::E(1), pmcr::P(1), pmcr::C(1));
  }
};

// Each core with the events its Technical Reference Manual lists (events.hpp); the Cortex-A8 has
// no table here yet and takes every common event.
template <class Bus>
using CortexA15 = Pmu<Bus, 6, kCortexA15Catalog>;
template <class Bus>
using CortexA9 = Pmu<Bus, 6, kCortexA9Catalog>;
template <class Bus>
using CortexA7 = Pmu<Bus, 4, kCortexA7Catalog>;
template <class Bus>
using CortexA8 = Pmu<Bus, 4>;

}  // namespace pmu::armv7a
