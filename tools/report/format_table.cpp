// `table`: the human-readable report (header, region table, top of the flat profile).
#include "tools/report/describe.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/tasks.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {

namespace {

void regions(std::ostream& os, const Dump& d, std::size_t max_width) {
  if (d.regions.empty()) return void(os << "\nRegions: none in this dump\n");
  os << "\nRegions (" << d.regions.size() << "; counts are calibrated: the per-call overhead "
     << "was subtracted)\n";
  TextTable t({TextTable::left, TextTable::right, TextTable::left, TextTable::right,
               TextTable::right, TextTable::right, TextTable::right, TextTable::right});
  t.max_width(max_width);
  t.row({"region", "calls", "counter", "total", "mean", "min", "max", "overhead"});
  for (const Region& r : d.regions) {
    for (std::size_t i = 0; i < r.stats.size(); ++i) {
      const CounterStats& s = r.stats[i];
      t.row({i == 0 ? r.name : "", i == 0 ? std::to_string(r.calls) : "", counter_label(d.counters[i]),
             std::to_string(s.total), mean(s, r.calls, 1), std::to_string(s.min),
             std::to_string(s.max), std::to_string(s.overhead)});
    }
    if (r.stats.empty()) t.row({r.name, std::to_string(r.calls)});
  }
  t.print(os, "  ");
  for (const Region& r : d.regions)
    if (const std::string flags = region_flags(r); !flags.empty())
      os << "  ! " << printable(r.name) << ": " << flags << '\n';
}

}  // namespace

void write_table(std::ostream& os, const ReportInput& in) {
  const Dump& d = in.dump;
  os << "pmukit report\n";
  os << "  target    " << printable(describe_target(d)) << '\n';
  os << "  dump      " << printable(in.options.carrier) << ", format " << d.version_major << '.'
     << d.version_minor << ", " << byte_order_name(d.byte_order) << ", " << d.size << " bytes\n";
  if (!in.options.elf.empty()) os << "  symbols   " << printable(in.options.elf) << '\n';
  for (std::size_t i = 0; i < d.counters.size(); ++i)
    os << (i == 0 ? "  counters  " : "            ") << printable(describe_counter(d.counters[i])) << '\n';
  regions(os, d, in.options.max_name_width);
  if (d.mux)  // their scaled counts are pmukit stat's (tools/report/stat.hpp)
    os << "\nMultiplexed: " << d.mux->events.size() << " events in " << d.mux_regions.size()
       << (d.mux_regions.size() == 1 ? " region" : " regions") << " (pmukit stat reports them)\n";

  const Profile& p = in.profile;
  os << "\nSamples: " << p.total << " (" << describe_source(d) << ")\n";
  if (!in.options.filter.empty()) os << "Kept: " << printable(in.options.filter) << '\n';
  if (const std::string t = tag_summary(d, false); !t.empty()) os << "Tasks: " << printable(t) << '\n';
  if (const std::string t = tag_summary(d, true); !t.empty()) os << "Cores: " << printable(t) << '\n';
  if (!in.options.stacks.empty()) os << "Stacks: " << in.options.stacks << '\n';
  if (const NoSamples no = why_no_samples(d, p, !in.options.elf.empty()); !no.why.empty())
    os << "  " << no.what << ": " << printable(no.why) << "\n  to do: " << no.todo << '\n';
  if (p.total == 0) return;
  const ReportOptions& o = in.options;
  const ProfileRows shown = profile_rows(p, o.view, 25);
  std::vector<TextTable::Align> align{TextTable::right, TextTable::right, TextTable::right};
  std::vector<std::string> header{"samples", "percent", "cumul%"};
  for (const std::string& h : key_headers(o.view.sort, false)) {
    header.push_back(h);
    align.push_back(h == "address" ? TextTable::right : TextTable::left);
  }
  TextTable t(align);
  t.max_width(o.max_name_width);
  t.row(header);
  std::uint64_t cumulative = 0;
  const unsigned digits = 2 * d.target.address_bytes;
  for (const ProfileRow& r : shown.rows) {
    cumulative += r.samples;
    std::vector<std::string> cells{std::to_string(r.samples), percent(r.samples, p.total), percent(cumulative, p.total)};
    for (std::string& c : key_cells(p, r, o.view.sort, false, digits)) cells.push_back(std::move(c));
    t.row(std::move(cells));
  }
  t.print(os, "  ");
  if (const std::string note = shown.note(p, row_unit(o.view.sort)); !note.empty()) os << "  ... " << note << '\n';
}

}  // namespace pmukit
