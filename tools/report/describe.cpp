#include "tools/report/describe.hpp"

#include "profiler/dump/format.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {

std::string describe_target(const Dump& d) {
  const Target& t = d.target;
  // 0 means the firmware did not know its counter clock (e.g. the core clock): say so, not "0 Hz".
  const std::string clock =
      t.counter_clock_hz == 0 ? "unknown" : std::to_string(t.counter_clock_hz) + " Hz";
  return t.id + ", PMU " + t.pmu + ", counter clock " + clock + ", " +
         std::to_string(t.counter_width_bits) + "-bit counters";
}

std::string describe_counter(const Counter& c) {
  // Appends only: GCC 12 at -O3 warns falsely (-Wrestrict) on "literal" + std::string.
  std::string s = "#";
  s += std::to_string(c.slot);
  s += ' ';
  s += c.name;
  if (c.preset.empty()) {
    s += ": raw event ";
  } else {
    s += ": preset ";
    s += c.preset;
    s += ", event ";
  }
  s += hex(c.event_code, 2);
  s += ", ";
  s += std::to_string(c.width_bits);
  s += " bits";
  return s;
}

std::string counter_label(const Counter& c) {
  if (c.preset.empty() || c.preset == c.name) return c.name;
  std::string s = c.name;
  s += " (";
  s += c.preset;
  s += ')';
  return s;
}

namespace {
// "; 12 with stacks, 36 stack captures dropped": what the capture rings kept and lost.
std::string describe_captures(const char* what, std::size_t kept, const std::optional<std::uint64_t>& dropped) {
  if (kept == 0 && dropped.value_or(0) == 0) return "";
  return "; " + std::to_string(kept) + " with " + what + ", " +
         (dropped ? std::to_string(*dropped) : std::string("unknown (format 1.2)")) + " " + what + " dropped";
}
}  // namespace

std::string describe_source(const Dump& d) {
  const std::string captures = describe_captures("stacks", d.stacks.size(), d.stacks_dropped) +
                               describe_captures("walked chains", d.frames.size(), d.frames_dropped);
  if (!d.source) return "no sample source recorded" + captures;
  const SampleSource& s = *d.source;
  std::string text = source_kind_name(s.kind);
  if (s.kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::pmu_overflow))
    text += " on counter " + std::to_string(s.counter_slot) + " every " +
            std::to_string(s.period) + " events";
  else if (s.kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::timer))
    text += " every " + std::to_string(s.period) + " ns";
  else
    text += " (kind " + std::to_string(s.kind) + ", period " + std::to_string(s.period) + ")";
  return text + ", " + std::to_string(s.dropped) + " dropped" + captures;
}

std::string region_flags(const Region& r) {
  std::string s;
  const std::string of = " of " + std::to_string(r.calls) + " calls ";
  if (r.clamped.value_or(0) != 0)
    s = std::to_string(*r.clamped) + of + "clamped to 0 (below the calibrated overhead)";
  if (r.voided.value_or(0) != 0)
    s += (s.empty() ? std::to_string(*r.voided) + of : ", " + std::to_string(*r.voided) + " ") +
         "voided (the counters were reset inside)";
  if (!s.empty()) s += ": they add 0 to its total, min and mean";
  if (r.interrupts.value_or(0) != 0)
    s += (s.empty() ? "" : "; ") + std::to_string(*r.interrupts) +
         " sampling interrupts fell inside its calls: their handlers' events are in its counts";
  return s;
}

std::string byte_order_name(ByteOrder o) {
  return o == ByteOrder::big ? "big-endian" : "little-endian";
}

std::string mean(const CounterStats& s, std::uint64_t calls, unsigned decimals) {
  return fixed_ratio(s.total, calls, decimals);
}

}  // namespace pmukit
