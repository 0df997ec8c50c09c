#pragma once
// Shared by the MIPS CM must-fail cases: the register map and a register engine on a mock bus.
#include "hal/core/bus/mock.hpp"
#include "hal/core/reg.hpp"
#include "hal/mips_cps/regs.hpp"

namespace cm = pmu::mips_cps;
using R = pmu::Regs<pmu::MockBus<struct MustFailTag>>;
