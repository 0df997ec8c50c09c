#pragma once
// Shared by the e500 must-fail cases: the register map and a register engine on a mock bus.
#include "hal/core/bus/mock.hpp"
#include "hal/core/reg.hpp"
#include "hal/e500/regs.hpp"

namespace e5 = pmu::e500;
using R = pmu::Regs<pmu::MockBus<struct MustFailTag>>;
