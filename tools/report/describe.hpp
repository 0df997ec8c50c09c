#pragma once
// One-line descriptions of dump parts, shared by the human-readable formats.
#include <string>

#include "tools/dumpread/dump.hpp"
#include "tools/report/profile.hpp"

namespace pmukit {

std::string describe_target(const Dump& d);   // "xscale, PMU xscale-xsc2, 400000000 Hz, 32-bit"
std::string describe_counter(const Counter& c);
// What a counter measures, for a table column: its event's name, and the preset it stands for when
// that differs ("CLOCK_TICKS (cycles)": time-base ticks where the firmware asked for cycles).
std::string counter_label(const Counter& c);  // "cycles: preset cycles, event 0xff, 32 bits"
std::string describe_source(const Dump& d);   // "pmu-overflow on counter 0 every 10000 events"
std::string byte_order_name(ByteOrder o);     // "little-endian" / "big-endian"
std::string mean(const CounterStats& s, std::uint64_t calls, unsigned decimals);  // total / calls
// What a region's numbers include or leave out: calls that added 0 ("2 of 12 calls clamped to 0
// (below the calibrated overhead), 1 voided (the counters were reset inside)") and the sampling
// interrupts inside its calls; empty when none (or a 1.2 dump, which did not say).
std::string region_flags(const Region& r);

// Why a profile has no sample to show, from what the dump carries (docs/dump-format.md), and what
// to do: no SAMPLE_SOURCE (no sampler armed for the dump), every sample dropped, interrupts taken
// but nothing in the ring, no interrupt taken; or, with symbols, every sample in no function.
// Empty `why` when some sample is in a function (or, without symbols, when there are samples).
struct NoSamples {
  std::string what;  // "no samples", or "no sample in a function"
  std::string why, todo;
};
NoSamples why_no_samples(const Dump& d, const Profile& p, bool with_symbols);

}  // namespace pmukit
