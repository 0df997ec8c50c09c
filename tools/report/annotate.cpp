#include "tools/report/annotate.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>

#include "tools/report/run_program.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

// The shared percent(), blank for no samples (so the hot lines stand out).
std::string share(std::uint64_t n, std::uint64_t total) { return total == 0 || n == 0 ? "" : percent(n, total) + "%"; }

// The lines of a source file the DWARF names, if it is a regular file of at most 16 MiB (none
// otherwise): any path can be named there, a FIFO (opening it would wait for a writer) or a device
// (/dev/zero never ends) among them.
std::vector<std::string> source_lines(const std::string& path) {
  constexpr off_t kMaxBytes = off_t{16} << 20;
  std::vector<std::string> lines;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxBytes) return lines;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return lines;
  std::string text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {  // what was opened, if it changed since
    char buf[1 << 16];
    for (ssize_t n; text.size() < static_cast<std::size_t>(kMaxBytes) && (n = ::read(fd, buf, sizeof buf)) > 0;)
      text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The text of a source line, where the file is readable from here ("" otherwise).
class Sources {
 public:
  const std::string& line(const std::string& file, unsigned n) {
    auto [it, fresh] = files_.try_emplace(file);
    if (fresh) it->second = source_lines(file);
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
  for (const char* n : names)
    if (std::string found = find_on_path(n); !found.empty()) return found;
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
