#include "tools/cli/commands.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fnmatch.h>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "tools/cli/args.hpp"
#include "tools/cli/catalogs.hpp"
#include "tools/cli/output_file.hpp"
#include "tools/conformance/conformance.hpp"
#include "tools/dumpread/decode_error.hpp"
#include "tools/dumpread/load.hpp"
#include "tools/elf/elf_symbols.hpp"
#include "tools/elf/image_check.hpp"
#include "tools/elf/unwind.hpp"
#include "tools/events/events_listing.hpp"
#include "hal/netburst/encode.hpp"
#include "hal/netburst/driver.hpp"
#include "tools/pprof/format_pprof.hpp"
#include "tools/report/annotate.hpp"
#include "tools/report/describe.hpp"
#include "tools/report/diff.hpp"
#include "tools/report/run_program.hpp"
#include "tools/report/stat.hpp"
#include "tools/report/tasks.hpp"
#include "tools/report/text_util.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/metrics.hpp"

namespace pmukit {
namespace {

// The single positional input: a file path, or "-" for standard input.
std::string input_path(const Args& a) {
  if (a.positionals.empty()) throw UsageError("no input file (a binary dump or a UART log)");
  if (a.positionals.size() > 1) throw UsageError("more than one input file: '" + a.positionals[1] + "'");
  return a.positionals[0];
}

LoadedDump load_path(const std::string& path, const Args& a, bool raw_samples) {
  DecodeOptions options;
  options.raw_samples = raw_samples;
  try {
    return load_dump_file(path, a.number("--frame", 0), options);
  } catch (const DecodeError& e) {
    throw DecodeError((path == "-" ? "<stdin>" : path) + ": " + e.what());
  }
}

// raw_samples: keep every sample record (decode lists them); a report needs only their counts
// per distinct (pc, lr), so its memory does not grow with the dump.
LoadedDump load(const Args& a, bool raw_samples) { return load_path(input_path(a), a, raw_samples); }

// The report formats: the report library's, and pprof (tools/pprof/, host tool only).
const std::vector<std::string>& cli_formats() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> v = report_formats();
    v.push_back("pprof");
    return v;
  }();
  return all;
}

// Standard output in 64 KiB blocks: std::cout, in step with C's stdio, hands every insertion to
// fwrite() on its own, which cost a large report more than formatting it. Flushed on the way out
// also when the body throws, so the same bytes reach the output as before.
class BlockBuffer : public std::streambuf {
 public:
  explicit BlockBuffer(std::streambuf* to) : to_(to) { setp(block_, block_ + sizeof block_); }
  ~BlockBuffer() override { pass_on(); }
  BlockBuffer(const BlockBuffer&) = delete;
  BlockBuffer& operator=(const BlockBuffer&) = delete;

 protected:
  int_type overflow(int_type c) override {
    if (!pass_on()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return pass_on() && to_->pubsync() == 0 ? 0 : -1; }

 private:
  bool pass_on() {
    const std::streamsize n = pptr() - pbase();
    const bool ok = n == 0 || to_->sputn(pbase(), n) == n;
    setp(block_, block_ + sizeof block_);
    return ok;
  }
  std::streambuf* to_;
  char block_[1 << 16];
};

// Writes through `body` to -o's file (or stdout, also for "-o -"); a failed write is an error,
// not a silent loss. -o may not name any of the command's `inputs` (tools/cli/output_file.hpp).
template <typename Body>
void emit(const Args& a, const std::vector<std::string>& inputs, Body body) {
  if (!a.has("-o") || a.get("-o") == "-") {
    {
      BlockBuffer block(std::cout.rdbuf());
      std::ostream out(&block);
      body(out);
      out.flush();
      if (!out) std::cout.setstate(std::ios::badbit);
    }
    std::cout.flush();
    if (!std::cout) throw OutputError("cannot write to standard output");
    return;
  }
  const std::string path = a.get("-o");
  if (path.empty()) throw UsageError("-o needs a file name");
  refuse_output_over_inputs(path, inputs);
  write_output_file(path, body);
}

void warn(const std::string& what) { std::cerr << "pmukit: warning: " << printable(what) << '\n'; }

// The --elf, after checking that it is the program that wrote the dump: another build or
// architecture would give a report of plausible-looking nonsense (or 100% [unknown]).
ElfImage checked_elf(const Dump& dump, const std::string& path, bool force, bool inlined = false) {
  ElfImage elf = load_elf(path, inlined);
  for (const std::string& w : elf.warnings) warn(w);
  const ImageCheck check = check_image(dump, elf.identity);
  if (!check.mismatches.empty() && !force) {
    std::string why;
    for (const std::string& m : check.mismatches) why += (why.empty() ? "" : "; ") + m;
    throw ElfError("ELF '" + path + "' did not write this dump: " + why +
                   " (--force-elf uses it anyway)");
  }
  for (const std::string& m : check.mismatches) warn("--force-elf: " + m);
  for (const std::string& w : check.warnings) warn(w);
  return elf;
}
SymbolTable elf_symbols_for(const Dump& dump, const std::string& path, bool force, bool inlined = false) {
  return std::move(checked_elf(dump, path, force, inlined).symbols);
}

// The standard output of a command (argv run without a shell, within run_program's limits);
// throws when it cannot start or fails.
std::string output_of(const std::vector<std::string>& argv) {
  ProgramOutput r = run_program(argv);
  if (!r.started) throw std::runtime_error("cannot start " + argv[0] + ": " + r.failure);
  if (!r.ok) throw std::runtime_error(argv[0] + " failed: " + r.failure);
  return std::move(r.out);
}

}  // namespace

namespace {

// perf report's habits (tools/report/view.hpp): which rows the tabular formats show, and the
// call graph's order. Each option is refused where the format would ignore it.
void report_view_options(const Args& a, const std::string& format, ReportOptions& options) {
  ViewOptions& v = options.view;
  if (a.has("--top")) v.top = a.number("--top", 0);
  if (a.has("--sort")) {
    const std::optional<SortKey> key = parse_sort_key(a.get("--sort"));
    if (!key) throw UsageError("--sort is function, line, address or caller, not '" + a.get("--sort") + "'");
    v.sort = *key;
    if (v.sort != SortKey::function && format != "table" && format != "flat" && format != "csv")
      throw UsageError("--sort " + a.get("--sort") + " is for --format table, flat and csv");
  }
  if (a.has("--percent-limit")) {
    const std::optional<std::uint32_t> p = parse_percent(a.get("--percent-limit"));
    if (!p) throw UsageError("--percent-limit wants a percentage from 0 to 100, not '" + a.get("--percent-limit") + "'");
    v.percent_limit = *p;
  }
  if (a.has("--symbols")) {
    std::string list = a.get("--symbols");
    for (std::size_t start = 0; start <= list.size();) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      if (comma > start) v.symbols.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
    if (v.symbols.empty()) throw UsageError("--symbols needs a name");
  }
  v.symbol_filter = a.get("--symbol-filter");
  if (a.has("--symbol-filter") && v.symbol_filter.empty()) throw UsageError("--symbol-filter needs a text");
  if (a.has("-g") && a.has("--call-graph")) throw UsageError("-g and --call-graph are the same option");
  if (a.has("-g") || a.has("--call-graph")) {
    options.call_graph = a.get(a.has("-g") ? "-g" : "--call-graph");
    if (options.call_graph != "caller" && options.call_graph != "callee" && options.call_graph != "gprof")
      throw UsageError("-g is caller, callee or gprof, not '" + options.call_graph + "'");
    if (format != "callgraph") throw UsageError("-g is for --format callgraph");
  }
  options.max_name_width = a.number("--max-name-width", options.max_name_width);
}

// A comma-separated option value's items (empty items dropped).
std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

// --task and --core (format 1.5's SAMPLE_TAGS): the samples of those tasks and cores only.
SampleFilter sample_filter(const Args& a, const Dump& d) {
  SampleFilter f;
  try {
    for (const char* option : {"--task", "--core"}) {
      if (!a.has(option)) continue;
      const std::vector<std::string> items = comma_list(a.get(option));
      if (items.empty()) throw UsageError(std::string(option) + " needs a " + (option[2] == 't' ? "task name or id" : "core number"));
      if (option[2] == 't') f.tasks = resolve_tasks(d, items);
      else f.cores = resolve_cores(d, items);
    }
  } catch (const TagOptionError& e) {
    throw UsageError(e.what());
  }
  return f;
}

// What --task and --core kept, for the table's and flat's header ("" without them).
std::string filter_text(const Args& a) {
  std::string t;
  if (a.has("--task")) t += "--task " + a.get("--task");
  if (a.has("--core")) t += (t.empty() ? "" : " ") + std::string("--core ") + a.get("--core");
  return t;
}

// --task, --core: the other samples leave the dump before anything is built from it, so every
// format (and annotate, diff) reports the same samples. What was kept ("--task net: 9 of 16"), or
// "" without them.
std::string keep_tagged(const Args& a, Dump& d) {
  const SampleFilter filter = sample_filter(a, d);
  if (!filter.active()) return "";
  const std::uint64_t all = d.total_samples();
  d = filter_samples(d, filter);
  return filter_text(a) + ": " + std::to_string(d.total_samples()) + " of " + std::to_string(all);
}

}  // namespace

int run_report(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--elf", true}, {"--force-elf", false}, {"--format", true}, {"-o", true},
                                   {"--frame", true}, {"--top", true}, {"--table", true}, {"--sort", true},
                                   {"--percent-limit", true}, {"--symbols", true}, {"--symbol-filter", true},
                                   {"-g", true}, {"--call-graph", true}, {"--max-name-width", true},
                                   {"--inline", false}, {"--task", true}, {"--core", true}, {"--root", true}});
  const std::string format = a.get("--format", "table");
  bool known = false;
  for (const std::string& f : cli_formats()) known |= f == format;
  if (!known) throw UsageError("unknown --format '" + format + "'");
  ReportOptions options;
  report_view_options(a, format, options);
  options.csv_table = a.get("--table", options.csv_table);
  if (options.csv_table != "regions" && options.csv_table != "profile")
    throw UsageError("--table is 'regions' or 'profile', not '" + options.csv_table + "'");
  options.elf = a.get("--elf");
  if (a.has("--elf") && options.elf.empty()) throw UsageError("--elf needs a file name");
  if (a.has("--force-elf") && options.elf.empty()) throw UsageError("--force-elf without --elf");
  // Inlined functions come from the ELF's DWARF; gprof assigns a histogram to symbols by address,
  // so a gmon.out cannot name them.
  const bool inlined = a.has("--inline");
  if (inlined && options.elf.empty()) throw UsageError("--inline needs --elf (the inlined calls are in its DWARF)");
  if (inlined && format == "gmon")
    throw UsageError("--inline is not for --format gmon: gprof gives each address to the symbol it is in");
  std::optional<std::vector<RootKey>> roots;
  if (a.has("--root")) {
    roots = parse_root_keys(a.get("--root"));
    if (!roots) throw UsageError("--root is task, core, task,core or core,task, not '" + a.get("--root") + "'");
  }
  LoadedDump loaded = load(a, false);
  options.carrier = loaded.carrier;
  if (const std::string kept = keep_tagged(a, loaded.dump); !kept.empty()) options.filter = kept + " samples";
  if (roots)
    for (RootKey k : *roots)
      if ((loaded.dump.tag_flags & (k == RootKey::task ? 1u : 2u)) == 0)
        warn(std::string("--root ") + a.get("--root") + ": this dump's samples carry no " +
             (k == RootKey::task ? "task (every sample is [no task])" : "core number (every sample is [core 0])"));
  const SymbolTable symbols = options.elf.empty() ? SymbolTable()
                                                  : elf_symbols_for(loaded.dump, options.elf, a.has("--force-elf"), inlined);
  if (inlined && !symbols.has_inlined())
    warn("--inline: '" + options.elf + "' has no inlined calls in its DWARF (built without -g, or nothing was inlined)");
  const bool pprof = format == "pprof";
  // Samples with stacks: unwound with the ELF's CFI into full call stacks.
  std::vector<UnwoundStack> unwound;
  if (!options.elf.empty() && !loaded.dump.stacks.empty()) {
    const Unwinder unwinder(options.elf);
    const bool cfi = unwinder.has_cfi();
    unwound.reserve(loaded.dump.stacks.size());
    for (const StackSampleRecord& s : loaded.dump.stacks)
      unwound.push_back(unwinder.unwind(s, loaded.dump.byte_order, loaded.dump.target.address_bytes));
    options.stacks = summarize(unwound, loaded.dump.stacks).text();
    // A helper that failed is said as such: its file may well have call frame information.
    if (const std::string why = unwinder.llvm_failure(); !why.empty())
      warn("no call frame rules from LLVM for '" + options.elf + "' (" + why +
           "): stacks are one frame deep where libdw has none (MIPS)");
    else if (!cfi)
      warn("'" + options.elf + "' has no call frame information: stacks are one frame deep");
  }
  // pprof's locations keep their call sites and lines through leaf_pcs, without the per-line maps.
  const bool lines = format_needs_lines(format) || sort_needs_lines(options.view.sort);
  const Profile profile = roots ? build_rooted_profile(loaded.dump, symbols, *roots, lines,
                                                       unwound.empty() ? nullptr : &unwound, pprof, inlined)
                                : build_profile(loaded.dump, symbols, lines, unwound.empty() ? nullptr : &unwound,
                                                pprof, inlined);
  if (const std::string placed = profile.placement(); !placed.empty())
    options.stacks += (options.stacks.empty() ? "" : "; ") + placed;
  if (!options.elf.empty() && 2 * profile.unknown_samples() > profile.total)
    warn(std::to_string(profile.unknown_samples()) + " of " + std::to_string(profile.total) +
         " samples are in no function of '" + options.elf + "' (another build, or code the symbol table lacks?)");
  // Why there is no sample, and what to do: the table and flat formats say it in their text.
  if (profile.total == 0 && format != "table" && format != "flat")
    if (const NoSamples no = why_no_samples(loaded.dump, profile, !options.elf.empty()); !no.why.empty())
      warn(no.what + ": " + no.why + "; to do: " + no.todo);
  std::vector<std::string> writer_warnings;
  options.warnings = &writer_warnings;
  emit(a, {input_path(a), options.elf}, [&](std::ostream& os) {
    if (pprof)
      write_pprof(os, {loaded.dump, profile, options});
    else
      write_report(os, format, {loaded.dump, profile, options});
  });
  for (const std::string& w : writer_warnings) warn(w);
  return 0;
}

int run_diff(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--elf", true}, {"--elf-base", true}, {"--elf-new", true}, {"--threshold", true},
                                   {"--frame", true}, {"-o", true}, {"--task", true}, {"--core", true}});
  if (a.positionals.size() != 2) throw UsageError("diff takes two dumps, BASE and NEW");
  if (a.has("--elf") && (a.has("--elf-base") || a.has("--elf-new")))
    throw UsageError("--elf is for both dumps: not with --elf-base/--elf-new");
  if (a.has("--elf-base") != a.has("--elf-new")) throw UsageError("--elf-base and --elf-new go together");
  std::optional<double> threshold;
  if (a.has("--threshold")) {
    const std::string t = a.get("--threshold");
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || end == nullptr || *end != '\0' || !(v >= 0) || v > 1e9)
      throw UsageError("--threshold wants a non-negative percentage, not '" + t + "'");
    threshold = v;
  }
  LoadedDump base = load_path(a.positionals[0], a, false);
  LoadedDump next = load_path(a.positionals[1], a, false);
  const std::string eb = a.has("--elf") ? a.get("--elf") : a.get("--elf-base");
  const std::string en = a.has("--elf") ? a.get("--elf") : a.get("--elf-new");
  // --task, --core: the functions' shares of those tasks' and cores' samples in each dump (its own
  // TASKS names); the regions stay whole (a REGION is not per task).
  if (a.has("--task") || a.has("--core")) {
    if (eb.empty()) throw UsageError("--task and --core compare the samples by function: give --elf (or --elf-base and --elf-new)");
    keep_tagged(a, base.dump);
    keep_tagged(a, next.dump);
  }
  // Functions compare by name, so only with symbols (without them the names would be addresses
  // of two possibly different builds).
  std::optional<Profile> pb, pn;
  SymbolTable sb, sn;
  if (!eb.empty()) {
    sb = elf_symbols_for(base.dump, eb, false);
    sn = elf_symbols_for(next.dump, en, false);
    pb = build_profile(base.dump, sb, false);
    pn = build_profile(next.dump, sn, false);
  }
  const DiffResult r = diff_dumps(base.dump, pb ? &*pb : nullptr, next.dump, pn ? &*pn : nullptr, threshold);
  emit(a, {a.positionals[0], a.positionals[1], eb, en}, [&](std::ostream& os) { write_diff(os, r, a.positionals[0], a.positionals[1]); });
  return r.past() != 0 ? 3 : 0;
}

// perf stat's report from one dump, or the mean of several (repeated runs, perf stat -r).
int run_stat(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--frame", true}, {"--format", true}, {"-o", true}, {"--region", true}, {"--task", true}});
  if (a.positionals.empty()) throw UsageError("stat needs an input (a dump or a UART log; several: repeated runs)");
  if (std::count(a.positionals.begin(), a.positionals.end(), std::string("-")) > 1)
    throw UsageError("'-' (standard input) given more than once");
  const std::string format = a.get("--format", "table");
  const std::vector<std::string>& formats = stat_formats();
  if (std::find(formats.begin(), formats.end(), format) == formats.end())
    throw UsageError("stat --format is table, csv or json, not '" + format + "'");
  StatOptions options;
  if (a.has("--region")) {
    if (a.get("--region").empty()) throw UsageError("--region needs a region name");
    options.region = a.get("--region");
  }
  if (a.has("--task")) {
    options.tasks = comma_list(a.get("--task"));
    if (options.tasks.empty()) throw UsageError("--task needs a task name or id");
  }
  std::vector<LoadedDump> loaded;
  loaded.reserve(a.positionals.size());
  for (const std::string& path : a.positionals) loaded.push_back(load_path(path, a, false));
  std::vector<StatRun> runs;
  for (std::size_t i = 0; i < loaded.size(); ++i)
    runs.push_back({a.positionals[i] == "-" ? "<stdin>" : a.positionals[i], &loaded[i].dump});
  const StatReport report = build_stat(runs, options);
  if (format != "table")
    for (const std::string& w : stat_warnings(report)) warn(w);
  emit(a, a.positionals, [&](std::ostream& os) { write_stat(os, report, format); });
  return 0;
}

int run_annotate(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--elf", true}, {"--force-elf", false}, {"--function", true}, {"--objdump", true},
                                   {"--frame", true}, {"-o", true}, {"--task", true}, {"--core", true}});
  if (!a.has("--elf") || a.get("--elf").empty()) throw UsageError("annotate needs --elf FIRMWARE.elf");
  LoadedDump loaded = load(a, false);
  // --task, --core: only those tasks' and cores' samples on the instructions, as report's.
  std::string kept = keep_tagged(a, loaded.dump);
  if (!kept.empty()) kept = " (" + kept + ")";
  const ElfImage elf = checked_elf(loaded.dump, a.get("--elf"), a.has("--force-elf"));
  const Profile profile = build_profile(loaded.dump, elf.symbols, true);
  // The functions: those whose name contains --function, or every function with samples.
  std::vector<const Function*> chosen;
  if (a.has("--function")) {
    const std::string want = a.get("--function");
    for (std::size_t i = 0; i < elf.symbols.function_count(); ++i) {
      const Function& f = elf.symbols.function(static_cast<std::uint32_t>(i));
      if (f.name.find(want) != std::string::npos) chosen.push_back(&f);
    }
    if (chosen.empty()) throw UsageError("no function of '" + a.get("--elf") + "' is named like '" + want + "'");
  } else {
    for (std::uint32_t id : profile.by_self()) {
      const ProfileFunction& pf = profile.functions[id];
      if (id == profile.unknown) continue;
      if (const auto f = elf.symbols.function_at(pf.address)) chosen.push_back(&elf.symbols.function(*f));
    }
  }
  // --objdump NAME is looked up on PATH like a shell would; exec'd as it is, it was a file in the
  // current directory.
  const std::string objdump = a.has("--objdump") ? find_on_path(a.get("--objdump")) : objdump_for(elf.identity.machine);
  if (a.has("--objdump") && objdump.empty())
    throw UsageError("--objdump '" + a.get("--objdump") + "': no such program on PATH");
  if (objdump.empty())
    throw std::runtime_error("no objdump for this ELF's machine (e_machine " + std::to_string(elf.identity.machine) +
                             ") on PATH: install its cross binutils or give --objdump");
  emit(a, {input_path(a), a.get("--elf"), objdump}, [&](std::ostream& os) {
    os << "pmukit annotate: " << profile.total << " samples" << kept << ", " << a.get("--elf") << '\n';
    for (const Function* f : chosen) {
      const std::string text = output_of({objdump, "-d", "-C", "--no-show-raw-insn",
                                            "--start-address=" + hex(f->lo), "--stop-address=" + hex(f->hi),
                                            a.get("--elf")});
      write_annotation(os, profile, elf.symbols, *f, parse_objdump(text));
    }
  });
  return 0;
}

int run_decode(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"-o", true}, {"--frame", true}});
  const LoadedDump loaded = load(a, true);
  emit(a, {input_path(a)}, [&](std::ostream& os) { write_dump_json(os, loaded.dump, loaded.carrier); });
  return 0;
}

namespace {

// perf list's PATTERN: a glob (fnmatch, case-insensitive) when it has * ? or [, else a
// case-insensitive substring, matched against the event's name and description.
bool matches(const std::string& pattern, const char* name, const char* description) {
  if (pattern.find_first_of("*?[") != std::string::npos)
    return fnmatch(pattern.c_str(), name, FNM_CASEFOLD) == 0;
  auto has = [&](const char* text) {
    const std::string t = text ? text : "";
    auto lower = [](unsigned char c) { return static_cast<char>(std::tolower(c)); };
    std::string a(t.size(), ' '), b(pattern.size(), ' ');
    std::transform(t.begin(), t.end(), a.begin(), lower);
    std::transform(pattern.begin(), pattern.end(), b.begin(), lower);
    return a.find(b) != std::string::npos;
  };
  return has(name) || has(description);
}

// A catalog narrowed to the events (and presets) PATTERN matches; the storage lives in `keep`.
struct Narrowed {
  std::vector<pmu::EventInfo> events;
  std::vector<pmu::PresetBinding> presets;
};
// A matching preset keeps its event too, so the listing can name it.
pmu::PmuCatalog narrow(const pmu::PmuCatalog& c, const std::string& pattern, Narrowed& keep) {
  for (std::size_t i = 0; i < c.num_presets; ++i)
    if (matches(pattern, pmu::preset_name(c.presets[i].preset), pmu::event_name(c, c.presets[i].code)))
      keep.presets.push_back(c.presets[i]);
  for (std::size_t i = 0; i < c.num_events; ++i) {
    const pmu::EventInfo& e = c.events[i];
    bool wanted = matches(pattern, e.name, e.description);
    for (const pmu::PresetBinding& p : keep.presets) wanted |= p.code == e.code;
    if (wanted) keep.events.push_back(e);
  }
  pmu::PmuCatalog n = c;
  n.events = keep.events.data();
  n.num_events = keep.events.size();
  n.presets = keep.presets.data();
  n.num_presets = keep.presets.size();
  return n;
}

// `events --metrics`: each catalog's metric table (tools/report/metrics.hpp), narrowed to the
// metrics whose name, group or description PATTERN matches.
int run_metrics(const Args& a, const std::string& pattern, std::span<const pmu::PmuCatalog> all) {
  std::vector<MetricListing> chosen;
  bool pmu_known = !a.has("--pmu");
  for (const pmu::PmuCatalog& c : all) {
    if (a.has("--pmu") && a.get("--pmu") != c.id) continue;
    pmu_known = true;
    MetricListing l;
    l.catalog = &c;
    for (const pmu::Metric& m : metrics_for(c.id))
      if (pattern.empty() || matches(pattern, m.name, m.group) || matches(pattern, m.name, m.description))
        l.metrics.push_back(&m);
    if (pattern.empty() || !l.metrics.empty()) chosen.push_back(std::move(l));
  }
  if (!pmu_known) {
    std::string ids;
    for (const pmu::PmuCatalog& c : all) ids += std::string(ids.empty() ? "" : ", ") + c.id;
    throw UsageError("unknown --pmu '" + a.get("--pmu") + "' (known: " + ids + ")");
  }
  if (chosen.empty()) throw std::runtime_error("no metric matches '" + pattern + "'");
  emit(a, {}, [&](std::ostream& os) {
    if (a.has("--json"))
      write_metrics_json(os, chosen);
    else
      write_metrics_text(os, chosen);
  });
  return 0;
}

}  // namespace

int run_events(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--json", false}, {"--metrics", false}, {"--pmu", true}, {"-o", true}});
  if (a.positionals.size() > 1) throw UsageError("events takes one PATTERN at most");
  const std::string pattern = a.positionals.empty() ? "" : a.positionals[0];
  const std::span<const pmu::PmuCatalog> all = builtin_catalogs();
  if (all.empty()) throw OutputError("this pmukit was built without PMU catalogs (hal/pmus.cmake registers none)");
  if (a.has("--metrics")) return run_metrics(a, pattern, all);
  std::vector<pmu::PmuCatalog> chosen;
  std::vector<Narrowed> storage(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    const pmu::PmuCatalog& c = all[k];
    if (a.has("--pmu") && a.get("--pmu") != c.id) continue;
    if (pattern.empty()) {
      chosen.push_back(c);
      continue;
    }
    const pmu::PmuCatalog n = narrow(c, pattern, storage[k]);
    if (n.num_events != 0 || n.num_presets != 0) chosen.push_back(n);
  }
  if (chosen.empty() && !pattern.empty() && (!a.has("--pmu") || std::any_of(all.begin(), all.end(), [&](const pmu::PmuCatalog& c) { return a.get("--pmu") == c.id; })))
    throw std::runtime_error("no event or preset matches '" + pattern + "'");
  if (chosen.empty()) {
    std::string ids;
    for (const pmu::PmuCatalog& c : all) ids += std::string(ids.empty() ? "" : ", ") + c.id;
    throw UsageError("unknown --pmu '" + a.get("--pmu") + "' (known: " + ids + ")");
  }
  emit(a, {}, [&](std::ostream& os) {
    if (a.has("--json"))
      write_events_json(os, chosen);
    else
      write_events_text(os, chosen);
  });
  return 0;
}

namespace {

std::string hex0x(std::uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

// NetBurst: the shared encoder (hal/netburst/encode.hpp), then the first counter of the event that
// a lone request gets from the driver's rules (its ESCRs' counters, never BPU counter 1).
void encode_netburst(std::ostream& os, const std::string& text) {
  namespace nb = pmu::netburst;
  const nb::Request r = nb::parse(text.c_str());
  if (r.error != nb::EncodeError::none) {
    std::string where = text.substr(r.error_at, r.error_len);
    throw UsageError(std::string("netburst: ") + nb::encode_error_text(r.error) +
                     (where.empty() ? "" : " at '" + where + "'") + " in '" + text + "'");
  }
  const nb::NbEvent& e = nb::kEvents[r.event];
  const std::uint32_t counters = nb::event_counters(e);
  unsigned counter = 0;
  while (counter < nb::kCounters && !(counters >> counter & 1u)) ++counter;
  const nb::EscrId id = nb::escr_for(e, counter);
  const nb::EscrInfo& x = nb::escr_info(id);
  const std::uint64_t escr = nb::escr_value(r), cccr = nb::cccr_value(r);
  os << "escr=" << hex0x(escr) << " cccr=" << hex0x(cccr) << '\n';
  os << x.name << '=' << hex0x(escr) << " msr=" << hex0x(x.msr) << '\n';
  os << nb::kCccrNames[counter] << '=' << hex0x(cccr) << " msr=" << hex0x(0x360 + counter) << " counter=" << counter
     << " (" << nb::kCounterNames[counter] << ")\n";
  if (e.flags & nb::kDoubtful) os << "note: " << e.name << " is marked doubtful (sources disagree; hal/netburst/README.md)\n";
}

bool same_ci(const std::string& a, const char* b) {
  std::size_t i = 0;
  for (; i < a.size() && b[i]; ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return i == a.size() && b[i] == '\0';
}

// Every other PMU: one event-select field, no modifiers.
void encode_plain(std::ostream& os, const pmu::PmuCatalog& c, const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  if (colon != std::string::npos)
    throw UsageError(std::string(c.id) + ": unknown modifier '" + text.substr(colon + 1) + "' (this PMU's events take none)");
  for (std::size_t i = 0; i < c.num_events; ++i) {
    if (!same_ci(name, c.events[i].name)) continue;
    const pmu::EventInfo& e = c.events[i];
    if (e.counters == 0) {
      os << "event=" << hex0x(e.code) << " (" << e.name << ": a dedicated counter, no event select)\n";
    } else {
      os << "event=" << hex0x(e.code) << " counters=" << counter_list(e.counters) << '\n';
    }
    return;
  }
  throw UsageError(std::string(c.id) + ": unknown event '" + name + "' (see pmukit events --pmu " + c.id + ")");
}

}  // namespace

int run_encode(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--pmu", true}, {"-o", true}});
  if (a.positionals.size() != 1) throw UsageError("encode takes one event string");
  std::string text = a.positionals[0];
  std::string id = a.has("--pmu") ? a.get("--pmu") : "";
  const std::size_t sep = text.find("::");
  if (sep != std::string::npos) {
    std::string prefix = text.substr(0, sep);
    if (prefix == "netburst_p") prefix = "netburst";
    if (!id.empty() && id != prefix) throw UsageError("--pmu " + id + " but the event string names '" + prefix + "'");
    id = prefix;
    if (id != "netburst") text = text.substr(sep + 2);
  }
  if (id.empty()) id = "netburst";
  const std::span<const pmu::PmuCatalog> all = builtin_catalogs();
  const pmu::PmuCatalog* c = nullptr;
  for (const pmu::PmuCatalog& k : all)
    if (id == k.id) c = &k;
  if (!c) {
    std::string ids;
    for (const pmu::PmuCatalog& k : all) ids += std::string(ids.empty() ? "" : ", ") + k.id;
    throw UsageError("unknown --pmu '" + id + "' (known: " + ids + ")");
  }
  emit(a, {}, [&](std::ostream& os) {
    if (id == "netburst")
      encode_netburst(os, text);
    else
      encode_plain(os, *c, text);
  });
  return 0;
}

// A conformance image's console output read back (docs/silicon.md). Exit 0: no rule FAILed;
// 1: one did; 2: the log is not a complete report (or the command line is wrong).
int run_conformance(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--markdown", false}, {"-o", true}});
  const std::string path = input_path(a);
  const std::string name = path == "-" ? "<stdin>" : path;
  conformance::Report report;
  try {
    if (path == "-") {
      report = conformance::parse(std::cin, name);
    } else {
      std::ifstream in(path, std::ios::binary);
      if (!in) throw conformance::LogError(name + ": cannot open: " + std::strerror(errno));
      report = conformance::parse(in, name);
    }
  } catch (const conformance::LogError& e) {
    std::cerr << "pmukit: error: " << printable(e.what()) << '\n';
    return 2;
  }
  emit(a, {path}, [&](std::ostream& os) { conformance::print(os, report, a.has("--markdown")); });
  const std::size_t failed = report.count(conformance::Verdict::fail);
  if (failed != 0)
    std::cerr << "pmukit: " << failed << (failed == 1 ? " rule" : " rules") << " FAILED on this part\n";
  return failed != 0 ? 1 : 0;
}

namespace {

struct CommandHelp {
  std::string name, synopsis, text;
};

std::string format_list() {
  std::string s;
  for (std::size_t i = 0; i < cli_formats().size(); ++i) s += (i ? "|" : "") + cli_formats()[i];
  return s;
}

// The one help text: pmukit --help, pmukit COMMAND --help and docs/pmukit.md (help --markdown).
std::vector<CommandHelp> command_help() {
  return {
      {"report", "report INPUT [--elf FIRMWARE.elf [--force-elf]] [--format FORMAT] [-o FILE] [--frame N] [--table regions|profile]"
                 " [--sort KEY] [--top N] [--percent-limit PCT] [--symbols NAME,...] [--symbol-filter TEXT]"
                 " [-g caller|callee|gprof] [--inline] [--max-name-width N] [--task NAME|ID,...] [--core N,...]"
                 " [--root task|core|task,core|core,task]",
       "Decodes a dump and writes a report. INPUT is a binary dump or a UART log with text frames\n"
       "('-' reads standard input). FORMAT: " + format_list() + " (default table).\n"
       "--frame N picks the Nth dump of a log (default: the last); --table picks the csv table.\n"
       "The profile's rows, like perf report (table, flat, csv --table profile; json's functions\n"
       "take the filters): --sort KEY: function (perf's sym; the default), line (srcline: file:line\n"
       "of the sampled pc), address (symoff: each sampled instruction, as function+offset), caller\n"
       "(the caller -> function pairs of the samples' last two frames). --top N shows the first N\n"
       "rows (table: 25 by default, the others all; 0 = all); --percent-limit PCT leaves out rows\n"
       "under PCT percent of all samples (and, with -g caller|callee, the call tree's smaller\n"
       "entries); --symbols NAME,... keeps the rows of those functions (exact names), and\n"
       "--symbol-filter TEXT those whose function name contains TEXT. Percentages stay shares of all\n"
       "samples, and a closing line (csv: a warning on stderr; json: functions_not_shown) says how\n"
       "many rows and samples were left out and why. -g (--call-graph) with --format callgraph:\n"
       "gprof (default: callers and callees per function), caller (the call tree from the outermost\n"
       "frames down, perf report -g caller) or callee (from each sampled function up through its\n"
       "callers). --inline (with --elf) attributes inlined code to the inlined function, from the\n"
       "ELF's DWARF (its inlined subroutines), like perf report --inline: a frame in inlined code\n"
       "becomes the function it is in, then each function inlined there down to the innermost,\n"
       "which gets the sample's self count (every format but gmon, which gprof reads by symbol).\n"
       "Text formats (table, flat, callgraph) pad by display width and shorten names\n"
       "longer than --max-name-width columns (default 120, 0 = never) in the middle with \"...\";\n"
       "machine formats keep them whole.\n"
       "The ELF must be the one that wrote the dump (machine, build-id, code CRC); --force-elf\n"
       "uses it anyway, with a warning per difference. Without --elf, samples are shown as\n"
       "addresses.\n"
       "Stack samples (a STACKS chunk) are unwound with the ELF's CFI into full call stacks;\n"
       "samples without one are placed where the walks saw their function: every format shows\n"
       "the same stacks, one per sample.\n"
       "Tasks and cores (format 1.5: the dump's SAMPLE_TAGS): every sample keeps the task that was\n"
       "current and the core that took it; table and flat say how many samples each task and core\n"
       "has. --task NAME|ID,... and --core N,... keep the samples of those tasks (a TASKS name or a\n"
       "task id; 65535: no task current) and cores, in every format. --root task puts each sample's\n"
       "task above its stack as the outermost frame (\"[task NAME]\", \"[no task]\"), like perf\n"
       "report --sort comm and stackcollapse-perf's process name: one flame per task in folded,\n"
       "svg, html, callgraph, pprof and json; --root core splits the stacks by core (\"[core N]\",\n"
       "perf's --sort cpu; without it the cores are merged); task,core or core,task both, in that\n"
       "order. A sample without a stack is placed only among its own task's (core's) walks.\n"
       "Consumers: folded -> flamegraph.pl or speedscope; svg/html: a flame graph (click to zoom,\n"
       "Search); callgraph: gprof-style callers and callees; callgrind (instruction addresses and\n"
       "lines; every call count is a placeholder 1) -> KCacheGrind, callgrind_annotate; gmon\n"
       "(binary, the target's byte order; the histogram, no call arcs) -> the target's gprof:\n"
       "`mips-linux-gnu-gprof -b FIRMWARE.elf gmon.out`; pprof (protocol buffers) -> pprof,\n"
       "speedscope; json -> scripts."},
      {"diff", "diff BASE NEW [--elf FILE | --elf-base FILE --elf-new FILE] [--threshold PCT] [--task NAME|ID,...] [--core N,...] [--frame N] [-o FILE]",
       "Compares two dumps: each region's mean per call (every counter both dumps have) and, with\n"
       "ELFs, each function's share of the samples. Prints the changes; exits 3 when a region's mean\n"
       "grew by more than PCT percent (from 0 counts as past) or a function's share by more than\n"
       "PCT percentage points (a CI regression gate; default threshold: none, report only).\n"
       "Regions are matched by name (the second of a name as 'NAME #2'); a region or function in\n"
       "one dump only is listed as added or removed. Multiplexed regions (MUX_REGION) compare the\n"
       "same way, each event's scaled estimate per call (events matched by code and qualifier),\n"
       "with the share of the time the event was on a counter where it is below 100% in either\n"
       "dump. Dumps of two PMUs, or whose counters (or multiplexed events) share no event, are\n"
       "refused (exit 1); what was not compared is listed under Notes. --task NAME|ID,... and\n"
       "--core N,... compare the functions' shares of those tasks' and cores' samples (each dump's\n"
       "own TASKS names; needs the ELFs); the regions stay whole."},
      {"stat", "stat INPUT... [--format table|csv|json] [-o FILE] [--frame N] [--region NAME] [--task NAME|ID,...]",
       "perf stat's report of a dump's regions: per region (the whole run first), each event's count,\n"
       "a rate per second where the time is known, then the PMU's metrics (value, unit, # name).\n"
       "Multiplexed events (MUX_EVENTS, more events than counters, rotated on a timer tick) show\n"
       "the scaled estimate raw * enabled / running with the raw count and, like perf, \"(62.50%)\":\n"
       "the share of the region's time the event was on a counter; an event that was never on one\n"
       "is \"<not counted>\", with a warning. REGION counters are exact (100%); their rate needs\n"
       "the counter clock and a cycles counter. Several INPUTs are repeated runs (perf stat -r):\n"
       "each value is the mean, with perf's \"( +- x% )\": the standard deviation of the mean\n"
       "(sample standard deviation / sqrt(runs)) in percent of the mean; runs of another PMU, other\n"
       "events or other regions are refused (exit 1). --region NAME: that region only. csv: one\n"
       "row per region and event, and per metric; json also lists the metrics that could not be\n"
       "computed, with why_not (csv and json say the warnings on standard error).\n"
       "A dump with TASK_COUNTS (format 1.5, a scheduler's per-task counters) adds a table like perf\n"
       "stat --per-thread: per task and counter, the count while the task was current, its share of\n"
       "all tasks and a rate per second of the task's own time (its cycles counter over the counter\n"
       "clock); the last row, \"all tasks\", is their sum: the whole run from the first switch.\n"
       "--task NAME|ID,... shows those tasks' rows (shares stay of the whole). csv: rows \"task\"\n"
       "(region: the task's name, calls: its switches in; task_id, share_percent); json: tasks."},
      {"annotate", "annotate INPUT --elf FIRMWARE.elf [--function NAME] [--objdump PROGRAM] [--force-elf] [--task NAME|ID,...] [--core N,...] [--frame N] [-o FILE]",
       "Where inside functions the samples are, like `perf annotate --stdio`: each source line's\n"
       "samples and text, then its instructions (the ELF's machine's objdump, found on PATH:\n"
       "arm-none-eabi-, mips-linux-gnu-, powerpc-linux-gnu-, i686-linux-gnu-objdump) with their\n"
       "own samples. --function NAME: the functions whose name contains NAME (with or without\n"
       "samples); default: every function with samples, most first. --objdump: a path, or a\n"
       "name found on PATH. --task NAME|ID,... and --core N,...: those tasks' and cores' samples\n"
       "only, as report's."},
      {"decode", "decode INPUT [-o FILE] [--frame N]", "The dump's content as JSON; no ELF needed."},
      {"events", "events [PATTERN] [--pmu ID] [--metrics] [--json] [-o FILE]",
       "The events and presets of each PMU, like `perf list`. PATTERN keeps the events whose name\n"
       "or description contains it (case-insensitive), or whose name matches it as a glob when it\n"
       "has * ? or [. --metrics: the PMU's derived metrics instead (hal/<pmu>/metrics.hpp): each\n"
       "metric's name, group (basic, branch, cache, tlb, stall, bus), formula in the PMU's event\n"
       "names (q= a qualifier, o= options), unit and the manual section that defines it; PATTERN\n"
       "keeps the metrics whose name, group or description it matches. A metric is\n"
       "scale * (sum of its numerator's events) / (sum of its denominator's)."},
      {"encode", "encode [--pmu ID] EVENT-STRING [-o FILE]",
       "The register values an event string programs (libpfm4 syntax; default PMU netburst:\n"
       "EVENT[:MASK...][:TAGn...][:u][:k][:e][:cmpl][:thr=N], prints escr=, cccr=, the ESCR and\n"
       "CCCR chosen; other PMUs: EVENT, prints its event-select value)."},
      {"sim", "sim FIRMWARE.elf [--pmu ID] [--insns N] [--timeout S] [--log FILE] [--no-pmu] [--quiet]",
       "Runs a firmware ELF on Unicorn with the PMU's behavioural model attached (pmusim:\n"
       "i386 + netburst, MIPS IV + rm7000, ARM + xscale, PowerPC + e500, MIPS32r2 + the MIPS CM),\n"
       "for at most --insns instructions (default 4e9) and --timeout seconds (default 600).\n"
       "Exit status: the firmware's; 3 when it never exited (a limit, a fault, an emulator\n"
       "crash, an unsupported ELF), with the reason on stderr."},
      {"record", "record INPUT -o OUT.pmud [--duration S] [--samples N] [--baud RATE] [--follow] [--checkpoint S]"
                 " [--on-reboot stop|split]",
       "Records a live stream (docs/stream-format.md: what profiler/stream/ sends while the firmware\n"
       "runs) into a dump file as it arrives. INPUT: a serial device or a pty (read in raw mode;\n"
       "--baud sets the line's speed), tcp:HOST:PORT (connects, retrying for 5 s while refused:\n"
       "QEMU's -serial tcp::PORT,server), tcp-listen:[HOST:]PORT (waits for one connection: QEMU's\n"
       "-serial tcp:HOST:PORT), a file (read to its end; --follow keeps reading as it grows, like\n"
       "tail -f) or '-' (standard input).\n"
       "Starts at the first HELLO frame (a stream joined mid-way: the frames before it are counted\n"
       "and skipped). Every --checkpoint seconds (default 1) the new samples and the latest region\n"
       "snapshots are added to OUT with a new END and CRC, synced, so a crash of pmukit or of the\n"
       "board leaves a dump that `pmukit report` reads, holding every sample up to the last\n"
       "checkpoint (until the final rewrite, such a dump carries the checkpoints' old tails as\n"
       "padding that decoders pass over). Stops on SIGINT or SIGTERM (exit 0, a complete dump),\n"
       "--duration S, --samples N (once at least N samples are kept: the frame that reaches N is\n"
       "kept whole), the end of the input, or a new boot id (the board restarted):\n"
       "--on-reboot split writes each boot to its own dump instead (OUT.2.pmud, OUT.3.pmud...).\n"
       "Prints on standard error what it received and what was lost: frames lost (gaps in the\n"
       "sequence numbers), corrupt frames (a failed CRC or length, a frame cut short, a payload\n"
       "against the spec; each a sync that was not a frame), late (reordered) frames kept,\n"
       "duplicates dropped, skipped bytes, frames before the first HELLO, unknown frame types,\n"
       "and the firmware's own dropped count (the ring's, kept in the dump's SAMPLE_SOURCE; the\n"
       "link's losses never go into it); the last line, \"totals: key=value...\", is for scripts.\n"
       "-o follows -o's rules: a device, FIFO or socket is written through once at the end; a\n"
       "file with other hard links is written in place (left with its padding). Exit status 1 when\n"
       "no HELLO came, or at a HELLO of another stream version (what came before it is kept)."},
      {"top", "top INPUT [--elf FIRMWARE.elf] [--interval S] [--window S | --since-start] [--top N] [--baud RATE] [--follow]",
       "A live view of a stream (INPUT as for record): the hottest functions (symbolized with\n"
       "--elf; else addresses) over the last --window seconds (default 10) or --since-start, the\n"
       "sample rate, the firmware's dropped count and the link's losses, each counter's rate from\n"
       "the COUNTS frames (per second of the board's counter clock) and the PMU's metrics\n"
       "(hal/<pmu>/metrics.hpp) from those counts (a total that went down, a counter's own value\n"
       "rather than the 64-bit total the format asks for, is taken as one wrap at the counter's\n"
       "width, and the view says so). Refreshed every --interval seconds (default\n"
       "1): on a terminal, redrawn in place with ANSI escapes (q or Ctrl-C quits); otherwise a\n"
       "plain text block per refresh. --top N rows (default: what the terminal holds; 20 off a\n"
       "terminal). Ends at the end of the input with a last view, and a \"totals:\" line on\n"
       "standard error as record's."},
      {"conformance", "conformance LOG [--markdown] [-o FILE]",
       "Reads back a conformance image's console output (docs/silicon.md): the @PMUCHECK lines\n"
       "of LOG ('-' reads standard input), anywhere in a line, and prints one table per run: rule,\n"
       "verdict (PASS, FAIL, ANSWER: an open question answered by the part, SKIP), observed,\n"
       "expected, the manual's section. --markdown: tables to paste into an issue. Exit status:\n"
       "0 no rule failed, 1 a rule FAILED on the part, 2 LOG is not a complete report (no\n"
       "@PMUCHECK line, a malformed one, a run cut short before its END, lines lost)."},
      {"help", "help [COMMAND] [--markdown]",
       "This text, or one command's; --markdown writes docs/pmukit.md."},
  };
}

const char* const kExitText =
    "exit status: 0 success, 1 bad input (dump, ELF, output file), 2 bad command line,\n"
    "3 diff: a change past --threshold; conformance: 1 a rule failed, 2 an incomplete log.\n"
    "-o - writes to standard output (the default); every command takes -h or --help.";

void indent(std::ostream& os, const std::string& text, const char* by) {
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    os << by << text.substr(start, end == std::string::npos ? std::string::npos : end - start) << '\n';
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

}  // namespace

void print_usage(std::ostream& os) {
  os << "usage: pmukit <command> [options]   (pmukit <command> --help for one)\n\ncommands:\n";
  for (const CommandHelp& c : command_help()) {
    os << "  " << c.synopsis << '\n';
    indent(os, c.text, "      ");
  }
  os << '\n' << kExitText << '\n';
}

bool print_command_help(std::ostream& os, const std::string& command) {
  for (const CommandHelp& c : command_help()) {
    if (c.name != command) continue;
    os << "usage: pmukit " << c.synopsis << "\n\n" << c.text << "\n\n" << kExitText << '\n';
    return true;
  }
  return false;
}

void print_markdown(std::ostream& os) {
  os << "# pmukit: the host tool\n\n"
        "<!-- Generated by `pmukit help --markdown` from the tool's own help text; a test checks that\n"
        "     this file matches it. Edit tools/cli/commands.cpp, then regenerate. -->\n\n"
        "`pmukit <command> [options]`; `pmukit --version`; `pmukit <command> --help` (or `-h`).\n";
  for (const CommandHelp& c : command_help()) {
    os << "\n## pmukit " << c.name << "\n\n    pmukit " << c.synopsis << "\n\n" << c.text << "\n";
  }
  os << "\n## Exit status and conventions\n\n" << kExitText << "\n";
}

int run_help(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--markdown", false}});
  if (a.has("--markdown")) {
    if (!a.positionals.empty()) throw UsageError("help --markdown takes no command");
    print_markdown(std::cout);
    return 0;
  }
  if (a.positionals.empty()) {
    print_usage(std::cout);
    return 0;
  }
  if (a.positionals.size() > 1 || !print_command_help(std::cout, a.positionals[0]))
    throw UsageError("no command '" + a.positionals[0] + "'");
  return 0;
}

}  // namespace pmukit
