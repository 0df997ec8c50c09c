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

// ---------------------------------------------------------------------------------------------
// The driver contract.
//
// A driver is a type with static members only (templated on its bus, so the same driver runs on
// silicon and against a behavioural model in host tests). It numbers its counters as slots
// 0..kSlots-1 in a fixed order it documents (XScale: slot 0 = CCNT, slots 1..4 = PMN0..PMN3).
// Slot masks are bit n = slot n.
//
// Width rule: width(slot) is the number of low bits after which the slot's overflow condition is
// raised, so a counter preset to 2^width - N raises it after N events, and software extension adds
// 2^width per overflow. That is 32 on XScale and the MIPS CM (wrap to 0), 31 on e500 and RM7000
// (the condition is bit 31 becoming set; the counter itself is 32 bits), 40 on NetBurst.
//
// Interrupt contract: overflow_status, clear_overflow, read, write, start and stop are called by the
// profiler from its overflow interrupt as well as from thread context; a driver keeps each of them
// a fixed sequence of register accesses with no state of its own between calls.
template <class D>
concept Driver = requires(unsigned slot, std::uint64_t value, std::uint32_t mask, EventConfig ev) {
  // Static description.
  { D::catalog } -> std::convertible_to<const PmuCatalog&>;
  { D::kSlots } -> std::convertible_to<unsigned>;
  { D::width(slot) } -> std::same_as<unsigned>;              // constexpr
  { D::slots_for(ev.code) } -> std::same_as<std::uint32_t>;  // constexpr: slots that can count it
  { D::kLink } -> std::convertible_to<LinkKind>;
  // Run time.
  { D::probe() } -> std::same_as<ProbeResult>;         // detect the PMU; safe on a trapping core
  { D::configure(slot, ev) } -> std::same_as<Status>;  // program the event; does not start
  { D::start(mask) } -> std::same_as<void>;            // start counting on these slots
  { D::stop(mask) } -> std::same_as<void>;             // stop (freeze) these slots
  { D::read(slot) } -> std::same_as<std::uint64_t>;    // raw counter value
  { D::template read<0>() } -> std::same_as<std::uint64_t>;  // same, slot fixed: one instruction
  { D::write(slot, value) } -> std::same_as<void>;     // set a counter (preset for sampling)
  { D::overflow_status() } -> std::same_as<std::uint32_t>;  // slots whose overflow condition is set
  { D::clear_overflow(mask) } -> std::same_as<void>;   // acknowledge (W1C flag or bit 31 of count)
  { D::set_overflow_interrupt(mask, true) } -> std::same_as<void>;
  { D::link(slot, slot) } -> std::same_as<Status>;     // make hi count lo's overflows (kLink)
};
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

// Events a driver's counter counts from its overflow to its interrupt (kPmiEventsAfterOverflow; 0
// where the interrupt comes with the overflow).
template <class D>
constexpr unsigned pmi_events_after_overflow() {
  if constexpr (requires { D::kPmiEventsAfterOverflow; })
    return D::kPmiEventsAfterOverflow;
  else
    return 0;
}

// A counter register is 32 bits unless its overflow condition is wider (NetBurst: 40).
constexpr unsigned register_bits(unsigned width) { return width < 32 ? 32 : width; }

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
