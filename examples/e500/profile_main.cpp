// Example firmware: profile real code on an e500v2 (QEMU -M mpc8544ds) with pmukit.
//
// What it does, in the order a firmware engineer would:
//  1. probe the e500 performance monitor through prof::Profiler. QEMU 7.2 has none: every mfpmr is
//     a program interrupt, which the board turns into a clean pmu_absent from probe();
//  2. run one measurement routine, run<B>(), on whichever backend this part has: the PMU
//     (pmu::e500::Driver) or, without one, the time base (prof::ClockBackend) for cycle regions and
//     the decrementer for sampling. run<B>() has no PMU-specific code: the backend type and a
//     Setup (what its count means, how to sample) are all that differ;
//  3. in it: calibrate the region overhead, measure an empty region and one of known length, time
//     three workloads, then sample them (PMU overflow interrupt or decrementer, same Sampler).
//     Regions run with interrupts off and before sampling: the PMU path samples by arming the very
//     counter the regions read, whose value then is not meaningful (sampler.hpp);
//  4. print a readable summary and emit the dump (text frames on the UART) for the host tool;
//  5. print PROFILE PASS / PROFILE FAIL and exit through the board (GUTS RSTCR).
// The figures it checks hold under `-icount shift=0` (one instruction per virtual nanosecond),
// which is how its ctest runs it.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/checks.hpp"
#include "examples/common/summary.hpp"
#include "examples/common/workloads.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/core/fault.hpp"
#include "hal/e500/driver.hpp"
#include "profiler/clock_backend.hpp"
#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/emit.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"

namespace {

using namespace examples::work;

// The e500 time base as a clock: 64 bits, never wraps in practice.
struct Timebase {
  static constexpr unsigned kWidth = 64;
  static constexpr const char* kId = "e500-timebase";
  static std::uint64_t now() { return board::timebase(); }
};

using Pmu = pmu::e500::Driver<pmu::PmrBus>;
using Fallback = prof::ClockBackend<Timebase>;
using Ring = prof::SampleRing<2048>;
const examples::Console& out = board::console;

Ring ring;  // one ring, whichever backend fills it

// Everything the profiler keeps for one backend, in static storage.
template <prof::Backend B>
struct Bench {
  static inline prof::Profiler<B> profiler;
  static inline prof::Regions<B> regions{profiler};
  static inline prof::Sampler<B, Ring> sampler{profiler, ring};
};

// How run<B>() should treat the backend it is given.
struct Setup {
  const char* unit;            // what the cycles preset counts on this backend
  std::uint64_t counter_hz;    // its rate, for the dump (0: the core clock, not known here)
  // Expected count per instruction of the known region under QEMU -icount shift=0, as num/den
  // (den 0: no expectation, print only).
  std::uint32_t per_instr_num, per_instr_den;
  // How far one reading may be off at each end: a time-base tick is 2.5 instructions, so a reading
  // is +-1 tick, and the calibrated overhead (the smallest reading) is too.
  std::uint32_t resolution;
  bool pmu_interrupt;          // sample from the cycles counter's overflow interrupt, else the decrementer
};
// On silicon: core cycles; the overflow interrupt (IVOR35) is wired but untested (QEMU has no PMU).
constexpr Setup kPmuSetup{"cycles", 0, 0, 0, 0, true};
// QEMU's time base runs at 400 MHz of virtual time and -icount shift=0 makes one instruction 1 ns:
// 0.4 ticks per instruction. On silicon the time base runs at CCB/8 (CRM 9.3).
constexpr Setup kTimebaseSetup{"timebase ticks", board::kTimebaseHz, 2, 5, 1, false};

// The known-length loop (asm, so per architecture); the shared workloads are in
// examples/common/workloads.hpp.
// n + 2 instructions once called: mtctr, n x bdnz, blr.
__attribute__((noipa, section("work_known"))) void spin_exact(std::uint32_t n) {
  asm volatile("mtctr %0\n1:\tbdnz 1b" : : "r"(n) : "ctr");
}

examples::Checks checks{out};

// Time-base ticks of a fixed busy loop; with a sampling source on, the difference to a quiet run
// is what its interrupts cost.
[[gnu::noipa]] std::uint32_t timed_spin() {
  const std::uint32_t t0 = board::timebase_lo();
  for (std::uint32_t i = 0; i < 100'000; ++i) sink = i;
  return board::timebase_lo() - t0;
}

// Interrupt glue: the board passes the interrupted PC (SRR0) and LR.
template <prof::Backend B>
void on_tick(std::uint32_t pc, std::uint32_t lr) {
  Bench<B>::sampler.on_timer_tick(pc, lr);
}
template <prof::Backend B>
void on_pmu(std::uint32_t pc, std::uint32_t lr) {
  Bench<B>::sampler.on_pmu_interrupt(pc, lr);
}

// Text frames go out on the same UART as the console; the host tool finds them in the log.
void frame_putc(void*, char c) { board::putc(c); }

constexpr std::uint32_t kTickPeriod = board::kTimebaseHz / 100'000;  // decrementer: 10 us
constexpr std::uint64_t kTickPeriodNs = std::uint64_t{kTickPeriod} * 1'000'000'000u / board::kTimebaseHz;
constexpr std::uint32_t kPmuPeriod = 10'000;  // PMU sampling: every 10000 cycles
constexpr std::uint32_t kSpin = 10'000;       // iterations of the known region

// The measurement, the same for every backend. Returns the number of failed checks.
template <prof::Backend B>
int run(const Setup& s) {
  prof::Profiler<B>& p = Bench<B>::profiler;
  prof::Regions<B>& regions = Bench<B>::regions;
  prof::Sampler<B, Ring>& sampler = Bench<B>::sampler;

  out.put("backend: ");
  out.put(B::catalog.id);
  out.put(" (");
  out.put(B::catalog.description);
  out.line(")");
  const pmu::ProbeResult probe = p.probe();  // for the PMU: the same probe main() ran
  checks.check(probe.status == pmu::Status::ok && probe.working_slots != 0, "backend counts");

  // Counters: cycles always (a compile error on a backend without them); the rest if it can.
  prof::Counter cycles, instr;
  checks.status("add cycles", p.template add<pmu::Preset::cycles>(cycles));
  checks.status("add instructions", p.add(pmu::Preset::instructions, instr));
  checks.check(cycles.valid(), "cycles counter added");
  out.put("cycles counter: event ");
  out.put(p.event_name(cycles));
  out.put(", counts ");
  out.line(s.unit);
  p.start();

  // Regions, with no interrupts: nothing but the measured code runs between the two reads.
  regions.calibrate();
  static prof::RegionStats<B> empty{"empty"}, known{"spin_exact_10000"}, crc{"crc32_4k"},
      sort{"insertion_sort_256"}, fibr{"fib_5000"};
  for (int i = 0; i < 8; ++i) {
    prof::Region<B> r{regions, empty};
  }
  for (int i = 0; i < 8; ++i) {
    prof::Region<B> r{regions, known};
    spin_exact(kSpin);
  }
  for (int round = 0; round < 12; ++round) {
    {
      prof::Region<B> r{regions, crc};
      sink = crc32(buffer, sizeof buffer);
    }
    {
      fill();
      prof::Region<B> r{regions, sort};
      insertion_sort(table, 256);
    }
    {
      prof::Region<B> r{regions, fibr};
      sink = fib(5000);
    }
  }
  p.stop();

  out.put("calibration: one region measurement costs ");
  out.dec(regions.overhead(0));
  out.put(' ');
  out.put(s.unit);
  out.put(" raw; an empty region then reads min=");
  out.dec(empty.min[0]);
  out.put(" max=");
  out.dec(empty.max[0]);
  out.put(" over ");
  out.dec(empty.calls);
  out.put(" calls (allowed: 0..");
  out.dec(2 * s.resolution);
  out.line(")");
  prof::RegionStats<B>* all[] = {&empty, &known, &crc, &sort, &fibr};
  examples::print_regions(out, s.unit, all, sizeof all / sizeof all[0]);

  // 0 exactly on an instruction-exact counter; within +-resolution at each end on a coarser clock.
  checks.check(empty.max[0] <= 2 * s.resolution && empty.clamped == 0,
        s.resolution == 0 ? "empty region reads 0 after calibration"
                          : "empty region reads 0 after calibration, to the clock's resolution");
  // Known region: the loop plus the call around it (li, bl, mtctr, blr): kSpin + 4 instructions.
  if (s.per_instr_den != 0) {
    const std::uint64_t instructions = kSpin + 4;
    const std::uint64_t expect = (instructions * s.per_instr_num + s.per_instr_den / 2) / s.per_instr_den;
    const std::uint64_t tol = 2 * s.resolution + expect / 1000;  // resolution at each end + 0.1%
    const std::uint64_t got = known.min[0];
    out.put("known region: ");
    out.dec(instructions);
    out.put(" instructions, measured ");
    out.dec(got);
    out.put(' ');
    out.put(s.unit);
    out.put(", expected ");
    out.dec(expect);
    out.put(" +- ");
    out.dec(tol);
    out.line(" (under -icount shift=0)");
    checks.check(got + tol >= expect && got <= expect + tol, "known region within tolerance");
  } else {
    out.put("known region: ");
    out.dec(known.min[0]);
    out.put(' ');
    out.put(s.unit);
    out.line(" (no expectation for this backend)");
  }
  checks.check(crc.total[0] > sort.total[0] && crc.total[0] > fibr.total[0], "crc32 region costs the most");

  // Sampling: from the cycles counter's overflow interrupt where the backend has one, else from
  // the decrementer; the same Sampler and ring either way.
  out.line(s.pmu_interrupt ? "sampling: PMU overflow interrupt (IVOR35; untested on QEMU, which has no PMU)"
                           : "sampling: decrementer (IVOR10) every 10 us");
  p.start();
  auto sampling = [&](bool on) {
    if (on) {
      if (s.pmu_interrupt) {
        board::set_perfmon_handler(&on_pmu<B>);
        checks.check(sampler.arm(cycles, kPmuPeriod) == pmu::Status::ok, "sampler armed");
      } else {
        board::decrementer_start(kTickPeriod, &on_tick<B>);
      }
      board::ee_enable();
    } else {
      board::ee_disable();
      if (s.pmu_interrupt)
        sampler.disarm();
      else
        board::decrementer_stop();
    }
  };

  // What one sampling interrupt costs, vector to rfi including the sampler (informational).
  const std::uint32_t quiet = timed_spin();
  const std::uint32_t irq0 = sampler.interrupts();
  sampling(true);
  const std::uint32_t busy = timed_spin();
  sampling(false);
  const std::uint32_t irqs = sampler.interrupts() - irq0;
  for (prof::Sample drop; ring.pop(drop);) {  // these samples are the spin loop's: discard
  }
  if (irqs != 0 && busy > quiet) {
    const std::uint32_t ticks = busy - quiet;
    const std::uint32_t tenths = ticks * 10 / irqs;  // time-base ticks per interrupt
    out.put("interrupt cost: ");
    out.dec(irqs);
    out.put(" interrupts, ");
    out.dec(tenths / 10);
    out.put('.');
    out.dec(tenths % 10);
    out.put(" timebase ticks each (= ");
    out.dec((ticks * 5 + irqs) / (2 * irqs));  // 2.5 instructions per tick, rounded
    out.line(" instructions under -icount shift=0)");
  } else {
    out.line("interrupt cost: not measurable in this run");
  }

  sampling(true);
  for (int round = 0; round < 12; ++round) {
    sink = crc32(buffer, sizeof buffer);
    fill();
    insertion_sort(table, 256);
    sink = fib(5000);
  }
  sampling(false);
  p.stop();

  std::uint32_t in_crc = 0;
  prof::Sample smp;
  for (std::size_t i = 0; ring.peek(i, smp); ++i) {
    in_crc += in_crc32(smp.pc);
  }
  out.put("samples: ");
  out.dec(ring.size());
  out.put(" recorded, ");
  out.dec(ring.dropped());
  out.put(" dropped, ");
  out.dec(in_crc);
  out.line(" in crc32");
  checks.check(ring.size() > 0, "samples recorded");
  checks.check(2 * in_crc > ring.size(), "most samples in crc32, the longest-running function");

  // The dump, as text frames on the UART; its PMU id is the backend's catalog id.
  const prof::DumpSamples source =
      s.pmu_interrupt
          ? prof::DumpSamples{pmu::dump::SampleSourceKind::pmu_overflow,
                              static_cast<std::uint8_t>(p.slot_of(cycles)), kPmuPeriod}
          : prof::DumpSamples{pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter, kTickPeriodNs};
  pmu::dump::TextFrameSink frames{frame_putc, nullptr};
  pmu::dump::Writer writer{frames.sink()};
  const auto ds = prof::write_dump(writer, {"e500", s.counter_hz}, p, regions, all, 5, &source, &ring);
  checks.check(ds == pmu::dump::Status::ok, "dump written");
  return checks.failures;
}

}  // namespace

int main() {
  board::init();
  fill();
  out.line("pmukit e500 profile (QEMU mpc8544ds)");

  // 1. The PMU, probed through the profiler. A trapping mfpmr is caught (pmu::fault) and counted.
  const std::uint32_t traps_before = pmu::fault::state.caught;
  const pmu::ProbeResult probe = Bench<Pmu>::profiler.probe();
  const bool trapped = pmu::fault::state.caught != traps_before;
  const bool present = probe.status == pmu::Status::ok;
  out.put("probe: ");
  out.put(pmu::status_name(probe.status));
  out.put(", counting slots 0x");
  out.hex(probe.working_slots, 1);
  out.line(trapped ? ", mfpmr trapped" : "");
  if (present)
    out.line("e500 PMU: present -> PMU cycles for regions, PMU overflow interrupt for sampling");
  else if (trapped)
    out.line("e500 PMU: absent (mfpmr traps) -> timebase for cycle regions, decrementer for sampling");
  else
    out.line("e500 PMU: absent (counters do not advance) -> timebase for cycle regions, decrementer for sampling");

  // 2. The same measurement on whichever backend there is.
  const int failed = present ? run<Pmu>(kPmuSetup) : run<Fallback>(kTimebaseSetup);

  out.line(failed == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  board::exit(failed == 0 ? 0 : board::kExitFail);
}
