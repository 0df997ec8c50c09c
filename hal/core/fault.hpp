#pragma once
// Catching a trapping PMU access at run time.
//
// Some cores (and emulators) implement only part of a PMU: an MRC to a missing CP14 register is an
// undefined instruction, an mfpmr on a core without the APU is a program interrupt. Drivers probe for
// that with pmu::fault::traps(), and the board's exception handler cooperates through one C function:
//
//   extern "C" bool pmu_fault_catch();   // true: the fault was expected; skip the instruction
//
// The handler calls it first; when it returns true the handler resumes at the next instruction
// (ARM undef: return to LR_und; e500 program: SRR0 + 4). The skipped access leaves its destination
// register unspecified, which is why a caller must check traps() before trusting the value.
// The mock bus raises the same way through pmu::fault::raise(), so probes run in host tests too.
#include "hal/core/bus/barrier.hpp"
#include <cstdint>

namespace pmu::fault {

struct State {
  volatile std::uint32_t armed = 0;   // non-zero while a probe is running
  volatile std::uint32_t caught = 0;  // faults caught while armed (whole program)
};
inline State state{};

// Called by the board's exception handler (through pmu_fault_catch) or by a mock model.
inline bool raise() {
  if (!state.armed) return false;
  state.caught = state.caught + 1;
  return true;
}

// Runs f() with fault catching armed; true when any access inside it trapped.
template <class F>
inline bool traps(F&& f) {
  const std::uint32_t before = state.caught;
  state.armed = 1;
  pmu::compiler_barrier();  // keep the accesses inside the armed window
  f();
  pmu::compiler_barrier();
  state.armed = 0;
  return state.caught != before;
}

}  // namespace pmu::fault

// The one symbol board exception handlers call. Declared here, defined by including
// "hal/core/fault_catch.hpp" in exactly one translation unit of a firmware image.
extern "C" bool pmu_fault_catch();
