#include "tools/report/flame_graph.hpp"

#include <cstdio>
#include <map>
#include <memory>

#include "tools/report/describe.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

// Geometry in hundredths of a pixel, as integers (see text_util.hpp: no floating point).
constexpr std::uint64_t kWidth = 120000, kPad = 1000, kFrameHeight = 1700, kTop = 3600;
constexpr std::uint64_t kCharWidth = 700;  // at font-size 12, monospace

std::string px(std::uint64_t centi) { return fixed_ratio(centi, 100, 2); }

struct Node {
  std::uint64_t count = 0;
  std::map<std::string, std::unique_ptr<Node>> children;  // sorted by name
};

unsigned depth_of(const Node& n) {
  unsigned d = 0;
  for (const auto& [name, child] : n.children) d = std::max(d, depth_of(*child));
  return d + 1;
}

// A warm colour that depends only on the name, so the same function looks the same everywhere.
std::string colour(const std::string& name) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 150,
                (h >> 16) % 55);
  return buf;
}

class Painter {
 public:
  Painter(std::ostream& os, std::uint64_t total, std::uint64_t bottom)
      : os_(os), total_(total), bottom_(bottom) {}

  void frame(const std::string& name, const Node& n, std::uint64_t x, unsigned level) {
    const std::uint64_t w = width(n.count);
    if (w < 10) return;  // under 0.1 pixel
    const std::uint64_t y = bottom_ - (level + 1) * kFrameHeight;
    os_ << "<g><title>" << html_escape(name) << " (" << n.count << " samples, "
        << percent(n.count, total_) << "%)</title><rect x=\"" << px(x) << "\" y=\"" << px(y)
        << "\" width=\"" << px(w) << "\" height=\"" << px(kFrameHeight - 100) << "\" fill=\""
        << colour(name) << "\" rx=\"2\"/>";
    const std::uint64_t fits = w > 3 * kCharWidth ? (w - 600) / kCharWidth : 0;
    if (fits >= 3) {
      const std::string label = name.size() <= fits ? name : name.substr(0, fits - 2) + "..";
      os_ << "<text x=\"" << px(x + 300) << "\" y=\"" << px(y + kFrameHeight - 500) << "\">"
          << html_escape(label) << "</text>";
    }
    os_ << "</g>\n";
    // Children start where their left sibling's exact (unrounded) share ends.
    std::uint64_t before = 0;
    for (const auto& [child_name, child] : n.children) {
      frame(child_name, *child, x + width(before), level + 1);
      before += child->count;
    }
  }

 private:
  // Width of `count` samples; count <= total, so the product fits for any realistic total.
  std::uint64_t width(std::uint64_t count) const {
    const std::uint64_t span = kWidth - 2 * kPad;
    return count > UINT64_MAX / span ? count / (total_ / span) : count * span / total_;
  }

  std::ostream& os_;
  std::uint64_t total_;
  std::uint64_t bottom_;
};

}  // namespace

void write_flame_graph(std::ostream& os, const ReportInput& in, bool standalone) {
  Node root;
  for (const Profile::Stack& s : in.profile.folded()) {
    Node* n = &root;
    n->count += s.count;
    for (const std::string& f : s.frames) {
      std::unique_ptr<Node>& child = n->children[f];
      if (!child) child = std::make_unique<Node>();
      n = child.get();
      n->count += s.count;
    }
  }
  const std::uint64_t height = kTop + depth_of(root) * kFrameHeight + kPad;
  if (standalone) os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<svg" << (standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "") << " width=\""
     << px(kWidth) << "\" height=\"" << px(height) << "\" viewBox=\"0 0 " << px(kWidth) << ' '
     << px(height) << "\" font-family=\"monospace\" font-size=\"12\">\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#f8f8f0\"/>\n";
  os << "<text x=\"" << px(kPad) << "\" y=\"22\" font-size=\"15\">Flame graph: "
     << html_escape(in.dump.target.id) << ", " << root.count << " samples ("
     << html_escape(describe_source(in.dump)) << ")</text>\n";
  if (root.count != 0) Painter(os, root.count, height - kPad).frame("all", root, kPad, 0);
  os << "</svg>\n";
}

void write_svg(std::ostream& os, const ReportInput& in) { write_flame_graph(os, in, true); }

}  // namespace pmukit
