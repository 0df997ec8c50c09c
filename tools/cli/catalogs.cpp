#include "tools/cli/catalogs.hpp"

#include "profiler/catalog.hpp"

namespace pmukit {

std::span<const pmu::PmuCatalog> builtin_catalogs() { return pmu::catalogs; }

}  // namespace pmukit
