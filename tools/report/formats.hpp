#pragma once
// The report writers, one per output format, and the names the CLI accepts.
#include <cstddef>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tools/dumpread/dump.hpp"
#include "tools/report/profile.hpp"
#include "tools/report/view.hpp"

namespace pmukit {

// A format that cannot represent this dump (trace: no timings; gmon: a bin past 16 bits) says so
// with this, which the CLI reports as an error: never a silently wrong file.
class ReportRefused : public std::runtime_error {
 public:
  explicit ReportRefused(const std::string& what) : std::runtime_error(what) {}
};

struct ReportOptions {
  std::string carrier;            // where the dump came from ("binary", "text frame 1 of 1 ...")
  std::string elf;                // ELF path shown in reports ("" when none)
  // The tabular formats' rows (--sort, --top, --percent-limit, --symbols): view.hpp. --top unset:
  // the table shows 25, the others every row.
  ViewOptions view;
  // `callgraph`: "gprof" (callers and callees per function), "caller" (the call tree from the
  // outermost frames down, perf report -g caller) or "callee" (from the sampled functions up to
  // their callers, perf report -g callee). --percent-limit hides the tree's smaller nodes.
  std::string call_graph = "gprof";
  std::size_t max_name_width = 120;  // text formats: longer names shortened in the middle (0: never)
  std::string csv_table = "regions";  // `csv`: "regions" or "profile"
  std::string stacks;             // how the stack samples' walks ended (UnwindSummary::text), or ""
  std::string filter;             // what --task and --core kept ("--task net: 120 of 300 samples"), or ""
  std::vector<std::string>* warnings = nullptr;  // where a writer says what its consumer will show wrong
};

struct ReportInput {
  const Dump& dump;
  const Profile& profile;
  const ReportOptions& options;
};

void write_table(std::ostream& os, const ReportInput& in);
void write_flat(std::ostream& os, const ReportInput& in);
void write_folded(std::ostream& os, const ReportInput& in);
void write_callgrind(std::ostream& os, const ReportInput& in);
void write_json_report(std::ostream& os, const ReportInput& in);
void write_csv(std::ostream& os, const ReportInput& in);
void write_svg(std::ostream& os, const ReportInput& in);
void write_html(std::ostream& os, const ReportInput& in);
void write_gmon(std::ostream& os, const ReportInput& in);  // binary: gprof's gmon.out
void write_trace(std::ostream& os, const ReportInput& in);  // Chrome / Perfetto trace JSON
void write_callgraph(std::ostream& os, const ReportInput& in);  // gprof-style callers / callees

// The `decode` output: the dump's content as JSON, no symbols.
void write_dump_json(std::ostream& os, const Dump& dump, const std::string& carrier);

// Report format names, in the order `--help` lists them.
const std::vector<std::string>& report_formats();
// True if `format` prints per-line data (build_profile with_lines).
bool format_needs_lines(std::string_view format);
// Writes `format`; false if the name is not one of report_formats().
bool write_report(std::ostream& os, std::string_view format, const ReportInput& in);

}  // namespace pmukit
