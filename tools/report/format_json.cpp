// `json` (report: dump content plus the symbolized profile) and the `decode` JSON (dump content).
#include "tools/report/describe.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/json_writer.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

void dump_fields(JsonWriter& j, const Dump& d, const std::string& carrier) {
  j.key("dump").begin_object();
  j.field("carrier", carrier);
  j.field("version", std::to_string(d.version_major) + "." + std::to_string(d.version_minor));
  j.field("byte_order", d.byte_order == ByteOrder::big ? "big" : "little");
  j.field("size", d.size);
  j.field("crc32", hex(d.crc, 8));
  j.field("trailing_bytes", d.trailing_bytes);
  j.end_object();

  const Target& t = d.target;
  j.key("target").begin_object();
  j.field("id", t.id).field("pmu", t.pmu).field("counter_clock_hz", t.counter_clock_hz);
  j.field("counter_width_bits", t.counter_width_bits).field("address_bytes", t.address_bytes);
  j.end_object();

  j.key("counters").begin_array();
  for (const Counter& c : d.counters) {
    j.begin_object().field("slot", c.slot).field("name", c.name).field("event_code", c.event_code);
    j.key("preset");
    if (c.preset.empty()) j.null(); else j.value(c.preset);
    j.field("width_bits", c.width_bits).end_object();
  }
  j.end_array();

  j.key("regions").begin_array();
  for (const Region& r : d.regions) {
    j.begin_object().field("name", r.name).field("calls", r.calls);
    j.key("counters").begin_array();
    for (std::size_t i = 0; i < r.stats.size(); ++i) {
      const CounterStats& s = r.stats[i];
      j.begin_object().field("counter", d.counters[i].name).field("total", s.total);
      j.key("mean").number(mean(s, r.calls, 2)).field("min", s.min).field("max", s.max);
      j.field("overhead_per_call", s.overhead).end_object();
    }
    j.end_array();
    for (const auto& [key, v] : {std::pair{"clamped_calls", r.clamped}, std::pair{"voided_calls", r.voided},
                                 std::pair{"interrupts_inside", r.interrupts}}) {
      j.key(key);
      if (v) j.value(*v); else j.null();  // null: a 1.2 dump, which did not record it
    }
    j.end_object();
  }
  j.end_array();

  // Multiplexed events (1.4): null and [] where the firmware did not rotate events.
  j.key("mux");
  if (d.mux) {
    j.begin_object().field("clock_hz", d.mux->clock_hz).field("rotations", d.mux->rotations);
    j.key("events").begin_array();
    for (const MuxEvent& e : d.mux->events) {
      j.begin_object().field("name", e.name).field("event_code", e.event_code);
      j.field("qualifier", e.qualifier).field("options", e.options);
      j.key("preset");
      if (e.preset.empty()) j.null(); else j.value(e.preset);
      j.field("pinned", e.pinned()).field("flags", e.flags).end_object();
    }
    j.end_array().end_object();
  } else {
    j.null();
  }
  j.key("mux_regions").begin_array();
  for (const MuxRegion& r : d.mux_regions) {
    j.begin_object().field("name", r.name).field("whole_run", r.whole_run()).field("flags", r.flags);
    j.field("calls", r.calls).key("events").begin_array();
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      const MuxValue& v = r.values[i];
      j.begin_object().field("event", d.mux->events[i].name).field("raw", v.raw);
      j.field("enabled", v.enabled).field("running", v.running).end_object();
    }
    j.end_array().end_object();
  }
  j.end_array();

  j.key("sample_source");
  if (d.source) {
    j.begin_object().field("kind", source_kind_name(d.source->kind));
    j.key("counter_slot");
    if (d.source->counter_slot == 0xFF) j.null(); else j.value(d.source->counter_slot);
    j.field("period", d.source->period).field("dropped", d.source->dropped).end_object();
  } else {
    j.null();
  }

  j.key("image");
  if (d.image) {
    const Image& im = *d.image;
    j.begin_object().field("elf_machine", im.elf_machine);
    j.key("build_id");
    if (im.build_id.empty()) j.null(); else j.value(hex_bytes(im.build_id));
    j.key("code");
    if (im.has_code) {
      const unsigned digits = 2 * d.target.address_bytes;
      j.begin_object().field("start", hex(im.code_lo, digits)).field("end", hex(im.code_hi, digits));
      j.field("crc32", hex(im.code_crc, 8)).end_object();
    } else {
      j.null();
    }
    j.end_object();
  } else {
    j.null();
  }

  // Tasks and cores (1.5): null and [] where the firmware wrote none.
  j.key("tasks");
  if (d.tasks) {
    j.begin_array();
    for (const Task& t : *d.tasks) j.begin_object().field("id", std::uint64_t{t.id}).field("name", t.name).end_object();
    j.end_array();
  } else {
    j.null();
  }
  j.key("task_counts").begin_array();
  for (const TaskCounts& t : d.task_counts) {
    j.begin_object().key("task");
    if (t.task == kNoTask) j.null(); else j.value(std::uint64_t{t.task});
    j.field("name", d.task_name(t.task)).field("switches_in", t.switches_in).key("counts").begin_array();
    for (std::size_t i = 0; i < t.counts.size(); ++i)
      j.begin_object().field("counter", d.counters[i].name).field("count", t.counts[i]).end_object();
    j.end_array().end_object();
  }
  j.end_array();
  j.key("core");
  if (d.core) j.begin_object().field("number", d.core->number).field("cores", d.core->cores).end_object();
  else j.null();
}

// A sample's task and core, where the dump has SAMPLE_TAGS (task null: no task).
void tag_fields(JsonWriter& j, const Dump& d, const Tag& t) {
  if (d.tag_flags == 0) return;
  j.key("task");
  if (t.task == kNoTask) j.null(); else j.value(std::uint64_t{t.task});
  j.field("core", std::uint64_t{t.core});
}

}  // namespace

void write_dump_json(std::ostream& os, const Dump& d, const std::string& carrier) {
  JsonWriter j(os);
  j.begin_object();
  dump_fields(j, d, carrier);
  const unsigned digits = 2 * d.target.address_bytes;
  j.key("samples").begin_array();
  for (const Sample& s : d.samples) {
    j.begin_object().field("pc", hex(s.pc, digits)).field("lr", hex(s.lr, digits));
    tag_fields(j, d, s.tag);
    j.end_object();
  }
  j.end_array();
  j.key("histogram").begin_array();
  for (const HistogramBin& b : d.histogram)
    j.begin_object().field("pc", hex(b.pc, digits)).field("count", std::uint64_t{b.count}).end_object();
  j.end_array();
  j.key("trace").begin_array();
  for (const TraceEvent& e : d.trace)
    j.begin_object().field("region", std::uint64_t{e.region}).field("begin", e.begin).field("end", e.end).end_object();
  j.end_array();
  j.field("trace_dropped", d.trace_dropped);
  j.key("frames").begin_array();
  for (const FrameSampleRecord& f : d.frames) {
    j.begin_object().field("complete", f.complete).key("pcs").begin_array();
    for (std::uint64_t pc : f.pcs) j.value(hex(pc, digits));
    j.end_array();
    tag_fields(j, d, f.tag);
    j.end_object();
  }
  j.end_array();
  auto dropped = [&](const char* key, const std::optional<std::uint64_t>& v) {
    j.key(key);
    if (v) j.value(*v); else j.null();  // null: a 1.2 dump, which did not record it
  };
  dropped("frames_dropped", d.frames_dropped);
  j.key("stacks").begin_array();
  for (const StackSampleRecord& s : d.stacks) {
    j.begin_object().field("pc", hex(s.pc, digits)).field("lr", hex(s.lr, digits)).field("sp", hex(s.sp, digits));
    j.field("fp", hex(s.fp, digits)).field("stack_bytes", std::uint64_t{s.stack.size()});
    tag_fields(j, d, s.tag);
    j.end_object();
  }
  j.end_array();
  dropped("stacks_dropped", d.stacks_dropped);
  j.key("skipped_chunks").begin_array();
  for (const SkippedChunk& c : d.skipped) {
    j.begin_object().field("type", hex(c.type, 4)).field("flags", hex(c.flags, 4));
    j.field("offset", c.offset).field("length", std::uint64_t{c.length}).end_object();
  }
  j.end_array();
  j.end_object().finish();
}

void write_json_report(std::ostream& os, const ReportInput& in) {
  const Profile& p = in.profile;
  const unsigned digits = 2 * in.dump.target.address_bytes;
  JsonWriter j(os);
  j.begin_object();
  dump_fields(j, in.dump, in.options.carrier);
  j.key("symbols");
  if (in.options.elf.empty()) j.null(); else j.value(in.options.elf);
  j.field("total_samples", p.total);

  j.key("functions").begin_array();
  std::uint64_t cumulative = 0;
  const std::vector<std::uint64_t> inclusive = p.inclusive();
  std::vector<ProfileRow> candidates;
  for (std::uint32_t id : p.by_self_then_inclusive(inclusive)) candidates.push_back({p.functions[id].self, id});
  const ProfileRows shown = choose_rows(p, std::move(candidates), in.options.view, 0);
  for (const ProfileRow& r : shown.rows) {
    const std::uint32_t id = r.function;
    const ProfileFunction& f = p.functions[id];
    cumulative += f.self;
    j.begin_object().field("name", f.name).field("address", hex(f.address, digits));
    j.key("location");
    if (f.line == kNoLine) j.null(); else j.value(p.location(f.line));
    j.field("samples", f.self).key("percent").number(percent(f.self, p.total));
    j.key("cumulative_percent").number(percent(cumulative, p.total));
    j.field("inclusive", inclusive[id]).key("inclusive_percent").number(percent(inclusive[id], p.total)).end_object();
  }
  j.end_array();
  // What --top, --percent-limit or --symbols left out of "functions" (total_samples counts it).
  j.key("functions_not_shown").begin_object().field("functions", shown.left_rows).field("samples", shown.left_samples);
  j.key("why").begin_array();
  for (const std::string& w : shown.why) j.value(w);
  j.end_array().end_object();

  j.key("stacks").begin_array();
  for (const Profile::Stack& s : p.folded()) {
    j.begin_object().key("frames").begin_array();
    for (const std::string& f : s.frames) j.value(f);
    j.end_array().field("samples", s.count).end_object();
  }
  j.end_array();
  j.end_object().finish();
}

}  // namespace pmukit
