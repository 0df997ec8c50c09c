#pragma once
// Include in exactly one firmware translation unit: defines the C entry point that exception
// handlers call to ask whether a fault was expected (see fault.hpp).
#include "hal/core/fault.hpp"

extern "C" bool pmu_fault_catch() { return pmu::fault::raise(); }
