// Firmware that only makes sense under pmusim (tools/sim/), where the RM7000 counter is the
// project's model on executing code: the decoder must catch a wrong CP0 encoding. The same driver on
// a bus whose mtc0 has its operands in the wrong order (`mtc0 $rd, rt`: a plausible inline-asm slip,
// since most assemblers put the destination first and MIPS puts the GPR first) must not find a
// working counter: its writes land in CP0 register 2 (EntryLo0) from GPR 22/25, so PerfControl is
// never programmed, on pmusim as on silicon. The real bus must still find the counter.
// It also checks the events pmusim derives from its decode of the executed code: a loop of known
// shape (known_loop: loads, stores, branches taken and not) is counted for two trip
// counts, and the difference must be exactly the loop's per-trip events times the extra trips.
// And the CP0 timer pmusim runs on its instruction clock (timer_selftest.hpp), with the RM7000's
// Interrupt Control TE moving the timer's request from Cause.IP7 to IP12.
// Prints SELFTEST PASS / SELFTEST FAIL and exits with the verdict.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/selftest.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/rm7000/driver.hpp"
#include "timer_selftest.hpp"

namespace {

namespace rm = pmu::rm7000;
using Pmu = rm::Driver<pmu::Cp0Bus>;

// Cp0Bus with mtc0's operands swapped: the deliberate mistake pmusim must expose. `mtc0 $22, $2`
// assembles as rt = 22 (the GPR read), rd = 2 (the CP0 register written). Reads are the real bus's.
struct SwappedMtc0Bus {
  static constexpr pmu::BusKind kind = pmu::BusKind::cp0;
  template <class Loc, class T>
  static T read() {
    return pmu::Cp0Bus::read<Loc, T>();
  }
  template <class Loc, class T>
  static void write(T v) {
    if constexpr (Loc::control) {
      pmu::Cp0Bus::write<Loc, T>(v);
    } else {
      asm volatile(".set push\n\t.set noreorder\n\tmtc0 $%1, %z0\n\t.rept 8\n\tnop\n\t.endr\n\t.set pop"
                   :
                   : "dJ"(v), "i"(Loc::reg)
                   : "memory");
    }
  }
};
using WrongPmu = rm::Driver<SwappedMtc0Bus>;

std::uint32_t cell[2];

// `trips` passes of: lw, sw, a branch never taken (to the loop's end), a branch always taken to
// the word after its delay slot (taken, although execution goes on where it would anyway), the
// decrement and the loop branch (taken on every pass but the last); each with a nop in its slot.
[[gnu::noinline]] void known_loop(std::uint32_t trips) {
  asm volatile(
      ".set push\n\t.set noreorder\n"
      "1:\tlw $8, 0(%1)\n\tsw $8, 4(%1)\n"
      "\tbltz $0, 2f\n\tnop\n"
      "\tbeq $0, $0, 3f\n\tnop\n"
      "3:\taddiu %0, %0, -1\n\tbnez %0, 1b\n\tnop\n2:\t.set pop"
      : "+r"(trips)
      : "r"(cell)
      : "$8", "memory");
}

// The event's count over known_loop(trips); ~0 if it cannot be counted.
std::uint64_t count(std::uint32_t code, std::uint32_t trips) {
  Pmu::reset();
  if (Pmu::configure(0, {code}) != pmu::Status::ok) return ~std::uint64_t{0};
  Pmu::start(1);
  known_loop(trips);
  Pmu::stop(1);
  return Pmu::read(0);
}

// PerfCount read by an mfc0 in the delay slot of a branch, taken or not (taken: the word after the
// slot must be skipped; not taken: it must run). pmusim intercepts the mfc0 and must resume where
// the branch sends execution. Returns the marks of the words that ran (1: after a taken branch,
// 2: after a not-taken one; 2 is the right answer) and the two reads.
std::uint32_t delay_slot_reads(std::uint32_t& first, std::uint32_t& second) {
  std::uint32_t marks = 0;
  asm volatile(
      ".set push\n\t.set noreorder\n"
      "\tbeq $0, $0, 1f\n\tmfc0 %1, $25\n\tori %0, %0, 1\n"
      "1:\tbne $0, $0, 2f\n\tmfc0 %2, $25\n\tori %0, %0, 2\n"
      "2:\t.set pop"
      : "+r"(marks), "=&r"(first), "=&r"(second));
  return marks;
}

struct Expect {
  const char* name;
  std::uint32_t code, per_trip;
};
// Per extra trip: 9 instructions, 1 load, 1 store, 3 branches issued, 2 taken.
constexpr Expect kExpect[] = {{"INSTR_ISSUED", 0x01, 9}, {"LOADS_ISSUED", 0x04, 1}, {"STORES_ISSUED", 0x05, 1},
                              {"BRANCHES_ISSUED", 0x12, 3}, {"BRANCHES_TAKEN", 0x11, 2},
                              {"DCACHE_MISSES", 0x0C, 0}};

// Interrupt Control TE (bit 7): the timer's request on Cause.IP12 (bit 20 in the RM7000's Cause)
// instead of IP7 (RM7000 datasheet, interrupts: the timer's own Int[12]).
void check_timer_on_ip12(examples::Checks& checks) {
  using Icr = rm::InterruptControl::location;
  using namespace malta_selftest;
  constexpr u32 kTe = 1u << 7, kIp12 = 1u << 20;
  const u32 icr = pmu::Cp0Bus::read<Icr, u32>();
  board::irq_disable();
  pmu::Cp0Bus::write<Icr, u32>(icr | kTe);
  mtc0<kCompare>(mfc0<kCount>() + 20);
  u32 before = 0, after = 0;
  count_around_loop(100, before, after);
  const u32 cause = mfc0<kCause>();
  mtc0<kCompare>(mfc0<kCount>() - 1);
  pmu::Cp0Bus::write<Icr, u32>(icr);
  checks.out.put("Interrupt Control TE: Cause 0x");
  checks.out.hex(cause & (kIp12 | CAUSE_IP7));
  checks.out.line(" (IP12 0x00100000, IP7 0x00008000)");
  checks.check((cause & kIp12) && !(cause & CAUSE_IP7), "with Interrupt Control TE the timer requests IP12, not IP7");
}

}  // namespace

int main() {
  board::init();
  const examples::Console& out = board::console;
  examples::SelfTest test{out, "pmukit pmusim self-test (RM7000)", board::under_pmusim(), "not under pmusim: nothing to test here",
                          board::exit, board::kExitFail};
  examples::Checks& checks = test.checks;
  checks.check(Pmu::probe().status == pmu::Status::ok, "probe finds the model's counter");

  Pmu::reset();
  (void)Pmu::configure(0, {0x01});
  Pmu::start(1);
  std::uint32_t first = 0, second = 0;
  const std::uint32_t marks = delay_slot_reads(first, second);
  Pmu::stop(1);
  out.put("PerfCount read in delay slots: ");
  out.dec(first);
  out.put(", ");
  out.dec(second);
  out.put("; words run after the branches: ");
  out.dec(marks);
  out.put('\n');
  checks.check(marks == 2, "a taken branch skips past its delay slot, a not-taken one falls through");
  checks.check(first != 0 && second == first + 2, "the second read counts two more instructions: its branch and itself");

  for (const Expect& e : kExpect)
    examples::check_per_trip(checks, e.name, e.per_trip, [&](std::uint32_t trips) { return count(e.code, trips); });
  malta_selftest::check_count_compare(checks, malta_selftest::CAUSE_IP7);
  malta_selftest::check_interrupt_on_delay_slot(checks);
  check_timer_on_ip12(checks);

  const pmu::ProbeResult wrong = WrongPmu::probe();
  out.put("wrong mtc0 encoding (rt and rd swapped): probe ");
  out.line(pmu::status_name(wrong.status));
  checks.check(wrong.status != pmu::Status::ok, "a wrong mtc0 encoding is caught");
  checks.check(Pmu::probe().status == pmu::Status::ok, "the real bus still finds the counter");

  test.finish();
}
