// `html`: one self-contained page (inline CSS and SVG, no scripts or external resources) with the
// target summary, the region table, the flat profile and the flame graph.
#include "tools/report/describe.hpp"
#include "tools/report/flame_graph.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em}"
    "th,td{border:1px solid #ccc;padding:2px 8px}th{background:#eee}"
    "td.n{text-align:right;font-family:monospace}td.s{font-family:monospace}";

void cell(std::ostream& os, const std::string& text, bool number) {
  os << "<td class=\"" << (number ? "n" : "s") << "\">" << html_escape(text) << "</td>";
}

void regions(std::ostream& os, const Dump& d) {
  os << "<h2>Regions</h2>\n<p>Counts are calibrated: the per-call overhead was subtracted.</p>\n";
  if (d.regions.empty()) return void(os << "<p>No regions in this dump.</p>\n");
  os << "<table>\n<tr><th>region</th><th>calls</th><th>counter</th><th>total</th><th>mean</th>"
        "<th>min</th><th>max</th><th>overhead</th></tr>\n";
  for (const Region& r : d.regions) {
    for (std::size_t i = 0; i < r.stats.size(); ++i) {
      const CounterStats& s = r.stats[i];
      os << "<tr>";
      cell(os, i == 0 ? r.name : "", false);
      cell(os, i == 0 ? std::to_string(r.calls) : "", true);
      cell(os, counter_label(d.counters[i]), false);
      cell(os, std::to_string(s.total), true);
      cell(os, mean(s, r.calls, 1), true);
      cell(os, std::to_string(s.min), true);
      cell(os, std::to_string(s.max), true);
      cell(os, std::to_string(s.overhead), true);
      os << "</tr>\n";
    }
  }
  os << "</table>\n";
  for (const Region& r : d.regions)
    if (const std::string flags = region_flags(r); !flags.empty())
      os << "<p class=\"flag\">" << html_escape(r.name) << ": " << html_escape(flags) << "</p>\n";
}

void profile(std::ostream& os, const Profile& p) {
  os << "<h2>Flat profile</h2>\n";
  if (p.total == 0) return void(os << "<p>No samples in this dump.</p>\n");
  os << "<table>\n<tr><th>samples</th><th>percent</th><th>cumul%</th><th>function</th>"
        "<th>location</th></tr>\n";
  std::uint64_t cumulative = 0;
  for (std::uint32_t id : p.by_self()) {
    const ProfileFunction& f = p.functions[id];
    cumulative += f.self;
    os << "<tr>";
    cell(os, std::to_string(f.self), true);
    cell(os, percent(f.self, p.total), true);
    cell(os, percent(cumulative, p.total), true);
    cell(os, f.name, false);
    cell(os, p.location(f.line), false);
    os << "</tr>\n";
  }
  os << "</table>\n";
}

}  // namespace

void write_html(std::ostream& os, const ReportInput& in) {
  const Dump& d = in.dump;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pmukit report: "
     << html_escape(d.target.id) << "</title>\n<style>" << kStyle << "</style></head>\n<body>\n";
  os << "<h1>pmukit report</h1>\n<ul>\n<li>target: " << html_escape(describe_target(d))
     << "</li>\n<li>dump: " << html_escape(in.options.carrier) << ", format " << d.version_major
     << '.' << d.version_minor << ", " << byte_order_name(d.byte_order) << "</li>\n";
  if (!in.options.elf.empty()) os << "<li>symbols: " << html_escape(in.options.elf) << "</li>\n";
  for (const Counter& c : d.counters) os << "<li>counter " << html_escape(describe_counter(c)) << "</li>\n";
  os << "<li>samples: " << in.profile.total << " (" << html_escape(describe_source(d))
     << ")</li>\n</ul>\n";
  regions(os, d);
  profile(os, in.profile);
  os << "<h2>Flame graph</h2>\n";
  write_flame_graph(os, in, false);
  os << "</body></html>\n";
}

}  // namespace pmukit
