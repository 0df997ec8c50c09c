#pragma once
// Vocabulary shared by every PMU driver: status codes, a raw event with its qualifiers, what a
// probe found, how counters link. The profiler's Backend concept (profiler/backend.hpp) is written
// in these terms; drivers include only this, so hal/ never depends on profiler/.
#include <cstdint>

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

}  // namespace pmu
