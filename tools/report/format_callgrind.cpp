// `callgrind`: the Callgrind profile format, for KCacheGrind / QCacheGrind. One event,
// "Samples". Self cost per source line; a call edge caller -> callee for every sample whose LR
// frame was kept (profile.hpp), placed on the caller's line of the return address, with the
// sample count as both the call count and the inclusive cost (the PMU cannot count calls).
#include <algorithm>
#include <tuple>

#include "tools/report/formats.hpp"

namespace pmukit {
namespace {

struct Writer {
  std::ostream& os;
  const Profile& p;

  const std::string& file_of(std::uint32_t line) const {
    static const std::string kNone = "???";
    return line == kNoLine ? kNone : p.symbols->file(p.symbols->line(line).file);
  }
  unsigned number_of(std::uint32_t line) const {
    return line == kNoLine ? 0 : p.symbols->line(line).line;
  }
  // Emits fi= when the next cost line's file is not the current one (inlined code).
  void switch_file(std::string& current, std::uint32_t line) const {
    const std::string& file = file_of(line);
    if (file == current) return;
    os << "fi=" << file << '\n';
    current = file;
  }
};

}  // namespace

void write_callgrind(std::ostream& os, const ReportInput& in) {
  const Profile& p = in.profile;
  os << "# callgrind format\nversion: 1\ncreator: pmukit\n";
  if (!in.options.elf.empty()) os << "cmd: " << in.options.elf << '\n';
  os << "positions: line\nevents: Samples\nsummary: " << p.total << "\n\n";
  if (!in.options.elf.empty()) os << "ob=" << in.options.elf << '\n';

  // Per function: self costs by line, and calls by (callee, call site line). Both keys are
  // already unique in the profile, so they only need sorting, by file name and line number.
  struct SelfCost {
    std::uint32_t line;
    std::uint64_t cost;
  };
  struct CallCost {
    std::uint32_t callee, line;
    std::uint64_t cost;
  };
  std::vector<std::vector<SelfCost>> self(p.functions.size());
  std::vector<std::vector<CallCost>> calls(p.functions.size());
  for (const auto& [key, count] : p.line_self)
    self[key >> 32].push_back({static_cast<std::uint32_t>(key), count});
  for (const auto& [c, count] : p.calls) calls[c.caller].push_back({c.callee, c.caller_line, count});
  Writer w{os, p};
  const auto line_less = [&](std::uint32_t a, std::uint32_t b) {
    const std::string &fa = w.file_of(a), &fb = w.file_of(b);
    if (fa != fb) return fa < fb;
    return w.number_of(a) < w.number_of(b);
  };
  for (auto& v : self)
    std::sort(v.begin(), v.end(), [&](const SelfCost& a, const SelfCost& b) { return line_less(a.line, b.line); });
  for (auto& v : calls)
    std::sort(v.begin(), v.end(), [&](const CallCost& a, const CallCost& b) {
      const std::string &na = p.functions[a.callee].name, &nb = p.functions[b.callee].name;
      if (na != nb) return na < nb;
      if (a.callee != b.callee) return a.callee < b.callee;
      return line_less(a.line, b.line);
    });

  std::vector<std::uint32_t> order(p.functions.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const ProfileFunction &x = p.functions[a], &y = p.functions[b];
    return std::tie(x.name, x.address) < std::tie(y.name, y.address);
  });
  for (std::uint32_t id : order) {
    if (self[id].empty() && calls[id].empty()) continue;
    const ProfileFunction& f = p.functions[id];
    std::string current = w.file_of(f.line);
    os << "\nfl=" << current << "\nfn=" << f.name << '\n';
    for (const SelfCost& c : self[id]) {
      w.switch_file(current, c.line);
      os << w.number_of(c.line) << ' ' << c.cost << '\n';
    }
    for (const CallCost& c : calls[id]) {
      const ProfileFunction& callee = p.functions[c.callee];
      // Any fi= goes before cfl=: a calls= line must be followed directly by its cost line.
      w.switch_file(current, c.line);
      os << "cfl=" << w.file_of(callee.line) << "\ncfn=" << callee.name << "\ncalls=" << c.cost
         << ' ' << w.number_of(callee.line) << '\n' << w.number_of(c.line) << ' ' << c.cost << '\n';
    }
  }
}

}  // namespace pmukit
