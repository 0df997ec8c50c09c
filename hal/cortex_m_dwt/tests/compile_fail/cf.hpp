#pragma once
// Shared by the DWT must-fail cases: the register map and the driver on a mock bus.
#include "hal/core/bus/mock.hpp"
#include "hal/core/reg.hpp"
#include "hal/cortex_m_dwt/driver.hpp"
#include "hal/cortex_m_dwt/regs.hpp"

namespace dwt = pmu::cortex_m_dwt;
using Bus = pmu::MockBus<struct MustFailTag>;
using R = pmu::Regs<Bus>;
using D = dwt::Driver<Bus>;
