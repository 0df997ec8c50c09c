// `folded`: one line per stack, "outer;inner count", the input of flame graph tools.
// With raw (pc, lr) samples a stack is "caller;function" where the LR frame is trusted, else
// "function" alone (see profile.hpp for when the LR frame is kept).
#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

// ';' separates frames and a newline ends a stack: neither may appear inside a name (one_line
// escapes the newline and every other control byte).
std::string frame_name(const std::string& name) {
  std::string s = one_line(name);
  for (char& c : s)
    if (c == ';') c = ':';
  return s;
}

}  // namespace

void write_folded(std::ostream& os, const ReportInput& in) {
  for (const Profile::Stack& s : in.profile.folded()) {
    for (std::size_t i = 0; i < s.frames.size(); ++i) os << (i ? ";" : "") << frame_name(s.frames[i]);
    os << ' ' << s.count << '\n';
  }
}

}  // namespace pmukit
