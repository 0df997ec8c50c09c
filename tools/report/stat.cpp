#include "tools/report/stat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "tools/report/describe.hpp"
#include "tools/report/json_writer.hpp"
#include "tools/report/metrics.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

// a * b as two 64-bit halves, from 32-bit partial products.
void multiply(std::uint64_t a, std::uint64_t b, std::uint64_t& hi, std::uint64_t& lo) {
  const std::uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const std::uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  lo = (p00 & 0xFFFFFFFFu) | (mid << 32);
  hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

// (hi, lo) / d for hi < d, so the quotient fits 64 bits: restoring division, a bit at a time.
std::uint64_t divide(std::uint64_t hi, std::uint64_t lo, std::uint64_t d, std::uint64_t& rem) {
  std::uint64_t q = 0, r = hi;
  for (int i = 63; i >= 0; --i) {
    const bool carry = (r >> 63) != 0;  // r * 2 passes 2^64: more than d
    r = (r << 1) | ((lo >> i) & 1u);
    q <<= 1;
    if (carry || r >= d) {
      r -= d;
      q |= 1;
    }
  }
  rem = r;
  return q;
}

StatNumber summarize(const std::vector<double>& xs, std::optional<std::uint64_t> exact_of_one = std::nullopt) {
  StatNumber n;
  if (xs.empty()) return n;
  double sum = 0;
  for (double x : xs) sum += x;
  const double count = static_cast<double>(xs.size());
  n.mean = sum / count;
  if (xs.size() == 1) {
    n.exact = exact_of_one;
    return n;
  }
  double m2 = 0;
  for (double x : xs) m2 += (x - n.mean) * (x - n.mean);
  const double stddev_of_mean = std::sqrt(m2 / (count - 1)) / std::sqrt(count);
  n.noise = n.mean != 0 ? 100.0 * stddev_of_mean / n.mean : 0.0;
  return n;
}

double mean_of(const std::vector<double>& xs) {
  double sum = 0;
  for (double x : xs) sum += x;
  return xs.empty() ? 0.0 : sum / static_cast<double>(xs.size());
}

std::string run_name(const std::vector<StatRun>& runs, std::size_t i) {
  return "run " + std::to_string(i + 1) + " (" + runs[i].name + ")";
}

// One region of one run: a MUX_REGION or a REGION chunk.
struct Section {
  std::string name;  // unique among its kind: "NAME #2" for the second of a name
  std::string base;  // the name in the dump
  bool multiplexed = false, whole_run = false;
  const MuxRegion* mux = nullptr;
  const Region* region = nullptr;
  std::string key() const { return (multiplexed ? "m:" : "r:") + name; }
};

// Whole-run multiplexed regions first, then the other multiplexed ones, then the REGION chunks.
std::vector<Section> sections_of(const Dump& d) {
  std::vector<Section> whole, mux, plain;
  std::map<std::string, unsigned> seen_mux, seen_plain;
  auto unique = [](std::map<std::string, unsigned>& seen, const std::string& n) {
    const unsigned k = ++seen[n];
    return k == 1 ? n : n + " #" + std::to_string(k);
  };
  for (const MuxRegion& r : d.mux_regions) {
    Section s{unique(seen_mux, r.name), r.name, true, r.whole_run(), &r, nullptr};
    (s.whole_run ? whole : mux).push_back(std::move(s));
  }
  for (const Region& r : d.regions) plain.push_back({unique(seen_plain, r.name), r.name, false, false, nullptr, &r});
  whole.insert(whole.end(), mux.begin(), mux.end());
  whole.insert(whole.end(), plain.begin(), plain.end());
  return whole;
}

std::string event_text(const MuxEvent& e) {
  return "'" + e.name + "' (code " + hex(e.event_code, 2) + ", qualifier " + hex(e.qualifier) + ", options " +
         hex(e.options) + (e.preset.empty() ? "" : ", preset " + e.preset) + ")";
}
std::string counter_text(const Counter& c) {
  return "'" + c.name + "' (code " + hex(c.event_code, 2) + (c.preset.empty() ? "" : ", preset " + c.preset) + ")";
}

// Repeated runs must be of one PMU and one event list: a mean of different things is no mean.
void check_alike(const std::vector<StatRun>& runs, std::vector<std::string>& warnings) {
  const Dump& a = *runs[0].dump;
  const std::string first = run_name(runs, 0);
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const Dump& b = *runs[i].dump;
    const std::string other = run_name(runs, i);
    if (a.target.pmu != b.target.pmu)
      throw StatRefused(other + " ran on PMU " + b.target.pmu + ", " + first + " on PMU " + a.target.pmu +
                        ": repeated runs are of one PMU");
    if (a.target.id != b.target.id)
      warnings.push_back(other + " ran on target '" + b.target.id + "', " + first + " on '" + a.target.id +
                         "' (the same PMU: taken as repeats)");
    if (a.mux.has_value() != b.mux.has_value())
      throw StatRefused((a.mux ? first : other) + " multiplexes events, " + (a.mux ? other : first) +
                        " does not: repeated runs count the same events");
    if (a.mux) {
      const std::vector<MuxEvent>&ea = a.mux->events, &eb = b.mux->events;
      if (ea.size() != eb.size())
        throw StatRefused(first + " multiplexes " + std::to_string(ea.size()) + " events, " + other + " " +
                          std::to_string(eb.size()) + ": repeated runs count the same events");
      for (std::size_t k = 0; k < ea.size(); ++k)
        if (ea[k].event_code != eb[k].event_code || ea[k].qualifier != eb[k].qualifier ||
            ea[k].options != eb[k].options || ea[k].name != eb[k].name || ea[k].preset != eb[k].preset)
          throw StatRefused("multiplexed event " + std::to_string(k + 1) + " is " + event_text(ea[k]) + " in " + first +
                            ", " + event_text(eb[k]) + " in " + other + ": repeated runs count the same events");
    }
    if (!a.regions.empty() || !b.regions.empty() || !a.task_counts.empty() || !b.task_counts.empty()) {
      if (a.counters.size() != b.counters.size())
        throw StatRefused(first + " has " + std::to_string(a.counters.size()) + " counters, " + other + " " +
                          std::to_string(b.counters.size()) + ": repeated runs count the same events");
      for (std::size_t k = 0; k < a.counters.size(); ++k) {
        const Counter &ca = a.counters[k], &cb = b.counters[k];
        if (ca.event_code != cb.event_code || ca.name != cb.name || ca.preset != cb.preset)
          throw StatRefused("counter " + std::to_string(k + 1) + " is " + counter_text(ca) + " in " + first + ", " +
                            counter_text(cb) + " in " + other + ": repeated runs count the same events");
      }
    }
  }
}

// The first ten names, and how many more.
std::string names_of(const std::vector<Section>& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < 10; ++i) out += (out.empty() ? "" : ", ") + ("'" + s[i].name + "'");
  if (s.size() > 10) out += " and " + std::to_string(s.size() - 10) + " more";
  return out.empty() ? std::string("none") : out;
}

// The seconds a region ran, in one run, where the dump says: a multiplexed region's longest
// enabled time over the multiplexing clock; a REGION's cycles counter over the counter clock.
std::optional<double> seconds_of(const Dump& d, const Section& s) {
  if (s.multiplexed) {
    if (d.mux->clock_hz == 0) return std::nullopt;
    std::uint64_t ticks = 0;
    for (const MuxValue& v : s.mux->values) ticks = std::max(ticks, v.enabled);
    if (ticks == 0) return std::nullopt;
    return static_cast<double>(ticks) / static_cast<double>(d.mux->clock_hz);
  }
  if (d.target.counter_clock_hz == 0) return std::nullopt;
  for (std::size_t k = 0; k < d.counters.size(); ++k)
    if (d.counters[k].preset == "cycles") {
      const std::uint64_t cycles = s.region->stats[k].total;
      if (cycles == 0) return std::nullopt;
      return static_cast<double>(cycles) / static_cast<double>(d.target.counter_clock_hz);
    }
  return std::nullopt;
}

std::string runs_text(const std::vector<std::size_t>& which) {
  std::string s = which.size() == 1 ? "run " : "runs ";
  for (std::size_t i = 0; i < which.size(); ++i) s += (i ? ", " : "") + std::to_string(which[i] + 1);
  return s;
}

StatRegion build_region(const std::vector<StatRun>& runs, const std::vector<const Section*>& per_run) {
  const Section& s0 = *per_run[0];
  const Dump& d0 = *runs[0].dump;
  const std::size_t n = runs.size();
  StatRegion out;
  out.name = s0.name;
  out.multiplexed = s0.multiplexed;
  out.whole_run = s0.whole_run;
  std::vector<double> calls;
  std::vector<double> seconds;
  bool seconds_known = true;
  for (std::size_t i = 0; i < n; ++i) {
    const Section& s = *per_run[i];
    calls.push_back(static_cast<double>(s.multiplexed ? s.mux->calls : s.region->calls));
    const std::optional<double> t = seconds_of(*runs[i].dump, s);
    seconds_known = seconds_known && t.has_value();
    if (t) seconds.push_back(*t);
  }
  out.calls = summarize(calls, s0.multiplexed ? s0.mux->calls : s0.region->calls);
  if (seconds_known) out.seconds = mean_of(seconds);

  const std::size_t events = s0.multiplexed ? d0.mux->events.size() : d0.counters.size();
  // Each run's counted values, for its metrics.
  std::vector<std::vector<EventValue>> values(n);
  for (std::size_t e = 0; e < events; ++e) {
    StatEventRow row;
    if (s0.multiplexed) {
      const MuxEvent& m = d0.mux->events[e];
      row.name = m.name;
      row.preset = m.preset;
      row.code = m.event_code;
      row.qualifier = m.qualifier;
      row.options = m.options;
      row.multiplexed = true;
      row.pinned = m.pinned();
    } else {
      const Counter& c = d0.counters[e];
      row.name = c.name;
      row.preset = c.preset;
      row.code = c.event_code;
    }
    std::vector<double> counts, raws, enabled, running, event_seconds;
    std::optional<std::uint64_t> exact;
    bool event_seconds_known = true;
    for (std::size_t i = 0; i < n; ++i) {
      const Section& s = *per_run[i];
      if (!s.multiplexed) {
        const std::uint64_t total = s.region->stats[e].total;
        row.runs.push_back({total, 0, 0});
        counts.push_back(static_cast<double>(total));
        raws.push_back(static_cast<double>(total));
        exact = total;
        values[i].push_back({row.code, row.qualifier, static_cast<double>(total), row.options});
        continue;
      }
      const MuxValue& v = s.mux->values[e];
      row.runs.push_back(v);
      raws.push_back(static_cast<double>(v.raw));
      enabled.push_back(static_cast<double>(v.enabled));
      running.push_back(static_cast<double>(v.running));
      const std::uint64_t clock = runs[i].dump->mux->clock_hz;
      event_seconds_known = event_seconds_known && clock != 0 && v.enabled != 0;
      if (clock != 0) event_seconds.push_back(static_cast<double>(v.enabled) / static_cast<double>(clock));
      const std::optional<ScaledCount> scaled = scale_count(v.raw, v.enabled, v.running);
      if (!scaled) {
        row.not_counted_runs.push_back(i);
        continue;
      }
      counts.push_back(scaled->value);
      exact = scaled->exact;
      values[i].push_back({row.code, row.qualifier, scaled->value, row.options});
    }
    row.counted = row.not_counted_runs.empty();
    if (row.counted) row.count = summarize(counts, exact);
    if (row.multiplexed) {
      row.raw = summarize(raws, n == 1 ? std::optional<std::uint64_t>(row.runs[0].raw) : std::nullopt);
      row.enabled = mean_of(enabled);
      row.running = mean_of(running);
      if (row.enabled > 0) row.running_percent = 100.0 * row.running / row.enabled;
      const double t = mean_of(event_seconds);
      if (row.counted && event_seconds_known && t > 0) row.rate = row.count.mean / t;
    } else {
      row.raw = row.count;
      row.running_percent = 100.0;
      if (out.seconds && *out.seconds > 0) row.rate = row.count.mean / *out.seconds;
    }
    if (!row.counted)
      out.not_counted.push_back(row.not_counted_runs.size() == n || n == 1
                                    ? row.name
                                    : row.name + " (in " + runs_text(row.not_counted_runs) + ")");
    out.events.push_back(std::move(row));
  }

  // The PMU's metrics, from each run's counts: the mean of the runs' values, available when every
  // run gives one.
  std::vector<std::vector<MetricValue>> metric_runs;
  for (std::size_t i = 0; i < n; ++i) metric_runs.push_back(evaluate_metrics(d0.target.pmu, values[i]));
  for (std::size_t k = 0; k < metric_runs[0].size(); ++k) {
    StatMetricRow m;
    m.metric = metric_runs[0][k].metric;
    if (m.metric == nullptr) continue;
    m.available = true;
    std::vector<double> xs;
    for (std::size_t i = 0; i < n && m.available; ++i) {
      const MetricValue* v = k < metric_runs[i].size() && metric_runs[i][k].metric == m.metric ? &metric_runs[i][k] : nullptr;
      if (v != nullptr && v->available) {
        xs.push_back(v->value);
        continue;
      }
      m.available = false;
      const std::string why = v != nullptr ? v->why_not : std::string("not evaluated");
      m.why_not = n == 1 ? why : "run " + std::to_string(i + 1) + ": " + why;
    }
    if (m.available) m.value = summarize(xs);
    out.metrics.push_back(std::move(m));
  }
  return out;
}

}  // namespace

std::optional<ScaledCount> scale_count(std::uint64_t raw, std::uint64_t enabled, std::uint64_t running) {
  if (running == 0) return std::nullopt;
  ScaledCount s;
  std::uint64_t hi = 0, lo = 0;
  multiply(raw, enabled, hi, lo);
  if (hi < running) {  // else the quotient passes 2^64
    std::uint64_t rem = 0;
    s.exact = divide(hi, lo, running, rem);
  }
  s.value = s.exact ? static_cast<double>(*s.exact)
                    : static_cast<double>(raw) * static_cast<double>(enabled) / static_cast<double>(running);
  return s;
}

namespace {

// The seconds a task ran: its cycles preset counter over the counter clock (none where unknown).
std::optional<double> task_seconds(const Dump& d, const std::vector<std::uint64_t>& counts) {
  if (d.target.counter_clock_hz == 0) return std::nullopt;
  for (std::size_t k = 0; k < d.counters.size() && k < counts.size(); ++k)
    if (d.counters[k].preset == "cycles") {
      if (counts[k] == 0) return std::nullopt;
      return static_cast<double>(counts[k]) / static_cast<double>(d.target.counter_clock_hz);
    }
  return std::nullopt;
}

// TASK_COUNTS (1.5) per task over the runs, then the whole: the sum of every task's counts.
std::optional<StatTasks> build_tasks(const std::vector<StatRun>& runs, const StatOptions& options) {
  const Dump& d0 = *runs[0].dump;
  if (d0.task_counts.empty()) {
    if (!options.tasks.empty()) throw StatRefused("--task: " + runs[0].name + " has no TASK_COUNTS chunk (format 1.5)");
    return std::nullopt;
  }
  // The same tasks in every run.
  for (std::size_t i = 1; i < runs.size(); ++i) {
    std::set<std::uint16_t> a, b;
    for (const TaskCounts& t : d0.task_counts) a.insert(t.task);
    for (const TaskCounts& t : runs[i].dump->task_counts) b.insert(t.task);
    if (a != b)
      throw StatRefused(run_name(runs, i) + " has other tasks' TASK_COUNTS than " + run_name(runs, 0) +
                        ": repeated runs run the same tasks");
  }
  std::set<std::uint16_t> shown;
  for (const std::string& item : options.tasks) {
    bool found = false;
    for (const TaskCounts& t : d0.task_counts)
      if (d0.task_name(t.task) == item || std::to_string(t.task) == item) {
        shown.insert(t.task);
        found = true;
      }
    if (!found) {
      std::string known;
      for (const TaskCounts& t : d0.task_counts)
        known += (known.empty() ? "" : ", ") + d0.task_name(t.task) + " (" + std::to_string(t.task) + ")";
      throw StatRefused("--task: no task '" + item + "' in the TASK_COUNTS of " + runs[0].name + " (its tasks: " + known + ")");
    }
  }
  const std::size_t n = d0.counters.size();
  StatTasks out;
  for (const Counter& c : d0.counters) out.counters.push_back(c.name);
  // Each run's whole: every task's counts summed.
  std::vector<std::vector<std::uint64_t>> whole(runs.size(), std::vector<std::uint64_t>(n, 0));
  std::vector<std::uint64_t> whole_switches(runs.size(), 0);
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (const TaskCounts& t : runs[r].dump->task_counts) {
      whole_switches[r] += t.switches_in;
      for (std::size_t k = 0; k < n; ++k) whole[r][k] += t.counts[k];
    }
  auto row_of = [&](std::uint16_t id, bool is_whole) {
    StatTaskRow row;
    row.id = id;
    row.whole = is_whole;
    row.name = is_whole ? "all tasks" : d0.task_name(id);
    std::vector<double> switches, secs;
    std::vector<std::vector<double>> counts(n);
    std::vector<double> whole_mean(n, 0);
    bool seconds_known = true;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const Dump& d = *runs[r].dump;
      const TaskCounts* t = nullptr;
      for (const TaskCounts& x : d.task_counts)
        if (x.task == id) t = &x;
      const std::vector<std::uint64_t>& c = is_whole ? whole[r] : t->counts;
      switches.push_back(static_cast<double>(is_whole ? whole_switches[r] : t->switches_in));
      for (std::size_t k = 0; k < n; ++k) {
        counts[k].push_back(static_cast<double>(c[k]));
        whole_mean[k] += static_cast<double>(whole[r][k]) / static_cast<double>(runs.size());
      }
      const std::optional<double> s = task_seconds(d, c);
      if (s) secs.push_back(*s);
      else seconds_known = false;
    }
    const auto one = [&](std::size_t k) -> std::optional<std::uint64_t> {
      if (runs.size() != 1) return std::nullopt;
      return is_whole ? whole[0][k] : static_cast<std::uint64_t>(counts[k][0]);
    };
    row.switches_in = summarize(switches, runs.size() == 1 ? std::optional<std::uint64_t>(
                                                                  is_whole ? whole_switches[0] : static_cast<std::uint64_t>(switches[0]))
                                                            : std::nullopt);
    if (seconds_known && !secs.empty()) row.seconds = mean_of(secs);
    for (std::size_t k = 0; k < n; ++k) {
      row.counts.push_back(summarize(counts[k], one(k)));
      row.share.push_back(whole_mean[k] > 0 ? 100.0 * row.counts.back().mean / whole_mean[k] : 0.0);
      row.rate.push_back(row.seconds && *row.seconds > 0 ? std::optional<double>(row.counts.back().mean / *row.seconds)
                                                         : std::nullopt);
    }
    return row;
  };
  for (const TaskCounts& t : d0.task_counts)
    if (shown.empty() || shown.count(t.task)) out.rows.push_back(row_of(t.task, false));
  out.rows.push_back(row_of(kNoTask, true));
  return out;
}

}  // namespace

StatReport build_stat(const std::vector<StatRun>& runs, const StatOptions& options) {
  if (runs.empty()) throw StatRefused("no dump to report");
  StatReport r;
  for (const StatRun& run : runs) r.inputs.push_back(run.name);
  check_alike(runs, r.warnings);
  const Dump& d0 = *runs[0].dump;
  r.target = d0.target;
  r.multiplexed = d0.mux.has_value();
  if (d0.mux) {
    r.mux_clock_hz = d0.mux->clock_hz;
    r.mux_events = d0.mux->events.size();
    std::vector<double> rotations;
    for (const StatRun& run : runs) rotations.push_back(static_cast<double>(run.dump->mux->rotations));
    r.rotations = summarize(rotations, d0.mux->rotations);
  }

  std::vector<std::vector<Section>> all;
  for (const StatRun& run : runs) {
    std::vector<Section> s = sections_of(*run.dump);
    if (s.empty() && !run.dump->task_counts.empty()) {
      all.push_back(std::move(s));
      continue;
    }
    if (s.empty())
      throw StatRefused(run.name + " has no MUX_REGION or REGION chunk: no region was measured, nothing to report");
    if (options.region) {
      const std::vector<Section> every = s;
      s.erase(std::remove_if(s.begin(), s.end(), [&](const Section& x) { return x.base != *options.region; }), s.end());
      if (s.empty())
        throw StatRefused("no region named '" + *options.region + "' in " + run.name + " (its regions: " +
                          names_of(every) + ")");
    }
    all.push_back(std::move(s));
  }
  // The same regions in every run (their keys are unique within a run).
  std::vector<std::map<std::string, const Section*>> by_key(all.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    for (const Section& s : all[i]) by_key[i][s.key()] = &s;
  auto missing = [&](std::size_t has, std::size_t lacks) {
    for (const Section& s : all[has])
      if (!by_key[lacks].count(s.key()))
        throw StatRefused(std::string(s.multiplexed ? "multiplexed " : "") + "region '" + s.name + "' is in " +
                          run_name(runs, has) + " but not in " + run_name(runs, lacks) +
                          ": repeated runs measure the same regions");
  };
  for (std::size_t i = 1; i < runs.size(); ++i) {
    missing(0, i);
    missing(i, 0);
  }
  for (const Section& s : all[0]) {
    std::vector<const Section*> per_run;
    for (const auto& run : by_key) per_run.push_back(run.at(s.key()));
    r.regions.push_back(build_region(runs, per_run));
  }
  r.tasks = build_tasks(runs, options);
  r.core = d0.core;
  return r;
}

namespace {

// Fixed decimals with the integer part's digits grouped by three: "1,234,567.50".
std::string grouped(const std::string& digits) {
  const std::size_t point = std::min(digits.find('.'), digits.size());
  const std::size_t start = !digits.empty() && digits[0] == '-' ? 1 : 0;
  std::string out = digits.substr(0, start);
  for (std::size_t i = start; i < point; ++i) {
    out += digits[i];
    if (i + 1 < point && (point - i - 1) % 3 == 0) out += ',';
  }
  return out + digits.substr(point);
}

std::string fixed(double v, int decimals) {
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// A number for csv and json: an exact count as it is, else six decimals without trailing zeros.
std::string plain(double v) {
  if (!std::isfinite(v)) return "";
  std::string s = fixed(v, 6);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}
std::string plain(const StatNumber& n) { return n.exact ? std::to_string(*n.exact) : plain(n.mean); }

std::string count_text(const StatNumber& n) { return grouped(n.exact ? std::to_string(*n.exact) : fixed(n.mean, 0)); }

std::string noise_text(const StatNumber& n) {
  if (!n.noise) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "( +-%6.2f%% )", *n.noise);  // perf stat -r's form
  return buf;
}

std::string rate_text(double per_second) {
  static const struct {
    double scale;
    const char* unit;
  } units[] = {{1e9, "G/sec"}, {1e6, "M/sec"}, {1e3, "K/sec"}, {1, "/sec"}};
  for (const auto& u : units)
    if (per_second >= u.scale || u.scale == 1) return "# " + fixed(per_second / u.scale, 3) + " " + u.unit;
  return "";
}

const char* text(const char* s) { return s != nullptr ? s : ""; }

std::string metric_text(double v) {
  const double a = std::fabs(v);
  return fixed(v, a != 0 && a < 0.1 ? 4 : 2);
}

std::string calls_text(const StatNumber& calls) {
  if (calls.exact) return std::to_string(*calls.exact) + (*calls.exact == 1 ? " call" : " calls");
  if (calls.noise.value_or(0) == 0) return fixed(calls.mean, 0) + (calls.mean == 1 ? " call" : " calls");
  return fixed(calls.mean, 1) + " calls (mean)";
}

std::string region_title(const StatRegion& g) {
  std::string s = "region '" + g.name + "'";
  if (g.whole_run) s += " (the whole run)";
  s += g.multiplexed ? ", multiplexed: " : ", counted exactly: ";
  s += calls_text(g.calls);
  if (g.seconds) s += ", " + fixed(*g.seconds, 6) + " s";
  return s;
}

// perf stat --per-thread's rows: per task, per counter, its count, share of the whole and rate.
void write_tasks_table(std::ostream& os, const StatReport& r) {
  const StatTasks& k = *r.tasks;
  os << "\ntasks (TASK_COUNTS: what the counters counted while each task was current; share: of all tasks)\n";
  const bool several = r.inputs.size() > 1;
  std::vector<TextTable::Align> align = {TextTable::left, TextTable::right, TextTable::right, TextTable::left,
                                         TextTable::right, TextTable::left};
  if (several) align.push_back(TextTable::left);
  TextTable t(align);
  std::vector<std::string> head = {"task", "switches in", "count", "event", "share", "rate"};
  if (several) head.push_back("");
  t.row(head);
  for (const StatTaskRow& row : k.rows) {
    const std::string name = row.whole ? row.name : row.id == kNoTask ? "[no task]" : row.name + " (" + std::to_string(row.id) + ")";
    for (std::size_t c = 0; c < k.counters.size(); ++c) {
      std::vector<std::string> cells = {c == 0 ? name : "", c == 0 ? count_text(row.switches_in) : "",
                                        count_text(row.counts[c]), k.counters[c], fixed(row.share[c], 2) + "%",
                                        row.rate[c] ? rate_text(*row.rate[c]) : ""};
      if (several) cells.push_back(noise_text(row.counts[c]));
      t.row(std::move(cells));
    }
    if (k.counters.empty()) t.row({name, count_text(row.switches_in)});
  }
  t.print(os, "  ");
}

void write_table(std::ostream& os, const StatReport& r) {
  os << "pmukit stat: " << printable(r.inputs[0]);
  if (r.inputs.size() > 1) os << " (" << r.inputs.size() << " runs)";
  os << '\n';
  if (r.inputs.size() > 1) {
    os << "  runs      ";
    for (std::size_t i = 0; i < r.inputs.size(); ++i) os << (i ? ", " : "") << printable(r.inputs[i]);
    os << "\n  values    the mean of the runs; ( +- x% ): the standard deviation of the mean, in percent of it\n";
  }
  os << "  target    " << printable(r.target.id) << ", PMU " << printable(r.target.pmu) << '\n';
  if (r.core) os << "  core      " << r.core->number << " of " << r.core->cores << '\n';
  if (r.multiplexed) {
    os << "  multiplexing  " << r.mux_events << " events rotated on the counters, " << count_text(r.rotations)
       << " rotations, clock " << (r.mux_clock_hz ? std::to_string(r.mux_clock_hz) + " Hz" : std::string("unknown"))
       << "\n                (x%): the share of its region's time an event was on a counter; its count is\n"
          "                scaled from it (raw: what it counted there)\n";
  }
  // Columns: count, event, rate (a metric's name), the runs' "+-" (several runs only), the share
  // of the time on a counter, the raw count.
  const bool several = r.inputs.size() > 1;
  for (const StatRegion& g : r.regions) {
    os << '\n' << printable(region_title(g)) << '\n';
    std::vector<TextTable::Align> align = {TextTable::right, TextTable::left, TextTable::left, TextTable::left,
                                           TextTable::left};
    if (several) align.push_back(TextTable::left);
    TextTable t(align);
    auto row = [&](std::string count, std::string name, std::string rate, std::string noise, std::string running,
                   std::string raw) {
      std::vector<std::string> cells = {std::move(count), std::move(name), std::move(rate)};
      if (several) cells.push_back(std::move(noise));
      cells.push_back(std::move(running));
      cells.push_back(std::move(raw));
      t.row(std::move(cells));
    };
    for (const StatEventRow& e : g.events) {
      if (!e.counted) {
        row("<not counted>", e.name, "", "", "", "");
        continue;
      }
      const bool scaled = e.multiplexed && e.running < e.enabled;
      char running[32] = "";
      if (scaled && e.running_percent) std::snprintf(running, sizeof running, "(%.2f%%)", *e.running_percent);
      row(count_text(e.count), e.name, e.rate ? rate_text(*e.rate) : "", noise_text(e.count), running,
          scaled ? "raw " + count_text(e.raw) : "");
    }
    for (const StatMetricRow& m : g.metrics)
      if (m.available)
        row(metric_text(m.value.mean), text(m.metric->unit), std::string("# ") + text(m.metric->name),
            noise_text(m.value), "", "");
    t.print(os, "  ");
    if (!g.not_counted.empty()) {
      os << "  warning: not counted (never on a counter while the region ran): ";
      for (std::size_t i = 0; i < g.not_counted.size(); ++i) os << (i ? ", " : "") << printable(g.not_counted[i]);
      os << '\n';
    }
  }
  if (r.tasks) write_tasks_table(os, r);
  if (!r.warnings.empty()) {
    os << '\n';
    for (const std::string& w : r.warnings) os << "warning: " << printable(w) << '\n';
  }
}

void write_csv(std::ostream& os, const StatReport& r) {
  os << "region,multiplexed,whole_run,calls,row,name,code,qualifier,preset,count,noise_percent,raw,enabled,running,"
        "running_percent,rate_per_second,unit,status,task_id,share_percent\n";
  auto opt = [](const std::optional<double>& v) { return v ? plain(*v) : std::string(); };
  for (const StatRegion& g : r.regions) {
    const std::string head = csv_field(g.name) + ',' + (g.multiplexed ? "true" : "false") + ',' +
                             (g.whole_run ? "true" : "false") + ',' + plain(g.calls) + ',';
    for (const StatEventRow& e : g.events) {
      os << head << "event," << csv_field(e.name) << ',' << hex(e.code, 2) << ',' << hex(e.qualifier) << ','
         << csv_field(e.preset) << ',' << (e.counted ? plain(e.count) : "") << ',' << opt(e.count.noise) << ','
         << plain(e.raw) << ',';
      if (e.multiplexed)
        os << plain(e.enabled) << ',' << plain(e.running) << ',';
      else
        os << ",,";
      os << opt(e.running_percent) << ',' << opt(e.rate) << ",," << (e.counted ? "counted" : "not counted") << ",,\n";
    }
    for (const StatMetricRow& m : g.metrics)
      if (m.available)
        os << head << "metric," << csv_field(text(m.metric->name)) << ",,,," << plain(m.value) << ','
           << opt(m.value.noise) << ",,,,,," << csv_field(text(m.metric->unit)) << ",available,,\n";
  }
  // TASK_COUNTS (1.5): row "task" per task and counter, region the task's name ("all tasks": the
  // whole, whole_run true), calls its switches in.
  if (r.tasks)
    for (const StatTaskRow& row : r.tasks->rows)
      for (std::size_t c = 0; c < r.tasks->counters.size(); ++c)
        os << csv_field(row.name) << ",false," << (row.whole ? "true" : "false") << ',' << plain(row.switches_in)
           << ",task," << csv_field(r.tasks->counters[c]) << ",,,," << plain(row.counts[c]) << ','
           << opt(row.counts[c].noise) << ',' << plain(row.counts[c]) << ",,,," << opt(row.rate[c]) << ",,counted,"
           << (row.whole || row.id == kNoTask ? std::string() : std::to_string(row.id)) << ',' << plain(row.share[c])
           << '\n';
}

void json_number(JsonWriter& j, const char* key, const std::optional<double>& v) {
  j.key(key);
  if (v && std::isfinite(*v))
    j.number(plain(*v));
  else
    j.null();
}
void json_number(JsonWriter& j, const char* key, const StatNumber& n) {
  j.key(key);
  if (n.exact)
    j.value(*n.exact);
  else if (std::isfinite(n.mean))
    j.number(plain(n.mean));
  else
    j.null();
}

void write_json(std::ostream& os, const StatReport& r) {
  JsonWriter j(os);
  j.begin_object();
  j.key("inputs").begin_array();
  for (const std::string& in : r.inputs) j.value(in);
  j.end_array().field("runs", std::uint64_t{r.inputs.size()});
  j.key("target").begin_object().field("id", r.target.id).field("pmu", r.target.pmu).end_object();
  j.key("multiplexing");
  if (r.multiplexed) {
    j.begin_object().field("events", std::uint64_t{r.mux_events}).field("clock_hz", r.mux_clock_hz);
    json_number(j, "rotations", r.rotations);
    j.end_object();
  } else {
    j.null();
  }
  j.key("regions").begin_array();
  for (const StatRegion& g : r.regions) {
    j.begin_object().field("name", g.name).field("multiplexed", g.multiplexed).field("whole_run", g.whole_run);
    json_number(j, "calls", g.calls);
    json_number(j, "seconds", g.seconds);
    j.key("events").begin_array();
    for (const StatEventRow& e : g.events) {
      j.begin_object().field("name", e.name).field("code", hex(e.code, 2)).field("qualifier", hex(e.qualifier));
      j.key("preset");
      if (e.preset.empty()) j.null(); else j.value(e.preset);
      j.field("multiplexed", e.multiplexed).field("pinned", e.pinned).field("counted", e.counted);
      if (e.counted) {
        json_number(j, "count", e.count);
      } else {
        j.key("count").null();
      }
      json_number(j, "noise_percent", e.count.noise);
      json_number(j, "raw", e.raw);
      json_number(j, "enabled", e.multiplexed ? std::optional<double>(e.enabled) : std::nullopt);
      json_number(j, "running", e.multiplexed ? std::optional<double>(e.running) : std::nullopt);
      json_number(j, "running_percent", e.running_percent);
      json_number(j, "rate_per_second", e.rate);
      j.key("runs").begin_array();
      for (const MuxValue& v : e.runs) {
        j.begin_object().field("raw", v.raw);
        if (e.multiplexed) j.field("enabled", v.enabled).field("running", v.running);
        j.end_object();
      }
      j.end_array().end_object();
    }
    j.end_array();
    j.key("not_counted").begin_array();
    for (const std::string& n : g.not_counted) j.value(n);
    j.end_array();
    j.key("metrics").begin_array();
    for (const StatMetricRow& m : g.metrics) {
      const pmu::Metric& x = *m.metric;
      j.begin_object().field("name", text(x.name)).field("group", text(x.group)).field("unit", text(x.unit));
      j.field("description", text(x.description)).field("source", text(x.source));
      j.field("available", m.available);
      if (m.available) {
        json_number(j, "value", m.value);
        json_number(j, "noise_percent", m.value.noise);
        j.key("why_not").null();
      } else {
        j.key("value").null();
        j.key("noise_percent").null();
        j.field("why_not", m.why_not);
      }
      j.end_object();
    }
    j.end_array().end_object();
  }
  j.end_array();
  j.key("core");
  if (r.core) j.begin_object().field("number", r.core->number).field("cores", r.core->cores).end_object();
  else j.null();
  // TASK_COUNTS (1.5): null without them; the rows, the whole last.
  j.key("tasks");
  if (r.tasks) {
    j.begin_array();
    for (const StatTaskRow& row : r.tasks->rows) {
      j.begin_object().key("id");
      if (row.whole || row.id == kNoTask) j.null(); else j.value(std::uint64_t{row.id});
      j.field("name", row.name).field("whole", row.whole);
      json_number(j, "switches_in", row.switches_in);
      json_number(j, "seconds", row.seconds);
      j.key("counts").begin_array();
      for (std::size_t c = 0; c < r.tasks->counters.size(); ++c) {
        j.begin_object().field("event", r.tasks->counters[c]);
        json_number(j, "count", row.counts[c]);
        json_number(j, "noise_percent", row.counts[c].noise);
        json_number(j, "share_percent", std::optional<double>(row.share[c]));
        json_number(j, "rate_per_second", row.rate[c]);
        j.end_object();
      }
      j.end_array().end_object();
    }
    j.end_array();
  } else {
    j.null();
  }
  j.key("warnings").begin_array();
  for (const std::string& w : r.warnings) j.value(w);
  j.end_array();
  j.end_object().finish();
}

}  // namespace

std::vector<std::string> stat_warnings(const StatReport& report) {
  std::vector<std::string> out = report.warnings;
  for (const StatRegion& g : report.regions) {
    if (g.not_counted.empty()) continue;
    std::string names;
    for (const std::string& n : g.not_counted) names += (names.empty() ? "" : ", ") + n;
    out.push_back("region '" + g.name + "': not counted (never on a counter while the region ran): " + names);
  }
  return out;
}

const std::vector<std::string>& stat_formats() {
  static const std::vector<std::string> formats = {"table", "csv", "json"};
  return formats;
}

bool write_stat(std::ostream& os, const StatReport& report, const std::string& format) {
  if (format == "table")
    write_table(os, report);
  else if (format == "csv")
    write_csv(os, report);
  else if (format == "json")
    write_json(os, report);
  else
    return false;
  return true;
}

}  // namespace pmukit
