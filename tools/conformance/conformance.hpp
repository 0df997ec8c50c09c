#pragma once
// `pmukit conformance LOG`: reads back what a conformance image printed (examples/*/silicon_check*,
// examples/common/silicon_check.hpp, docs/silicon.md): the @PMUCHECK lines of a console log,
// wherever they sit in a line (a terminal program's timestamp before them, a CR after).
//
//   @PMUCHECK <pmu> BEGIN part=<...>
//   @PMUCHECK <pmu> <rule> <PASS|FAIL|ANSWER|SKIP> observed=<v> expected=<v> ref="<text>"
//   @PMUCHECK <pmu> END <n> passed <n> failed <n> answers <n> skipped
//
// A value is one token or a double-quoted text. A log may hold several runs (one section each).
#include <cstddef>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pmukit::conformance {

// The log is not a complete conformance report: no @PMUCHECK line, a malformed one, a run cut
// short (no END), or an END whose counts disagree with the rows (lines lost on the way).
class LogError : public std::runtime_error {
 public:
  explicit LogError(const std::string& what) : std::runtime_error(what) {}
};

enum class Verdict { pass, fail, answer, skip };

struct Row {
  std::string rule;
  Verdict verdict = Verdict::pass;
  std::string observed, expected, ref;
  std::size_t line = 0;  // 1-based line of the log
};

struct Section {
  std::string pmu, part;
  std::vector<Row> rows;
  std::size_t count(Verdict v) const;
};

struct Report {
  std::vector<Section> sections;
  std::size_t count(Verdict v) const;
};

const char* verdict_name(Verdict v);

// Every section of the log, in order; LogError (naming `name` and the line) otherwise.
Report parse(std::istream& in, const std::string& name);

// A table per section: rule, verdict, observed, expected, reference; then the totals. markdown:
// GitHub tables, for pasting into an issue.
void print(std::ostream& os, const Report& r, bool markdown);

}  // namespace pmukit::conformance
