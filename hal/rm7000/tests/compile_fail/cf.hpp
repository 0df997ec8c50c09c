#pragma once
// Shared by the RM7000 must-fail cases: the register map and a register engine on a mock bus.
#include "hal/core/bus/mock.hpp"
#include "hal/core/reg.hpp"
#include "hal/rm7000/regs.hpp"

namespace rm = pmu::rm7000;
using R = pmu::Regs<pmu::MockBus<struct MustFailTag>>;
