// `callgraph`: callers and callees of every function, like gprof's call graph, from the folded
// stacks (profile.hpp: unwound from the dump's stack samples where it has them, else the LR
// guess). Per function, most inclusive first: its self and inclusive samples (a stack counts once
// per function however often it recurs), the functions it was called from and those it called,
// with the samples on each arc (samples whose stack holds that call, not calls: a PMU sample
// cannot count calls).
#include <algorithm>
#include <map>
#include <set>

#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {

void write_callgraph(std::ostream& os, const ReportInput& in) {
  struct Entry {
    std::uint64_t self = 0, inclusive = 0;
    std::map<std::string, std::uint64_t> callers, callees;
  };
  std::map<std::string, Entry> graph;
  std::uint64_t total = 0;
  for (const Profile::Stack& s : in.profile.folded()) {
    total += s.count;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < s.frames.size(); ++i) {
      Entry& e = graph[s.frames[i]];
      if (seen.insert(s.frames[i]).second) e.inclusive += s.count;
      if (i + 1 == s.frames.size()) e.self += s.count;
      if (i > 0) e.callers[s.frames[i - 1]] += s.count;
      if (i + 1 < s.frames.size()) e.callees[s.frames[i + 1]] += s.count;
    }
  }
  std::vector<std::pair<std::string, const Entry*>> order;
  for (const auto& [name, e] : graph) order.emplace_back(name, &e);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second->inclusive > b.second->inclusive; });
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < order.size(); ++i) index[order[i].first] = i + 1;
  os << "# call graph: " << total << " samples; per function, most inclusive first (gprof's layout:\n"
     << "# callers above, the function, its callees below; on each arc the samples whose stack holds\n"
     << "# it: samples, not calls)\n";
  for (const auto& [name, e] : order) {
    os << '\n';
    for (const auto& [caller, n] : e->callers)
      os << "              " << n << "  from " << printable(caller) << " [" << index[caller] << "]\n";
    os << '[' << index[name] << "] " << percent(e->inclusive, total) << "% inclusive (" << e->inclusive
       << "), " << percent(e->self, total) << "% self (" << e->self << ")  " << printable(name) << '\n';
    for (const auto& [callee, n] : e->callees)
      os << "              " << n << "  into " << printable(callee) << " [" << index[callee] << "]\n";
  }
}

}  // namespace pmukit
