#pragma once
// The contract between the portable profiler and a PMU driver (a "backend").
//
// A backend is a type with static members only (drivers are templated on their bus, so the same
// driver type runs on silicon and against a behavioural model in host tests). It numbers its
// counters as slots 0..kSlots-1 in a fixed order documented by the driver (for example XScale:
// slot 0 = CCNT, slots 1..4 = PMN0..PMN3). Slot masks are bit n = slot n.
//
// Width rule: width(slot) is the number of low bits after which the slot's overflow condition is
// raised, so a counter preset to 2^width - N raises it after N events, and software extension adds
// 2^width per overflow. That is 32 on XScale and the MIPS CM (wrap to 0), 31 on e500 and RM7000
// (the condition is bit 31 becoming set; the counter itself is 32 bits), 40 on NetBurst.
#include <concepts>
#include <cstdint>

#include "hal/core/event.hpp"

namespace prof {

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
  cascade,  // NetBurst: high starts when low overflows -> value = low + high (Intel SDM 18.15.5.6)
};

template <class B>
concept Backend = requires(unsigned slot, std::uint64_t value, std::uint32_t mask, EventConfig ev) {
  // Static description.
  { B::catalog } -> std::convertible_to<const pmu::PmuCatalog&>;
  { B::kSlots } -> std::convertible_to<unsigned>;
  { B::width(slot) } -> std::same_as<unsigned>;           // constexpr
  { B::slots_for(ev.code) } -> std::same_as<std::uint32_t>;  // constexpr: slots that can count it
  { B::kLink } -> std::convertible_to<LinkKind>;
  // Run time.
  { B::probe() } -> std::same_as<ProbeResult>;        // detect the PMU; safe on a trapping core
  { B::configure(slot, ev) } -> std::same_as<Status>;  // program the event; does not start
  { B::start(mask) } -> std::same_as<void>;            // start counting on these slots
  { B::stop(mask) } -> std::same_as<void>;             // stop (freeze) these slots
  { B::read(slot) } -> std::same_as<std::uint64_t>;    // raw counter value
  { B::template read<0>() } -> std::same_as<std::uint64_t>;  // same, slot fixed: one instruction
  { B::write(slot, value) } -> std::same_as<void>;     // set a counter (preset for sampling)
  { B::overflow_status() } -> std::same_as<std::uint32_t>;  // slots whose overflow condition is set
  { B::clear_overflow(mask) } -> std::same_as<void>;   // acknowledge (W1C flag or bit 31 of count)
  { B::set_overflow_interrupt(mask, true) } -> std::same_as<void>;
  { B::link(slot, slot) } -> std::same_as<Status>;     // make hi count lo's overflows (kLink)
};

}  // namespace prof
