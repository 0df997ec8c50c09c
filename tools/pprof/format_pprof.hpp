#pragma once
// `pprof`: the samples as a pprof profile (protocol buffers, tools/pprof/profile.proto, written
// with Debian's protobuf library), for `pprof -top`, `pprof -http`, speedscope and the other tools
// that read it. Host tool only: the library is not there for the cross builds of tools/report.
#include <ostream>

#include "tools/report/formats.hpp"

namespace pmukit {

void write_pprof(std::ostream& os, const ReportInput& in);

}  // namespace pmukit
