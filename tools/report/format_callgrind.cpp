// `callgrind`: the Callgrind profile format, for KCacheGrind / QCacheGrind. One event,
// "Samples". Positions are instruction address and source line: self cost per sampled
// instruction; a call edge caller -> callee for every frame pair of the samples' stacks
// (Profile::stacks), placed at the call instruction and its line, with the samples below it as
// its inclusive cost. The call count is 1 on every arc: a PMU sample cannot count calls, a sample
// count there would read as calls in the readers' call columns, and a count of 0 makes them take
// the arc's cost as the caller's self cost (callgrind_annotate does).
#include <algorithm>
#include <charconv>
#include <tuple>
#include <unordered_map>

#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

struct Writer {
  std::ostream& os;
  const Profile& p;

  // Names and paths run to the end of their line, with no escapes in the format: one_line(),
  // once per file and function (a cost line per sampled instruction adds up).
  static constexpr std::uint32_t kNoFile = 0xFFFFFFFFu;
  mutable std::unordered_map<std::uint32_t, std::string> files, names;
  std::uint32_t file_index(std::uint32_t line) const { return line == kNoLine ? kNoFile : p.symbols->line(line).file; }
  const std::string& file_name(std::uint32_t file) const {
    auto [it, fresh] = files.try_emplace(file);
    if (fresh) it->second = file == kNoFile ? "???" : one_line(p.symbols->file(file));
    return it->second;
  }
  const std::string& file_of(std::uint32_t line) const { return file_name(file_index(line)); }
  const std::string& name_of(std::uint32_t function) const {
    auto [it, fresh] = names.try_emplace(function);
    if (fresh) it->second = one_line(p.functions[function].name);
    return it->second;
  }
  unsigned number_of(std::uint32_t line) const {
    return line == kNoLine ? 0 : p.symbols->line(line).line;
  }
  // Emits fi= when the next cost line's file is not the current one (inlined code).
  // "0x2010" without building a string: one cost line per sampled instruction adds up.
  void address(std::uint64_t a) const {
    char buf[2 + 16];
    buf[0] = '0';
    buf[1] = 'x';
    const auto r = std::to_chars(buf + 2, buf + sizeof buf, a, 16);
    os.write(buf, r.ptr - buf);
  }
  void switch_file(std::uint32_t& current, std::uint32_t line) const {
    const std::uint32_t file = file_index(line);
    if (file == current) return;
    os << "fi=" << file_name(file) << '\n';
    current = file;
  }
};

}  // namespace

void write_callgrind(std::ostream& os, const ReportInput& in) {
  const Profile& p = in.profile;
  os << "# callgrind format\nversion: 1\ncreator: pmukit\n";
  if (!in.options.elf.empty()) os << "cmd: " << one_line(in.options.elf) << '\n';
  // Instruction addresses first, so KCacheGrind can show costs against the disassembly
  // (objdump of the ob= file); source lines second.
  os << "positions: instr line\nevents: Samples\nsummary: " << p.total << "\n";
  os << "# calls=1 on every arc, not a count: samples cannot count calls; an arc's cost is the samples below it\n\n";
  if (!in.options.elf.empty()) os << "ob=" << one_line(in.options.elf) << '\n';

  // Per function: self costs by instruction, and calls by (callee, call site), each in address
  // order. Both keys are already unique in the profile.
  struct SelfCost {
    std::uint64_t pc;
    std::uint32_t line;
    std::uint64_t cost;
  };
  struct CallCost {
    std::uint32_t callee, line;
    std::uint64_t site, cost;
  };
  std::vector<std::vector<SelfCost>> self(p.functions.size());
  std::vector<std::vector<CallCost>> calls(p.functions.size());
  for (const auto& [pc, c] : p.pc_self) self[c.function].push_back({pc, c.line, c.count});
  for (const auto& [c, count] : p.calls) calls[c.caller].push_back({c.callee, c.caller_line, c.site, count});
  Writer w{os, p, {}, {}};
  for (auto& v : self)
    std::sort(v.begin(), v.end(), [](const SelfCost& a, const SelfCost& b) { return a.pc < b.pc; });
  for (auto& v : calls)
    std::sort(v.begin(), v.end(), [&](const CallCost& a, const CallCost& b) {
      return std::tie(a.site, p.functions[a.callee].name, a.callee) < std::tie(b.site, p.functions[b.callee].name, b.callee);
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
    std::uint32_t current = w.file_index(f.line);
    os << "\nfl=" << w.file_name(current) << "\nfn=" << w.name_of(id) << '\n';
    for (const SelfCost& c : self[id]) {
      w.switch_file(current, c.line);
      w.address(c.pc);
      os << ' ' << w.number_of(c.line) << ' ' << c.cost << '\n';
    }
    for (const CallCost& c : calls[id]) {
      const ProfileFunction& callee = p.functions[c.callee];
      // Any fi= goes before cfl=: a calls= line must be followed directly by its cost line.
      w.switch_file(current, c.line);
      os << "cfl=" << w.file_of(callee.line) << "\ncfn=" << w.name_of(c.callee) << "\ncalls=1 ";
      w.address(callee.address);
      os << ' ' << w.number_of(callee.line) << '\n';
      w.address(c.site);
      os << ' ' << w.number_of(c.line) << ' ' << c.cost << '\n';
    }
  }
}

}  // namespace pmukit
