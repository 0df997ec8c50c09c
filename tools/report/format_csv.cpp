// `csv`: one table, chosen by --table: "regions" (one row per region and counter) or "profile"
// (the flat profile, its rows as --sort and the filters of view.hpp choose). RFC 4180 quoting.
#include "tools/report/describe.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

void regions(std::ostream& os, const Dump& d) {
  os << "region,calls,counter,event,preset,total,mean,min,max,overhead_per_call,clamped_calls,voided_calls,interrupts_inside\n";
  auto count = [](const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : std::string(); };
  for (const Region& r : d.regions) {
    for (std::size_t i = 0; i < r.stats.size(); ++i) {
      const Counter& c = d.counters[i];
      const CounterStats& s = r.stats[i];
      os << csv_field(r.name) << ',' << r.calls << ',' << csv_field(c.name) << ','
         << hex(c.event_code, 2) << ',' << csv_field(c.preset) << ',' << s.total << ','
         << mean(s, r.calls, 1) << ',' << s.min << ',' << s.max << ',' << s.overhead << ',' << count(r.clamped)
         << ',' << count(r.voided) << ',' << count(r.interrupts) << '\n';
    }
  }
}

void profile(std::ostream& os, const ReportInput& in) {
  const Profile& p = in.profile;
  const ViewOptions& view = in.options.view;
  const unsigned digits = 2 * in.dump.target.address_bytes;
  std::uint64_t cumulative = 0;
  ProfileRows shown;
  if (view.sort == SortKey::function) {
    // inclusive: samples with the function anywhere in their stack (Profile::stacks).
    os << "function,address,location,samples,percent,cumulative_percent,inclusive,inclusive_percent\n";
    const std::vector<std::uint64_t> inclusive = p.inclusive();
    std::vector<ProfileRow> candidates;
    for (std::uint32_t id : p.by_self_then_inclusive(inclusive)) candidates.push_back({p.functions[id].self, id});
    shown = choose_rows(p, std::move(candidates), view, 0);
    for (const ProfileRow& r : shown.rows) {
      const ProfileFunction& f = p.functions[r.function];
      cumulative += f.self;
      os << csv_field(f.name) << ',' << hex(f.address, digits) << ',' << csv_field(p.location(f.line))
         << ',' << f.self << ',' << percent(f.self, p.total) << ',' << percent(cumulative, p.total) << ','
         << inclusive[r.function] << ',' << percent(inclusive[r.function], p.total) << '\n';
    }
  } else {
    for (const std::string& h : key_headers(view.sort, true)) os << h << ',';
    os << "samples,percent,cumulative_percent\n";
    shown = profile_rows(p, view, 0);
    for (const ProfileRow& r : shown.rows) {
      cumulative += r.samples;
      for (const std::string& c : key_cells(p, r, view.sort, true, digits)) os << csv_field(c) << ',';
      os << r.samples << ',' << percent(r.samples, p.total) << ',' << percent(cumulative, p.total) << '\n';
    }
  }
  // CSV has no comment lines: what was left out goes to standard error.
  if (const std::string note = shown.note(p, row_unit(view.sort)); !note.empty() && in.options.warnings)
    in.options.warnings->push_back("csv: " + note);
}

}  // namespace

void write_csv(std::ostream& os, const ReportInput& in) {
  if (in.options.csv_table == "profile")
    profile(os, in);
  else
    regions(os, in.dump);
}

}  // namespace pmukit
