#pragma once
// `pprof`: the samples as a pprof profile (protocol buffers, tools/pprof/profile.proto, encoded
// here as protobuf's serializer would, byte for byte; the tests parse it with Debian's protobuf
// library), for `pprof -top`, `pprof -http`, speedscope and the other tools that read it. Host
// tool only, as the library the tests need is.
#include <ostream>

#include "tools/report/formats.hpp"

namespace pmukit {

void write_pprof(std::ostream& os, const ReportInput& in);

}  // namespace pmukit
