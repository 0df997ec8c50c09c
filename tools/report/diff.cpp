#include "tools/report/diff.hpp"

#include <cstdio>
#include <map>

#include "tools/report/describe.hpp"
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
std::vector<DiffRow> merge(const std::vector<std::string>& order, const Map& base, const Map& next) {
  std::vector<DiffRow> rows;
  auto row = [&](const std::string& name) {
    DiffRow r{name, {}, {}, false};
    if (auto it = base.find(name); it != base.end()) r.base = it->second;
    if (auto it = next.find(name); it != next.end()) r.next = it->second;
    rows.push_back(r);
  };
  for (const std::string& n : order) row(n);
  for (const auto& [name, v] : next)
    if (!base.count(name)) row(name);
  return rows;
}

std::map<std::string, double> region_means(const Dump& d, std::vector<std::string>* order) {
  std::map<std::string, double> m;
  for (const Region& r : d.regions) {
    if (r.stats.empty() || m.count(r.name)) continue;
    m[r.name] = r.calls == 0 ? 0.0 : static_cast<double>(r.stats[0].total) / static_cast<double>(r.calls);
    if (order) order->push_back(r.name);
  }
  return m;
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
  for (const DiffRow& r : functions) n += r.past;
  return n;
}

DiffResult diff_dumps(const Dump& base, const Profile* base_profile, const Dump& next,
                      const Profile* next_profile, std::optional<double> threshold) {
  DiffResult out;
  out.threshold = threshold;
  if (!base.counters.empty()) out.counter = counter_label(base.counters[0]);
  std::vector<std::string> order;
  const auto rb = region_means(base, &order);
  out.regions = merge(order, rb, region_means(next, nullptr));
  for (DiffRow& r : out.regions)
    if (threshold && r.base && r.next && *r.base > 0)
      r.past = (*r.next - *r.base) * 100.0 / *r.base > *threshold;
  if (base_profile && next_profile) {
    order.clear();
    const auto fb = shares(*base_profile, &order);
    out.functions = merge(order, fb, shares(*next_profile, nullptr));
    for (DiffRow& r : out.functions)
      if (threshold) r.past = r.next.value_or(0.0) - r.base.value_or(0.0) > *threshold;
  }
  return out;
}

void write_diff(std::ostream& os, const DiffResult& r, const std::string& base_name, const std::string& next_name) {
  os << "pmukit diff\n  base  " << base_name << "\n  new   " << next_name << '\n';
  os << "  threshold  " << (r.threshold ? fixed(*r.threshold, 1) + " (% of a region's mean, points of a function's share)"
                                        : std::string("none (report only)"))
     << '\n';
  if (r.regions.empty()) {
    os << "\nRegions: none in either dump\n";
  } else {
    os << "\nRegions (mean per call, " << (r.counter.empty() ? "first counter" : r.counter) << ")\n";
    TextTable t({TextTable::left, TextTable::right, TextTable::right, TextTable::right, TextTable::left});
    t.row({"region", "base", "new", "change", ""});
    for (const DiffRow& d : r.regions) {
      std::string change = "-";
      if (d.base && d.next)
        change = *d.base > 0 ? fixed((*d.next - *d.base) * 100.0 / *d.base, 1, true) + "%" : "from 0";
      t.row({d.name, d.base ? fixed(*d.base, 1) : "(none)", d.next ? fixed(*d.next, 1) : "(none)", change,
             d.past ? "<-- past the threshold" : (!d.base ? "added" : !d.next ? "removed" : "")});
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
  const unsigned n = r.past();
  os << '\n' << (r.threshold ? (n == 0 ? std::string("nothing past the threshold") : std::to_string(n) + " past the threshold")
                             : std::string("no threshold given: nothing judged"))
     << '\n';
}

}  // namespace pmukit
