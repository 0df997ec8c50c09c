#pragma once
#define PMUKIT_C_API_IMPL_INCLUDED 1
// Definitions of the C API (profiler/c_api.h) for the backend the including file names:
//   using pmukit_backend = pmu::xscale::Xsc2<pmu::Cp14Bus>;
//   #include "profiler/c_api_impl.hpp"
// Include it in exactly one C++ translation unit of a firmware image.
#include <type_traits>

#include "profiler/c_api.h"
#include "profiler/dump/debugger_capture.hpp"
#include "profiler/emit.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"
#include "profiler/stack.hpp"

static_assert(static_cast<int>(PMUKIT_BUSY) == static_cast<int>(pmu::Status::busy) &&
                  static_cast<int>(PMUKIT_UNSUPPORTED_CORE) == static_cast<int>(pmu::Status::unsupported_core) &&
                  static_cast<int>(PMUKIT_NO_FREE_COUNTER) ==
                      static_cast<int>(pmu::Status::no_free_counter),
              "C status codes must match pmu::Status");
static_assert(static_cast<int>(PMUKIT_STALL_CYCLES) == static_cast<int>(pmu::Preset::stall_cycles) &&
                  static_cast<int>(PMUKIT_DCACHE_MISSES) ==
                      static_cast<int>(pmu::Preset::dcache_misses),
              "C presets must match pmu::Preset");

namespace pmukit_c {
using B = ::pmukit_backend;
using Ring = prof::SampleRing<PMUKIT_SAMPLE_RING>;

// The regions' statistics: the user's PMUKIT_MAX_REGIONS, then the whole run's
// (profiler/profile_main_impl.hpp), which no C region number reaches.
inline constexpr unsigned kRunRegion = PMUKIT_MAX_REGIONS;
#if PMUKIT_STACK_RING > 0
using Stacks = prof::StackRing<PMUKIT_STACK_RING, PMUKIT_STACK_BYTES>;
inline Stacks stacks;
#endif
// Where the sampler records: one sample per interrupt (docs/dump-format.md). Given the whole
// interrupted context (on_*(StackContext)) and while stack capture is on, into the stack ring
// while it has room, else the plain ring; given pc and lr, the plain ring.
struct SampleSink {
  Ring& ring;
  bool with_stacks = false;
  bool record(std::uint32_t pc, std::uint32_t lr) { return ring.record(pc, lr); }
  bool record(const prof::StackContext& at) {
#if PMUKIT_STACK_RING > 0
    if (with_stacks && stacks.size() < Stacks::kCapacity && stacks.record(at)) return true;
#endif
    return ring.record(at.pc, at.lr);
  }
};
struct State {
  prof::Profiler<B> profiler;
  prof::Regions<B> regions{profiler};
  prof::RegionStats<B> stats[PMUKIT_MAX_REGIONS + 1];
  prof::Regions<B>::Mark open[PMUKIT_MAX_REGIONS];
  bool is_open[PMUKIT_MAX_REGIONS] = {};
  Ring ring;
  SampleSink sink{ring};
  prof::Sampler<B, SampleSink> sampler{profiler, sink};
};
inline State state;

inline pmukit_status c(pmu::Status s) { return static_cast<pmukit_status>(s); }
inline bool handle_ok(pmukit_counter h) {
  return h >= 0 && static_cast<unsigned>(h) < prof::Profiler<B>::kMaxCounters;
}
inline prof::Counter counter(pmukit_counter h) {
  return handle_ok(h) ? prof::Counter{static_cast<std::uint8_t>(h)} : prof::Counter{};
}
inline pmukit_status out(pmu::Status s, prof::Counter k, pmukit_counter* o) {
  if (o) *o = s == pmu::Status::ok ? k.index : -1;
  return c(s);
}

struct WriteFn {
  pmukit_write_fn fn;
  void* ctx;
  static bool put(void* self, const std::uint8_t* bytes, std::size_t n) {
    auto* w = static_cast<WriteFn*>(self);
    return w->fn(w->ctx, bytes, n) == 1;
  }
};

// source: where the samples came from, when the caller knows better than the sampler's armed
// slots (a PMU sampler already disarmed); nullptr: the armed slot, else the timer.
inline pmukit_status dump(const char* target, std::uint64_t hz, std::uint64_t timer_ns, pmu::dump::Sink sink,
                          const prof::DumpSamples* known_source = nullptr) {
  if (target == nullptr) return PMUKIT_BAD_ARGUMENT;
  prof::RegionStats<B>* named[std::extent_v<decltype(state.stats)>];  // the user's regions and the run's
  std::size_t n = 0;
  for (auto& s : state.stats)
    if (s.calls != 0 || (s.name != nullptr && s.name[0] != '\0')) named[n++] = &s;
  prof::DumpSamples source{pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter, timer_ns};
  const std::uint32_t armed = state.sampler.armed_slots();
  if (armed != 0) {
    const unsigned slot = static_cast<unsigned>(__builtin_ctz(armed));
    source = {pmu::dump::SampleSourceKind::pmu_overflow, static_cast<std::uint8_t>(slot), state.sampler.period(slot)};
  }
  if (known_source != nullptr) source = *known_source;
  const bool samples = armed != 0 || state.ring.recorded() != 0 || state.ring.dropped() != 0;
  prof::DumpExtras extras{};
#if PMUKIT_STACK_RING > 0
  const prof::StackView view = prof::StackView::of(stacks);
  if (view.count != 0 || view.dropped != 0) extras.stacks = &view;
#endif
  pmu::dump::Writer w{sink};
  const auto st = prof::write_dump(w, {target, hz}, state.profiler, state.regions, named, n,
                                   samples ? &source : nullptr, samples ? &state.ring : nullptr, extras);
  return st == pmu::dump::Status::ok ? PMUKIT_OK : PMUKIT_DUMP_FAILED;
}
}  // namespace pmukit_c

#ifndef PMUKIT_DUMP_BUFFER_BYTES
#define PMUKIT_DUMP_BUFFER_BYTES 16384
#endif
PMUKIT_DEFINE_DEBUGGER_CAPTURE(PMUKIT_DUMP_BUFFER_BYTES)

extern "C" {
const char* pmukit_status_name(pmukit_status s) {
  if (s == PMUKIT_DUMP_FAILED) return "dump not written";
  return pmu::status_name(static_cast<pmu::Status>(s));
}
pmukit_status pmukit_probe(uint32_t* working) {
  const pmu::ProbeResult r = pmukit_c::state.profiler.probe();
  if (working) *working = r.working_slots;
  return pmukit_c::c(r.status);
}
pmukit_status pmukit_add_preset(pmukit_preset p, pmukit_counter* o) {
  if (p < PMUKIT_CYCLES || p > PMUKIT_STALL_CYCLES) return pmukit_c::out(pmu::Status::bad_argument, {}, o);
  prof::Counter k;
  return pmukit_c::out(pmukit_c::state.profiler.add(static_cast<pmu::Preset>(p), k), k, o);
}
pmukit_status pmukit_add_event(uint32_t code, uint32_t qualifier, uint32_t options, pmukit_counter* o) {
  prof::Counter k;
  return pmukit_c::out(pmukit_c::state.profiler.add(pmu::EventConfig{code, qualifier, options}, k), k, o);
}
pmukit_status pmukit_link(pmukit_counter lo, pmukit_counter hi) {
  return pmukit_c::c(pmukit_c::state.profiler.link(pmukit_c::counter(lo), pmukit_c::counter(hi)));
}
void pmukit_start(void) { pmukit_c::state.profiler.start(); }
void pmukit_stop(void) { pmukit_c::state.profiler.stop(); }
void pmukit_reset(void) { pmukit_c::state.profiler.reset(); }
uint64_t pmukit_read(pmukit_counter h) { return pmukit_c::state.profiler.read(pmukit_c::counter(h)); }
void pmukit_fold(void) { pmukit_c::state.profiler.fold(); }

void pmukit_calibrate(void) {
  pmukit_c::state.regions.calibrate();
  pmukit_c::state.regions.calibrate_calls();  // the C API's regions: begin(Mark&)/end()
}
pmukit_status pmukit_region_name(unsigned id, const char* name) {
  if (id >= PMUKIT_MAX_REGIONS || !name) return PMUKIT_BAD_ARGUMENT;
  pmukit_c::state.stats[id].name = name;
  return PMUKIT_OK;
}
pmukit_status pmukit_region_begin(unsigned id) {
  if (id >= PMUKIT_MAX_REGIONS) return PMUKIT_BAD_ARGUMENT;
  if (pmukit_c::state.is_open[id]) return PMUKIT_BUSY;
  pmukit_c::state.is_open[id] = true;
  pmukit_c::state.regions.begin(pmukit_c::state.open[id]);  // its first reads the last thing it does
  return PMUKIT_OK;
}
pmukit_status pmukit_region_end(unsigned id) {
  if (id >= PMUKIT_MAX_REGIONS || !pmukit_c::state.is_open[id]) return PMUKIT_BAD_ARGUMENT;
  pmukit_c::state.regions.end(pmukit_c::state.open[id], pmukit_c::state.stats[id]);
  pmukit_c::state.is_open[id] = false;
  return PMUKIT_OK;
}
uint64_t pmukit_region_calls(unsigned id) {
  return id < PMUKIT_MAX_REGIONS ? pmukit_c::state.stats[id].calls : 0;
}
uint64_t pmukit_region_total(unsigned id, pmukit_counter h) {
  if (id >= PMUKIT_MAX_REGIONS || !pmukit_c::handle_ok(h)) return 0;
  return pmukit_c::state.stats[id].total[h];
}

pmukit_status pmukit_sample_arm(pmukit_counter h, uint64_t period) {
  if (!pmukit_c::handle_ok(h)) return PMUKIT_BAD_ARGUMENT;
  return pmukit_c::c(pmukit_c::state.sampler.arm(pmukit_c::counter(h), period));
}
void pmukit_on_pmu_interrupt(uint32_t pc, uint32_t lr) { pmukit_c::state.sampler.on_pmu_interrupt(pc, lr); }
void pmukit_on_timer_tick(uint32_t pc, uint32_t lr) { pmukit_c::state.sampler.on_timer_tick(pc, lr); }
int pmukit_sample_pop(uint32_t* pc, uint32_t* lr) {
  prof::Sample s;
  if (!pmukit_c::state.ring.pop(s)) return 0;
  if (pc) *pc = s.pc;
  if (lr) *lr = s.lr;
  return 1;
}
uint64_t pmukit_samples_dropped(void) { return pmukit_c::state.ring.dropped(); }

#if PMUKIT_STACK_RING > 0
void pmukit_stack_set_top(uintptr_t top) { pmukit_c::stacks.set_stack_top(top); }
pmukit_status pmukit_stack_record(uint32_t pc, uint32_t lr, uint32_t sp, uint32_t fp) {
  return pmukit_c::stacks.record(prof::StackContext{pc, lr, sp, fp}) ? PMUKIT_OK : PMUKIT_BUSY;
}
size_t pmukit_stacks_recorded(void) { return pmukit_c::stacks.size(); }
uint64_t pmukit_stacks_dropped(void) { return pmukit_c::stacks.dropped(); }
#else
void pmukit_stack_set_top(uintptr_t) {}
pmukit_status pmukit_stack_record(uint32_t, uint32_t, uint32_t, uint32_t) { return PMUKIT_BAD_ARGUMENT; }
size_t pmukit_stacks_recorded(void) { return 0; }
uint64_t pmukit_stacks_dropped(void) { return 0; }
#endif

pmukit_status pmukit_write_dump(const char* target_id, uint64_t counter_hz, uint64_t timer_period_ns,
                                pmukit_write_fn write, void* ctx) {
  if (write == nullptr) return PMUKIT_BAD_ARGUMENT;
  pmukit_c::WriteFn w{write, ctx};
  return pmukit_c::dump(target_id, counter_hz, timer_period_ns, pmu::dump::Sink{&pmukit_c::WriteFn::put, &w});
}
pmukit_status pmukit_dump_to_debugger(const char* target_id, uint64_t counter_hz, uint64_t timer_period_ns) {
  pmu::dump::DebuggerCaptureSink cap;
  return pmukit_c::dump(target_id, counter_hz, timer_period_ns, cap.sink());
}
}
