#pragma once
// ARMv7-M DWT counter driver, templated on the bus (MmioBus<ScsBase> on silicon, a MockBus with
// hal/cortex_m_dwt/model.hpp in host tests). Static members only; no asm, no heap.
//
// Slot map: slot 0 = DWT_CYCCNT; slots 1..5 = DWT_CPICNT, DWT_EXCCNT, DWT_SLEEPCNT, DWT_LSUCNT,
//   DWT_FOLDCNT (event codes 1..5, events.hpp).
// Width: 32 for CYCCNT, 8 for the others: the register's own width, at which it wraps to 0.
// Capabilities: no overflow condition (overflow_status() is 0), no interrupt, no link, no
//   sampling (ARMv7-M ARM C1.8: a wrap of CYCCNT raises nothing software can read, and a wrap of an
//   8-bit counter emits only a trace packet). The profiler extends them to 64 bits by polling
//   (prof::Profiler::fold, hal/core/driver.hpp Capabilities::overflow = false): fold at least once
//   per 2^32 cycles for CYCCNT, once per 256 counts of each 8-bit counter.
//
// Start and stop (C1.8.7, DWT_CTRL):
//   CYCCNT counts while CYCCNTENA = 1: start/stop set and clear it, and the count is kept.
//   The 8-bit counters have no count enable. Their EVTENA bit "enables the counter overflow
//   event" and setting it to 1 initializes the counter to 0 (C1.8.9 .. C1.8.13); the manual does
//   not say that clearing it stops the counter. So configure() sets EVTENA (the counter starts from
//   0 and counts from then on), and start/stop leave these slots alone: they count for as long as
//   the DWT is on (DEMCR.TRCENA). The profiler latches every value at its stop(), so a read after
//   stop is still the count up to that stop; a caller of stop(mask) alone must not expect these
//   slots to hold still.
// Reads: read<0>() is one load of DWT_CYCCNT (the zero-cost promise). The 8-bit counters' bits
//   31:8 are reserved: the profiler keeps width(slot) low bits of every read.
//
// EventConfig for this PMU: code = the counter's event (events.hpp), qualifier = options = 0.
#include <cstdint>

#include "hal/core/driver.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"
#include "hal/cortex_m_dwt/events.hpp"
#include "hal/cortex_m_dwt/regs.hpp"

namespace pmu::cortex_m_dwt {

inline constexpr std::uint32_t kCycCntSlot = 0x01u;  // slot mask of CYCCNT
inline constexpr std::uint32_t kProfilingSlots = 0x3Eu;  // slots 1..5

template <class Bus>
struct Driver
    : CounterDriver<Bus, RegList<DWT_CYCCNT, DWT_CPICNT, DWT_EXCCNT, DWT_SLEEPCNT, DWT_LSUCNT, DWT_FOLDCNT>, 32> {
  using Base =
      CounterDriver<Bus, RegList<DWT_CYCCNT, DWT_CPICNT, DWT_EXCCNT, DWT_SLEEPCNT, DWT_LSUCNT, DWT_FOLDCNT>, 32>;
  using Base::kAllSlots;
  using Base::kSlots;
  using Base::read;
  using R = Regs<Bus>;

  // --- static description (pmu::Driver) ---
  static constexpr const PmuCatalog& catalog = pmu::cortex_m_dwt::catalog;
  static constexpr LinkKind kLink = LinkKind::none;
  static constexpr Capabilities kCapabilities{.overflow = false, .interrupt = false, .link = false, .sampling = false};
  static constexpr unsigned width(unsigned slot) { return slot == 0 ? 32u : slot < kSlots ? 8u : 0u; }
  static constexpr std::uint32_t slots_for(std::uint32_t code) {
    if (code == kCycCntEvent) return kCycCntSlot;
    return has_event(code) ? (1u << code) & kProfilingSlots : 0u;
  }

  // For regions on the 8-bit counters (prof::Regions, narrow_unbounded): CYCCNT counts cycles, and
  // CPICNT, EXCCNT, SLEEPCNT and LSUCNT each count "one on each cycle" of their kind (C1.8.9 ..
  // C1.8.12), so fewer than 256 cycles are fewer than 256 of their counts. FOLDCNT counts folded
  // instructions, which the manual does not bound per cycle: not listed (its regions are voided).
  static constexpr unsigned kCycleSlot = 0;
  static constexpr std::uint32_t kOncePerCycleSlots = 0x1Eu;

  // Reads of CYCCNT while probe() waits for it to advance.
  static constexpr unsigned kProbeSpins = 64;

  // Detects the DWT's counters. Sets DEMCR.TRCENA (C1.6.5: without it the DWT need not count) and
  // reads it back: TRCENA is read/write, so a TRCENA that reads 0 means no DWT answers there (QEMU
  // 7.2's Cortex-M boards: DEMCR and the DWT read 0, and an all-zero DWT_CTRL would claim every
  // counter present), and nothing is reported. Then unlocks the CoreSight lock where DWT_LSR says
  // one is implemented and set (Cortex-M7), reads DWT_CTRL's NOCYCCNT and NOPRFCNT, and checks that
  // CYCCNT advances. working_slots: slot 0 where
  // CYCCNT exists and advanced, slots 1..5 where the profiling counters exist (they count stalls,
  // which a probe cannot make happen). pmu_absent when an access traps or nothing is there.
  // Leaves CYCCNT stopped at 0 and every EVTENA clear.
  static ProbeResult probe() {
    ProbeResult r{};
    std::uint32_t ctrl = 0;
    bool trcena = false;
    if (fault::traps([&] {
          R::modify(demcr_trcena(1));
          trcena = R::read(demcr_trcena) != 0;
          if (!trcena) return;
          if ((R::template read_raw<DWT_LSR>() & (kLsrSli | kLsrSlk)) == (kLsrSli | kLsrSlk))
            R::template write_raw<DWT_LAR>(kLarKey);
          ctrl = R::template read_raw<DWT_CTRL>();
        }) ||
        !trcena)
      return r;
    std::uint32_t working = 0;
    if (!(ctrl & kNoCycCnt)) {
      bool advanced = false;
      (void)fault::traps([&] {
        R::template write_raw<DWT_CYCCNT>(0);
        R::template modify_raw<DWT_CTRL>(0, kCycCntEna);
        const std::uint32_t first = R::template read_raw<DWT_CYCCNT>();
        for (unsigned i = 0; i < kProbeSpins && !advanced; ++i)
          advanced = R::template read_raw<DWT_CYCCNT>() != first;
        R::template modify_raw<DWT_CTRL>(kCycCntEna | kAllEvtEna, 0);
        R::template write_raw<DWT_CYCCNT>(0);
      });
      if (advanced) working |= kCycCntSlot;
    }
    if (!(ctrl & kNoPrfCnt)) working |= kProfilingSlots;
    if (working) r = {Status::ok, working};
    return r;
  }

  // Checks an EventConfig against this PMU without touching it (configure's validation): each
  // counter counts its one event.
  static constexpr Status check_event(unsigned slot, EventConfig ev) {
    if (slot >= kSlots || ev.qualifier != 0 || ev.options != 0) return Status::bad_argument;
    if (!has_event(ev.code)) return Status::unsupported_event;
    if (!(slots_for(ev.code) & (1u << slot))) return Status::unsupported_event;
    return Status::ok;
  }
  // configure() checked at compile time, then program() (configure_fixed, hal/core/driver.hpp).
  template <unsigned Slot, EventConfig Ev>
  static Status configure() {
    return configure_fixed<Driver, Slot, Ev>();
  }
  static Status configure(unsigned slot, EventConfig ev) {
    const Status s = check_event(slot, ev);
    if (s != Status::ok) return s;
    return program(slot, ev);
  }
  // What configure() does once the event is known valid.
  // CYCCNT: nothing to program (busy while it counts). An 8-bit counter: sets its EVTENA, which
  // initializes it to 0 where EVTENA was 0 (C1.8.9 .. C1.8.13); from then on it counts (header).
  static Status program(unsigned slot, EventConfig) {
    if (slot == 0) return (R::template read_raw<DWT_CTRL>() & kCycCntEna) ? Status::busy : Status::ok;
    R::template modify_raw<DWT_CTRL>(0, kEvtEna[slot - 1]);
    return Status::ok;
  }

  // CYCCNTENA on / off (one read-modify-write of DWT_CTRL); the 8-bit slots are left alone (header).
  static void start(std::uint32_t mask) {
    if (mask & kCycCntSlot) R::template modify_raw<DWT_CTRL>(0, kCycCntEna);
  }
  static void stop(std::uint32_t mask) {
    if (mask & kCycCntSlot) R::template modify_raw<DWT_CTRL>(kCycCntEna, 0);
  }

  // Writes a count; a value wider than the slot's register (8 bits for slots 1..5) is masked and
  // reported (report_narrowing), as CounterDriver does for 32 bits.
  template <unsigned Slot>
  static void write(std::uint64_t value) {
    constexpr std::uint64_t max = prof_low_mask(width(Slot));
    using Reg_ = typename Base::counters::template at<Slot>;
    if (value > max) report_narrowing(Reg_::name, "value", value);
    R::template write_raw<Reg_>(static_cast<u32>(value & max));
  }
  static void write(unsigned slot, std::uint64_t value) {
    if (!for_slot<kSlots>(slot, [&](auto s) { write<decltype(s)::value>(value); }))
      report_narrowing("counter", "slot", slot);
  }

  // No overflow condition, interrupt or link (kCapabilities).
  static std::uint32_t overflow_status() { return 0; }
  static void clear_overflow(std::uint32_t) {}
  static void set_overflow_interrupt(std::uint32_t, bool) {}
  static Status link(unsigned, unsigned) { return Status::not_linkable; }

  // Stops CYCCNT and clears every EVTENA: what probe() leaves.
  static void reset() {
    R::template modify_raw<DWT_CTRL>(kCycCntEna | kAllEvtEna, 0);
    R::template write_raw<DWT_CYCCNT>(0);
  }

 private:
  static constexpr std::uint64_t prof_low_mask(unsigned bits) {
    return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  }
};

}  // namespace pmu::cortex_m_dwt
