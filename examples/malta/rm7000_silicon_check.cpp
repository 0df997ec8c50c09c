// RM7000 conformance image (docs/silicon.md): checks on the part it runs on the rules the RM7000
// model (hal/rm7000/model.hpp) encodes, one @PMUCHECK line each (examples/common/silicon_check.hpp),
// read back by `pmukit conformance`; the model's own choices where the datasheet is silent or
// contradicts the drivers (counting on after bit 31, IM13's polarity: hal/rm7000/README.md) are
// ANSWER rows. The same image passes under pmusim (ctest rm7000_silicon_check_pmusim); QEMU has no
// RM7000 (its 5Kc's PRId names another core), so there the probe FAILs and every other rule SKIPs.
//
// Counts are exact where silicon's are: Total instructions issued (event 0x01) over a loop of known
// shape and over the measurement's own code, the same on every run with interrupts off, so a preset
// can place bit 31 on an exact event (calibrated by one run from 0, checked repeatable first).
// Interrupts are opened only with IM13 set: were the datasheet's sentence right (IM13 clear
// enables), an interrupt taken with IM13 clear would reach the board as an unexpected one.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/silicon_check.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/rm7000/driver.hpp"

namespace {

namespace rm = pmu::rm7000;
using Pmu = rm::Driver<pmu::Cp0Bus>;
using examples::SiliconCheck;
using examples::Text;

constexpr const char* kRefCount =
    "RM7000 datasheet, Performance Counters, Table 10 (PerfControl: Event Type 01 total instructions issued)";
constexpr const char* kRefCtl = "RM7000 datasheet, Table 10 (PerfControl: Count in Kernel/User Mode, Count Enable)";
constexpr const char* kRefCount32 = "RM7000 datasheet, Performance Counters (PerfCount: a 32-bit writable counter)";
constexpr const char* kRefBit31 =
    "RM7000 datasheet, Performance Counters (PerfCount causes an interrupt when bit 31 is set)";
constexpr const char* kRefIrq =
    "RM7000 datasheet, Performance Counters (IE=1 and IM[13] of the interrupt control register), interrupt 13";
constexpr std::uint32_t kBit31 = rm::kPerfCountBit31;

// `trips` ($4, at least 1) passes over the word at `cell` ($5): lw, addiu, sw, addiu, bnez and its
// delay slot. Hand-written so its count does not depend on the compiler: 6 instructions per trip.
asm(R"(
    .text
    .balign 4
    .global rm_check_loop
    .type   rm_check_loop, @function
    .set    noreorder
rm_check_loop:
1:  lw      $8, 0($5)
    addiu   $8, $8, 1
    sw      $8, 0($5)
    addiu   $4, $4, -1
    bnez    $4, 1b
    nop
    jr      $31
    nop
    .set    reorder
    .size   rm_check_loop, . - rm_check_loop
)");
extern "C" void rm_check_loop(std::uint32_t trips, std::uint32_t* cell);
constexpr std::uint32_t kPerTrip = 6;
std::uint32_t cell[2];

std::uint32_t count() { return static_cast<std::uint32_t>(Pmu::read(0)); }

// One measured run: stopped, preset, started, `trips` passes, stopped; the count and Cause.IP13.
struct Run {
  std::uint32_t count;
  bool ip13;
};
Run run(std::uint32_t preset, std::uint32_t trips) {
  Pmu::stop(1);
  Pmu::write(0, preset);
  Pmu::start(1);
  rm_check_loop(trips, cell);
  Pmu::stop(1);
  return {count(), Pmu::interrupt_pending()};
}
Text run_text(const Run& r) {
  Text t;
  t.hex(r.count).put(r.ip13 ? "+ip13" : "+noip13");
  return t;
}

// Interrupt 13, taken: count, PerfCount as the handler first reads it; bit 31 cleared (the request).
volatile std::uint32_t g_taken = 0, g_count = 0;
void on_perf(std::uint32_t, std::uint32_t) {
  g_count = count();
  Pmu::stop(1);
  Pmu::clear_overflow(1);
  g_taken = g_taken + 1;
}
void open_ie() {
  board::irq_enable();
  rm_check_loop(4, cell);
  board::irq_disable();
}

struct Checker {
  SiliconCheck& sc;
  static constexpr std::uint32_t kTrips = 50;
  std::uint32_t c_ = 0;  // instructions issued over run(.., kTrips)
  bool exact_ = false;

  static constexpr const char* kRules[] = {
      "count.instr_per_trip", "count.repeatable", "count.user_mode_only_counts_no_kernel_code",
      "count.stopped_counter_holds", "width.32_bits",
      // exact rules, from kFirstExact
      "wrap.bit31_at_2^31", "wrap.counts_on_after_bit31", "wrap.rolls_over_at_2^32", "flag.counter_write_clears_bit31",
      "irq.sampling_preset_period", "irq.im13_polarity", "irq.events_to_handler"};
  static constexpr unsigned kFirstExact = 5;

  void all() {
    const pmu::ProbeResult probe = Pmu::probe();
    Text seen;
    seen.put(pmu::status_name(probe.status));
    const bool ok = probe.status == pmu::Status::ok;
    sc.rule("probe.counter_counts", ok, seen, "ok", kRefCtl);
    if (!ok) {
      for (const char* r : kRules) sc.skip(r, "no RM7000 performance counter here (probe)", kRefCtl);
    } else {
      board::irq_disable();
      Pmu::set_overflow_interrupt(1, false);
      counting();
      if (!exact_) {
        for (unsigned i = kFirstExact; i < sizeof kRules / sizeof kRules[0]; ++i)
          sc.skip(kRules[i], "instructions issued over the same run are not repeatable here", kRefCount);
      } else {
        wrap();
        interrupt();
      }
      Pmu::set_overflow_interrupt(1, false);
      Pmu::reset();
    }
    sc.skip("freeze", "the RM7000 has one counter: Count Enable is its only stop", kRefCtl);
    sc.skip("chain", "the RM7000 has one counter: nothing to chain", kRefCount32);
  }

  void counting() {
    Pmu::configure(0, {rm::event::INSTR_ISSUED, 0, rm::kKernelMode});
    const std::uint32_t few = run(0, 10).count, many = run(0, 1010).count;
    Text o, e;
    o.dec(many - few);
    e.dec(1000 * kPerTrip);
    sc.rule("count.instr_per_trip", many - few == 1000 * kPerTrip, o, e, kRefCount);
    c_ = run(0, kTrips).count;
    const std::uint32_t again = run(0, kTrips).count;
    exact_ = c_ == again && c_ > kTrips * kPerTrip;
    Text r;
    r.dec(c_).put(",").dec(again);
    sc.rule("count.repeatable", exact_, r, "equal", kRefCount);

    // The firmware runs in kernel mode: with Count in User Mode only, nothing counts.
    Pmu::stop(1);
    Pmu::configure(0, {rm::event::INSTR_ISSUED, 0, rm::kUserMode});
    const std::uint32_t user = run(0, kTrips).count;
    Pmu::configure(0, {rm::event::INSTR_ISSUED, 0, rm::kKernelMode});
    Text u;
    u.dec(user);
    sc.rule("count.user_mode_only_counts_no_kernel_code", user == 0, u, "0", kRefCtl);

    const std::uint32_t held = run(0, kTrips).count;
    rm_check_loop(100, cell);
    Text h;
    h.put("before=").dec(held).put(",after=").dec(count());
    sc.rule("count.stopped_counter_holds", held == count() && held != 0, h, "after=before", kRefCtl);

    // 32 bits written (stopped) read back; bit 31 requests interrupt 13 at once (IE is off).
    Pmu::write(0, 0xFFFFFFFFu);
    const std::uint32_t ones = count();
    Pmu::write(0, 0xA5A5A5A5u);
    const std::uint32_t pat = count();
    Pmu::write(0, 0);
    Text w;
    w.hex(ones).put(",").hex(pat);
    sc.rule("width.32_bits", ones == 0xFFFFFFFFu && pat == 0xA5A5A5A5u, w, "0xffffffff,0xa5a5a5a5", kRefCount32);
  }

  // Bit 31 sets on the event that takes the count to 0x80000000 and requests interrupt 13 (Cause.IP13);
  // writing the count with bit 31 clear removes the request.
  void wrap() {
    const Run before = run(kBit31 - c_ - 1, kTrips), at = run(kBit31 - c_, kTrips);
    Text o;
    o.put(run_text(before).c_str()).put(",").put(run_text(at).c_str());
    sc.rule("wrap.bit31_at_2^31", before.count == kBit31 - 1 && !before.ip13 && at.count == kBit31 && at.ip13, o,
            "0x7fffffff+noip13,0x80000000+ip13", kRefBit31);
    const Run on = run(kBit31 - c_ + 7, kTrips);
    Text a;
    a.put(on.count == kBit31 + 7 ? "counts_on" : on.count == kBit31 ? "stops_at_bit31" : "other").put("(")
        .put(run_text(on).c_str()).put(")");
    sc.answer("wrap.counts_on_after_bit31", a, "counts_on(0x80000007:the_model,OpenBSD)|stops_at_bit31(0x80000000)",
              kRefBit31);
    const Run rolled = run(0u - c_ + 7, kTrips);
    sc.rule("wrap.rolls_over_at_2^32", rolled.count == 7 && !rolled.ip13, run_text(rolled), "0x00000007+noip13",
            kRefCount32);

    (void)run(kBit31 - c_ + 5, kTrips);
    Pmu::clear_overflow(1);
    const Run cleared{count(), Pmu::interrupt_pending()};
    sc.rule("flag.counter_write_clears_bit31", cleared.count == 5 && !cleared.ip13, run_text(cleared),
            "0x00000005+noip13", kRefBit31);
  }

  void interrupt() {
    // The driver's preset for a period of c events: bit 31 (and IP13) on the run's last event.
    const auto sampled = [&](std::uint32_t period) {
      Pmu::stop(1);
      Pmu::preset_for_sampling(0, period);
      return run(count(), kTrips).ip13;
    };
    const bool late = sampled(c_ + 1), on = sampled(c_);
    Pmu::write(0, 0);
    Text s;
    s.put("period=").dec(c_).put(":").put(on ? "ip13" : "idle").put(",period+1:").put(late ? "ip13" : "idle");
    sc.rule("irq.sampling_preset_period", on && !late, s, "ip13,idle", kRefBit31);

    // Taken: IM13 set, IE opened with bit 31 set (never with IM13 clear: header comment).
    if (!board::set_perf_handler(&on_perf)) {
      sc.skip("irq.im13_polarity", "the board routes interrupt 13 only on an RM7000 (PRId)", kRefIrq);
      sc.skip("irq.events_to_handler", "the board routes interrupt 13 only on an RM7000 (PRId)", kRefIrq);
      return;
    }
    g_taken = 0;
    Pmu::set_overflow_interrupt(1, true);
    (void)run(kBit31 - c_, kTrips);
    open_ie();
    const std::uint32_t taken = g_taken;
    Pmu::clear_overflow(1);
    Text p;
    p.put(taken == 1 ? "set_enables" : "clear_enables_or_unwired").put("(im13=1:taken=").dec(taken).put(")");
    sc.answer("irq.im13_polarity", p,
              "set_enables(the_model,OpenBSD,Linux)|clear_enables(the_datasheet's_sentence)", kRefIrq);

    // Interrupts on: the events from bit 31 to the handler's first read.
    constexpr std::uint32_t kPeriod = 1000;
    g_taken = 0;
    g_count = 0;
    Pmu::stop(1);
    Pmu::preset_for_sampling(0, kPeriod);
    Pmu::start(1);
    board::irq_enable();
    rm_check_loop(400, cell);  // 2400 instructions: bit 31 after 1000
    board::irq_disable();
    Pmu::stop(1);
    Pmu::set_overflow_interrupt(1, false);
    Pmu::clear_overflow(1);
    Text n;
    if (g_taken == 1 && g_count >= kBit31) {
      n.dec(g_count - kBit31);
      sc.answer("irq.events_to_handler", n, "the_board's_exception_entry+the_part's_skid,in_instructions", kRefIrq);
    } else {
      n.put("taken=").dec(g_taken).put(",count=").hex(g_count);
      sc.answer("irq.events_to_handler", n, "taken=1_with_IM13_set(else_see_irq.im13_polarity)", kRefIrq);
    }
    board::set_perf_handler(nullptr);
  }
};

}  // namespace

int main() {
  board::init();
  Text part;
  part.put("prid=").hex(board::prid()).put(board::under_pmusim() ? ",pmusim" : "");
  SiliconCheck sc{board::console, "rm7000", part};
  Checker{sc}.all();
  sc.finish();
  board::exit(sc.failed() == 0 ? 0 : board::kExitFail);
}
