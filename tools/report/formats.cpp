#include "tools/report/formats.hpp"

namespace pmukit {
namespace {

struct Entry {
  const char* name;
  void (*write)(std::ostream&, const ReportInput&);
  bool needs_lines;  // reads Profile::line_self / Profile::calls
};
constexpr Entry kFormats[] = {
    {"table", write_table, false},         {"flat", write_flat, false},
    {"folded", write_folded, false},       {"callgrind", write_callgrind, true},
    {"json", write_json_report, false},    {"csv", write_csv, false},
    {"html", write_html, false},           {"svg", write_svg, false},
    {"gmon", write_gmon, false},            {"trace", write_trace, false},
    {"callgraph", write_callgraph, false},
};

}  // namespace

const std::vector<std::string>& report_formats() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Entry& e : kFormats) v.emplace_back(e.name);
    return v;
  }();
  return names;
}

bool format_needs_lines(std::string_view format) {
  for (const Entry& e : kFormats)
    if (format == e.name) return e.needs_lines;
  return false;
}

bool write_report(std::ostream& os, std::string_view format, const ReportInput& in) {
  for (const Entry& e : kFormats) {
    if (format == e.name) {
      e.write(os, in);
      return true;
    }
  }
  return false;
}

}  // namespace pmukit
