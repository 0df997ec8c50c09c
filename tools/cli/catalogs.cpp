#include "tools/cli/catalogs.hpp"

#include "pmukit_catalogs.hpp"  // generated from hal/pmus.cmake (cmake/PmuKit.cmake)

namespace pmukit {

std::span<const pmu::PmuCatalog> builtin_catalogs() { return pmu::registered_catalogs; }

}  // namespace pmukit
