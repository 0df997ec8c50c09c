#include "tools/report/annotate.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

// The shared percent(), blank for no samples (so the hot lines stand out).
std::string share(std::uint64_t n, std::uint64_t total) { return total == 0 || n == 0 ? "" : percent(n, total) + "%"; }

// The text of a source line, where the file is readable from here ("" otherwise).
class Sources {
 public:
  const std::string& line(const std::string& file, unsigned n) {
    auto [it, fresh] = files_.try_emplace(file);
    if (fresh) {
      std::ifstream in(file);
      for (std::string l; std::getline(in, l);) it->second.push_back(l);
    }
    static const std::string kNone;
    return n >= 1 && n <= it->second.size() ? it->second[n - 1] : kNone;
  }

 private:
  std::map<std::string, std::vector<std::string>> files_;
};

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a);
}

}  // namespace

std::vector<DisassembledInstruction> parse_objdump(const std::string& text) {
  std::vector<DisassembledInstruction> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    // "  400160:\taddiu\tsp,sp,-8": spaces, hex address, ':', a tab, the instruction.
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos || colon + 1 >= line.size() || line[colon + 1] != '\t') continue;
    const std::string addr = trim(line.substr(0, colon));
    if (addr.empty() || addr.find_first_not_of("0123456789abcdef") != std::string::npos) continue;
    std::string insn = line.substr(colon + 2);
    for (char& c : insn)
      if (c == '\t') c = ' ';
    out.push_back({std::strtoull(addr.c_str(), nullptr, 16), trim(insn)});
  }
  return out;
}

std::string objdump_for(unsigned elf_machine) {
  std::vector<const char*> names;
  switch (elf_machine) {
    case 40: names = {"arm-none-eabi-objdump", "arm-linux-gnueabihf-objdump", "arm-linux-gnueabi-objdump"}; break;
    case 8: names = {"mips-linux-gnu-objdump", "mipsel-linux-gnu-objdump", "mips64-linux-gnuabi64-objdump"}; break;
    case 20: names = {"powerpc-linux-gnu-objdump"}; break;
    case 3: names = {"i686-linux-gnu-objdump", "x86_64-linux-gnu-objdump", "objdump"}; break;
    case 62: names = {"x86_64-linux-gnu-objdump", "objdump"}; break;
    default: break;
  }
  const char* path = std::getenv("PATH");
  for (const char* n : names) {
    std::istringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
      const std::string candidate = (d.empty() ? "." : d) + "/" + n;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  return "";
}

void write_annotation(std::ostream& os, const Profile& profile, const SymbolTable& symbols,
                      const Function& function, const std::vector<DisassembledInstruction>& code) {
  std::uint64_t in_function = 0;
  std::map<std::uint32_t, std::uint64_t> per_line;  // line id -> samples
  auto samples_at = [&](std::uint64_t pc) -> std::uint64_t {
    const auto it = profile.pc_self.find(pc);
    return it == profile.pc_self.end() ? 0 : it->second.count;
  };
  for (const auto& [pc, c] : profile.pc_self)
    if (pc >= function.lo && pc < function.hi) {
      in_function += c.count;
      per_line[c.line] += c.count;
    }
  os << "\nFunction " << printable(function.name) << "  [" << hex(function.lo) << ", " << hex(function.hi) << "): " << in_function
     << " samples";
  if (profile.total != 0) os << " (" << share(in_function, profile.total) << " of " << profile.total << ")";
  os << "\n  samples  percent  line / address: instruction\n";
  Sources sources;
  std::optional<std::uint32_t> current;
  std::uint64_t shown = 0;
  for (const DisassembledInstruction& i : code) {
    const std::optional<std::uint32_t> line = symbols.line_at(i.address);
    if (line && line != current) {
      const SourceLine& l = symbols.line(*line);
      const std::string& file = symbols.file(l.file);
      const std::uint64_t n = per_line.count(*line) ? per_line[*line] : 0;
      char head[40];
      std::snprintf(head, sizeof head, "%9s %8s", n ? std::to_string(n).c_str() : "", share(n, in_function).c_str());
      os << head << "  " << printable(file) << ':' << l.line;
      const std::string& text = sources.line(file, l.line);
      if (!text.empty()) os << "  " << printable(trim(text));
      os << '\n';
      current = line;
    }
    const std::uint64_t n = samples_at(i.address);
    shown += n;
    char cell[40];
    std::snprintf(cell, sizeof cell, "%9s %8s", n ? std::to_string(n).c_str() : "", share(n, in_function).c_str());
    os << cell << "      " << hex(i.address) << ": " << printable(i.text) << '\n';
  }
  if (shown != in_function)
    os << "  (" << in_function - shown << " samples at addresses objdump did not list as instructions)\n";
}

}  // namespace pmukit
