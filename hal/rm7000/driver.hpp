#pragma once
// RM7000 performance counter driver, templated on the bus (Cp0Bus on silicon, a MockBus with
// hal/rm7000/model.hpp in host tests). Static members only; no asm, no heap.
//
// Slot map: slot 0 = PerfCount, the one counter.
// Width: 31. PerfCount is 32 bits and "causes an interrupt when bit 31 is set": the overflow
//   condition is bit 31, so a count preset to 0x8000_0000 - N raises it after exactly N events, and
//   software extension adds 2^31 per acknowledged condition (clear_overflow clears bit 31, keeping
//   bits 30..0; the profiler keeps the high part).
// Link: none (one counter).
//
// EventConfig for this PMU:
//   code      = PerfControl Event Type, 0x00..0x1E (events.hpp).
//   qualifier = 0 (the RM7000 has none).
//   options   = the modes to count in, PerfControl bits in place: kKernelMode (KM, 0x100),
//               kUserMode (UM, 0x200), or both. 0 means both, as an event string without :k or :u
//               does; any other bit is bad_argument.
//
// Polling: without its interrupt, a counter must be folded (prof::Profiler::fold) at least once
//   every kMaxEventsBetweenFolds events; past 2^32 it wraps with bit 31 clear and the loss is silent.
//
// Interrupt: the performance counter is interrupt 13. It is requested while PerfCount bit 31 is set
// and taken when Interrupt Control IM13 = 1 and Status IE = 1 (the board's). The request follows
// bit 31 (Cause.IP13): clear_overflow() removes it; there is no separate acknowledge.
//
// Core check: CP0 $22 and $25 mean other things on other MIPS cores ($25 is MIPS32's PerfCtl0,
// $22 a diagnostic register on R10000 and Loongson): probe() reads PRId first and touches neither
// unless it reads RM7000 (Imp 0x27) or force_core(Core::rm7000) said so.
#include <cstdint>

#include "hal/core/bus/irq.hpp"
#include "hal/core/driver.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"
#include "hal/rm7000/events.hpp"
#include "hal/rm7000/regs.hpp"

namespace pmu::rm7000 {

inline constexpr std::uint32_t kModeBits = kKernelMode | kUserMode;
// The 31-bit condition (header comment): fold at least once per this many events.
inline constexpr std::uint64_t kMaxEventsBetweenFolds = std::uint64_t{1} << 31;

template <class Bus>
struct Driver : CounterDriver<Bus, RegList<PerfCount>, 31> {
  using Base = CounterDriver<Bus, RegList<PerfCount>, 31>;
  using Base::kAllSlots;
  using Base::kSlots;
  using Base::read;
  using Base::write;
  using R = Regs<Bus>;

  // --- static description (pmu::Driver) ---
  static constexpr const PmuCatalog& catalog = pmu::rm7000::catalog;
  static constexpr LinkKind kLink = LinkKind::none;
  static constexpr Capabilities kCapabilities{.overflow = true, .interrupt = true, .link = false, .sampling = true};
  static constexpr std::uint32_t slots_for(std::uint32_t code) { return has_event(code) ? 1u : 0u; }

  // Reads of PerfCount while probe() waits for it to advance.
  static constexpr unsigned kProbeSpins = 64;

  // ---------------------------------------------------------------------------------------
  // Detection and reset
  // ---------------------------------------------------------------------------------------

  // Detects the counter. First the core, from PRId (unless force_core() said): another core gets
  // unsupported_core without a single $22/$25 access. Then, under fault::traps(), the counter
  // counts clock cycles in every mode for a short while; pmu_absent if an access traps or the
  // count does not advance (QEMU: $22 reads 0 and $25 keeps what is written, never counting).
  // Leaves the counter reset (reset()), whatever it was counting before: probe before configuring.
  // Does not touch Interrupt Control.
  static ProbeResult probe() {
    ProbeResult r{};
    core_.detect([] {
      std::uint32_t prid = 0;
      return fault::traps([&] { prid = R::template read_raw<PRId>(); }) ? Core::unknown : core_of_prid(prid);
    });
    r.status = Status::unsupported_core;
    if (core_.core != Core::rm7000) return r;
    r.status = Status::pmu_absent;
    // fault::traps() does not nest: each guarded step is its own call.
    if (fault::traps([] {
          reset();
          R::write(perfcontrol_event.val<event::CYCLES>(), perfcontrol_km(1), perfcontrol_um(1),
                   perfcontrol_ce(1));
        }))
      return r;
    // Advanced = a later read differs from the first: a register that ignores writes and holds a
    // constant (non-zero or not) is not a counter.
    bool advanced = false;
    std::uint32_t first = 0;
    if (!fault::traps([&] { first = R::template read_raw<PerfCount>(); })) {
      for (unsigned i = 0; i < kProbeSpins && !advanced; ++i) {
        std::uint32_t v = first;
        if (fault::traps([&] { v = R::template read_raw<PerfCount>(); })) break;
        advanced = v != first;
      }
    }
    (void)fault::traps([] { reset(); });
    if (advanced) r = {Status::ok, 0x1};
    return r;
  }

  // Counting off, event 0, no mode; count 0. The count enable goes first, so nothing is counted
  // between the two writes.
  static void reset() {
    R::template write_raw<PerfControl>(0);
    R::template write_raw<PerfCount>(0);
  }

  // ---------------------------------------------------------------------------------------
  // pmu::Driver
  // ---------------------------------------------------------------------------------------

  // Programs the event and modes; leaves counting off (CE = 0) and the count untouched.
  //   bad_argument      slot != 0, a qualifier, or options outside KM | UM
  //   unsupported_event no such event (codes 0x00..0x1E)
  //   busy              counting right now: stop() first (the event type must not change under a
  //                     running count)
  static Status configure(unsigned slot, EventConfig ev) {
    const Status s = check_event(slot, ev);
    if (s != Status::ok) return s;
    return program(slot, ev);
  }

  // configure() checked at compile time, then program() (configure_fixed, hal/core/driver.hpp).
  template <unsigned Slot, EventConfig Ev>
  static Status configure() {
    return configure_fixed<Driver, Slot, Ev>();
  }

  // What configure() does once the event is known valid.
  static Status program(unsigned, EventConfig ev) {
    if (R::read(perfcontrol_ce)) return Status::busy;
    const std::uint32_t modes = ev.options ? ev.options : kModeBits;
    R::write(perfcontrol_event.runtime(ev.code), perfcontrol_km.runtime((modes & kKernelMode) != 0),
             perfcontrol_um.runtime((modes & kUserMode) != 0), perfcontrol_ce(0));
    return Status::ok;
  }

  // Count Enable on / off; event and modes kept. A read-modify-write of PerfControl, which only
  // software changes: an interrupt handler that stops and restarts the counter leaves it as found.
  static void start(std::uint32_t mask) {
    if (mask & kAllSlots) R::modify(perfcontrol_ce(1));
  }
  static void stop(std::uint32_t mask) {
    if (mask & kAllSlots) R::modify(perfcontrol_ce(0));
  }

  // read(slot), read<0>() and write(slot, v) come from CounterDriver: one mfc0 / mtc0 (plus the
  // write hazard). Writing a count with bit 31 set requests the interrupt at once.

  // Slot 0 while PerfCount bit 31 is set.
  static std::uint32_t overflow_status() { return R::read(perfcount_bit31) ? 1u : 0u; }

  // Clears bit 31 of PerfCount, keeping bits 30..0 (that removes the interrupt request). Call it
  // with counting stopped, as the profiler and sampler do: a rewrite of a running count loses the
  // events between its read and its write (there is no atomic clear).
  static void clear_overflow(std::uint32_t mask) {
    if (!(mask & kAllSlots)) return;
    const std::uint32_t v = R::template read_raw<PerfCount>();
    if (v & kPerfCountBit31) R::template write_raw<PerfCount>(v & ~kPerfCountBit31);
  }

  // Sampling's common case (hal/core/driver.hpp): the rewind is the acknowledge, as bit 31 is the
  // request. It clears bit 31 when fewer than `period` events came since the overflow; otherwise
  // the request stays and the next interrupt samples the next period, as it should.
  template <unsigned Slot>
  static void rearm(std::uint64_t period) {
    static_assert(Slot == 0, "rearm<Slot>: the RM7000 has one counter, slot 0");
    Base::template rewind<Slot>(period);
  }

  // Interrupt Control IM13 (cfc0/ctc0), with interrupts masked across the read-modify-write: the
  // register also holds the masks of interrupts 8..15, which the board's handlers may change.
  // Precondition (also for interrupt_enabled): an RM7000, i.e. probe() returned ok. On other MIPS
  // cores cfc0/ctc0 are reserved instructions; wrap a call in fault::traps() to try one anyway.
  static void set_overflow_interrupt(std::uint32_t mask, bool enable) {
    if (!(mask & kAllSlots)) return;
    IrqGuard guard;
    R::modify(icr_im13.runtime(enable ? 1u : 0u));
  }

  static Status link(unsigned, unsigned) { return Status::not_linkable; }

  // ---------------------------------------------------------------------------------------
  // The RM7000's own controls, in the datasheet's words
  // ---------------------------------------------------------------------------------------

  // Cause.IP13: the performance counter interrupt is requested (whatever IM13 and IE say).
  static bool interrupt_pending() { return R::read(cause_ip13) != 0; }
  static bool interrupt_enabled() { return R::read(icr_im13) != 0; }

  // Presets the count to raise bit 31 after exactly `period` events: 0x8000_0000 - period, period
  // in 1..0x8000_0000 (bad_argument otherwise).
  static Status preset_for_sampling(unsigned slot, std::uint32_t period) {
    if (slot >= kSlots || period == 0 || period > kPerfCountBit31) return Status::bad_argument;
    write(slot, kPerfCountBit31 - period);
    return Status::ok;
  }

  // Checks an EventConfig against this PMU without touching it (configure's validation).
  static constexpr Status check_event(unsigned slot, EventConfig ev) {
    if (slot >= kSlots || ev.qualifier != 0 || (ev.options & ~kModeBits)) return Status::bad_argument;
    if (!has_event(ev.code)) return Status::unsupported_event;
    return Status::ok;
  }

  // The core probe() found (Core::unknown before it), and the firmware's override for an
  // RM7000-family part whose PRId differs. A forced core is kept by later probes; forcing
  // Core::unknown returns to detection.
  static Core core() { return core_.core; }
  static void force_core(Core c) { core_.force(c); }

 private:
  static inline CoreChoice<Core> core_{};
};

}  // namespace pmu::rm7000
