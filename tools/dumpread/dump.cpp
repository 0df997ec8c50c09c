#include "tools/dumpread/dump.hpp"

#include "profiler/dump/format.hpp"

namespace pmukit {

std::uint64_t Dump::total_samples() const {
  std::uint64_t n = sample_records;
  for (const HistogramBin& b : histogram) n += b.count;
  return n;
}

std::string Dump::task_name(std::uint16_t id) const {
  if (id == kNoTask) return "[no task]";
  if (tasks)
    for (const Task& t : *tasks)
      if (t.id == id) return t.name;
  return "task " + std::to_string(id);
}

const char* source_kind_name(unsigned kind) {
  switch (static_cast<pmu::dump::SampleSourceKind>(kind)) {
    case pmu::dump::SampleSourceKind::pmu_overflow: return "pmu-overflow";
    case pmu::dump::SampleSourceKind::timer: return "timer";
  }
  return "unknown";
}

}  // namespace pmukit
