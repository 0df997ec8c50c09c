#pragma once
// NetBurst derived metrics (data only). Each term is an event string (encode.hpp's syntax, checked
// at compile time): its code is the event's row, its qualifier the ESCR event mask it names, as an
// EventConfig carries them (README.md); no term sets OS/USR, edge, threshold or tag bits.
//
// Only ratios the manuals define, or that follow from one event's masks, without tagging: replay,
// front-end and execution tagging (SDM Vol. 3B Tables 19-31 to 19-33, with their PEBS set-up) need
// a second, non-counting ESCR or MSR set-up that a MetricEvent cannot express, and the driver does
// not program replay tagging. No cache miss ratio: the IA-32 Intel Architecture Optimization
// Reference Manual (248966-013, Appendix B, "Usage Notes for Specific Metrics") says the
// BSQ_cache_reference metrics "should not be used to calculate cache hit rates or cache miss
// rates", and 1st-level misses need replay tagging. No stall fraction: no manual defines one from
// these events.
#include <cstddef>
#include <cstdint>

#include "hal/core/metric.hpp"
#include "hal/netburst/encode.hpp"
#include "hal/netburst/events.hpp"

namespace pmu::netburst {

// Not constexpr on purpose: reaching it while evaluating metric_term() rejects the term by name.
inline void netburst_metric_term_takes_an_event_and_masks_only() {}

// A metric term from an event string with its masks: {row, ESCR event mask, 0}.
consteval MetricEvent metric_term(const char* s) {
  const Request r = checked(s);
  if (!r.os || !r.usr || r.edge || r.complement || r.threshold != 0 || r.tag != 0)
    netburst_metric_term_takes_an_event_and_masks_only();
  return {static_cast<std::uint32_t>(r.event), r.mask, 0};
}

// A term in the same syntax ("branch_retired:MMNM:MMTM"), for the host's listings (registered as
// PMU_METRIC_TERM_TEXT in pmu.cmake): at most size - 1 characters and a NUL; returns the length, 0
// for a term it cannot spell (an unknown row, options set), which the host then prints as numbers.
constexpr std::size_t term_string(const MetricEvent& e, char* out, std::size_t size) {
  if (e.code >= kNumEvents || e.options != 0 || size == 0) return 0;
  const NbEvent& ev = kEvents[e.code];
  const std::uint32_t mask = e.qualifier != 0 ? e.qualifier : zero_qualifier_mask(e.code);
  std::size_t n = 0;
  auto put = [&](const char* text) {
    while (*text && n + 1 < size) out[n++] = *text++;
  };
  put(ev.name);
  for (std::size_t m = 0; m < ev.num_masks; ++m)
    if (mask >> ev.masks[m].bit & 1u) {
      put(":");
      put(ev.masks[m].name);
    }
  out[n] = '\0';
  return n;
}

namespace detail {
// Non-halted clockticks and instructions retired (non-bogus), as SDM Vol. 3B "Counting Clocks" and
// the Optimization Reference Manual's Table B-1 program them.
inline constexpr MetricEvent kNonHaltedClockticks = metric_term("global_power_events:RUNNING");
inline constexpr MetricEvent kInstructionsRetired = metric_term("instr_retired:NBOGUSNTAG:NBOGUSTAG");
}  // namespace detail

inline constexpr Metric kMetrics[] = {
    // --- basic
    {"ipc", "basic", "instructions retired (non-bogus) per non-halted clocktick", "instructions/cycle",
     "Intel SDM Vol. 3B, Counting Clocks (non-halted CPI = non-halted clockticks / instructions "
     "retired; IPC is its inverse), Table 19-29 instr_retired, Table 19-28 global_power_events",
     {detail::kInstructionsRetired}, 1, {detail::kNonHaltedClockticks}, 1, 1.0},
    {"cpi", "basic", "non-halted clockticks per instruction retired (the non-halted CPI)",
     "cycles/instruction",
     "Intel SDM Vol. 3B, Counting Clocks: non-halted CPI = non-halted clockticks "
     "(global_power_events RUNNING) / instructions retired",
     {detail::kNonHaltedClockticks}, 1, {detail::kInstructionsRetired}, 1, 1.0},
    // --- branch
    {"branch_mispredict_ratio", "branch",
     "retired branches mispredicted (taken or not taken) per retired branch", "%",
     "Intel SDM Vol. 3B, Table 19-29 branch_retired masks (MMNM, MMTM over all four); the ratio is "
     "the IA-32 Optimization Reference Manual's Table B-1 Misprediction Ratio",
     {metric_term("branch_retired:MMNM:MMTM")}, 1, {metric_term("branch_retired:MMNP:MMNM:MMTP:MMTM")}, 1,
     100.0},
    {"branch_mispredicts_per_kinstr", "branch", "mispredicted branches retired per 1000 instructions retired",
     "per 1000 instructions",
     "IA-32 Optimization Reference Manual, Table B-1: Mispredicted Branches Retired "
     "(mispred_branch_retired NBOGUS), \"often used in a per-instruction ratio\"",
     {metric_term("mispred_branch_retired:NBOGUS")}, 1, {detail::kInstructionsRetired}, 1, 1000.0},
    // --- tlb
    {"itlb_miss_ratio", "tlb", "instruction TLB misses per ITLB translation (hits, misses, uncacheable hits)",
     "%", "Intel SDM Vol. 3B, Table 19-28 ITLB_reference: MISS over HIT, MISS and HIT_UC",
     {metric_term("ITLB_reference:MISS")}, 1, {metric_term("ITLB_reference:HIT:MISS:HIT_UC")}, 1, 100.0},
    {"dtlb_walks_per_kinstr", "tlb",
     "page walks for data TLB misses per 1000 instructions retired (page_walk_type counts for the "
     "whole package)",
     "per 1000 instructions",
     "Intel SDM Vol. 3B, Table 19-28 page_walk_type DTMISS over Table 19-29 instr_retired (the ratio "
     "of the events)",
     {metric_term("page_walk_type:DTMISS")}, 1, {detail::kInstructionsRetired}, 1, 1000.0},
};
inline constexpr MetricTable metrics{kMetrics, sizeof(kMetrics) / sizeof(kMetrics[0])};

static_assert(metrics_sound(catalog, metrics),
              "netburst metrics: every term an event of the netburst catalog, names unique, a denominator each");

}  // namespace pmu::netburst
