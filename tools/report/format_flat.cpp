// `flat`: every row of the profile (per function by default; --sort line, address or caller: view.hpp)
// with its self samples, percent and cumulative percent, most first; --top, --percent-limit and
// --symbols leave rows out and a closing "#" line says how many and why.
#include "tools/report/describe.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/tasks.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {

void write_flat(std::ostream& os, const ReportInput& in) {
  const Profile& p = in.profile;
  os << "# flat profile: " << p.total << " samples; " << describe_source(in.dump) << '\n';
  if (!in.options.filter.empty()) os << "# kept: " << printable(in.options.filter) << '\n';
  if (const std::string t = tag_summary(in.dump, false); !t.empty()) os << "# tasks: " << printable(t) << '\n';
  if (const std::string t = tag_summary(in.dump, true); !t.empty()) os << "# cores: " << printable(t) << '\n';
  if (!in.options.stacks.empty()) os << "# stacks: " << in.options.stacks << '\n';
  if (const NoSamples no = why_no_samples(in.dump, p, !in.options.elf.empty()); !no.why.empty())
    os << "# " << no.what << ": " << printable(no.why) << "\n# to do: " << no.todo << '\n';
  const ReportOptions& o = in.options;
  const ProfileRows shown = profile_rows(p, o.view, 0);
  std::vector<TextTable::Align> align{TextTable::right, TextTable::right, TextTable::right};
  std::vector<std::string> header{"samples", "percent", "cumul%"};
  for (const std::string& h : key_headers(o.view.sort, true)) {
    header.push_back(h);
    align.push_back(h == "address" ? TextTable::right : TextTable::left);
  }
  TextTable t(align);
  t.max_width(o.max_name_width);
  t.row(header);
  std::uint64_t cumulative = 0;
  const unsigned digits = 2 * in.dump.target.address_bytes;
  for (const ProfileRow& r : shown.rows) {
    cumulative += r.samples;
    std::vector<std::string> cells{std::to_string(r.samples), percent(r.samples, p.total), percent(cumulative, p.total)};
    for (std::string& c : key_cells(p, r, o.view.sort, true, digits)) cells.push_back(std::move(c));
    t.row(std::move(cells));
  }
  t.print(os);
  if (const std::string note = shown.note(p, row_unit(o.view.sort)); !note.empty()) os << "# " << note << '\n';
}

}  // namespace pmukit
