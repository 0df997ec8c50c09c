#pragma once
// The one entry point's body (profiler/profile_main.h), for a board's entry file:
//
//   using pmukit_backend = pmu::xscale::Xsc2<pmu::Cp14Bus>;    // the board's PMU
//   #include "profiler/c_api_impl.hpp"                          // the C API's profiler state
//   #include "profiler/profile_main_impl.hpp"
//   extern "C" int pmukit_profile_main_with(int (*run)(void), const pmukit_profile_options* o) {
//     board::init();
//     return pmukit::profile_main<MyBoard>(run, o, {"xscale", 0, tick_ns, pmu_irq_works});
//   }
//
// It runs on the C API's profiler (pmukit_c::state), so the program's own regions
// (pmukit_region_begin/end from C) land in the same dump. No PMU-specific code: the board says
// what its PMU's probe found (BoardProfile::pmu_overflow) and the backend names its events.
#include <cstdint>

#include "profiler/board.hpp"
#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/profile_main.h"

#ifndef PMUKIT_C_API_IMPL_INCLUDED
#error "profiler/profile_main_impl.hpp: include profiler/c_api_impl.hpp first (it names the backend)"
#endif

namespace pmukit {

// What the board's entry knows and the orchestration does not.
struct BoardProfile {
  const char* target;            // the dump's target id ("xscale", "e500", ...)
  std::uint64_t counter_hz;      // the cycles counter's rate; 0: unknown
  std::uint64_t tick_period_ns;  // the board timer's sampling period, for the dump
  bool pmu_overflow;             // the probe found the PMU's overflow interrupt working
};

namespace detail {

template <class Board>
struct Out {
  static void put(const char* s) {
    while (*s) Board::putc(*s++);
  }
  static void dec(std::uint64_t v) {
    char buf[21];
    unsigned n = 0;
    do {
      buf[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n) Board::putc(buf[--n]);
  }
  static void frame_putc(void*, char c) { Board::putc(c); }
};

// The interrupted context: with the stack pointer and frame pointer where the board says them.
template <class Board>
prof::StackContext context(std::uint32_t pc, std::uint32_t lr) {
  prof::StackContext at{pc, lr, 0, 0};
  if constexpr (BoardStackCapture<Board>) Board::interrupted_stack(at.sp, at.fp);
  return at;
}
template <class Board>
void on_tick(std::uint32_t pc, std::uint32_t lr) {
  pmukit_c::state.sampler.on_timer_tick(context<Board>(pc, lr));
}
template <class Board>
void on_pmu(std::uint32_t pc, std::uint32_t lr) {
  pmukit_c::state.sampler.on_pmu_interrupt(context<Board>(pc, lr));
}

// After the run: the summary line and the dump. Out of line: the text frame sink and the dump's
// locals stay off the stack the program runs on, so each sample's stack copy holds more of the
// program's frames.
template <class Board>
[[gnu::noinline]] void finish(prof::Counter cycles, bool pmu_sampling, std::uint64_t pmu_period, const BoardProfile& bp) {
  using O = Out<Board>;
  auto& st = pmukit_c::state;
  prof::Profiler<pmukit_c::B>& p = st.profiler;
  const prof::RegionStats<pmukit_c::B>& whole = st.stats[pmukit_c::kRunRegion];
  O::put("pmukit: region main: ");
  if (cycles.valid()) {
    O::dec(whole.total[cycles.index]);
    O::put(" ");
    O::put(p.event_name(cycles));
  } else {
    O::put("not counted (no PMU counter)");
  }
  O::put(", ");
  O::dec(st.ring.size() + pmukit_stacks_recorded());
  O::put(" samples, ");
  O::dec(pmukit_stacks_recorded());
  O::put(" with their stack, ");
  O::dec(st.ring.dropped() + pmukit_stacks_dropped());
  O::put(" dropped\n");
  pmu::dump::TextFrameSink frames{&O::frame_putc, nullptr};
  const prof::DumpSamples source =
      pmu_sampling ? prof::DumpSamples{pmu::dump::SampleSourceKind::pmu_overflow,
                                       static_cast<std::uint8_t>(p.slot_of(cycles)),
                                       pmu_period}
                   : prof::DumpSamples{pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter, bp.tick_period_ns};
  const pmukit_status ds = pmukit_c::dump(bp.target, bp.counter_hz, 0, frames.sink(), &source);
  O::put(ds == PMUKIT_OK ? "pmukit: dump written\n" : "pmukit: dump NOT written\n");
}

// Before the run: the probe, the counters, calibration, sampling. Out of line, like finish().
struct Started {
  prof::Counter cycles;
  bool pmu_sampling;
  bool timer;
};
template <class Board>
[[gnu::noinline]] Started start(const pmukit_profile_options& opt, const BoardProfile& bp) {
  using O = Out<Board>;
  using B = pmukit_c::B;
  auto& st = pmukit_c::state;
  prof::Profiler<B>& p = st.profiler;

  O::put("pmukit: ");
  O::put(B::catalog.id);
  O::put(" (");
  O::put(B::catalog.description);
  O::put(")\n");
  // Where the PMU does not count (QEMU's e500, MIPS and NetBurst models have none that does), the
  // program still runs as the region "main" and the board's timer samples it: the dump has no
  // counter, and this says so (never a count the PMU did not make).
  const pmu::ProbeResult probe = p.probe();
  const bool counting = probe.status == pmu::Status::ok;
  // Cycles and instructions, where the PMU has them and the probe found them counting.
  prof::Counter cycles, instr;
  if (counting) {
    p.add(pmu::Preset::cycles, cycles);
    p.add(pmu::Preset::instructions, instr);
    O::put("pmukit: counters:");
    for (const prof::Counter c : {cycles, instr}) {
      if (!c.valid()) continue;
      O::put(" ");
      O::put(p.event_name(c));
    }
    O::put("\n");
    p.start();
  } else {
    O::put("pmukit: counters: none: the PMU does not count here (");
    O::put(pmu::status_name(probe.status));
    O::put("); the region main counts its calls only, the board's timer samples\n");
  }
  st.regions.calibrate();
  st.regions.calibrate_calls();  // the run's region and the C API's: begin(Mark&)/end()
  st.stats[pmukit_c::kRunRegion].name = "main";

  // Sampling: the cycles counter's overflow interrupt where it works, else the board's timer.
  bool pmu_sampling = false, timer = false;
  if (!opt.no_sampling) {
    if (bp.pmu_overflow && cycles.valid() && Board::pmu_interrupt(&on_pmu<Board>))
      pmu_sampling = st.sampler.arm(cycles, opt.pmu_period ? opt.pmu_period : 10'000) == pmu::Status::ok;
    if (!pmu_sampling) timer = Board::timer_start(&on_tick<Board>);
    if constexpr (BoardStackCapture<Board>) {
      st.sink.with_stacks = !opt.no_stacks && PMUKIT_STACK_RING > 0;
      pmukit_stack_set_top(Board::stack_top());
    }
  }
  O::put(pmu_sampling ? "pmukit: sampling: PMU overflow interrupt (" : timer ? "pmukit: sampling: board timer ("
                                                                               : "pmukit: sampling: none (");
  O::put(pmu_sampling ? p.event_name(cycles) : timer ? "the PMU's overflow interrupt is not available here" : "off");
  O::put(st.sink.with_stacks ? "), the first " : ")\n");
  if (st.sink.with_stacks) {
    O::dec(PMUKIT_STACK_RING);
    O::put(" with their stack\n");
  }

  return {cycles, pmu_sampling, timer};
}

}  // namespace detail

template <class Board>
int profile_main(int (*run)(), const pmukit_profile_options* options, const BoardProfile& bp) {
  static_assert(board_check<Board>());
  const pmukit_profile_options opt = options ? *options : pmukit_profile_options{};
  auto& st = pmukit_c::state;
  const detail::Started on = detail::start<Board>(opt, bp);
  prof::RegionStats<pmukit_c::B>& whole = st.stats[pmukit_c::kRunRegion];

  Board::irq_enable();
  prof::Regions<pmukit_c::B>::Mark mark;
  st.regions.begin(mark);  // its first reads the last thing it does
  const int rc = run();
  st.regions.end(mark, whole);
  Board::irq_disable();
  if (on.pmu_sampling) st.sampler.disarm();
  if (on.timer) Board::timer_stop();
  st.profiler.stop();
  if constexpr (requires { Board::flush(); }) Board::flush();  // the program's buffered output first

  detail::finish<Board>(on.cycles, on.pmu_sampling, opt.pmu_period ? opt.pmu_period : 10'000, bp);
  return rc;
}

}  // namespace pmukit
