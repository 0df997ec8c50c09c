// Firmware that only makes sense under pmusim (tools/sim/), where the NetBurst PMU is the project's
// model on executing code. It checks what no emulator can show:
//  1. A running cascade (IQ counters 12 -> 14, instr_retired) read through the profiler while the
//     low counter rolls over 2^40 (examples/common/linked_rollover.hpp); the rollover lands on each
//     step of the read sequence (low, high, the low counter's overflow condition).
//  2. The events pmusim derives from the executed code: a loop of known shape (known_loop) counted
//     for two trip counts; the difference must be exactly its per-trip events times the extra trips.
//     Loads and stores are counted as a Pentium 4 counts them (Intel SDM Vol. 3B, 18.15.6.2 and
//     Table 19-31, memory_loads/memory_stores): uop_type TAGLOADS or TAGSTORES on a RAT ESCR tags
//     them and counts nothing itself; front_end_event NBOGUS on a CRU ESCR counts the tagged uops
//     at retirement, and instr_retired NBOGUSTAG the instructions that carry one.
//  3. The decoder catches a wrong encoding: the same driver on a bus whose wrmsr swaps EDX and EAX
//     (a plausible inline-asm slip) must not find a working PMU, while the real bus does.
//  4. A PMI the local APIC holds across the Sampler's disarm and arm reaches the board's fast
//     vector (board/pmu_fast.S) once: the counter has its new preset then and has not wrapped, so
//     the vector's rewind must leave OVF clear (check_held_pmi).
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/selftest.hpp"
#include "examples/common/linked_rollover.hpp"
#include "hal/core/bus/composite.hpp"
#include "hal/core/bus/cpuid.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/core/bus/msr.hpp"
#include "hal/netburst/driver.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace {

namespace nb = pmu::netburst;
using Pmu = nb::Driver<nb::HwBus>;

// MsrBus with wrmsr's value halves swapped: the deliberate mistake pmusim must expose.
struct SwappedWrmsrBus {
  static constexpr pmu::BusKind kind = pmu::BusKind::msr;
  template <class Loc, class T>
  static T read() {
    return pmu::MsrBus::read<Loc, T>();
  }
  template <class Loc, class T>
  static void write(T v) {
    asm volatile("wrmsr"
                 :
                 : "c"(Loc::address), "d"(static_cast<std::uint32_t>(v)), "a"(static_cast<std::uint32_t>(v >> 32))
                 : "memory");
  }
};
using WrongPmu = nb::Driver<pmu::CompositeBus<SwappedWrmsrBus, pmu::PmcBus, pmu::CpuidBus, pmu::MmioBus<nb::ApicBase>>>;

prof::Profiler<Pmu> profiler;

std::uint32_t cell[2];

// `trips` passes of: a load, a store, a compare, a JE never taken (ESP is never 0; to the end), a
// JMP to the next instruction, a CALL to a RET, the decrement and the loop's JNZ.
[[gnu::noinline]] void known_loop(std::uint32_t trips) {
  asm volatile(
      "1:\n\tmovl (%1), %%eax\n\tmovl %%eax, 4(%1)\n\tcmpl $0, %%esp\n\tje 3f\n"
      "\tjmp 2f\n2:\n\tcall 4f\n\tdecl %0\n\tjnz 1b\n\tjmp 3f\n4:\n\tret\n3:"
      : "+r"(trips)
      : "r"(cell)
      : "eax", "memory", "cc");
}

// The event's count over known_loop(trips), with `tagger` (a uop_type set-up, or nullptr) added
// first: it takes a RAT ESCR for front-end tagging; ~0 if either cannot be counted.
std::uint64_t count(const char* event, const char* tagger, std::uint32_t trips) {
  profiler.clear();
  prof::Counter c, tags;
  const nb::Request r = nb::parse(event);
  if (tagger) {
    const nb::Request t = nb::parse(tagger);
    if (t.error != nb::EncodeError::none || profiler.add(nb::config_of(t), tags) != pmu::Status::ok)
      return ~std::uint64_t{0};
  }
  if (r.error != nb::EncodeError::none || profiler.add(nb::config_of(r), c) != pmu::Status::ok)
    return ~std::uint64_t{0};
  profiler.start();
  known_loop(trips);
  profiler.stop();
  return profiler.read(c);
}

struct Expect {
  const char* label;   // what the output names
  const char* event;   // the counted event
  const char* tagger;  // the uop_type set-up that tags for it, or nullptr
  std::uint32_t per_trip;
};
// Per trip: 9 instructions; loads: the MOV and the RET's pop; stores: the MOV and the CALL's push
// (instructions with a load: 2, with a store: 2, with either: 4); taken: JMP, CALL, RET, JNZ; not
// taken: JE; CONDITIONAL: JE, JNZ; INDIRECT: the RET. uop_type's own counter reads 0 on a P4.
constexpr Expect kExpect[] = {
    {"instr_retired:NBOGUSNTAG", "instr_retired:NBOGUSNTAG", nullptr, 9},
    {"uop_type:TAGLOADS:TAGSTORES (tags, counts nothing)", "uop_type:TAGLOADS:TAGSTORES", nullptr, 0},
    {"front_end_event:NBOGUS, nothing tagged", "front_end_event:NBOGUS", nullptr, 0},
    {"front_end_event:NBOGUS, loads tagged by uop_type:TAGLOADS", "front_end_event:NBOGUS",
     "uop_type:TAGLOADS", 2},
    {"front_end_event:NBOGUS, stores tagged by uop_type:TAGSTORES", "front_end_event:NBOGUS",
     "uop_type:TAGSTORES", 2},
    {"instr_retired:NBOGUSTAG, loads and stores tagged", "instr_retired:NBOGUSTAG",
     "uop_type:TAGLOADS:TAGSTORES", 4},
    {"instr_retired:NBOGUSNTAG, loads and stores tagged", "instr_retired:NBOGUSNTAG",
     "uop_type:TAGLOADS:TAGSTORES", 5},
    {"branch_retired:MMTP", "branch_retired:MMTP", nullptr, 4},
    {"branch_retired:MMNP", "branch_retired:MMNP", nullptr, 1},
    {"branch_retired:MMNM:MMTM", "branch_retired:MMNM:MMTM", nullptr, 0},
    {"retired_branch_type:CONDITIONAL", "retired_branch_type:CONDITIONAL", nullptr, 2},
    {"retired_branch_type:CALL", "retired_branch_type:CALL", nullptr, 1},
    {"retired_branch_type:RETURN", "retired_branch_type:RETURN", nullptr, 1},
    {"retired_branch_type:INDIRECT", "retired_branch_type:INDIRECT", nullptr, 1}};

// An overflow while the CPU masks interrupts is a PMI the local APIC accepts and holds in its IRR
// until the CPU takes it (Intel SDM Vol. 3A, 10.8.4), whatever disarm and arm do meanwhile (the
// example's pmu_fast_stop, disarm and next arm). The board's fast vector then finds counter 0 at
// its new preset: it records one sample and rewinds one period, and must leave OVF clear, or each
// PMI asks for another, 2^40 / period of them (273 here: a period near the vector's 32-bit limit,
// so that such a storm ends and the check fails instead of hanging).
void check_held_pmi(examples::Checks& checks) {
  using FastRing = prof::SampleRing<256, prof::RingFull::keep_newest>;
  static FastRing ring;
  static prof::Sampler<Pmu, FastRing> sampler{profiler, ring};
  constexpr std::uint32_t kPeriod = 0xF0000000u;
  profiler.clear();
  prof::Counter cyc;
  bool ok = profiler.add_on(0, nb::config_of(nb::checked("global_power_events:RUNNING")), cyc) == pmu::Status::ok;
  profiler.start();
  ok = ok && sampler.arm(cyc, kPeriod) == pmu::Status::ok;
  Pmu::set_apic_base(board::apic_base());
  Pmu::set_pmi_vector(board::kPmiVector);
  ok = ok && board::pmu_fast_start(kPeriod, ring, profiler.fold_count_word());
  board::irq_disable();
  Pmu::stop(1u);
  Pmu::write(0, (std::uint64_t{1} << 40) - 2);
  Pmu::start(1u);       // counter 0 overflows, and its PMI is held: interrupts are masked
  known_loop(2);
  sampler.disarm();
  ok = ok && sampler.arm(cyc, kPeriod) == pmu::Status::ok;
  board::irq_enable();  // the held PMI
  known_loop(20);
  board::irq_disable();
  const std::uint32_t taken = ring.recorded();
  const std::uint32_t ovf = Pmu::overflow_status() & 1u;
  board::pmi_vector_stop();
  sampler.disarm();
  Pmu::release_pmi_vector();
  profiler.stop();
  profiler.clear();
  checks.out.put("PMI held across disarm and arm: ");
  checks.out.dec(taken);
  checks.out.line(" fast-vector interrupt(s), expected 1");
  checks.check(ok && taken == 1 && ovf == 0, "a PMI held across disarm and arm is taken once, OVF left clear");
}

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  examples::SelfTest test{out, "pmukit pmusim self-test (NetBurst)", board::under_pmusim(), "not under pmusim: nothing to test here",
                          board::exit, board::kExitFail};
  examples::Checks& checks = test.checks;
  checks.check(profiler.probe().status == pmu::Status::ok, "probe finds the model's PMU");

  examples::check_linked_rollover(
      profiler, {"cascade", 12, 14, nb::config_of(nb::checked("instr_retired:NBOGUSNTAG")), std::uint64_t{1} << 40},
      checks);

  for (const Expect& e : kExpect)
    examples::check_per_trip(checks, e.label, e.per_trip,
                             [&](std::uint32_t trips) { return count(e.event, e.tagger, trips); });

  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong wrmsr encoding (EDX and EAX swapped): probe ");
  out.line(pmu::status_name(wrong.status));
  checks.check(wrong.status != pmu::Status::ok, "a wrong wrmsr encoding is caught");
  checks.check(profiler.probe().status == pmu::Status::ok, "the real bus still finds the PMU");

  check_held_pmi(checks);

  test.finish();
}
