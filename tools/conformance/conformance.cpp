#include "tools/conformance/conformance.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace pmukit::conformance {
namespace {

constexpr const char* kMarker = "@PMUCHECK ";
constexpr const char* kVerdicts[] = {"PASS", "FAIL", "ANSWER", "SKIP"};

// Splits after the marker: plain tokens and key="quoted text" (quotes dropped). nullopt: a quote
// never closed.
std::optional<std::vector<std::string>> tokens(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i == s.size()) break;
    std::string t;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') {
      if (s[i] == '"') {
        const std::size_t close = s.find('"', i + 1);
        if (close == std::string::npos) return std::nullopt;
        t += s.substr(i + 1, close - i - 1);
        i = close + 1;
      } else {
        t += s[i++];
      }
    }
    out.push_back(t);
  }
  return out;
}

std::optional<std::size_t> number(const std::string& s) {
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return static_cast<std::size_t>(std::stoul(s));
}

std::string clip(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

}  // namespace

const char* verdict_name(Verdict v) { return kVerdicts[static_cast<int>(v)]; }

std::size_t Section::count(Verdict v) const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [&](const Row& r) { return r.verdict == v; }));
}
std::size_t Report::count(Verdict v) const {
  std::size_t n = 0;
  for (const Section& s : sections) n += s.count(v);
  return n;
}

Report parse(std::istream& in, const std::string& name) {
  Report report;
  std::optional<Section> open;  // the section between its BEGIN and its END
  std::size_t open_line = 0, lineno = 0;
  std::string line;
  const auto fail = [&](const std::string& what) -> LogError {
    return LogError(name + ":" + std::to_string(lineno) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++lineno;
    const std::size_t at = line.find(kMarker);
    if (at == std::string::npos) continue;
    std::string body = line.substr(at + std::string(kMarker).size());
    while (!body.empty() && (body.back() == '\r' || body.back() == ' ')) body.pop_back();
    const auto t = tokens(body);
    if (!t) throw fail("a quoted value is never closed: '" + clip(body, 80) + "'");
    const std::vector<std::string>& f = *t;
    if (f.size() < 2) throw fail("a @PMUCHECK line needs a PMU and a rule: '" + clip(body, 80) + "'");
    const std::string& pmu = f[0];
    if (f[1] == "BEGIN") {
      if (open)
        throw fail("'" + pmu + "' BEGIN inside the run of '" + open->pmu + "' begun on line " +
                   std::to_string(open_line) + " (that run was cut short: no END)");
      open = Section{pmu, "", {}};
      open_line = lineno;
      for (std::size_t i = 2; i < f.size(); ++i)
        if (f[i].rfind("part=", 0) == 0) open->part = f[i].substr(5);
      continue;
    }
    if (!open) throw fail("a @PMUCHECK line before its run's BEGIN: '" + clip(body, 80) + "'");
    if (pmu != open->pmu)
      throw fail("a line of '" + pmu + "' inside the run of '" + open->pmu + "' begun on line " +
                 std::to_string(open_line));
    if (f[1] == "END") {
      // END <n> passed <n> failed <n> answers <n> skipped
      static constexpr const char* kWords[] = {"passed", "failed", "answers", "skipped"};
      if (f.size() != 10) throw fail("an END line must be 'END <n> passed <n> failed <n> answers <n> skipped'");
      for (int v = 0; v < 4; ++v) {
        const auto n = number(f[2 + 2 * v]);
        if (!n || f[3 + 2 * v] != kWords[v])
          throw fail("an END line must be 'END <n> passed <n> failed <n> answers <n> skipped'");
        const std::size_t rows = open->count(static_cast<Verdict>(v));
        if (*n != rows)
          throw fail("END says " + std::to_string(*n) + " " + kWords[v] + " but the log has " + std::to_string(rows) +
                     " " + kVerdicts[v] + " rows for '" + pmu + "' (lines were lost)");
      }
      report.sections.push_back(std::move(*open));
      open.reset();
      continue;
    }
    if (f.size() < 3) throw fail("rule '" + f[1] + "' has no verdict");
    Row row;
    row.rule = f[1];
    row.line = lineno;
    const auto* v = std::find(std::begin(kVerdicts), std::end(kVerdicts), f[2]);
    if (v == std::end(kVerdicts))
      throw fail("rule '" + row.rule + "': verdict '" + clip(f[2], 20) + "' is not PASS, FAIL, ANSWER or SKIP");
    row.verdict = static_cast<Verdict>(v - std::begin(kVerdicts));
    for (std::size_t i = 3; i < f.size(); ++i) {
      const std::size_t eq = f[i].find('=');
      const std::string key = f[i].substr(0, eq), value = eq == std::string::npos ? "" : f[i].substr(eq + 1);
      if (key == "observed") row.observed = value;
      else if (key == "expected") row.expected = value;
      else if (key == "ref") row.ref = value;
    }
    for (const Row& r : open->rows)
      if (r.rule == row.rule)
        throw fail("rule '" + row.rule + "' reported twice in one run (first on line " + std::to_string(r.line) + ")");
    open->rows.push_back(std::move(row));
  }
  if (open)
    throw LogError(name + ": ends before '@PMUCHECK " + open->pmu + " END' (the run begun on line " +
                   std::to_string(open_line) + " was cut short)");
  if (report.sections.empty())
    throw LogError(name + ": no @PMUCHECK lines (not the console output of a conformance image?)");
  return report;
}

namespace {

void table(std::ostream& os, const std::vector<std::vector<std::string>>& cells, bool markdown) {
  std::vector<std::size_t> w(cells[0].size(), 0);
  for (const auto& row : cells)
    for (std::size_t c = 0; c < row.size(); ++c) w[c] = std::max(w[c], row[c].size());
  for (std::size_t r = 0; r < cells.size(); ++r) {
    const auto& row = cells[r];
    if (markdown) {
      os << '|';
      for (const std::string& c : row) os << ' ' << c << " |";
      os << '\n';
      if (r == 0) {
        os << '|';
        for (std::size_t c = 0; c < row.size(); ++c) os << "---|";
        os << '\n';
      }
      continue;
    }
    for (std::size_t c = 0; c < row.size(); ++c) {
      os << row[c];
      if (c + 1 < row.size()) os << std::string(w[c] - row[c].size() + 2, ' ');
    }
    os << '\n';
  }
}

std::string md(std::string s) {  // a markdown cell: no bare |
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

void print(std::ostream& os, const Report& r, bool markdown) {
  for (std::size_t i = 0; i < r.sections.size(); ++i) {
    const Section& s = r.sections[i];
    if (i) os << '\n';
    os << (markdown ? "### " : "") << s.pmu << (s.part.empty() ? "" : " on " + s.part) << '\n';
    if (markdown) os << '\n';
    std::vector<std::vector<std::string>> cells{{"rule", "verdict", "observed", "expected", "reference"}};
    for (const Row& row : s.rows) {
      std::vector<std::string> c{row.rule, verdict_name(row.verdict), row.observed, row.expected, row.ref};
      if (markdown)
        for (std::string& x : c) x = md(x);
      cells.push_back(c);
    }
    table(os, cells, markdown);
    if (markdown) os << '\n';
    os << s.count(Verdict::pass) << " passed, " << s.count(Verdict::fail) << " failed, " << s.count(Verdict::answer)
       << " answers, " << s.count(Verdict::skip) << " skipped\n";
  }
}

}  // namespace pmukit::conformance
