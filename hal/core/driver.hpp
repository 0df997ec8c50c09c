#pragma once
// The contract between a PMU driver and everything above it, and the vocabulary it is written in:
// status codes, a raw event with its qualifiers, what a probe found, how counters link, the
// Driver concept, and CounterDriver, the base that turns a slot-ordered register list into
// read(slot)/write(slot). Drivers sit below the profiler: hal/ never includes profiler/.
#include <concepts>
#include <cstdint>

#include "hal/core/event.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"

namespace pmu {

// Run-time outcome of everything that can fail in firmware. No exceptions, no crash.
enum class Status : std::uint8_t {
  ok = 0,
  unsupported_event,   // this PMU has no such event / preset
  no_free_counter,     // every counter that can take the event is in use
  counter_unavailable, // the counter exists in the manual but not on this part (probe said so)
  pmu_absent,          // the PMU traps or never counts
  bad_argument,        // slot out of range, period 0 or too large for the counter width, ...
  not_linkable,        // the two counters cannot be chained / cascaded in that order
  busy,                // already started / configured; stop first
  unsupported_core,    // another design than this driver's (e.g. e500mc), or the core lacks it
};

constexpr const char* status_name(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::unsupported_event: return "unsupported event";
    case Status::no_free_counter: return "no free counter";
    case Status::counter_unavailable: return "counter unavailable";
    case Status::pmu_absent: return "PMU absent";
    case Status::bad_argument: return "bad argument";
    case Status::not_linkable: return "counters cannot be linked";
    case Status::busy: return "busy";
    case Status::unsupported_core: return "unsupported core";
  }
  return "?";
}

// A raw event and its qualifiers, in one portable shape. Each PMU folder documents what
// `qualifier` and `options` mean for it (e.g. e500: qualifier = THRESHOLD | THRESHMUL << 8;
// MIPS CM: qualifier = PC_QUALn; NetBurst: qualifier = ESCR event mask, options = ESCR/CCCR bits).
struct EventConfig {
  std::uint32_t code = 0;       // value of the PMU's event-select field
  std::uint32_t qualifier = 0;
  std::uint32_t options = 0;
};

// What probe() found at run time.
struct ProbeResult {
  Status status = Status::pmu_absent;
  std::uint32_t working_slots = 0;  // slots whose registers exist and whose counter advanced
};

// How two counters combine into one value.
enum class LinkKind : std::uint8_t {
  none,     // this PMU cannot link counters
  chain,    // e500: high counts rollovers of low -> value = high * 2^32 + low
  cascade,  // NetBurst: high starts when low overflows -> value = low before that overflow,
            // 2^width + high after it (Intel SDM 18.15.5.6; profiler/profiler.hpp read_linked)
};

// What a PMU has, declared by its driver (static constexpr Capabilities kCapabilities), so that
// the conformance suite runs only the parts a PMU declares and the profiler knows what it may ask.
struct Capabilities {
  bool overflow = true;   // a counter raises a condition at 2^width(slot): overflow_status() and
                          // clear_overflow() mean something (false: a counter that only wraps
                          // at 2^width(slot), extended to 64 bits by polling: prof::Profiler's
                          // fold() takes a wrap where the register went backwards since the last
                          // fold, so fold at least once per 2^width events)
  bool interrupt = true;  // the condition can interrupt: set_overflow_interrupt()
  bool link = false;      // two counters combine: kLink != none, link()
  bool sampling = true;   // PMU-overflow sampling: rearm<Slot> (prof::Sampler)
};
// The rules between the capabilities and the hooks a driver has (checked by the conformance suite).
template <class D>
constexpr bool capabilities_sound() {
  constexpr Capabilities c = D::kCapabilities;
  if (c.link != (D::kLink != LinkKind::none)) return false;
  if (c.interrupt && !c.overflow) return false;
  if (c.sampling && !(c.interrupt && requires { D::template rearm<0>(std::uint64_t{}); })) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// The driver contract: every member the kit and the profiler use, in one place.
//
// A driver is a type with static members only (templated on its bus, so the same driver runs on
// silicon and against a behavioural model in host tests). It numbers its counters as slots
// 0..kSlots-1 in a fixed order it documents (XScale: slot 0 = CCNT, slots 1..4 = PMN0..PMN3).
// Slot masks are bit n = slot n.
//
// Width rule: width(slot) is the number of low bits after which the slot's overflow condition is
// raised, so a counter preset to 2^width - N raises it after N events, and software extension adds
// 2^width per overflow. That is 32 on XScale, ARMv7-A and the MIPS CM (wrap to 0), 31 on e500 and
// RM7000 (the condition is bit 31 becoming set; the counter itself is 32 bits), 40 on NetBurst.
//
// Required (the Driver concept below):
//   catalog, kSlots, width(slot), slots_for(code), kLink, kCapabilities    static description
//   probe(), configure(slot, ev), start(mask), stop(mask)                  run time
//   read(slot), read<Slot>(), write(slot, v)                               counters (CounterDriver)
//   overflow_status(), clear_overflow(mask), set_overflow_interrupt(mask, on), link(lo, hi)
// Optional, probed by the profiler with `requires` (who uses each):
//   check_event(slot, ev)        constexpr configure() without the hardware: configure<Slot, Ev>
//                                (require_event below) and prof::Multiplexer's placement
//   configure<Slot, Ev>()        configure() checked at compile time: configure_fixed (below)
//   program(slot, ev) or program<Slot, Ev>()   configure()'s step after its event check, which
//                                configure<Slot, Ev>() takes (configure_fixed)
//   rearm<Slot>(period)          sampling's common case (prof::Sampler::on_pmu_interrupt<Slot>);
//                                required when kCapabilities.sampling (below)
//   deconfigure(mask)            frees what configure() took beyond the counter (NetBurst's ESCRs):
//                                prof::Profiler::clear, prof::Multiplexer between groups
//   kMaxSamplingPeriod           a sampling period limit below 2^width (NetBurst: 2^39): Sampler::arm
//   kPmiEventsAfterOverflow      events from the overflow to its interrupt (below)
//   stopped_at_max(slot, raw)    a counter that stops at its maximum (below)
//   kGlobalEnable                start/stop switch every counter at once (below)
//   InterruptScope               shared state an interrupt handler saves and restores (below)
//   counter_address(slot)        the counter's address, for a region's run-time slot (MIPS CM)
//   forget_operands<Slot>(), read_to<Slot>(out)   CounterDriver's, for fast regions
//   read_instructions(slot)      CounterDriver's: instructions of one read (below)
//   kSoftwareRead                read() is software, not an accessor (prof::ClockBackend)
//   kCycleSlot, kOncePerCycleSlots  a polled PMU's cycle counter and the narrow slots that advance
//                                at most once per cycle: prof::Regions keeps a region on such a
//                                slot while its cycles are below 2^width(slot), voids it otherwise
//
// Interrupt contract: overflow_status, clear_overflow, read, write, start, stop and rearm are called
// by the profiler from its overflow interrupt as well as from thread context; a driver keeps each
// of them a fixed sequence of register accesses with no state of its own between calls. Where the
// PMU's registers themselves share state between accesses (ARMv7-A: PMXEVCNTR and PMXEVTYPER reach
// the counter PMSELR selects, so a read is "write PMSELR, ISB, read PMXEVCNTR"), an interrupt that
// lands between the select and the access and selects another counter would make the interrupted
// access reach the wrong one. Such a driver declares `struct InterruptScope` whose constructor
// saves that state and whose destructor restores it (ARMv7-A: PMSELR read, then written back);
// every interrupt handler that calls the driver holds a pmu::InterruptScope<D> for its whole body
// (prof::Sampler's entries do; a firmware's own handler that calls the driver or the Profiler must
// too). The exception return then makes the restored select visible to the interrupted access
// (hal/core/bus/arm_cp.hpp). Thread-side code needs nothing: the handler undoes what it changed,
// so the thread's read costs its select, barrier and access only, and no interrupt mask. (Masking
// interrupts around each select-then-access, the other way, costs the thread two more
// instructions per read and was not taken.) For every other PMU InterruptScope<D> is empty.
//
// One instruction per read: read<Slot>() is one instruction where the slot's register is reached
// directly (every counter of the first five PMUs; ARMv7-A's PMCCNTR: one MRC); a counter behind a
// select costs three (ARMv7-A's event counters: MCR PMSELR, ISB, MRC PMXEVCNTR), plus the load of
// the select value into a register where the compiler has not hoisted it.
// read_instructions(slot) says which, per slot, from the register's location; the zero-cost
// probes (bench/zero_cost) check it against the compiled code.
template <class D>
concept Driver = requires(unsigned slot, std::uint64_t value, std::uint32_t mask, EventConfig ev) {
  // Static description.
  { D::catalog } -> std::convertible_to<const PmuCatalog&>;
  { D::kSlots } -> std::convertible_to<unsigned>;
  { D::width(slot) } -> std::same_as<unsigned>;              // constexpr
  { D::slots_for(ev.code) } -> std::same_as<std::uint32_t>;  // constexpr: slots that can count it
  { D::kLink } -> std::convertible_to<LinkKind>;
  { D::kCapabilities } -> std::convertible_to<const Capabilities&>;  // what the PMU has
  // Run time.
  { D::probe() } -> std::same_as<ProbeResult>;         // detect the PMU; safe on a trapping core
  { D::configure(slot, ev) } -> std::same_as<Status>;  // program the event; does not start
  { D::start(mask) } -> std::same_as<void>;            // start counting on these slots
  { D::stop(mask) } -> std::same_as<void>;             // stop (freeze) these slots
  { D::read(slot) } -> std::same_as<std::uint64_t>;    // raw counter value
  { D::template read<0>() } -> std::same_as<std::uint64_t>;  // same, slot fixed (read_instructions)
  { D::write(slot, value) } -> std::same_as<void>;     // set a counter (preset for sampling)
  { D::overflow_status() } -> std::same_as<std::uint32_t>;  // slots whose overflow condition is set
  { D::clear_overflow(mask) } -> std::same_as<void>;   // acknowledge (W1C flag or bit 31 of count)
  { D::set_overflow_interrupt(mask, true) } -> std::same_as<void>;
  { D::link(slot, slot) } -> std::same_as<Status>;     // make hi count lo's overflows (kLink)
};

// The interrupt contract's scope (above): D::InterruptScope where the driver declares one, else
// nothing. Hold one for the whole body of every interrupt handler that calls the driver.
struct NoInterruptState {};
namespace detail {
template <class D>
struct InterruptScopeOf {
  using type = NoInterruptState;
};
template <class D>
  requires requires { typename D::InterruptScope; }
struct InterruptScopeOf<D> {
  using type = typename D::InterruptScope;
};
}  // namespace detail
template <class D>
using InterruptScope = typename detail::InterruptScopeOf<D>::type;

// Optional, for PMUs with an overflow interrupt: template <unsigned Slot> static void
// rearm(std::uint64_t period), the sampling interrupt's common case for a slot known at compile
// time (prof::Sampler's on_pmu_interrupt<Slot>). With Slot's overflow condition set, move its count
// back by exactly `period` events (rewind<Slot>), so it overflows again `period` events after that
// overflow, and acknowledge the condition only if that is still ahead: when a whole period or more
// came since (interrupts were masked that long) the condition stays set and the interrupt comes
// again, one sample per period passed, until the count is ahead again. So every rearm accounts for
// exactly `period` events, and the counter is never left more than a period from its next sample.
// No stopping of the other counters and no branch.
// Optional, for a PMU whose overflow interrupt comes some events after the overflow itself:
// static constexpr unsigned kPmiEventsAfterOverflow (NetBurst: 1, the PMI comes "on the next event
// count after the counter has overflowed"). A sampling preset adds them (prof::Sampler), so the
// interrupt still comes after exactly `period` events; rearm's rewind by `period` is unchanged.
// Optional, for a PMU whose overflow condition may mark a counter that stopped at its maximum
// instead of wrapping (the MIPS CM under Perf_Ovf_Stop): static bool stopped_at_max(unsigned slot,
// std::uint64_t raw), asked with the slot's condition set and its register reading `raw`. True:
// the register holds the whole count and the condition adds nothing to it (not 2^width); the
// profiler's fold then takes `raw` into its software part and writes the register to 0 before it
// acknowledges, so the counter goes on from 0 (prof::Profiler, fold).

// Optional, for a PMU whose start and stop switch every counter at once (XScale's PMNC.E):
// static constexpr bool kGlobalEnable = true. A second user of the PMU (prof::Multiplexer beside a
// Profiler) then knows its stop would stop the other's counters too.
// Which core a driver runs on: what probe() reads from the core's ID register (e500 PVR, RM7000
// PRId), unless the firmware forced a core for a part the driver's table does not list. Core{} (the
// enum's first value) means unknown; forcing it returns to detection.
template <class Core>
struct CoreChoice {
  Core core{};
  bool forced = false;
  void force(Core c) {
    core = c;
    forced = c != Core{};
  }
  // identify() -> Core, run only when nothing is forced.
  template <class Identify>
  void detect(Identify identify) {
    if (!forced) core = identify();
  }
};

// configure<Slot, Ev>()'s compile-time check, one rule and one message for every driver:
// D::check_event is configure()'s validation without the hardware.
template <class D, unsigned Slot, EventConfig Ev>
constexpr void require_event() {
  static_assert(D::check_event(Slot, Ev) == Status::ok,
                "configure<Slot, Ev>: this event, qualifier or options cannot be counted on this slot");
}

// configure<Slot, Ev>(), the same two steps on every driver: the event checked at compile time
// (require_event, after any check of the driver's own), then the driver's program step, which is
// configure()'s work after its event check (the slot's state: busy while it counts, unavailable
// where probe() found it missing) and its writes. The event is not looked up again at run time,
// so a firmware that configures at compile time links no event table (bench/footprint,
// "minimal"). The step is D::program<Slot, Ev>() where the driver has one (writes by number:
// e500, NetBurst), else D::program(Slot, Ev), which configure(slot, ev) calls after check_event.
template <class D, unsigned Slot, EventConfig Ev>
[[gnu::always_inline]] inline Status configure_fixed() {
  require_event<D, Slot, Ev>();
  if constexpr (requires { D::template program<Slot, Ev>(); })
    return D::template program<Slot, Ev>();
  else
    return D::program(Slot, Ev);
}

// Events a driver's counter counts from its overflow to its interrupt (kPmiEventsAfterOverflow; 0
// where the interrupt comes with the overflow).
template <class D>
constexpr unsigned pmi_events_after_overflow() {
  if constexpr (requires { D::kPmiEventsAfterOverflow; })
    return D::kPmiEventsAfterOverflow;
  else
    return 0;
}

// A counter register is as wide as its overflow condition, except that a condition at bit 31
// (e500, RM7000: width 31) is in a 32-bit register. A counter without a condition wraps at its
// width (the Cortex-M DWT's 8-bit counters: 8).
constexpr unsigned register_bits(unsigned width) { return width == 31 ? 32 : width; }

// ---------------------------------------------------------------------------------------------
// CounterDriver<Bus, Counters, Width[, ReadCounters]>: the part of every driver that follows from
// its counter registers alone. Counters is a RegList (or FamilyRegs) in slot order; Width the
// overflow-condition width of every slot; ReadCounters, where reads take another path than writes
// (x86 rdpmc against wrmsr), the locations reads use, in the same order. A driver derives from it
// and adds only the manual's rules.
//   read<S>()       one instruction (the slot is a constant)
//   read(slot)      run-time slot; 0 for a slot out of range
//   write(slot, v)  a value wider than the register, or a slot out of range, is masked (or
//                   dropped), counted and reported through report_narrowing: the engine's policy
template <class Bus, class Counters, unsigned Width, class ReadCounters = Counters>
struct CounterDriver {
  using counters = Counters;
  static constexpr unsigned kSlots = Counters::count;
  static_assert(ReadCounters::count == kSlots, "one read location per counter");
  static_assert(kSlots > 0 && kSlots <= 32, "slot masks are 32 bits");
  static_assert(Width > 0 && Width <= 64, "overflow width is 1..64 bits");
  static constexpr std::uint32_t kAllSlots =
      kSlots >= 32 ? ~0u : (std::uint32_t{1} << kSlots) - 1;
  static constexpr unsigned kWidth = Width;
  static constexpr std::uint64_t kCounterMax =
      register_bits(Width) >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << register_bits(Width)) - 1;

  static constexpr unsigned width(unsigned slot) { return slot < kSlots ? Width : 0u; }

  // Instructions of one read<Slot>() (the interrupt contract above): 1 where the register is
  // reached directly, 3 behind a select (select write, barrier, access); 0 past the last slot.
  template <unsigned Slot>
  static constexpr unsigned read_instructions() {
    using Loc = typename ReadCounters::template at<Slot>::location;
    if constexpr (requires { typename Loc::select; }) return 3; else return 1;
  }
  static constexpr unsigned read_instructions(unsigned slot) {
    unsigned n = 0;
    for_slot<kSlots>(slot, [&](auto s) { n = read_instructions<decltype(s)::value>(); });
    return n;
  }

  template <unsigned Slot>
  static std::uint64_t read() {
    return Regs<Bus>::template read_raw<typename ReadCounters::template at<Slot>>();
  }
  static std::uint64_t read(unsigned slot) {
    std::uint64_t v = 0;
    for_slot<kSlots>(slot, [&](auto s) { v = read<decltype(s)::value>(); });
    return v;
  }
  // What read<S>() takes from memory besides the counter (a run-time MMIO base) is loaded again by
  // the next read<S>(), as after a call. No instruction.
  template <unsigned Slot>
  static void forget_operands() {
    using Loc = typename ReadCounters::template at<Slot>::location;
    if constexpr (requires { Bus::template forget_base<Loc>(); }) Bus::template forget_base<Loc>();
  }
  // read<S>() into `out`, stored by the read's own instructions where the bus can (x86 rdpmc: the
  // two stores of EDX:EAX), so that keeping the value costs the same wherever it is kept.
  template <unsigned Slot>
  static void read_to(std::uint64_t& out) {
    using Loc = typename ReadCounters::template at<Slot>::location;
    if constexpr (requires { Bus::template read_to<Loc, std::uint64_t>(out); })
      Bus::template read_to<Loc, std::uint64_t>(out);
    else
      out = read<Slot>();
  }
  template <unsigned Slot>
  static void write(std::uint64_t value) {
    using R = typename Counters::template at<Slot>;
    using T = typename R::value_type;
    if (value > kCounterMax) report_narrowing(R::name, "value", value);
    Regs<Bus>::template write_raw<R>(static_cast<T>(value & kCounterMax));
  }
  static void write(unsigned slot, std::uint64_t value) {
    if (!for_slot<kSlots>(slot, [&](auto s) { write<decltype(s)::value>(value); }))
      report_narrowing("counter", "slot", slot);
  }
  // Moves Slot's count back by `period` events (modulo the register). Just after its overflow it
  // then overflows again `period` events after the last time, keeping what it counted since: the
  // re-arm of a compile-time slot's sampling interrupt (each driver's rearm<Slot>). Only the events
  // between the read and the write, one instruction apart, are lost. Where the condition is bit 31
  // of the count (width 31), the write is also the acknowledge, and only when the count went back
  // below bit 31, i.e. when fewer than `period` events came since the overflow.
  template <unsigned Slot>
  static void rewind(std::uint64_t period) {
    write<Slot>((read<Slot>() - period) & kCounterMax);
  }
  // The same for a counter that wraps to 0 at its overflow (Width is the register's), whose
  // condition is a flag: `acknowledge(mask)` gets Slot's bit when fewer than `period` events came
  // since the overflow (the count goes back past 0: the next overflow is ahead, within a period),
  // 0 otherwise (the flag must stay, for the next period's interrupt). It runs between the read and
  // the write: the counter has just wrapped and cannot again before the write moves it back, while
  // an overflow after the write raises a flag that nothing clears.
  template <unsigned Slot, class Acknowledge>
  static void rewind(std::uint64_t period, Acknowledge&& acknowledge) {
    static_assert(register_bits(Width) == Width, "rewind with a flag: for counters that wrap to 0");
    const std::uint64_t left = read<Slot>() - period;  // borrows (bit 63) while ahead of the overflow
    acknowledge(static_cast<std::uint32_t>(left >> 63) << Slot);
    write<Slot>(left & kCounterMax);
  }
  // f(SlotIndex<n>) for each slot n of mask that this PMU has.
  template <class F>
  static void each_slot(std::uint32_t mask, F&& f) {
    for_each_slot<kSlots>(mask & kAllSlots, f);
  }
};

}  // namespace pmu
