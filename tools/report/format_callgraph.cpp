// `callgraph`: callers and callees of every function, like gprof's call graph, from the folded
// stacks (profile.hpp: unwound from the dump's stack samples where it has them, else the LR
// guess). Per function, most inclusive first: its self and inclusive samples (a stack counts once
// per function however often it recurs), the functions it was called from and those it called,
// with the samples on each arc (samples whose stack holds that call, not calls: a PMU sample
// cannot count calls).
// -g caller / -g callee (ReportOptions::call_graph): perf report's call trees instead, from the
// same stacks: caller order from the outermost frames down to the sampled functions, callee order
// from each sampled function up through its callers.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

struct Node {
  std::string name;
  std::uint64_t total = 0, self = 0;
  std::map<std::string, std::size_t> children;  // name -> index in the tree
};

void write_tree(std::ostream& os, const ReportInput& in, bool callee) {
  std::vector<Node> tree(1);  // [0]: the root, above every stack
  for (const Profile::Stack& s : in.profile.folded()) {
    tree[0].total += s.count;
    std::size_t at = 0;
    for (std::size_t k = 0; k < s.frames.size(); ++k) {
      const std::string& name = s.frames[callee ? s.frames.size() - 1 - k : k];
      auto it = tree[at].children.find(name);
      if (it == tree[at].children.end()) {
        it = tree[at].children.emplace(name, tree.size()).first;
        tree.emplace_back().name = name;
      }
      at = it->second;
      tree[at].total += s.count;
    }
    tree[at].self += s.count;
  }
  const std::uint64_t total = tree[0].total;
  const std::uint32_t limit = in.options.view.percent_limit;
  // ceil(total * limit / 10000) without overflow: the fewest samples a node needs to be shown.
  const std::uint64_t least = total / 10000 * limit + (total % 10000 * limit + 9999) / 10000;
  if (callee)
    os << "# call graph, callee order (perf report -g callee): " << total << " samples; each sampled\n"
       << "# function with its self samples, then the callers that led to it, each with the samples\n"
       << "# whose stack holds that chain\n";
  else
    os << "# call graph, caller order (perf report -g caller): " << total << " samples; the call tree\n"
       << "# from the outermost frames down, each with the samples whose stack passes there (self:\n"
       << "# those sampled in it)\n";
  if (limit != 0) os << "# entries under " << fixed_ratio(limit, 100, 2) << "% (--percent-limit) not shown\n";
  // Depth-first, children most samples first (ties by name); an explicit stack, as stacks can be deep.
  const auto ordered = [&](const Node& n) {
    std::vector<std::size_t> kids;
    for (const auto& child : n.children) kids.push_back(child.second);
    std::stable_sort(kids.begin(), kids.end(), [&](std::size_t a, std::size_t b) { return tree[a].total > tree[b].total; });
    return kids;
  };
  struct Visit {
    std::size_t node, depth;
    std::uint64_t hidden, hidden_entries;  // a "..." line instead of a node: what it stands for
  };
  std::vector<Visit> todo;
  const auto push_children = [&](std::size_t node, std::size_t depth) {
    std::vector<std::size_t> kids = ordered(tree[node]);
    std::uint64_t hidden = 0, entries = 0;
    std::vector<Visit> shown;
    for (std::size_t k : kids) {
      if (tree[k].total < least) {
        hidden += tree[k].total;
        ++entries;
      } else {
        shown.push_back({k, depth, 0, 0});
      }
    }
    if (entries != 0) todo.push_back({0, depth, hidden, entries});
    for (auto it = shown.rbegin(); it != shown.rend(); ++it) todo.push_back(*it);
  };
  push_children(0, 0);
  while (!todo.empty()) {
    const Visit v = todo.back();
    todo.pop_back();
    const std::string indent(2 * v.depth, ' ');
    if (v.hidden_entries != 0) {
      os << indent << "... " << v.hidden << (v.hidden == 1 ? " sample (" : " samples (") << percent(v.hidden, total) << "%) in " << v.hidden_entries
         << (v.hidden_entries == 1 ? " entry" : " entries") << " under the limit\n";
      continue;
    }
    const Node& n = tree[v.node];
    os << indent << n.total << "  " << percent(n.total, total) << "%  "
       << shorten(printable(n.name), in.options.max_name_width);
    if (!callee && n.self != 0 && !n.children.empty()) os << "  (self " << n.self << ")";
    os << '\n';
    push_children(v.node, v.depth + 1);
  }
}

}  // namespace

void write_callgraph(std::ostream& os, const ReportInput& in) {
  if (in.options.call_graph == "caller" || in.options.call_graph == "callee")
    return write_tree(os, in, in.options.call_graph == "callee");
  const auto label = [&](const std::string& s) { return shorten(printable(s), in.options.max_name_width); };
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
  // Each function's index and label made once and found by hash: a function is named on every
  // arc to or from it, and measuring its label and comparing long names in an ordered map each
  // time were most of this format's own time on a large ELF.
  struct Shown {
    std::size_t index;
    std::string label;
  };
  std::unordered_map<std::string_view, Shown> shown;  // the names in `order`
  shown.reserve(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) shown.emplace(order[i].first, Shown{i + 1, label(order[i].first)});
  const auto arc = [&](const char* way, const std::string& name, std::uint64_t n) {
    os << "              " << n << way;
    if (const auto it = shown.find(name); it != shown.end())
      os << it->second.label << " [" << it->second.index << "]\n";
    else
      os << label(name) << " [0]\n";
  };
  os << "# call graph: " << total << " samples; per function, most inclusive first (gprof's layout:\n"
     << "# callers above, the function, its callees below; on each arc the samples whose stack holds\n"
     << "# it: samples, not calls)\n";
  for (const auto& [fn, e] : order) {
    os << '\n';
    for (const auto& [caller, n] : e->callers) arc("  from ", caller, n);
    const Shown& f = shown.at(fn);
    os << '[' << f.index << "] " << percent(e->inclusive, total) << "% inclusive (" << e->inclusive
       << "), " << percent(e->self, total) << "% self (" << e->self << ")  " << f.label << '\n';
    for (const auto& [callee, n] : e->callees) arc("  into ", callee, n);
  }
}

}  // namespace pmukit
