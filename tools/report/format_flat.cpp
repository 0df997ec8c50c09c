// `flat`: every function with its self samples, percent and cumulative percent, most first.
#include "tools/report/describe.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {

void write_flat(std::ostream& os, const ReportInput& in) {
  const Profile& p = in.profile;
  os << "# flat profile: " << p.total << " samples; " << describe_source(in.dump) << '\n';
  if (!in.options.stacks.empty()) os << "# stacks: " << in.options.stacks << '\n';
  if (const NoSamples no = why_no_samples(in.dump, p, !in.options.elf.empty()); !no.why.empty())
    os << "# " << no.what << ": " << printable(no.why) << "\n# to do: " << no.todo << '\n';
  TextTable t({TextTable::right, TextTable::right, TextTable::right, TextTable::right,
               TextTable::left, TextTable::left});
  t.row({"samples", "percent", "cumul%", "address", "function", "location"});
  std::uint64_t cumulative = 0;
  const unsigned digits = 2 * in.dump.target.address_bytes;
  for (std::uint32_t id : p.by_self()) {
    const ProfileFunction& f = p.functions[id];
    cumulative += f.self;
    t.row({std::to_string(f.self), percent(f.self, p.total),
           percent(cumulative, p.total), f.name == "[unknown]" ? "" : hex(f.address, digits),
           f.name, p.location(f.line)});
  }
  t.print(os);
}

}  // namespace pmukit
