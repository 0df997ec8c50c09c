#include "tools/report/tasks.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

// Every task id the dump names: TASKS's, and those its samples carry.
std::set<std::uint16_t> task_ids(const Dump& d) {
  std::set<std::uint16_t> ids;
  if (d.tasks)
    for (const Task& t : *d.tasks) ids.insert(t.id);
  for (const SampleCount& s : d.sample_counts) ids.insert(s.tag.task);
  if (!d.histogram.empty()) ids.insert(kNoTask);
  return ids;
}

std::string known_tasks(const Dump& d) {
  std::string out;
  for (std::uint16_t id : task_ids(d))
    out += (out.empty() ? "" : ", ") + (id == kNoTask ? std::string("65535 (no task)") : d.task_name(id) + " (" + std::to_string(id) + ")");
  return out.empty() ? "none" : out;
}

std::optional<unsigned> decimal(const std::string& s, unsigned max) {
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const unsigned long v = std::stoul(s);
  if (v > max) return std::nullopt;
  return static_cast<unsigned>(v);
}

}  // namespace

std::set<std::uint16_t> resolve_tasks(const Dump& d, const std::vector<std::string>& items) {
  if ((d.tag_flags & 1u) == 0)
    throw TagOptionError("--task: this dump's samples carry no task (no SAMPLE_TAGS chunk with task ids, format 1.5)");
  const std::set<std::uint16_t> ids = task_ids(d);
  std::set<std::uint16_t> out;
  for (const std::string& item : items) {
    bool found = false;
    if (d.tasks)
      for (const Task& t : *d.tasks)
        if (t.name == item) {
          out.insert(t.id);
          found = true;
        }
    if (const std::optional<unsigned> id = decimal(item, 0xFFFF); !found && id && ids.count(static_cast<std::uint16_t>(*id))) {
      out.insert(static_cast<std::uint16_t>(*id));
      found = true;
    }
    if (!found) throw TagOptionError("--task: no task '" + item + "' in this dump (its tasks: " + known_tasks(d) + ")");
  }
  return out;
}

std::set<unsigned> resolve_cores(const Dump& d, const std::vector<std::string>& items) {
  if ((d.tag_flags & 2u) == 0)
    throw TagOptionError("--core: this dump's samples carry no core number (no SAMPLE_TAGS chunk with cores, format 1.5)");
  std::set<unsigned> out;
  for (const std::string& item : items) {
    const std::optional<unsigned> n = decimal(item, 255);
    if (!n) throw TagOptionError("--core: '" + item + "' is not a core number (0 to 255)");
    out.insert(*n);
  }
  return out;
}

Dump filter_samples(const Dump& d, const SampleFilter& f, std::vector<std::size_t>* kept_stacks) {
  Dump out = d;
  out.sample_counts.clear();
  out.samples.clear();
  out.stacks.clear();
  out.frames.clear();
  out.histogram.clear();
  out.sample_records = 0;
  for (const SampleCount& s : d.sample_counts)
    if (f.keeps(s.tag)) {
      out.sample_counts.push_back(s);
      out.sample_records += s.count;
    }
  for (const Sample& s : d.samples)
    if (f.keeps(s.tag)) out.samples.push_back(s);
  for (std::size_t i = 0; i < d.stacks.size(); ++i)
    if (f.keeps(d.stacks[i].tag)) {
      out.stacks.push_back(d.stacks[i]);
      if (kept_stacks != nullptr) kept_stacks->push_back(i);
    }
  for (const FrameSampleRecord& r : d.frames)
    if (f.keeps(r.tag)) out.frames.push_back(r);
  if (f.keeps(Tag{})) out.histogram = d.histogram;
  return out;
}

std::optional<std::vector<RootKey>> parse_root_keys(const std::string& text) {
  if (text == "task") return std::vector<RootKey>{RootKey::task};
  if (text == "core") return std::vector<RootKey>{RootKey::core};
  if (text == "task,core") return std::vector<RootKey>{RootKey::task, RootKey::core};
  if (text == "core,task") return std::vector<RootKey>{RootKey::core, RootKey::task};
  return std::nullopt;
}

std::string root_frame(const Dump& d, RootKey key, const Tag& t) {
  if (key == RootKey::core) return "[core " + std::to_string(t.core) + "]";
  return t.task == kNoTask ? "[no task]" : "[task " + d.task_name(t.task) + "]";
}

Profile build_rooted_profile(const Dump& dump, const SymbolTable& symbols, const std::vector<RootKey>& keys,
                             bool with_lines, const std::vector<UnwoundStack>* unwound, bool leaf_pcs,
                             bool inlined) {
  const bool by_task = std::find(keys.begin(), keys.end(), RootKey::task) != keys.end();
  const bool by_core = std::find(keys.begin(), keys.end(), RootKey::core) != keys.end();
  // The root values: every tag of the samples, reduced to the keys.
  auto reduce = [&](Tag t) { return Tag{by_task ? t.task : kNoTask, static_cast<std::uint8_t>(by_core ? t.core : 0)}; };
  std::set<Tag> roots;
  for (const SampleCount& s : dump.sample_counts) roots.insert(reduce(s.tag));
  if (!dump.histogram.empty()) roots.insert(reduce(Tag{}));

  Profile out;
  out.symbols = &symbols;
  std::map<std::tuple<std::string, std::uint64_t, std::uint32_t, bool>, std::uint32_t> ids;
  auto id_of = [&](const ProfileFunction& f) {
    const auto [it, fresh] = ids.try_emplace({f.name, f.address, f.line, f.inlined_only}, 0);
    if (fresh) {
      it->second = static_cast<std::uint32_t>(out.functions.size());
      out.functions.push_back(f);
      out.functions.back().self = 0;
    }
    return it->second;
  };
  for (const Tag& root : roots) {
    SampleFilter only;
    if (by_task) only.tasks = std::set<std::uint16_t>{root.task};
    if (by_core) only.cores = std::set<unsigned>{root.core};
    std::vector<std::size_t> kept;
    const Dump part = filter_samples(dump, only, &kept);
    std::vector<UnwoundStack> part_unwound;
    if (unwound != nullptr && unwound->size() == dump.stacks.size())
      for (std::size_t i : kept) part_unwound.push_back((*unwound)[i]);
    const Profile p = build_profile(part, symbols, with_lines, part_unwound.empty() ? nullptr : &part_unwound,
                                    leaf_pcs, inlined);
    std::vector<std::uint32_t> map(p.functions.size());
    for (std::size_t i = 0; i < p.functions.size(); ++i) {
      map[i] = id_of(p.functions[i]);
      out.functions[map[i]].self += p.functions[i].self;
    }
    if (p.unknown != kNoFunction) out.unknown = map[p.unknown];
    out.total += p.total;
    out.inferred += p.inferred;
    out.walked += p.walked;
    for (const auto& [key, n] : p.line_self) out.line_self[std::uint64_t{map[key >> 32]} << 32 | (key & 0xFFFFFFFFu)] += n;
    for (const auto& [pc, c] : p.pc_self) out.pc_self.append(pc, {map[c.function], c.line, c.count});
    for (const auto& [call, n] : p.calls) out.calls[{map[call.caller], call.caller_line, map[call.callee], call.site}] += n;
    // The root frames, outermost first in the order of the keys.
    std::vector<Profile::Frame> top;
    for (RootKey k : keys) {
      ProfileFunction f;
      f.name = root_frame(dump, k, root);
      top.push_back({id_of(f), kNoLine, 0});
    }
    for (const auto& [frames, n] : p.stacks) {
      std::vector<Profile::Frame> s = top;
      for (const Profile::Frame& f : frames) s.push_back({map[f.function], f.call_line, f.at});
      out.stacks.emplace_back(std::move(s), n);
    }
    for (const Profile::LrStack& e : p.lr_stacks) {  // pprof's compact LR guesses, as frames under the root
      std::vector<Profile::Frame> s = top;
      if (e.caller != kNoFunction) s.push_back({map[e.caller], kNoLine, e.site});
      s.push_back({map[e.leaf], kNoLine, e.pc});
      out.stacks.emplace_back(std::move(s), e.count);
    }
  }
  out.pc_self.sort();
  return out;
}

// "Tasks: net 120 (40.00%), ..." and "Cores: ...": who ran the samples (format 1.5), most first;
// "" where the dump's samples carry no task or core.
std::string tag_summary(const Dump& d, bool cores) {
  if ((d.tag_flags & (cores ? 2u : 1u)) == 0) return "";
  const TagSamples by = samples_by_tag(d);
  const std::uint64_t total = d.total_samples();
  std::string t;
  if (!cores)
    for (const auto& [id, n] : by.tasks)
      t += (t.empty() ? "" : ", ") + (id == kNoTask ? std::string("[no task]") : d.task_name(id) + " (" + std::to_string(id) + ")") +
           " " + std::to_string(n) + " (" + percent(n, total) + "%)";
  else
    for (const auto& [core, n] : by.cores)
      t += (t.empty() ? "" : ", ") + std::string("core ") + std::to_string(core) + " " + std::to_string(n) + " (" +
           percent(n, total) + "%)";
  return t;
}

TagSamples samples_by_tag(const Dump& d) {
  std::map<std::uint16_t, std::uint64_t> tasks;
  std::map<unsigned, std::uint64_t> cores;
  for (const SampleCount& s : d.sample_counts) {
    tasks[s.tag.task] += s.count;
    cores[s.tag.core] += s.count;
  }
  for (const HistogramBin& b : d.histogram) {
    tasks[kNoTask] += b.count;
    cores[0] += b.count;
  }
  TagSamples out;
  out.tasks.assign(tasks.begin(), tasks.end());
  out.cores.assign(cores.begin(), cores.end());
  std::stable_sort(out.tasks.begin(), out.tasks.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::stable_sort(out.cores.begin(), out.cores.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

}  // namespace pmukit
