/* C API for C firmware: the same profiler, bound to one PMU backend per firmware image.
 *
 * In exactly one C++ file of the firmware, name the backend and include the implementation:
 *     using pmukit_backend = pmu::xscale::Xsc2<pmu::Cp14Bus>;
 *     #include "profiler/c_api_impl.hpp"
 * then call these functions from C. Every function that can fail returns a pmukit_status;
 * nothing allocates, nothing aborts. */
#ifndef PMUKIT_C_API_H
#define PMUKIT_C_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Same values as pmu::Status, and one of the C API's own. */
typedef enum {
  PMUKIT_OK = 0,
  PMUKIT_UNSUPPORTED_EVENT,
  PMUKIT_NO_FREE_COUNTER,
  PMUKIT_COUNTER_UNAVAILABLE,
  PMUKIT_PMU_ABSENT,
  PMUKIT_BAD_ARGUMENT,
  PMUKIT_NOT_LINKABLE,
  PMUKIT_BUSY,
  PMUKIT_UNSUPPORTED_CORE,
  PMUKIT_DUMP_FAILED = 16 /* the dump's sink refused bytes, or it did not fit the buffer */
} pmukit_status;

/* Same values as pmu::Preset. */
typedef enum {
  PMUKIT_CYCLES = 0,
  PMUKIT_INSTRUCTIONS,
  PMUKIT_DCACHE_MISSES,
  PMUKIT_ICACHE_MISSES,
  PMUKIT_BRANCH_MISPREDICTS,
  PMUKIT_BRANCHES,
  PMUKIT_TLB_MISSES,
  PMUKIT_STALL_CYCLES
} pmukit_preset;

typedef int pmukit_counter; /* handle from pmukit_add_*; -1 = none */

/* Sizes, set by the user for the C++ file that includes profiler/c_api_impl.hpp (e.g.
 * -DPMUKIT_SAMPLE_RING=4096u; pmukit_add_firmware's SAMPLE_RING, STACK_RING, STACK_BYTES and
 * MAX_REGIONS options pass them to the whole image). The ring sizes are powers of two. */
#ifndef PMUKIT_MAX_REGIONS
#define PMUKIT_MAX_REGIONS 16u
#endif
#ifndef PMUKIT_SAMPLE_RING
#define PMUKIT_SAMPLE_RING 1024u
#endif
/* Stack capture: a ring of PMUKIT_STACK_RING samples, each with PMUKIT_STACK_BYTES of the
 * interrupted stack (profiler/stack.hpp), unwound by `pmukit report`; 0: no ring, and
 * pmukit_stack_record() refuses. */
#ifndef PMUKIT_STACK_RING
#define PMUKIT_STACK_RING 0u
#endif
#ifndef PMUKIT_STACK_BYTES
#define PMUKIT_STACK_BYTES 512u
#endif

const char* pmukit_status_name(pmukit_status s);
pmukit_status pmukit_probe(uint32_t* working_slots);
pmukit_status pmukit_add_preset(pmukit_preset p, pmukit_counter* out);
pmukit_status pmukit_add_event(uint32_t code, uint32_t qualifier, uint32_t options,
                               pmukit_counter* out);
pmukit_status pmukit_link(pmukit_counter lo, pmukit_counter hi);
void pmukit_start(void);
void pmukit_stop(void);
void pmukit_reset(void);
uint64_t pmukit_read(pmukit_counter c);
void pmukit_fold(void);

/* Regions, by number (0 .. PMUKIT_MAX_REGIONS-1); not nestable under the same number. */
void pmukit_calibrate(void);
pmukit_status pmukit_region_name(unsigned id, const char* name);
pmukit_status pmukit_region_begin(unsigned id);
pmukit_status pmukit_region_end(unsigned id);
uint64_t pmukit_region_calls(unsigned id);
uint64_t pmukit_region_total(unsigned id, pmukit_counter c);

/* Sampling into a ring of PMUKIT_SAMPLE_RING samples. */
pmukit_status pmukit_sample_arm(pmukit_counter c, uint64_t period);
void pmukit_on_pmu_interrupt(uint32_t pc, uint32_t lr);
void pmukit_on_timer_tick(uint32_t pc, uint32_t lr);
int pmukit_sample_pop(uint32_t* pc, uint32_t* lr); /* 1: got one, 0: empty */
uint64_t pmukit_samples_dropped(void);

/* Stack capture, from the sampling interrupt: the interrupted pc, lr, stack pointer and frame
 * pointer (the board says them: board::interrupted_stack). The copy never reads at or above the
 * stack's top (its first address above the stack; 0: no limit). PMUKIT_BAD_ARGUMENT when the
 * image has no ring (PMUKIT_STACK_RING 0), PMUKIT_BUSY when the ring is full (counted). The
 * dump carries the ring (its STACKS chunk) and consumes it. */
void pmukit_stack_set_top(uintptr_t top);
pmukit_status pmukit_stack_record(uint32_t pc, uint32_t lr, uint32_t sp, uint32_t fp);
size_t pmukit_stacks_recorded(void); /* in the ring now */
uint64_t pmukit_stacks_dropped(void);

/* The dump (docs/capture.md): the counters, the named regions and the ring's samples, which it
 * consumes. write() gets the bytes in order and returns 1 when it took them (0 stops the dump).
 * The samples' source: the armed counter and its period, else the timer at timer_period_ns
 * (0: unknown). Thread context only. */
typedef int (*pmukit_write_fn)(void* ctx, const uint8_t* bytes, size_t size);
pmukit_status pmukit_write_dump(const char* target_id, uint64_t counter_hz, uint64_t timer_period_ns,
                                pmukit_write_fn write, void* ctx);
/* The same into pmukit_dump_buffer, for a debugger to copy out once pmukit_dump_ready() is
 * reached (PMUKIT_DUMP_BUFFER_BYTES, default 16384; docs/capture.md has the GDB and OpenOCD
 * commands). */
pmukit_status pmukit_dump_to_debugger(const char* target_id, uint64_t counter_hz, uint64_t timer_period_ns);
#ifdef __cplusplus
}
#endif
#endif /* PMUKIT_C_API_H */
