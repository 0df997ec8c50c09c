// pmukit_format_consistency PMUKIT ELF DUMP SCRATCH [OPTION...]: every report format of one dump, read back the way its
// reader would, must give the same total and, per function, the same self and inclusive samples
// (issue "every format tells the same story"). JSON is the reference; each other format is parsed
// from its own text or bytes: table and flat (self), csv (self, inclusive), callgraph (self,
// inclusive; -g caller and callee: self, from the trees), flat --sort line, address and caller
// (self, summed per function), folded (both, from the stacks), svg and html (both, from the flame graph's frames),
// callgrind (self from the cost lines, inclusive as KCacheGrind adds it: self plus the costs of
// the calls out), pprof (both, from the samples' locations; protobuf) and gmon (self, from the
// histogram and the ELF's symbols, as gprof assigns it). The OPTIONs go to every report (--inline:
// the inlined functions must agree the same way; gmon, which cannot name them, is left out).
// Prints one line per format and every disagreement; exit status 1 when there is one, 2 when a
// format could not be made or read.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "profile.pb.h"
#include "tools/elf/elf_symbols.hpp"

namespace {

struct Shares {
  std::uint64_t total = 0;
  std::map<std::string, std::uint64_t> self, inclusive;
  bool has_self = true, has_inclusive = false;
  std::uint64_t slack = 0;  // gmon: samples in bins that hold two functions' code (gprof splits those)
};

std::string tool, elf, dump, scratch, options;

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

[[noreturn]] void fail(const std::string& what) {
  std::cerr << "format_consistency: " << what << '\n';
  std::exit(2);
}

std::string run(const std::string& format, const std::string& extra = "") {
  const std::string out = scratch + "/out." + format;
  const std::string cmd = "'" + tool + "' report --format " + format + " " + extra + options + " --elf '" + elf +
                          "' -o '" + out + "' '" + dump + "' 2>'" + scratch + "/err'";
  if (std::system(cmd.c_str()) != 0) fail(format + ": pmukit failed: " + read_file(scratch + "/err"));
  return read_file(out);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream s(text);
  for (std::string l; std::getline(s, l);) v.push_back(l);
  return v;
}

std::string unescape_html(std::string s) {
  const std::pair<const char*, const char*> table[] = {{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
  for (const auto& [from, to] : table)
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1)) s.replace(at, std::strlen(from), to);
  return s;
}

std::string unescape_json(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    if (c == 'u' && i + 4 < s.size()) {
      out += static_cast<char>(std::stoul(s.substr(i + 1, 4), nullptr, 16));  // ASCII in these names
      i += 4;
    } else {
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    }
  }
  return out;
}

// Self and inclusive from stacks (outermost first): the folded text's and the flame graph's rule.
void add_stack(Shares& s, const std::vector<std::string>& frames, std::uint64_t n) {
  s.total += n;
  std::set<std::string> seen;
  for (const std::string& f : frames)
    if (seen.insert(f).second) s.inclusive[f] += n;
  if (!frames.empty()) s.self[frames.back()] += n;
}

Shares json() {
  Shares s;
  s.has_inclusive = true;
  const std::string text = run("json");
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("\"total_samples\": *([0-9]+)"))) fail("json: no total_samples");
  s.total = std::stoull(m[1]);
  const std::size_t functions = text.find("\"functions\"");
  const std::size_t stacks = text.find("\"stacks\"", functions);
  const std::string part = text.substr(functions, stacks - functions);
  const std::regex entry(
      "\"name\": *\"((?:[^\"\\\\]|\\\\.)*)\"[^{}]*?\"samples\": *([0-9]+)[^{}]*?\"inclusive\": *([0-9]+)");
  for (auto it = std::sregex_iterator(part.begin(), part.end(), entry); it != std::sregex_iterator(); ++it) {
    const std::string name = unescape_json((*it)[1]);
    if (const std::uint64_t self = std::stoull((*it)[2])) s.self[name] = self;
    s.inclusive[name] = std::stoull((*it)[3]);
  }
  return s;
}

// flat and table rows: samples, percent, cumul%, [address,] function, [location]; columns apart by
// two or more spaces.
Shares text_table(const std::string& format) {
  Shares s;
  const bool flat = format == "flat";
  const std::string text = run(format, flat ? "--max-name-width 0" : "--top 0 --max-name-width 0");
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(flat ? "# flat profile: ([0-9]+) samples" : "\nSamples: ([0-9]+)")))
    fail(format + ": no total");
  s.total = std::stoull(m[1]);
  const std::regex row(flat ? "^ *([0-9]+) +[0-9.]+ +[0-9.]+ +(?:0x[0-9a-f]+)? +(.*?)(?:  +\\S[^ ]*)?$"
                            : "^   *([0-9]+) +[0-9.]+ +[0-9.]+  (.*?)(?:  +\\S[^ ]*)?$");
  bool in_profile = flat;
  for (const std::string& l : lines(text)) {
    if (!in_profile) {
      in_profile = l.find("samples  percent  cumul%  function") != std::string::npos;
      continue;
    }
    if (std::regex_match(l, m, row)) s.self[m[2]] += std::stoull(m[1]);
  }
  return s;
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

Shares csv() {
  Shares s;
  s.has_inclusive = true;
  const std::vector<std::string> rows = lines(run("csv", "--table profile"));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::vector<std::string> f = csv_fields(rows[i]);
    if (f.size() < 8) fail("csv: short row: " + rows[i]);
    std::string name = f[0];
    if (name.size() > 1 && name[0] == '\'') name.erase(0, 1);  // a formula guard, if any
    if (const std::uint64_t self = std::stoull(f[3])) s.self[name] = self;
    s.inclusive[name] = std::stoull(f[6]);
    s.total += std::stoull(f[3]);
  }
  return s;
}

Shares callgraph() {
  Shares s;
  s.has_inclusive = true;
  const std::string text = run("callgraph", "--max-name-width 0");
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("# call graph: ([0-9]+) samples"))) fail("callgraph: no total");
  s.total = std::stoull(m[1]);
  const std::regex entry("^\\[[0-9]+\\] [0-9.]+% inclusive \\(([0-9]+)\\), [0-9.]+% self \\(([0-9]+)\\)  (.*)$");
  for (const std::string& l : lines(text))
    if (std::regex_match(l, m, entry)) {
      if (const std::uint64_t self = std::stoull(m[2])) s.self[m[3]] = self;
      s.inclusive[m[3]] = std::stoull(m[1]);
    }
  return s;
}

// flat --sort line|address|caller: self per function, from the rows' function column (the address
// key's function+offset without its offset); cells apart by two or more spaces.
Shares sorted_flat(const std::string& key) {
  Shares s;
  const std::string text = run("flat", "--sort " + key + " --max-name-width 0");
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("# flat profile: ([0-9]+) samples"))) fail("flat --sort " + key + ": no total");
  s.total = std::stoull(m[1]);
  const std::size_t column = 4;  // after samples, percent, cumul% and the key's first cell
  const std::regex gap(" {2,}");
  for (const std::string& l : lines(text)) {
    if (l.empty() || l[0] == '#' || l.find("samples  percent") != std::string::npos) continue;
    std::vector<std::string> cells;
    for (std::sregex_token_iterator it(l.begin(), l.end(), gap, -1), end; it != end; ++it)
      if (!it->str().empty()) cells.push_back(*it);
    if (cells.size() <= column) fail("flat --sort " + key + ": short row: " + l);
    std::string name = cells[column];
    if (key == "address") name = std::regex_replace(name, std::regex("\\+0x[0-9a-f]+$"), "");
    s.self[name] += std::stoull(cells[0]);
  }
  return s;
}

// callgraph -g caller: self per function from the tree (a node's "(self N)", or a leaf's samples);
// -g callee: from its roots (each sampled function's self samples).
Shares call_tree(bool callee) {
  Shares s;
  const std::vector<std::string> text = lines(run("callgraph", std::string("--max-name-width 0 -g ") + (callee ? "callee" : "caller")));
  const std::regex node("^( *)([0-9]+)  [0-9.]+%  (.*?)(?:  \\(self ([0-9]+)\\))?$");
  std::smatch m;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::regex_match(text[i], m, node)) continue;
    const auto depth = m[1].length();
    const std::uint64_t n = std::stoull(m[2]);
    if (depth == 0) s.total += n;
    if (callee) {
      if (depth == 0) s.self[m[3]] += n;
      continue;
    }
    std::smatch next;
    const bool leaf = i + 1 == text.size() || !std::regex_match(text[i + 1], next, node) || next[1].length() <= depth;
    if (m[4].matched) s.self[m[3]] += std::stoull(m[4]);
    else if (leaf) s.self[m[3]] += n;
  }
  return s;
}

Shares folded() {
  Shares s;
  s.has_inclusive = true;
  for (const std::string& l : lines(run("folded"))) {
    const std::size_t space = l.rfind(' ');
    std::vector<std::string> frames;
    std::string stack = l.substr(0, space);
    for (std::size_t at = 0;;) {
      const std::size_t semi = stack.find(';', at);
      frames.push_back(stack.substr(at, semi - at));
      if (semi == std::string::npos) break;
      at = semi + 1;
    }
    add_stack(s, frames, std::stoull(l.substr(space + 1)));
  }
  return s;
}

// The flame graph's frames in the order painted (depth first) with their levels: a frame's self
// is its count less its children's.
Shares flame(const std::string& format) {
  Shares s;
  s.has_inclusive = true;
  const std::string text = run(format);
  const std::regex frame("data-l=\"([0-9]+)\" data-n=\"([^\"]*)\"><title>[^<]* \\(([0-9]+) samples");
  struct Open {
    std::string name;
    std::uint64_t count, children;
  };
  std::vector<Open> open;
  auto close = [&](std::size_t level) {
    while (open.size() > level) {
      const Open o = open.back();
      open.pop_back();
      if (o.count > o.children && !open.empty()) s.self[o.name] += o.count - o.children;
    }
  };
  for (auto it = std::sregex_iterator(text.begin(), text.end(), frame); it != std::sregex_iterator(); ++it) {
    const std::size_t level = std::stoul((*it)[1]);
    const std::string name = unescape_html((*it)[2]);
    const std::uint64_t n = std::stoull((*it)[3]);
    close(level);
    if (level == 0) {
      s.total = n;
    } else {
      open.back().children += n;
      bool outer = true;  // once per stack however often it recurs
      for (std::size_t k = 1; k < open.size(); ++k) outer &= open[k].name != name;
      if (outer) s.inclusive[name] += n;
    }
    open.push_back({name, n, 0});
  }
  close(0);
  return s;
}

// KCacheGrind's view: fn= self costs, and its calls' inclusive costs (cfn= ... calls= then the
// cost line). Names compressed as "(id) name" are not written by pmukit.
Shares callgrind() {
  Shares s;
  s.has_inclusive = true;
  const std::string text = run("callgrind");
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("\nsummary: ([0-9]+)"))) fail("callgrind: no summary");
  s.total = std::stoull(m[1]);
  std::string fn;
  bool after_calls = false;
  const std::regex cost("^0x[0-9a-f]+ [0-9]+ ([0-9]+)$");
  for (const std::string& l : lines(text)) {
    if (l.rfind("fn=", 0) == 0) {
      fn = l.substr(3);
      s.inclusive[fn] += 0;
    } else if (l.rfind("calls=", 0) == 0) {
      if (l.rfind("calls=1 ", 0) != 0) {  // a sample count written as a call count
        std::cout << "  callgrind: a call count other than the placeholder 1: " << l << '\n';
        s.total = ~std::uint64_t{0};
      }
      after_calls = true;
    } else if (std::regex_match(l, m, cost)) {
      const std::uint64_t n = std::stoull(m[1]);
      if (!after_calls) s.self[fn] += n;
      s.inclusive[fn] += n;
      after_calls = false;
    }
  }
  for (auto it = s.inclusive.begin(); it != s.inclusive.end();) it = it->second == 0 ? s.inclusive.erase(it) : ++it;
  return s;
}

Shares pprof() {
  Shares s;
  s.has_inclusive = true;
  perftools::profiles::Profile p;
  if (!p.ParseFromString(run("pprof"))) fail("pprof: not a profile");
  std::map<std::uint64_t, std::string> function_name;
  for (const auto& f : p.function()) function_name[f.id()] = p.string_table(static_cast<int>(f.name()));
  // A location's lines are its inlined frames, the innermost first (pprof's model).
  std::map<std::uint64_t, std::vector<std::string>> location;
  for (const auto& l : p.location()) {
    std::vector<std::string>& names = location[l.id()];
    for (int i = l.line_size() - 1; i >= 0; --i) names.push_back(function_name[l.line(i).function_id()]);
    if (names.empty()) names.push_back("?");
  }
  for (const auto& sample : p.sample()) {
    std::vector<std::string> frames;
    for (int i = sample.location_id_size() - 1; i >= 0; --i)
      for (const std::string& name : location[sample.location_id(i)]) frames.push_back(name);
    add_stack(s, frames, static_cast<std::uint64_t>(sample.value(0)));
  }
  return s;
}

// gmon.out: the histogram record's bins, assigned to the ELF's functions by address (each bin one
// instruction slot here, so no bin straddles two functions).
Shares gmon() {
  Shares s;
  const std::string b = run("gmon");
  if (b.size() < 20 || b.compare(0, 4, "gmon") != 0) fail("gmon: no header");
  const pmukit::SymbolTable symbols = pmukit::load_elf_symbols(elf);
  const bool big = read_file(elf)[5] == 2;
  const unsigned addr = read_file(elf)[4] == 2 ? 8 : 4;
  auto number = [&](std::size_t at, unsigned n) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i)
      v |= std::uint64_t{static_cast<unsigned char>(b[at + i])} << 8 * (big ? n - 1 - i : i);
    return v;
  };
  std::size_t at = 20;
  while (at < b.size()) {
    if (b[at] != 0) fail("gmon: a record that is not a histogram (tag " + std::to_string(int(b[at])) + ")");
    const std::uint64_t lo = number(at + 1, addr), hi = number(at + 1 + addr, addr);
    const std::uint64_t bins = number(at + 1 + 2 * addr, 4);
    at += 1 + 2 * addr + 4 + 4 + 15 + 1;
    const std::uint64_t width = (hi - lo) / bins;
    for (std::uint64_t i = 0; i < bins; ++i, at += 2) {
      const std::uint64_t n = number(at, 2);
      if (n == 0) continue;
      s.total += n;
      const auto f = symbols.function_at(lo + i * width);
      s.self[f ? symbols.function(*f).name : "[unknown]"] += n;
      const auto g = symbols.function_at(lo + (i + 1) * width - 1);
      if (f != g) s.slack += n;
    }
  }
  return s;
}

int compare(const std::string& format, const Shares& ref, const Shares& got) {
  int bad = 0;
  auto say = [&](const std::string& what) {
    if (bad++ < 12) std::cout << "  " << format << ": " << what << '\n';
  };
  if (got.total != ref.total) say("total " + std::to_string(got.total) + ", json says " + std::to_string(ref.total));
  auto maps = [&](const char* kind, const std::map<std::string, std::uint64_t>& r,
                  const std::map<std::string, std::uint64_t>& g) {
    for (const auto& [name, n] : r) {
      const auto it = g.find(name);
      const std::uint64_t v = it == g.end() ? 0 : it->second;
      if ((v > n ? v - n : n - v) > got.slack) say(std::string(kind) + " of '" + name + "': " + std::to_string(v) + ", json says " + std::to_string(n));
    }
    for (const auto& [name, n] : g)
      if (!r.count(name) && n > got.slack) say(std::string(kind) + " of '" + name + "': " + std::to_string(n) + ", json has none");
  };
  if (got.has_self) maps("self", ref.self, got.self);
  if (got.has_inclusive) {
    std::map<std::string, std::uint64_t> r = ref.inclusive;
    // A "[unwind stopped: ...]" frame, and a --root frame ("[task NAME]", "[no task]", "[core N]"),
    // has no code: no fn= of its own there.
    const auto no_code = [](const std::string& name) {
      return name.rfind("[unwind stopped", 0) == 0 || name.rfind("[task ", 0) == 0 || name == "[no task]" ||
             name.rfind("[core ", 0) == 0;
    };
    if (format == "callgrind")
      for (auto it = r.begin(); it != r.end();) it = no_code(it->first) ? r.erase(it) : ++it;
    maps("inclusive", r, got.inclusive);
  }
  std::cout << (bad ? "MISMATCH " : "ok       ") << format << " (" << got.total << " samples, " << got.self.size()
            << " functions with self samples" << (got.has_inclusive ? ", inclusive too" : "")
            << (got.slack ? ", " + std::to_string(got.slack) + " in bins two functions share" : "") << ")\n";
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: pmukit_format_consistency PMUKIT ELF DUMP SCRATCH_FOLDER [REPORT_OPTION...]\n";
    return 2;
  }
  tool = argv[1];
  elf = argv[2];
  dump = argv[3];
  scratch = argv[4];
  bool inlined = false;
  for (int i = 5; i < argc; ++i) {
    const std::string o = argv[i];
    if (o.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
      std::cerr << "format_consistency: an option with more than letters, digits and '-': " << o << '\n';
      return 2;
    }
    options += " " + o;
    inlined |= o == "--inline";
  }
  const Shares ref = json();
  int bad = 0;
  bad += compare("table", ref, text_table("table"));
  bad += compare("flat", ref, text_table("flat"));
  bad += compare("csv", ref, csv());
  bad += compare("callgraph", ref, callgraph());
  bad += compare("flat --sort line", ref, sorted_flat("line"));
  bad += compare("flat --sort address", ref, sorted_flat("address"));
  bad += compare("flat --sort caller", ref, sorted_flat("caller"));
  bad += compare("callgraph -g caller", ref, call_tree(false));
  bad += compare("callgraph -g callee", ref, call_tree(true));
  bad += compare("folded", ref, folded());
  bad += compare("svg", ref, flame("svg"));
  bad += compare("html", ref, flame("html"));
  bad += compare("callgrind", ref, callgrind());
  bad += compare("pprof", ref, pprof());
  if (inlined)  // refused: gprof gives each address to its symbol, so it cannot name inlined functions
    std::cout << "skipped  gmon (--inline)\n";
  else
    bad += compare("gmon", ref, gmon());
  return bad == 0 ? 0 : 1;
}
