#pragma once
// `pmukit stat`: perf stat's report from one dump or several (repeated runs, perf stat -r). Per
// region, one row per event: its count (for a multiplexed event the scaled estimate
// raw * enabled / running, as perf stat scales), the share of the time it was on a counter, a rate
// per second where the time is known, "<not counted>" for an event that never ran; then the PMU's
// metrics (tools/report/metrics.hpp) from those counts. Several runs give each value's mean and
// perf's "+-": the standard deviation of the mean, 100 * (s / sqrt(n)) / mean, s the sample
// standard deviation (n - 1). Runs of other PMUs or other events are refused (StatRefused).
#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hal/core/metric.hpp"
#include "tools/dumpread/dump.hpp"

namespace pmukit {

class StatRefused : public std::runtime_error {
 public:
  explicit StatRefused(const std::string& what) : std::runtime_error(what) {}
};

// raw * enabled / running, rounded down as perf stat does (its u64 cast) and as the firmware's
// prof::MuxValue::scaled() does, so both print the same digits; computed exactly (no 128-bit type:
// the 32-bit hosts build this too). exact is absent when the estimate passes 2^64 - 1; value is then
// the floating-point quotient. No estimate when running is 0 (the event never ran).
struct ScaledCount {
  double value = 0;
  std::optional<std::uint64_t> exact;
};
std::optional<ScaledCount> scale_count(std::uint64_t raw, std::uint64_t enabled, std::uint64_t running);

// One value over the runs.
struct StatNumber {
  double mean = 0;
  std::optional<std::uint64_t> exact;  // one run: the integer itself (counts)
  std::optional<double> noise;         // several runs: perf's "+-", percent of the mean (above)
};

struct StatEventRow {
  std::string name, preset;  // preset empty: a raw event
  std::uint32_t code = 0, qualifier = 0, options = 0;
  bool multiplexed = false;  // a MUX_REGION's event; else a REGION's counter, counted exactly
  bool pinned = false;
  // False when it never ran (running 0) in some run: no estimate. not_counted_runs: which (0-based).
  bool counted = true;
  std::vector<std::size_t> not_counted_runs;
  StatNumber count;  // the scaled estimate (multiplexed), or the region's total
  StatNumber raw;    // multiplexed: what it counted while on a counter
  // Multiplexed: the means of the runs' clock ticks enabled and running; running_percent is
  // 100 * running / enabled (perf's mean running over mean enabled), 100 for a REGION's counter.
  double enabled = 0, running = 0;
  std::optional<double> running_percent;
  std::optional<double> rate;  // per second: the mean count over the mean time, where it is known
  std::vector<MuxValue> runs;  // each run's raw, enabled, running (a REGION counter: its total as raw)
};

struct StatMetricRow {
  const pmu::Metric* metric = nullptr;
  bool available = false;  // in every run
  StatNumber value;        // the mean of the runs' values, and their "+-"
  std::string why_not;     // when not available ("run 2: denominator 0" with several runs)
};

struct StatRegion {
  std::string name;  // the second region of a name is "NAME #2"
  bool multiplexed = false, whole_run = false;
  StatNumber calls;
  std::optional<double> seconds;  // mean over the runs, where the time is known
  std::vector<StatEventRow> events;
  std::vector<StatMetricRow> metrics;  // the PMU's table, in its order
  std::vector<std::string> not_counted;  // names of the events that never ran
};

// One task's TASK_COUNTS (format 1.5), or the sum of every task's (whole): what the counters counted
// while it was current, its share of the whole per counter, and a rate per second of its own time
// (its cycles preset counter over TARGET's counter clock) where that is known.
struct StatTaskRow {
  std::uint16_t id = kNoTask;
  std::string name;    // Dump::task_name(); "all tasks" for the whole
  bool whole = false;  // the sum of every task's counts: what the counters counted from the first switch
  StatNumber switches_in;
  std::vector<StatNumber> counts;                // one per counter, in COUNTERS order
  std::vector<double> share;                     // percent of the whole, per counter (0 where the whole is 0)
  std::optional<double> seconds;                 // its cycles over the counter clock, mean over the runs
  std::vector<std::optional<double>> rate;       // per second of its own time, per counter
};

struct StatTasks {
  std::vector<std::string> counters;  // the counters' names, COUNTERS order
  std::vector<StatTaskRow> rows;      // the tasks in the first run's TASK_COUNTS order (--task: those), then the whole
};

struct StatReport {
  std::vector<std::string> inputs;
  Target target;  // the first run's
  bool multiplexed = false;
  std::uint64_t mux_clock_hz = 0;  // the first run's
  std::size_t mux_events = 0;
  StatNumber rotations;
  std::vector<StatRegion> regions;  // whole-run multiplexed first, the other multiplexed, then REGION's
  std::optional<StatTasks> tasks;   // where the dumps have TASK_COUNTS
  std::optional<CoreInfo> core;     // the first run's CORE chunk
  std::vector<std::string> warnings;  // said in the table; on standard error for csv and json
};

struct StatRun {
  std::string name;  // the input's name, for messages
  const Dump* dump = nullptr;
};

struct StatOptions {
  std::optional<std::string> region;  // only the regions of this name (and its "#2", ...)
  std::vector<std::string> tasks;     // --task: only these tasks' rows (NAME or ID each); empty: all
};

// Throws StatRefused: a --task naming no task of the TASK_COUNTS, runs with other tasks, no run, runs of two PMUs or with different events, a region in some runs
// only, nothing to report, no region of --region's name.
StatReport build_stat(const std::vector<StatRun>& runs, const StatOptions& options = {});

// Every warning as one line: the report's, then each region's events that were not counted (the
// table says them in place; csv and json leave them to standard error).
std::vector<std::string> stat_warnings(const StatReport& report);

const std::vector<std::string>& stat_formats();  // table, csv, json
// False for a format not in stat_formats().
bool write_stat(std::ostream& os, const StatReport& report, const std::string& format);

}  // namespace pmukit
