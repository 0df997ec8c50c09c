// `trace`: the dump's region timings (TRACE chunk, profiler/trace.hpp) as a Chrome trace (the
// Trace Event Format's JSON object form: "traceEvents" of complete events, ph "X"), which
// Perfetto's UI (ui.perfetto.dev) and chrome://tracing open. One track; each region call is a
// slice named after its region. ts and dur are microseconds where the dump knows its counter's
// clock; otherwise they are the first counter's raw counts, said in otherData. A dump without a
// trace is an error: there is no timeline to show.
#include <cstdio>
#include <stdexcept>

#include "tools/report/describe.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/json_writer.hpp"

namespace pmukit {
namespace {

std::string micros(std::uint64_t ticks, std::uint64_t hz) {
  if (hz == 0) return std::to_string(ticks);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ticks) * 1e6 / static_cast<double>(hz));
  return buf;
}

}  // namespace

void write_trace(std::ostream& os, const ReportInput& in) {
  const Dump& d = in.dump;
  if (d.trace.empty())
    throw ReportRefused("this dump has no region timings (a TRACE chunk: prof::RegionTrace, docs/profiler.md)");
  // RegionTrace drops a call whose end reads below its begin: such an event is corruption, and
  // end - begin would show as a slice of 1.8e19 ticks.
  for (std::size_t i = 0; i < d.trace.size(); ++i)
    if (d.trace[i].end < d.trace[i].begin)
      throw ReportRefused("trace event " + std::to_string(i) + " (region '" + d.regions[d.trace[i].region].name +
                          "') ends at " + std::to_string(d.trace[i].end) + ", before it begins at " +
                          std::to_string(d.trace[i].begin) + ": no target records that (the dump is corrupted)");
  const std::uint64_t hz = d.target.counter_clock_hz;
  const std::string counter = d.counters.empty() ? "first counter" : counter_label(d.counters[0]);
  JsonWriter j(os);
  j.begin_object();
  j.key("traceEvents").begin_array();
  j.begin_object().field("name", "process_name").field("ph", "M").field("pid", 1u).field("tid", 1u);
  j.key("args").begin_object().field("name", d.target.id + " (" + d.target.pmu + ")").end_object().end_object();
  const std::uint64_t origin = d.trace.front().begin;
  std::uint64_t first = origin;
  for (const TraceEvent& e : d.trace) first = std::min(first, e.begin);
  for (const TraceEvent& e : d.trace) {
    j.begin_object().field("name", d.regions[e.region].name).field("cat", "region").field("ph", "X");
    j.key("ts").number(micros(e.begin - first, hz));
    j.key("dur").number(micros(e.end - e.begin, hz));
    j.field("pid", 1u).field("tid", 1u);
    j.key("args").begin_object().field(counter, e.end - e.begin).end_object();
    j.end_object();
  }
  j.end_array();
  j.field("displayTimeUnit", "ns");
  j.key("otherData").begin_object();
  j.field("target", describe_target(d));
  j.field("time_unit", hz != 0 ? std::string("microseconds") : counter + " counts (counter clock unknown)");
  j.field("events_dropped_on_target", d.trace_dropped);
  j.end_object();
  j.end_object().finish();
}

}  // namespace pmukit
