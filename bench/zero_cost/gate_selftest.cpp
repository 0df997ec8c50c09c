// Self-test of the zero-cost gate (ctest zero_cost_gate_<preset>); check.py --expect-regression
// must fail every pair, or the gate cannot catch what the pair stands for:
//  gate:      the same access plus one extra instruction (ratio > 1);
//  gate_mask: the same instructions, one mask differs (a wrong constant at ratio 1.00);
//  window_region_2counters: a counter region on two counters read through per-slot readers whose
//             second reads are not nested (a, b ... a, b): the outer window would hold the inner
//             counter's reads on one side only (check.py: "the readers called are not nested");
//  window_region_call_2counters: nested, but with stores in the innermost window (more than 4)
//             and in a nested read (longer than one read);
//  window_region_calibrate_1counter: a counter region's calibrate() whose two regions have
//             different windows (a store in the second);
//  window_region_call_arg_1counter: a region around a call with an argument, with stores in the
//             window (more than calibrate()'s window and the argument's set-up).
#include <cstdint>

namespace {
inline std::uint32_t access() {
  std::uint32_t v;
#if defined(__arm__)
  asm volatile("mrc p15, 0, %0, c0, c0, 0" : "=r"(v) : : "memory");  // MIDR
#elif defined(__powerpc__)
  asm volatile("mfpmr %0, 0" : "=r"(v) : : "memory");  // UPMC0
#elif defined(__mips__)
  asm volatile("mfc0 %0, $12" : "=r"(v) : : "memory");  // Status
#elif defined(__i386__) || defined(__x86_64__)
  std::uint32_t hi;
  asm volatile("rdtsc" : "=a"(v), "=d"(hi) : : "memory");
#else
#error "no gate self-test access for this architecture"
#endif
  return v;
}
// A counter read, declared to check.py as the probes declare theirs (PMU_ZC_COUNTER_READ,
// window.hpp); never run: the object is only disassembled.
#if defined(__arm__)
#define ZC_GATE_COUNTER_READ "^mrc2? p?14,"
#elif defined(__powerpc__)
#define ZC_GATE_COUNTER_READ "^mfpmr "
#elif defined(__mips__)
#define ZC_GATE_COUNTER_READ "^mfc0 "
#else
#define ZC_GATE_COUNTER_READ "^rdpmc"
#endif
[[gnu::used, gnu::section(".pmu_zc")]] const char zc_gate_declared_read[] = "counter_read=" ZC_GATE_COUNTER_READ;
inline std::uint32_t counter() {
  std::uint32_t v;
#if defined(__arm__)
  asm volatile("mrc p14, 0, %0, c1, c0, 0" : "=r"(v) : : "memory");  // XScale CCNT
#elif defined(__powerpc__)
  asm volatile("mfpmr %0, 16" : "=r"(v) : : "memory");  // PMC0
#elif defined(__mips__)
  asm volatile("mfc0 %0, $25" : "=r"(v) : : "memory");  // PerfCount
#else
  std::uint32_t hi;
  asm volatile("rdpmc" : "=a"(v), "=d"(hi) : "c"(0) : "memory");
#endif
  return v;
}
}  // namespace

extern "C" {
std::uint32_t ours_gate(std::uint32_t x) { return (access() ^ x) + 0x5A; }
std::uint32_t hand_gate(std::uint32_t x) { return access() ^ x; }
std::uint32_t ours_gate_mask() { return access() & 0x7F0u; }
std::uint32_t hand_gate_mask() { return access() & 0x3F0u; }
}

// The readers a counter region calls through pointers (check.py counts a reader's instructions by
// the name read_slot), the region's out-of-line begin and end, and the region, not nested.
extern "C" {
using Read = std::uint32_t (*)();
[[gnu::noinline]] std::uint32_t zc_gate_read_slot_0() { return counter(); }
[[gnu::noinline]] std::uint32_t zc_gate_read_slot_1() { return counter() + 1; }
Read zc_gate_readers[2] = {&zc_gate_read_slot_0, &zc_gate_read_slot_1};
void zc_gate_anchor();
void zc_gate_finish(std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t);
void window_region_2counters() {
  const Read a = zc_gate_readers[0], b = zc_gate_readers[1];
  zc_gate_anchor();
  const std::uint32_t a1 = a(), b1 = b();
  const std::uint32_t a2 = a(), b2 = b();  // the rule broken: b's second read must come first
  zc_gate_finish(a1, b1, a2, b2);
}
}

extern "C" {
volatile std::uint32_t zc_gate_sink;
void window_region_call_2counters() {
  const Read a = zc_gate_readers[0], b = zc_gate_readers[1];
  zc_gate_anchor();
  const std::uint32_t a1 = a();
  zc_gate_sink = 1;  // the rules broken: in the nested read of b ...
  zc_gate_sink = 2;
  zc_gate_sink = 3;
  const std::uint32_t b1 = b();
  zc_gate_sink = 4;  // ... and in the innermost window
  zc_gate_sink = 5;
  zc_gate_sink = 6;
  zc_gate_sink = 7;
  zc_gate_sink = 8;
  const std::uint32_t b2 = b(), a2 = a();
  zc_gate_finish(a1, b1, a2, b2);
}
}

extern "C" {
void zc_gate_body(std::uint32_t);
void window_region_calibrate_1counter() {
  const Read a = zc_gate_readers[0];
  zc_gate_anchor();
  std::uint32_t x = a(), y = a();
  zc_gate_finish(x, y, 0, 0);
  zc_gate_anchor();
  x = a();
  zc_gate_sink = 1;  // the rule broken: the second region's window is not the first's
  y = a();
  zc_gate_finish(x, y, 0, 0);
}
void window_region_call_arg_1counter(std::uint32_t n) {
  const Read a = zc_gate_readers[0];
  zc_gate_anchor();
  const std::uint32_t x = a();
  zc_gate_sink = 1;  // the rule broken: more than calibrate()'s window and the argument's set-up
  zc_gate_sink = 2;
  zc_gate_sink = 3;
  zc_gate_body(n);
  const std::uint32_t y = a();
  zc_gate_finish(x, y, 0, 0);
}
}
