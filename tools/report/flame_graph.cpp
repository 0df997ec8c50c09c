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
    // data-x/-w/-l: the frame's geometry (centipixels) and level, for the zoom script.
    os_ << "<g class=\"f\" data-x=\"" << x << "\" data-w=\"" << w << "\" data-l=\"" << level << "\" data-n=\""
        << html_escape(name) << "\"><title>" << html_escape(name) << " (" << n.count << " samples, "
        << percent(n.count, total_) << "%)</title><rect x=\"" << px(x) << "\" y=\"" << px(y)
        << "\" width=\"" << px(w) << "\" height=\"" << px(kFrameHeight - 100) << "\" fill=\""
        << colour(name) << "\" rx=\"2\"/>";
    const std::uint64_t fits = w > 3 * kCharWidth ? (w - 600) / kCharWidth : 0;
    const std::string label = fits < 3 ? "" : name.size() <= fits ? name : name.substr(0, fits - 2) + "..";
    os_ << "<text x=\"" << px(x + 300) << "\" y=\"" << px(y + kFrameHeight - 500) << "\">" << html_escape(label)
        << "</text>";
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

// Click a frame: it fills the width, its descendants follow, its ancestors span it, the rest hide.
// "Reset zoom" undoes it; "Search" asks for a regular expression and colours the matching frames,
// with the share of the samples they hold. Plain DOM calls: the same in an .svg file and inlined
// in HTML. Self-contained (no fonts, libraries or network).
constexpr const char* kScript = R"JS(
(function () {
  var svg = document.currentScript ? document.currentScript.closest('svg') : document.querySelector('svg');
  if (!svg) svg = document.documentElement;
  var W = %WIDTH%, PAD = %PAD%, CH = %CHAR%;
  var frames = Array.prototype.slice.call(svg.querySelectorAll('g.f'));
  function geo(g) { return { x: +g.dataset.x, w: +g.dataset.w, l: +g.dataset.l }; }
  function label(g, w) {
    var name = g.dataset.n, fits = w > 3 * CH ? Math.floor((w - 600) / CH) : 0;
    g.querySelector('text').textContent = fits < 3 ? '' : name.length <= fits ? name : name.substr(0, fits - 2) + '..';
  }
  function place(g, x, w) {
    var r = g.querySelector('rect'), t = g.querySelector('text');
    r.setAttribute('x', (x / 100).toFixed(2)); r.setAttribute('width', (w / 100).toFixed(2));
    t.setAttribute('x', ((x + 300) / 100).toFixed(2)); label(g, w);
  }
  function zoom(target) {
    var z = geo(target), scale = (W - 2 * PAD) / z.w;
    frames.forEach(function (g) {
      var f = geo(g);
      if (f.l < z.l && f.x <= z.x && f.x + f.w >= z.x + z.w) { g.style.display = ''; place(g, PAD, W - 2 * PAD); }
      else if (f.l >= z.l && f.x >= z.x && f.x + f.w <= z.x + z.w + 1) { g.style.display = ''; place(g, PAD + (f.x - z.x) * scale, f.w * scale); }
      else g.style.display = 'none';
    });
  }
  function reset() { frames.forEach(function (g) { var f = geo(g); g.style.display = ''; place(g, f.x, f.w); }); }
  frames.forEach(function (g) { g.style.cursor = 'pointer'; g.addEventListener('click', function () { zoom(g); }); });
  svg.querySelector('#fg-reset').addEventListener('click', reset);
  svg.querySelector('#fg-search').addEventListener('click', function () {
    var term = window.prompt('Search frames (a regular expression; empty clears)', '');
    if (term === null) return;
    var re = term ? new RegExp(term) : null, root = frames.length ? geo(frames[0]).w : 1;
    frames.forEach(function (g) {
      var r = g.querySelector('rect'), on = re && re.test(g.dataset.n);
      if (!r.dataset.fill) r.dataset.fill = r.getAttribute('fill');
      r.setAttribute('fill', on ? 'rgb(230,0,230)' : r.dataset.fill);
    });
    var matched = 0, spans = [];
    frames.forEach(function (g) {  // the share of the width under matching frames, overlaps once
      var f = geo(g);
      if (!re || !re.test(g.dataset.n)) return;
      if (spans.some(function (s) { return f.x >= s[0] && f.x + f.w <= s[1]; })) return;
      spans.push([f.x, f.x + f.w]); matched += f.w;
    });
    svg.querySelector('#fg-matched').textContent = re ? 'Matched: ' + (100 * matched / root).toFixed(1) + '%' : '';
  });
})();
)JS";

std::string script() {
  std::string s = kScript;
  auto put = [&](const std::string& key, std::uint64_t v) {
    for (std::size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), std::to_string(v));
  };
  put("%WIDTH%", kWidth);
  put("%PAD%", kPad);
  put("%CHAR%", kCharWidth);
  return s;
}

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
  // The controls (kScript): click a frame to zoom, these two to reset or search.
  os << "<text id=\"fg-reset\" x=\"" << px(kWidth - 30000) << "\" y=\"22\" style=\"cursor:pointer\">Reset zoom</text>"
     << "<text id=\"fg-search\" x=\"" << px(kWidth - 18000) << "\" y=\"22\" style=\"cursor:pointer\">Search</text>"
     << "<text id=\"fg-matched\" x=\"" << px(kWidth - 10000) << "\" y=\"22\"></text>\n";
  if (root.count != 0) Painter(os, root.count, height - kPad).frame("all", root, kPad, 0);
  os << "<script><![CDATA[" << script() << "]]></script>\n";
  os << "</svg>\n";
}

void write_svg(std::ostream& os, const ReportInput& in) { write_flame_graph(os, in, true); }

}  // namespace pmukit
