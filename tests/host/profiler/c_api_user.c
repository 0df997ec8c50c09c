/* Plain C, compiled as C: what a C firmware writes against the facade. */
#include "profiler/c_api.h"

/* Adds cycles and a preset the test PMU lacks; returns the second add's status. */
int c_user_setup(pmukit_counter* cycles) {
  if (pmukit_add_preset(PMUKIT_CYCLES, cycles) != PMUKIT_OK) return -1;
  pmukit_counter tlb;
  return (int)pmukit_add_preset(PMUKIT_TLB_MISSES, &tlb);
}

int c_user_region(unsigned id, void (*work)(void)) {
  if (pmukit_region_begin(id) != PMUKIT_OK) return -1;
  work();
  return (int)pmukit_region_end(id);
}
