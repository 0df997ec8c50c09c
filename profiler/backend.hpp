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

#include "hal/core/driver.hpp"
#include "hal/core/event.hpp"

namespace prof {

using pmu::EventConfig;
using pmu::LinkKind;
using pmu::ProbeResult;
using pmu::Status;
using pmu::status_name;

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
