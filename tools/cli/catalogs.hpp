#pragma once
// The PMU catalogs built into this pmukit (profiler/catalog.hpp, when the tree has it).
#include <span>

#include "hal/core/event.hpp"

namespace pmukit {

std::span<const pmu::PmuCatalog> builtin_catalogs();

}  // namespace pmukit
