#pragma once
// Who ran the samples (format 1.5: TASKS, SAMPLE_TAGS): `report --task` and `--core` keep the
// samples of some tasks or cores, `--root task|core` puts each sample's task (perf's comm) or core
// (perf's cpu) above its stack as the outermost frame, and the table's per-task and per-core
// sample summary. A sample chunk without SAMPLE_TAGS is untagged (no task, core 0), as are
// HISTOGRAM bins.
#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/dumpread/dump.hpp"
#include "tools/report/profile.hpp"
#include "tools/report/symbols.hpp"

namespace pmukit {

// A --task, --core or --root that this dump cannot answer (no such task, no core numbers): the
// CLI reports it as a usage error, naming what the dump has.
class TagOptionError : public std::runtime_error {
 public:
  explicit TagOptionError(const std::string& what) : std::runtime_error(what) {}
};

struct SampleFilter {
  std::optional<std::set<std::uint16_t>> tasks;  // absent: every task
  std::optional<std::set<unsigned>> cores;       // absent: every core
  bool active() const { return tasks || cores; }
  bool keeps(const Tag& t) const { return (!tasks || tasks->count(t.task)) && (!cores || cores->count(t.core)); }
};

// --task's list (NAME or decimal ID each, comma-separated items already split) as task ids: a name
// is a TASKS name, an id any id the dump's samples or TASKS carry (65535: the samples no task was
// current for). Throws TagOptionError for an item that names no task of the dump.
std::set<std::uint16_t> resolve_tasks(const Dump& d, const std::vector<std::string>& items);
// --core's list: decimal core numbers the dump's samples carry. Throws TagOptionError.
std::set<unsigned> resolve_cores(const Dump& d, const std::vector<std::string>& items);

// The dump with only the samples the filter keeps (SAMPLES pairs, STACKS, FRAMES, HISTOGRAM
// bins); kept_stacks: the indices of the STACKS samples kept, in order (to keep their unwound
// stacks in step).
Dump filter_samples(const Dump& d, const SampleFilter& f, std::vector<std::size_t>* kept_stacks = nullptr);

// --root: the keys put above each stack, outermost first.
enum class RootKey { task, core };
// "task", "core", "task,core" or "core,task"; nullopt otherwise.
std::optional<std::vector<RootKey>> parse_root_keys(const std::string& text);
// The root frame's name: "[task NAME]" ("[no task]" for none), "[core N]".
std::string root_frame(const Dump& d, RootKey key, const Tag& t);

// build_profile() for each root value's samples, merged into one profile whose stacks start with
// the root frames (functions of their own, no code: self 0, inclusive their samples).
Profile build_rooted_profile(const Dump& dump, const SymbolTable& symbols, const std::vector<RootKey>& keys,
                             bool with_lines, const std::vector<UnwoundStack>* unwound, bool leaf_pcs,
                             bool inlined);

// Samples per task and per core, for the table's summary (most first, then by id/number).
struct TagSamples {
  std::vector<std::pair<std::uint16_t, std::uint64_t>> tasks;
  std::vector<std::pair<unsigned, std::uint64_t>> cores;
};
TagSamples samples_by_tag(const Dump& d);
// The table's and flat's summary line: "net (2) 120 (40.00%), ..." per task (cores: "core 1 150
// (50.00%), ..."); "" where the samples carry no task (core).
std::string tag_summary(const Dump& d, bool cores);

}  // namespace pmukit
