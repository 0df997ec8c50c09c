#include "tools/pprof/format_pprof.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "profile.pb.h"
#include "profiler/dump/format.hpp"
#include "tools/report/describe.hpp"
#include "tools/report/flat_map.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

namespace pb = perftools::profiles;

class Builder {
 public:
  Builder(const ReportInput& in) : in_(in), p_(in.profile), function_ids_(p_.functions.size(), 0) {
    out_.add_string_table("");
  }

  // proto3 strings must be UTF-8: a reader rejects the whole profile over one bad name.
  std::int64_t str(const std::string& s) {
    auto [it, fresh] = strings_.try_emplace(s, out_.string_table_size());
    if (fresh) out_.add_string_table(to_valid_utf8(s));
    return it->second;
  }
  std::uint64_t function(const std::string& name, std::uint32_t line_id) {
    auto [it, fresh] = functions_.try_emplace(name, out_.function_size() + 1);
    if (fresh) {
      pb::Function* f = out_.add_function();
      f->set_id(it->second);
      f->set_name(str(name));
      f->set_system_name(f->name());
      if (line_id != kNoLine) {
        f->set_filename(str(p_.symbols->file(p_.symbols->line(line_id).file)));
        f->set_start_line(p_.symbols->line(line_id).line);
      }
    }
    return it->second;
  }
  // One location per address and innermost function (a "[unwind stopped: ...]" frame has no
  // address): the frames [first, last] of one instruction, outermost first, the outer ones
  // inlining the next (Profile::Frame::call_line). Its lines are pprof's inlined frames, the
  // innermost first, each function with its line there.
  std::uint64_t location(const Profile::Frame* first, const Profile::Frame* last) {
    const auto [slot, fresh] = locations_.try_emplace({last->at, last->function}, out_.location_size() + 1);
    const std::uint64_t id = *slot;
    if (fresh) {
      pb::Location* l = out_.add_location();
      l->set_id(id);
      l->set_mapping_id(1);
      l->set_address(last->at);
      for (const Profile::Frame* f = last;; --f) {
        const ProfileFunction& fn = p_.functions[f->function];
        pb::Line* line = l->add_line();
        // By the profile's function id: a name is hashed once, not once per location.
        std::uint64_t& id = function_ids_[f->function];
        if (id == 0) id = function(fn.name, fn.line);
        line->set_function_id(id);
        const std::uint32_t line_id = symbols_ ? p_.frame_line(*f) : kNoLine;
        if (line_id != kNoLine) line->set_line(p_.symbols->line(line_id).line);
        if (f == first) break;
      }
    }
    return id;
  }

  pb::Profile build() {
    const Dump& d = in_.dump;
    const bool timer = d.source && d.source->kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::timer);
    const std::uint64_t period = d.source ? d.source->period : 0;
    std::string event = "events";
    if (d.source && !timer)
      for (const Counter& c : d.counters)
        if (c.slot == d.source->counter_slot) event = counter_label(c);
    // Two values per sample: the count, and what it stands for (nanoseconds of a timer, events
    // of the sampled counter) where the period is known.
    pb::ValueType* t = out_.add_sample_type();
    t->set_type(str("samples"));
    t->set_unit(str("count"));
    const bool weighted = period != 0;
    if (weighted) {
      pb::ValueType* w = out_.add_sample_type();
      w->set_type(str(timer ? "cpu" : event));
      w->set_unit(str(timer ? "nanoseconds" : "events"));
      out_.mutable_period_type()->CopyFrom(*w);
      out_.set_period(static_cast<std::int64_t>(period));
    }
    // The code the samples are in, named by the ELF and its build-id where known.
    pb::Mapping* m = out_.add_mapping();
    m->set_id(1);
    std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
    for (const auto& [pc, c] : p_.pc_self) {
      lo = std::min(lo, pc);
      hi = std::max(hi, pc + 1);
    }
    if (d.image && d.image->has_code) {
      lo = d.image->code_lo;
      hi = d.image->code_hi;
    }
    if (hi > lo) {
      m->set_memory_start(lo);
      m->set_memory_limit(hi);
    }
    if (!in_.options.elf.empty()) m->set_filename(str(in_.options.elf));
    if (d.image && !d.image->build_id.empty()) m->set_build_id(str(hex_bytes(d.image->build_id)));
    const bool symbols = symbols_ = p_.symbols != nullptr && !p_.symbols->empty();
    m->set_has_functions(symbols);
    m->set_has_filenames(symbols);
    m->set_has_line_numbers(symbols);

    // One sample per stack of the profile (Profile::stacks: unwound, walked, placed or the LR
    // guess), its locations leaf first: the sampled pc, then each caller's call instruction; the
    // frames inlined at one instruction (report --inline) are one location.
    for (const auto& [frames, count] : p_.stacks) {
      if (count == 0) continue;
      pb::Sample* s = out_.add_sample();
      for (std::size_t end = frames.size(); end != 0;) {
        std::size_t first = end - 1;
        while (first != 0 && frames[first - 1].call_line != kNoLine) --first;
        s->add_location_id(location(&frames[first], &frames[end - 1]));
        end = first;
      }
      s->add_value(static_cast<std::int64_t>(count));
      if (weighted) s->add_value(static_cast<std::int64_t>(count * period));
    }
    if (d.source && d.source->dropped != 0)
      out_.add_comment(str(std::to_string(d.source->dropped) + " samples dropped on the target"));
    out_.add_comment(str("pmukit: " + describe_target(d)));
    return std::move(out_);
  }

 private:
  const ReportInput& in_;
  const Profile& p_;
  bool symbols_ = false;
  pb::Profile out_;
  std::unordered_map<std::string, std::int64_t> strings_;
  std::unordered_map<std::string, std::uint64_t> functions_;
  std::vector<std::uint64_t> function_ids_;  // profile function id -> function(), 0 before its first
  struct AtHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint32_t>& k) const {
      return static_cast<std::size_t>(hash_address(k.first ^ std::uint64_t{k.second} << 48));
    }
  };
  FlatMap<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t, AtHash> locations_;
};

}  // namespace

void write_pprof(std::ostream& os, const ReportInput& in) {
  const pb::Profile profile = Builder(in).build();
  if (!profile.SerializeToOstream(&os)) throw std::runtime_error("pprof: write failed");
}

}  // namespace pmukit
