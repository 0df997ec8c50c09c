#pragma once
// The PMU catalogs built into this pmukit: every PMU registered in hal/pmus.cmake.
#include <span>

#include "hal/core/event.hpp"

namespace pmukit {

std::span<const pmu::PmuCatalog> builtin_catalogs();

}  // namespace pmukit
