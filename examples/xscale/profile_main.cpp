// Example firmware: profile real code on the XScale PXA270 (QEMU -M mainstone) with pmukit.
//
// What it does, in the order a firmware engineer would:
//  1. identify the core (MIDR) and probe what its PMU really implements;
//  2. count cycles (CCNT) and whatever else the part can count, through the portable API;
//  3. calibrate the region overhead, then measure an empty region and a region of known length;
//  4. sample the PC: from the PMU overflow interrupt where it works, else from the OS timer
//     (same Sampler, same ring buffer);
//  5. print a readable summary and emit the dump (text frames) for the host tool;
//  6. exit 0 only if every check passed (semihosting exit status).
// Nothing here knows it runs on an emulator: every gap is found by probe() at run time.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/checks.hpp"
#include "examples/common/summary.hpp"
#include "examples/common/workloads.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/regs.hpp"
#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/emit.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"
#include "profiler/selftest.hpp"

namespace {

using namespace examples::work;
using Pmu = pmu::xscale::Xsc2<pmu::Cp14Bus>;
using Ring = prof::SampleRing<2048>;
const examples::Console& out = board::console;

prof::Profiler<Pmu> profiler;
prof::Regions<Pmu> regions{profiler};
Ring ring;
prof::Sampler<Pmu, Ring> sampler{profiler, ring};

// Exactly 2 * n instructions (subs + bne per iteration): the region of known length. Its own
// section, like the shared workloads (examples/common/workloads.hpp), so samples can be placed.
__attribute__((noipa, section("work_known"))) void spin_exact(std::uint32_t n) {
  asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
}

extern "C" const char __start_work_known[], __stop_work_known[];

examples::Checks checks{out};

void on_tick(std::uint32_t pc, std::uint32_t lr) { sampler.on_timer_tick(pc, lr); }

// Text frames go out on the same UART as the console; the host tool finds them in the log.
void frame_putc(void*, char c) { board::putc(c); }

}  // namespace

int main() {
  board::init();
  fill();
  out.line("pmukit XScale profile (PXA270 mainstone)");

  // 1. Core and PMU.
  const std::uint32_t midr = pmu::Regs<pmu::ArmCpBus>::read_raw<pmu::xscale::MIDR>();
  const auto variant = pmu::xscale::variant_from_midr(midr);
  out.put("cpu: MIDR 0x");
  out.hex(midr);
  out.put(" -> ");
  out.line(pmu::xscale::variant_name(variant));
  if (variant != pmu::xscale::Variant::xsc2) {
    out.line("this image is built for the XSC2 PMU; refusing to program another variant");
    board::exit(2);
  }
  const pmu::ProbeResult probe = profiler.probe();
  const auto& report = Pmu::probe_report();
  out.put("probe: ");
  out.put(pmu::status_name(probe.status));
  out.put(", counting slots 0x");
  out.hex(probe.working_slots, 2);
  out.put(" (slot 0 = CCNT, 1..4 = PMN0..3), trapped registers 0x");
  out.hex(report.trapped, 2);
  out.put(report.inten_holds ? ", INTEN holds" : ", INTEN does not hold");
  out.line(report.ccnt_overflow ? ", CCNT overflow sets FLAG" : ", CCNT overflow flag not seen");
  checks.check(probe.status == pmu::Status::ok && (probe.working_slots & 1u), "CCNT counts");

  // 2. Counters: cycles always; the rest where this part can count them.
  prof::Counter cycles, instr, dmiss;
  checks.status("add cycles", profiler.add<pmu::Preset::cycles>(cycles));
  checks.status("add instructions", profiler.add<pmu::Preset::instructions>(instr));
  checks.status("add dcache_misses", profiler.add<pmu::Preset::dcache_misses>(dmiss));
  profiler.start();

  // 3. Regions.
  regions.calibrate();
  out.put("calibration: overhead of one region measurement = ");
  out.dec(regions.overhead(0));
  out.line(" cycles (CCNT)");
  static prof::RegionStats<Pmu> empty{"empty"}, known{"spin_exact_2000"}, crc{"crc32_4k"},
      sort{"insertion_sort_256"}, fibr{"fib_5000"};
  for (int i = 0; i < 8; ++i) {
    prof::Region r{regions, empty};
  }
  constexpr std::uint32_t kSpin = 1000;  // 2000 instructions
  for (int i = 0; i < 8; ++i) {
    prof::Region r{regions, known};
    spin_exact(kSpin);
  }

  // 4. Sampling, on the real workloads.
  const bool pmu_irq = report.inten_holds;
  out.line(pmu_irq ? "sampling: PMU overflow interrupt (CCNT)"
                   : "sampling: PMU overflow interrupt unavailable -> OS timer, same sampler");
  // The board routes no PMU interrupt yet, so even where INTEN holds the timer is what fires.
  constexpr std::uint32_t kTickPeriod = board::kMinPeriodTicks;  // 3.25 MHz ticks: ~9.8 us
  board::timer_start(kTickPeriod, on_tick);
  board::irq_enable();
  for (int round = 0; round < 12; ++round) {
    {
      prof::Region r{regions, crc};
      sink = crc32(buffer, sizeof buffer);
    }
    {
      fill();
      prof::Region r{regions, sort};
      insertion_sort(table, 256);
    }
    {
      prof::Region r{regions, fibr};
      sink = fib(5000);
    }
  }
  // Cost of one sampling interrupt (vector to return, sampler included): a region of known length
  // measured while the timer samples, minus its length, per interrupt taken inside it.
  static prof::RegionStats<Pmu> sampled{"spin_exact_2000000_sampled"};
  const std::uint32_t irq_before = sampler.interrupts();
  {
    prof::Region r{regions, sampled};
    spin_exact(1'000'000);
  }
  const std::uint32_t irqs = sampler.interrupts() - irq_before;
  board::irq_disable();
  board::timer_stop();
  profiler.stop();

  // 5. Summary.
  prof::RegionStats<Pmu>* all[] = {&empty, &known, &crc, &sort, &fibr, &sampled};
  examples::print_regions(out, "CCNT cycles", all, sizeof all / sizeof all[0]);
  std::uint32_t in_crc = 0, in_known = 0;
  prof::Sample smp;
  for (std::size_t i = 0; ring.peek(i, smp); ++i) {
    const auto pc = reinterpret_cast<const char*>(smp.pc);
    in_crc += in_crc32(smp.pc);
    in_known += pc >= __start_work_known && pc < __stop_work_known;
  }
  out.put("samples: ");
  out.dec(ring.size());
  out.put(" recorded, ");
  out.dec(ring.dropped());
  out.put(" dropped, ");
  out.dec(in_crc);
  out.put(" in crc32, ");
  out.dec(in_known);
  out.line(" in the sampled spin region");

  if (irqs) {
    out.put("sampling interrupt cost: ");
    out.dec((sampled.total[0] - 2'000'003u) / irqs);
    out.put(" instructions per interrupt (vector to return, sampler included; ");
    out.dec(irqs);
    out.line(" interrupts)");
  }
  checks.check(irqs > 0, "timer interrupts arrived during the sampled region");

  // Checks: the empty region reads 0 after calibration; the known region within 1% + 4.
  checks.check(empty.max[0] == 0 && empty.clamped == 0, "empty region reads 0 after calibration");
  const std::uint64_t expect = 2 * kSpin, got = known.min[0];
  const std::uint64_t tol = expect / 100 + 4;
  out.put("known region: measured ");
  out.dec(got);
  out.put(", expected ");
  out.dec(expect);
  out.put(" +- ");
  out.dec(tol);
  out.line(" (instructions under -icount shift=0; cycles on silicon)");
  checks.check(got + tol >= expect && got <= expect + tol, "known region within tolerance");
  checks.check(ring.size() > 0, "samples recorded");
  checks.check(2 * in_crc > ring.size() - in_known,
        "most workload samples in crc32, the longest-running function");
  checks.check(crc.total[0] > sort.total[0] && crc.total[0] > fibr.total[0],
        "crc32 region costs the most cycles");

  // 6. The dump, as text frames on the UART.
  prof::DumpSamples source{pmu_irq ? pmu::dump::SampleSourceKind::pmu_overflow
                                   : pmu::dump::SampleSourceKind::timer,
                           pmu::dump::kNoCounter,
                           std::uint64_t{kTickPeriod} * 1'000'000'000u / board::timer_hz()};
  pmu::dump::TextFrameSink frames{frame_putc, nullptr};
  pmu::dump::Writer writer{frames.sink()};
  const auto ds = prof::write_dump(writer, {"xscale", 0}, profiler, regions, all, 6, &source, &ring);
  checks.check(ds == pmu::dump::Status::ok, "dump written");

  out.line(checks.failures == 0 ? "PROFILE PASS" : "PROFILE FAIL");
  board::exit(checks.failures == 0 ? 0 : 1);
}
