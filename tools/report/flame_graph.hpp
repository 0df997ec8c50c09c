#pragma once
// An SVG flame graph of the folded stacks: root at the bottom, each frame as wide as its samples,
// children in name order, a <title> tooltip per frame; click to zoom into a frame, "Search" to
// colour the frames a regular expression matches. One inline script, no fonts or external
// resources: the file alone is the whole graph.
#include <ostream>

#include "tools/report/formats.hpp"

namespace pmukit {

// standalone: with the XML declaration and namespace (for an .svg file); otherwise for inlining
// into HTML.
void write_flame_graph(std::ostream& os, const ReportInput& in, bool standalone);

}  // namespace pmukit
