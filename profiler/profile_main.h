/* One call around a program: the board's entry (examples/<board>/board/profile_entry.cpp, linked by
 * pmukit_add_firmware(... PROFILE)) sets up the board, counts the PMU's cycles and instructions
 * where it has them, runs the program as one region ("main"), samples it (PMU overflow interrupt
 * where the PMU has one that works, the board's timer otherwise) with a copy of the stack where
 * the board can say the interrupted stack pointer, and writes the dump as text frames on the
 * console. Where the PMU counts nothing (QEMU's e500, MIPS and NetBurst models) the run is still
 * the region "main", with no counter, sampled by the timer, and the console says so. The same on
 * every board; the program's own regions use the C API
 * (profiler/c_api.h: pmukit_region_name, pmukit_region_begin, pmukit_region_end).
 *
 *   int run(void) { ... }                  // the program, as it was
 *   PMUKIT_PROFILE_MAIN(run)                // defines main()
 *
 * or, keeping the program's own main(): pmukit_add_firmware(... PROFILE) links main through
 * -Wl,--wrap=main to the entry (docs/your-program.md). Returns run's value (the image's exit
 * status). */
#ifndef PMUKIT_PROFILE_MAIN_H
#define PMUKIT_PROFILE_MAIN_H

#include <stdint.h>

#include "profiler/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint64_t pmu_period; /* events of the sampled counter between samples; 0: 10000 */
  int no_stacks;       /* 1: no stack capture */
  int no_sampling;     /* 1: counters and regions only */
} pmukit_profile_options;

int pmukit_profile_main(int (*run)(void));
int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* options);

#ifdef __cplusplus
}
#define PMUKIT_PROFILE_MAIN_LINKAGE extern "C"
#else
#define PMUKIT_PROFILE_MAIN_LINKAGE
#endif

/* main() for a program whose entry is `int run(void)`. */
#define PMUKIT_PROFILE_MAIN(run) \
  PMUKIT_PROFILE_MAIN_LINKAGE int main(void) { return pmukit_profile_main(run); }

#ifdef __cplusplus
namespace pmukit {
inline int profile_main(int (*run)(), const pmukit_profile_options& options = {}) {
  return pmukit_profile_main_with(run, &options);
}
}  // namespace pmukit
#endif

#endif /* PMUKIT_PROFILE_MAIN_H */
