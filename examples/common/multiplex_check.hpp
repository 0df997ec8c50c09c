#pragma once
// Multiplexing checked where the truth is known (issue "count more than the hardware holds"): more
// events than the PMU has counters, rotated by the board's timer over a steady workload, against
// the same workload counted without multiplexing (each group alone on the counters, the timer and
// its rotate() running the same way). Under pmusim every event count is exact and a run is
// deterministic, so the two differ only by what multiplexing estimates: each scaled estimate must
// be within 2% of its exact count. Also measured: a rotation's cost (thread-side rotate(), and the
// whole timer interrupt that does it). The results go into the dump as two MUX_REGIONs, "steady"
// (multiplexed) and "steady_exact", for pmukit stat.
//
// The board gives the clock the multiplexer keeps time in (optional; without it, no check):
//   struct Clock { static constexpr unsigned kWidth = ...; static std::uint64_t now(); };
//   static std::uint64_t clock_hz();   // its rate here (pmusim's may differ from QEMU's)
#include <cstddef>
#include <cstdint>

#include "examples/common/checks.hpp"
#include "examples/common/console.hpp"
#include "examples/common/workloads.hpp"
#include "profiler/dump/writer.hpp"
#include "hal/core/metric.hpp"
#include "profiler/multiplex.hpp"

namespace examples {

// The events to multiplex: more than the PMU's counters, from its catalog.
struct MuxSetup {
  const pmu::EventConfig* events;
  std::size_t count;
  std::uint32_t steady_iterations;  // the workload's length; a few million instructions
  std::uint32_t rotate_every = 1;   // timer ticks per rotation
  const char* const* names = nullptr;  // display names, one per event (nullptr: the catalog's)
  // A metric group the firmware asks for by name (hal/<pmu>/metrics.hpp): its events are added
  // after `events`, once each.
  const pmu::MetricTable* metrics = nullptr;
  const char* metric_group = nullptr;
};

inline constexpr unsigned kMuxEvents = 16;

// What the dump carries (profiler/emit.hpp writes it): the events, and the two regions' values.
struct MuxResults {
  pmu::dump::MuxEventInfo events[kMuxEvents];
  pmu::dump::MuxValue multiplexed[kMuxEvents];
  pmu::dump::MuxValue exact[kMuxEvents];
  pmu::dump::MuxRegionInfo regions[2];
  pmu::dump::MuxInfo info{};
  std::size_t count = 0;
  bool valid = false;
};
inline MuxResults mux_results;

template <class Board>
concept BoardClock = requires {
  { Board::Clock::now() } -> std::convertible_to<std::uint64_t>;
  Board::Clock::kWidth;
  { Board::clock_hz() } -> std::convertible_to<std::uint64_t>;
};

template <class Board, prof::Backend B>
struct MuxBench {
  using Mux = prof::Multiplexer<B, typename Board::Clock, kMuxEvents>;
  static inline Mux mux;
  static inline Mux* ticking = nullptr;  // the one the timer rotates
  static inline std::uint32_t ticks = 0, every = 1;
  static void on_tick(std::uint32_t, std::uint32_t) {
    ticks = ticks + 1;
    if (ticking && ticks % every == 0) ticking->rotate();
  }
};

// Ticks of the board clock for one run of the steady workload, the timer rotating `m` (or not
// started: m == nullptr).
template <class Board, prof::Backend B>
std::uint64_t run_steady(typename MuxBench<Board, B>::Mux* m, const MuxSetup& ms, Checks& checks) {
  using MB = MuxBench<Board, B>;
  MB::ticking = m;
  MB::ticks = 0;
  MB::every = ms.rotate_every ? ms.rotate_every : 1;
  if (m) checks.check(Board::timer_start(&MB::on_tick), "timer started (multiplexing)");
  const std::uint64_t t0 = Board::Clock::now();
  Board::irq_enable();
  work::steady(ms.steady_iterations);
  Board::irq_disable();
  const std::uint64_t t1 = Board::Clock::now();
  if (m) Board::timer_stop();
  MB::ticking = nullptr;
  return (t1 - t0) & prof::low_mask(Board::Clock::kWidth);
}

inline void put_tenths(const Console& out, std::uint64_t x10) {
  out.dec(static_cast<std::uint32_t>(x10 / 10));
  out.put('.');
  out.dec(static_cast<std::uint32_t>(x10 % 10));
}

inline void put_permille(const Console& out, std::uint64_t x100) {  // x100: hundredths
  out.dec(static_cast<std::uint32_t>(x100 / 100));
  out.put('.');
  if (x100 % 100 < 10) out.put('0');
  out.dec(static_cast<std::uint32_t>(x100 % 100));
}

// Out of line: its locals stay off profile()'s frame, which the stack captures copy from below.
template <class Board, prof::Backend B>
[[gnu::noinline]] void multiplexing(const MuxSetup& ms, Checks& checks) {
  const Console& out = checks.out;
  using MB = MuxBench<Board, B>;
  using Mux = typename MB::Mux;
  Mux& mux = MB::mux;
  mux.clear();
  prof::MuxEvent handle[kMuxEvents];
  const std::size_t n = ms.count < kMuxEvents ? ms.count : kMuxEvents;
  for (std::size_t i = 0; i < n; ++i) checks.status("multiplexing: add event", mux.add(ms.events[i], handle[i]));
  if (ms.metrics != nullptr) {
    out.put("multiplexing: metric group ");
    out.line(ms.metric_group);
    checks.status("multiplexing: add metric group", mux.add_metric_group(*ms.metrics, ms.metric_group));
  }
  const pmu::Status started = mux.start();
  checks.status("multiplexing: start", started);
  if (started != pmu::Status::ok) return;
  out.put("multiplexing: ");
  out.dec(static_cast<std::uint32_t>(mux.events()));
  out.put(" events on ");
  out.dec(B::kSlots);
  out.put(" counters in ");
  out.dec(mux.groups());
  out.line(" groups, rotated by the board's timer");
  checks.check(mux.groups() > 1, "multiplexing: more events than one group holds");
  // The whole run multiplexed.
  const std::uint64_t with_rotation = run_steady<Board, B>(&mux, ms, checks);
  mux.stop();
  const std::uint32_t rotations = mux.rotations();
  const unsigned groups = mux.groups();
  MuxResults& r = mux_results;
  r.count = mux.events();
  for (std::size_t i = 0; i < r.count; ++i) {
    const prof::MuxEvent e{static_cast<std::uint8_t>(i)};
    const prof::MuxValue v = mux.value(e);
    r.multiplexed[i] = {v.raw, v.enabled, v.running};
    const pmu::EventConfig c = mux.event_of(e);
    const char* preset = mux.preset_of(e);
    for (std::size_t k = 0; preset == nullptr && k < B::catalog.num_presets; ++k)  // added as a raw event
      if (B::catalog.presets[k].code == c.code && c.qualifier == 0) preset = pmu::preset_name(B::catalog.presets[k].preset);
    const char* name = ms.names != nullptr && i < n ? ms.names[i] : mux.event_name(e);
    r.events[i] = {c.code, c.qualifier, c.options, name, preset ? preset : "",
                   static_cast<std::uint8_t>(mux.pinned(e) ? 1 : 0)};
  }
  // Each group alone: no rotation to another group, the same timer and rotate() on it.
  for (unsigned g = 0; g < groups; ++g) {
    static Mux alone;
    alone.clear();
    prof::MuxEvent h[kMuxEvents];
    std::size_t mine[kMuxEvents];
    std::size_t k = 0;
    for (std::size_t i = 0; i < r.count; ++i) {
      const prof::MuxEvent e{static_cast<std::uint8_t>(i)};
      if (mux.group_of(e) != g && !(g == 0 && mux.pinned(e))) continue;
      checks.status("multiplexing: add event (exact run)", alone.add(mux.event_of(e), h[k]));
      mine[k++] = i;
    }
    const pmu::Status alone_started = alone.start();
    checks.status("multiplexing: start (exact run)", alone_started);
    if (alone_started != pmu::Status::ok) return;
    checks.check(alone.groups() == 1, "multiplexing: a group alone needs no rotation");
    (void)run_steady<Board, B>(&alone, ms, checks);
    alone.stop();
    for (std::size_t j = 0; j < k; ++j) {
      const prof::MuxValue v = alone.value(h[j]);
      r.exact[mine[j]] = {v.raw, v.enabled, v.running};
    }
  }
  const std::uint64_t without_timer = run_steady<Board, B>(nullptr, ms, checks);
  // A rotation from thread context, interrupts off: 1000 of them.
  checks.status("multiplexing: start (cost)", mux.start());
  const std::uint64_t c0 = Board::Clock::now();
  for (int i = 0; i < 1000; ++i) mux.rotate();
  const std::uint64_t c1 = Board::Clock::now();
  mux.stop();
  const std::uint64_t hz = Board::clock_hz();
  // pmusim runs one instruction per nanosecond: ticks * 10^9 / hz instructions.
  const std::uint64_t rotate_x10 = ((c1 - c0) & prof::low_mask(Board::Clock::kWidth)) * 10'000'000'000ull / hz / 1000;
  const std::uint64_t irq_x10 = rotations == 0 || with_rotation <= without_timer
                                    ? 0
                                    : (with_rotation - without_timer) * 10'000'000'000ull / hz / rotations;
  out.put("multiplexing: rotate() costs ");
  put_tenths(out, rotate_x10);
  out.put(" instructions (thread context, ");
  out.dec(groups);
  out.put(" groups); the timer interrupt that rotates, vector to return: ");
  put_tenths(out, irq_x10);
  out.put(" instructions (");
  out.dec(rotations);
  out.line(" rotations; pmusim's 1 instruction per ns)");
  // The comparison.
  std::uint64_t worst = 0;
  for (std::size_t i = 0; i < r.count; ++i) {
    const prof::MuxValue v{r.multiplexed[i].raw, r.multiplexed[i].enabled, r.multiplexed[i].running};
    const std::uint64_t est = v.scaled(), exact = r.exact[i].raw;
    const std::uint64_t diff = est > exact ? est - exact : exact - est;
    // hundredths of a percent; an exact 0 must be estimated 0
    const std::uint64_t err = exact == 0 ? (est == 0 ? 0 : 10000) : diff * 10000 / exact;
    if (err > worst) worst = err;
    out.put("  ");
    out.put(r.events[i].name);
    out.put(": exact ");
    out.dec(exact);
    out.put(", multiplexed ");
    out.dec(est);
    out.put(" (raw ");
    out.dec(v.raw);
    out.put(", running ");
    put_permille(out, v.enabled ? v.running * 10000 / v.enabled : 0);
    out.put("%), error ");
    put_permille(out, err);
    out.line("%");
    checks.check(!v.never_ran(), "multiplexing: every event ran");
  }
  out.put("multiplexing: worst error ");
  put_permille(out, worst);
  out.line("% (goal: at most 2%)");
  checks.check(worst <= 200, "multiplexing: scaled estimates within 2% of the exact counts");
  r.info = {hz, rotations, r.events, r.count};
  r.regions[0] = {"steady", 1, 1, r.multiplexed, r.count};
  r.regions[1] = {"steady_exact", 0, 1, r.exact, r.count};
  r.valid = true;
}

}  // namespace examples
