#include "tools/report/diff.hpp"

#include <cstdio>
#include <map>

#include "tools/report/describe.hpp"
#include "tools/report/stat.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

std::string fixed(double v, int decimals, bool sign = false) {
  char buf[64];
  std::snprintf(buf, sizeof buf, sign ? "%+.*f" : "%.*f", decimals, v);
  return buf;
}

// Names in the base's order, then the ones only the new dump has.
template <class Map>
std::vector<DiffRow> merge(const std::vector<std::string>& order, const Map& base, const Map& next,
                           const std::string& counter = {}) {
  std::vector<DiffRow> rows;
  auto row = [&](const std::string& name) {
    DiffRow r{name, counter, {}, {}, false, {}, {}, false, false};
    if (auto it = base.find(name); it != base.end()) r.base = it->second;
    if (auto it = next.find(name); it != next.end()) r.next = it->second;
    rows.push_back(r);
  };
  for (const std::string& n : order) row(n);
  for (const auto& [name, v] : next)
    if (!base.count(name)) row(name);
  return rows;
}

// Every region's mean per call of counter `k`, by name; the second region of a name is "name #2".
std::map<std::string, double> region_means(const Dump& d, std::size_t k, std::vector<std::string>* order,
                                           std::vector<std::string>* notes, const char* which) {
  std::map<std::string, double> m;
  std::map<std::string, unsigned> seen;
  for (const Region& r : d.regions) {
    const unsigned n = ++seen[r.name];
    const std::string name = n == 1 ? r.name : r.name + " #" + std::to_string(n);
    if (notes && n == 2) notes->push_back(std::string(which) + " has more than one region named '" + r.name +
                                          "': they are compared in the order they appear");
    if (notes && r.calls == 0) notes->push_back("region '" + name + "' has no calls in " + which + ": its mean is 0");
    if (const std::string flags = region_flags(r); notes && !flags.empty())
      notes->push_back("region '" + name + "' in " + which + ": " + flags);
    if (k >= r.stats.size()) continue;
    m[name] = r.calls == 0 ? 0.0 : static_cast<double>(r.stats[k].total) / static_cast<double>(r.calls);
    if (order) order->push_back(name);
  }
  return m;
}

// Counters compare when they count the same event under the same name.
bool same_counter(const Counter& a, const Counter& b) {
  return a.event_code == b.event_code && a.name == b.name && a.preset == b.preset;
}

std::string target_text(const Target& t) { return "'" + t.id + "' (PMU " + t.pmu + ")"; }

// One event in one multiplexed region: its scaled estimate per call (absent: never on a counter)
// and the share of the region's time it was on one.
struct MuxMean {
  std::optional<double> per_call;
  std::optional<double> running;
};

std::map<std::string, MuxMean> mux_means(const Dump& d, std::size_t k, std::vector<std::string>* order,
                                         std::vector<std::string>* notes, const char* which) {
  std::map<std::string, MuxMean> m;
  std::map<std::string, unsigned> seen;
  for (const MuxRegion& r : d.mux_regions) {
    const unsigned n = ++seen[r.name];
    const std::string name = n == 1 ? r.name : r.name + " #" + std::to_string(n);
    if (notes && n == 2) notes->push_back(std::string(which) + " has more than one multiplexed region named '" +
                                          r.name + "': they are compared in the order they appear");
    if (notes && r.calls == 0)
      notes->push_back("multiplexed region '" + name + "' has no calls in " + which + ": its mean is 0");
    const MuxValue& v = r.values[k];
    MuxMean x;
    if (const std::optional<ScaledCount> s = scale_count(v.raw, v.enabled, v.running))
      x.per_call = r.calls == 0 ? 0.0 : s->value / static_cast<double>(r.calls);
    if (v.enabled != 0) x.running = 100.0 * static_cast<double>(v.running) / static_cast<double>(v.enabled);
    m[name] = x;
    if (order) order->push_back(name);
  }
  return m;
}

std::string mux_label(const MuxEvent& e) {
  if (e.preset.empty() || e.preset == e.name) return e.name;
  return e.name + " (" + e.preset + ")";
}

// Each base multiplexed event against the new dump's event of the same code and qualifier.
void diff_mux(const Dump& base, const Dump& next, std::optional<double> threshold, DiffResult& out) {
  if (!base.mux && !next.mux) return;
  if (!base.mux || !next.mux) {
    out.notes.push_back(std::string(base.mux ? "BASE" : "NEW") + " multiplexes events, " + (base.mux ? "NEW" : "BASE") +
                        " does not: its multiplexed regions are not compared");
    return;
  }
  const std::vector<MuxEvent>&eb = base.mux->events, &en = next.mux->events;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::vector<bool> matched(en.size(), false);
  for (std::size_t i = 0; i < eb.size(); ++i) {
    std::size_t j = 0;
    while (j < en.size() && (matched[j] || en[j].event_code != eb[i].event_code || en[j].qualifier != eb[i].qualifier ||
                             en[j].options != eb[i].options))
      ++j;
    if (j < en.size()) {
      matched[j] = true;
      pairs.emplace_back(i, j);
    } else {
      out.notes.push_back("multiplexed event " + mux_label(eb[i]) + " is in BASE only: not compared");
    }
  }
  for (std::size_t j = 0; j < en.size(); ++j)
    if (!matched[j]) out.notes.push_back("multiplexed event " + mux_label(en[j]) + " is in NEW only: not compared");
  if (pairs.empty() && (!base.mux_regions.empty() || !next.mux_regions.empty()))
    throw DiffRefused("BASE's and NEW's multiplexed regions count different events: no event (code and qualifier) "
                      "in common to compare");
  for (const auto& [i, j] : pairs) {
    std::vector<std::string> order;
    std::vector<std::string>* notes = i == pairs.front().first ? &out.notes : nullptr;  // said once
    const auto mb = mux_means(base, i, &order, notes, "BASE");
    const auto mn = mux_means(next, j, nullptr, notes, "NEW");
    for (const auto& [name, v] : mn)
      if (!mb.count(name)) order.push_back(name);
    for (const std::string& name : order) {
      DiffRow r{name, mux_label(eb[i]), {}, {}, false, {}, {}, false, false};
      if (auto it = mb.find(name); it != mb.end()) {
        r.base = it->second.per_call;
        r.base_running = it->second.running;
        r.base_not_counted = !it->second.per_call;
      }
      if (auto it = mn.find(name); it != mn.end()) {
        r.next = it->second.per_call;
        r.next_running = it->second.running;
        r.next_not_counted = !it->second.per_call;
      }
      if (threshold && r.base && r.next)
        r.past = *r.base > 0 ? (*r.next - *r.base) * 100.0 / *r.base > *threshold : *r.next > 0;
      out.mux_regions.push_back(std::move(r));
    }
  }
}

std::map<std::string, double> shares(const Profile& p, std::vector<std::string>* order) {
  std::map<std::string, double> m;
  if (p.total == 0) return m;
  for (std::uint32_t id : p.by_self()) {
    const ProfileFunction& f = p.functions[id];
    m[f.name] += 100.0 * static_cast<double>(f.self) / static_cast<double>(p.total);
    if (order) order->push_back(f.name);
  }
  return m;
}

}  // namespace

unsigned DiffResult::past() const {
  unsigned n = 0;
  for (const DiffRow& r : regions) n += r.past;
  for (const DiffRow& r : mux_regions) n += r.past;
  for (const DiffRow& r : functions) n += r.past;
  return n;
}

DiffResult diff_dumps(const Dump& base, const Profile* base_profile, const Dump& next,
                      const Profile* next_profile, std::optional<double> threshold) {
  if (base.target.id != next.target.id || base.target.pmu != next.target.pmu)
    throw DiffRefused("BASE ran on " + target_text(base.target) + ", NEW on " + target_text(next.target) +
                      ": a diff compares two runs on one PMU");
  DiffResult out;
  out.threshold = threshold;
  // Each base counter against the new dump's counter of the same event.
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::vector<bool> matched(next.counters.size(), false);
  for (std::size_t i = 0; i < base.counters.size(); ++i) {
    std::size_t j = 0;
    while (j < next.counters.size() && (matched[j] || !same_counter(base.counters[i], next.counters[j]))) ++j;
    if (j < next.counters.size()) {
      matched[j] = true;
      pairs.emplace_back(i, j);
    } else {
      out.notes.push_back("counter " + counter_label(base.counters[i]) + " is in BASE only: not compared");
    }
  }
  for (std::size_t j = 0; j < next.counters.size(); ++j)
    if (!matched[j]) out.notes.push_back("counter " + counter_label(next.counters[j]) + " is in NEW only: not compared");
  const bool regions = !base.regions.empty() || !next.regions.empty();
  if (regions && pairs.empty())
    throw DiffRefused("BASE's and NEW's regions count different events (" +
                      (base.counters.empty() ? std::string("none") : counter_label(base.counters[0])) + " against " +
                      (next.counters.empty() ? std::string("none") : counter_label(next.counters[0])) +
                      "): no counter in common to compare");
  for (const auto& [i, j] : pairs) {
    std::vector<std::string> order;
    std::vector<std::string>* notes = i == pairs.front().first ? &out.notes : nullptr;  // said once
    const auto rb = region_means(base, i, &order, notes, "BASE");
    const auto rn = region_means(next, j, nullptr, notes, "NEW");
    for (DiffRow& r : merge(order, rb, rn, counter_label(base.counters[i]))) {
      // From 0 to more is growth without bound: past any threshold.
      if (threshold && r.base && r.next)
        r.past = *r.base > 0 ? (*r.next - *r.base) * 100.0 / *r.base > *threshold : *r.next > 0;
      out.regions.push_back(std::move(r));
    }
  }
  diff_mux(base, next, threshold, out);
  if (base_profile && next_profile) {
    if (base.source && next.source &&
        (base.source->kind != next.source->kind || base.source->counter_slot != next.source->counter_slot))
      out.notes.push_back("BASE samples " + describe_source(base) + ", NEW " + describe_source(next) +
                          ": the shares are of different things");
    std::vector<std::string> order;
    const auto fb = shares(*base_profile, &order);
    out.functions = merge(order, fb, shares(*next_profile, nullptr));
    for (DiffRow& r : out.functions)
      if (threshold) r.past = r.next.value_or(0.0) - r.base.value_or(0.0) > *threshold;
  }
  return out;
}

void write_diff(std::ostream& os, const DiffResult& r, const std::string& base_name, const std::string& next_name) {
  os << "pmukit diff\n  base  " << printable(base_name) << "\n  new   " << printable(next_name) << '\n';
  os << "  threshold  " << (r.threshold ? fixed(*r.threshold, 1) + " (% of a region's mean, points of a function's share)"
                                        : std::string("none (report only)"))
     << '\n';
  if (r.regions.empty()) {
    if (r.mux_regions.empty()) os << "\nRegions: none in either dump\n";
  } else {
    os << "\nRegions (mean per call)\n";
    TextTable t({TextTable::left, TextTable::left, TextTable::right, TextTable::right, TextTable::right, TextTable::left});
    t.row({"region", "counter", "base", "new", "change", ""});
    for (const DiffRow& d : r.regions) {
      std::string change = "-";
      if (d.base && d.next)
        change = *d.base > 0 ? fixed((*d.next - *d.base) * 100.0 / *d.base, 1, true) + "%"
                             : (*d.next > 0 ? "from 0" : "0");
      t.row({d.name, d.counter, d.base ? fixed(*d.base, 1) : "(none)", d.next ? fixed(*d.next, 1) : "(none)", change,
             d.past ? "<-- past the threshold" : (!d.base ? "added" : !d.next ? "removed" : "")});
    }
    t.print(os, "  ");
  }
  if (!r.mux_regions.empty()) {
    // Estimates scaled from part of the time: the share is said where it is below 100% in either dump.
    os << "\nMultiplexed regions (scaled estimate per call)\n";
    TextTable t({TextTable::left, TextTable::left, TextTable::right, TextTable::right, TextTable::right,
                 TextTable::left, TextTable::left});
    t.row({"region", "event", "base", "new", "change", "on a counter", ""});
    auto value = [](const std::optional<double>& v, bool not_counted) {
      return v ? fixed(*v, 1) : not_counted ? std::string("<not counted>") : std::string("(none)");
    };
    auto share = [](const std::optional<double>& v) { return v ? fixed(*v, 2) + "%" : std::string("-"); };
    for (const DiffRow& d : r.mux_regions) {
      std::string change = "-";
      if (d.base && d.next)
        change = *d.base > 0 ? fixed((*d.next - *d.base) * 100.0 / *d.base, 1, true) + "%"
                             : (*d.next > 0 ? "from 0" : "0");
      const bool partial = (d.base_running && *d.base_running < 100.0) || (d.next_running && *d.next_running < 100.0);
      const bool in_base = d.base || d.base_not_counted, in_next = d.next || d.next_not_counted;
      t.row({d.name, d.counter, value(d.base, d.base_not_counted), value(d.next, d.next_not_counted), change,
             partial ? "base " + share(d.base_running) + ", new " + share(d.next_running) : "",
             d.past ? "<-- past the threshold" : (!in_base ? "added" : !in_next ? "removed" : "")});
    }
    t.print(os, "  ");
  }
  if (!r.functions.empty()) {
    os << "\nSamples (share of each dump's samples)\n";
    TextTable t({TextTable::left, TextTable::right, TextTable::right, TextTable::right, TextTable::left});
    t.row({"function", "base %", "new %", "change", ""});
    for (const DiffRow& d : r.functions) {
      const double b = d.base.value_or(0.0), n = d.next.value_or(0.0);
      t.row({d.name, d.base ? fixed(b, 2) : "(none)", d.next ? fixed(n, 2) : "(none)", fixed(n - b, 2, true) + " pt",
             d.past ? "<-- past the threshold" : (!d.base ? "added" : !d.next ? "removed" : "")});
    }
    t.print(os, "  ");
  }
  if (!r.notes.empty()) {
    os << "\nNotes\n";
    for (const std::string& n : r.notes) os << "  " << printable(n) << '\n';
  }
  const unsigned n = r.past();
  os << '\n' << (r.threshold ? (n == 0 ? std::string("nothing past the threshold") : std::to_string(n) + " past the threshold")
                             : std::string("no threshold given: nothing judged"))
     << '\n';
}

}  // namespace pmukit
