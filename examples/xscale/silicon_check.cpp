// XScale conformance image (docs/silicon.md): checks on the part it runs on the rules the XScale
// model (hal/xscale/model.hpp) encodes, one @PMUCHECK line each (examples/common/silicon_check.hpp),
// read back by `pmukit conformance`. The same image passes under pmusim (ctest
// xscale_silicon_check_pmusim); on QEMU, whose PXA270 has only PMNC and CCNT, the PMN rules SKIP.
//
// Counts are exact where silicon's are: INSTR over a loop of known shape and over the measurement's
// own code, which is the same code on every run, so a preset can place an overflow on an exact
// event (calibrated by one run from 0, checked repeatable first). Cycles are never assumed exact.
// The variant (XSC1: 2 PMNs, all in PMNC; XSC2/XSC3: 4 PMNs, INTEN, FLAG, EVTSEL) comes from MIDR.
// The interrupt rules read the PXA2xx interrupt controller (ICPR, PMU source 12); on another
// product, set kIcpr and kPmuSource below to its controller or the irq rules report FAIL.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/silicon_check.hpp"
#include "hal/core/bus/arm_cp.hpp"
#include "hal/xscale/driver.hpp"
#include "profiler/sampler.hpp"

namespace {

namespace xs = pmu::xscale;
using examples::SiliconCheck;
using examples::Text;

// The PXA2xx interrupt controller's pending register (PXA255 Developer's Manual 4.2.2; PXA27x the
// same): a source's bit is set while it requests, whatever ICMR masks. The PMU is source 12.
constexpr std::uintptr_t kIcpr = 0x40D00010;
constexpr std::uint32_t kPmuSource = 1u << 12;
std::uint32_t pmu_pending() { return *reinterpret_cast<volatile std::uint32_t*>(kIcpr) & kPmuSource; }

constexpr const char* kRefCount = "XScale Core Developer's Manual 8.4, Table 8-12 (INSTR)";
constexpr const char* kRefCcnt = "XScale Core Developer's Manual 8.3.1, Table 8-6 (CCNT: core clock cycles)";
constexpr const char* kRefWrap =
    "XScale Core Developer's Manual 8.2.4.1, 8.3.1 (32-bit counters roll over to 0, set their flag)";
constexpr const char* kRefFlag =
    "XScale Core Developer's Manual 8.3 FLAG, 8.2.4 PMNC (overflow flags: write 1 to clear)";
constexpr const char* kRefIrq =
    "XScale Core Developer's Manual 8.3 INTEN, 8.3.1; PXA2xx interrupt controller source 12";
constexpr const char* kRefPmnc = "XScale Core Developer's Manual 8.2.4, 8.3 (PMNC: E, P, C)";

// `trips` (r0, at least 1) passes over the word at `cell` (r1): ldr, add, add, str, cmp, subs, bne.
// Hand-written so its count does not depend on the compiler. Per trip: 7 instructions.
asm(R"(
    .text
    .arm
    .balign 4
    .global xs_check_loop
    .type   xs_check_loop, %function
xs_check_loop:
1:  ldr     r2, [r1]
    add     r2, r2, #1
    add     r3, r2, r0
    str     r2, [r1]
    cmp     r3, #0
    subs    r0, r0, #1
    bne     1b
    bx      lr
    .size   xs_check_loop, . - xs_check_loop
)");
extern "C" void xs_check_loop(std::uint32_t trips, std::uint32_t* cell);
constexpr std::uint32_t kPerTrip = 7;
std::uint32_t cell[2];

// The PMU's interrupt, taken once: the counter and the flags as the handler first reads them.
volatile std::uint32_t g_irq_count = 0, g_irq_flags = 0, g_irq_taken = 0;
void (*g_on_irq)() = nullptr;
void on_pmu_irq(std::uint32_t, std::uint32_t) { g_on_irq(); }

template <class P>
struct Checker {
  SiliconCheck& sc;
  // One measured run: stop, preset PMN0 (slot 1), clear the flags, start, `trips` passes, stop.
  struct Run {
    std::uint32_t count, flags, pending;
  };
  static Run run(std::uint32_t preset, std::uint32_t trips) {
    P::stop(P::kAllSlots);
    P::clear_flags(P::kAllSlots);
    P::write(1, preset);
    P::start(2);
    xs_check_loop(trips, cell);
    P::stop(2);
    return {static_cast<std::uint32_t>(P::read(1)), P::flags(), pmu_pending()};
  }
  static Text count_text(const Run& r) {
    Text t;
    t.hex(r.count).put(r.flags & 2 ? "+flag" : "+noflag");
    return t;
  }

  void all() {
    const pmu::ProbeResult probe = P::probe();
    const std::uint32_t want = P::kAllSlots;
    Text seen;
    seen.put(pmu::status_name(probe.status)).put(",slots=").hex(probe.working_slots, 2);
    Text all_slots;
    all_slots.put("ok,slots=").hex(want, 2);
    sc.rule("probe.every_counter_counts", probe.status == pmu::Status::ok && probe.working_slots == want, seen,
            all_slots, kRefPmnc);
    ccnt_rules(probe);
    if (!(probe.working_slots & 2)) {
      for (const char* r : {"count.instr_per_trip", "count.repeatable", "count.every_pmn_alike",
                            "count.stopped_counter_holds", "count.p_resets_pmns", "wrap.at_2^32",
                            "wrap.keeps_counting", "flag.write_0_keeps", "flag.counter_write_keeps",
                            "flag.two_overflows_both_kept", "flag.w1c_clears_only_named", "irq.pending_at_overflow",
                            "irq.sampling_preset_period", "irq.inten_gates", "irq.taken_with_flag",
                            "irq.events_to_handler"})
        sc.skip(r, "PMN0 does not count here (probe)", kRefPmnc);
    } else {
      pmn_rules(probe);
    }
    sc.skip("freeze", "XScale has no freeze: counters stop only when PMNC.E is cleared", kRefPmnc);
    sc.skip("chain", "XScale counters cannot be linked: every one is 32 bits alone", kRefWrap);
  }

  void ccnt_rules(const pmu::ProbeResult& probe) {
    if (!(probe.working_slots & 1)) {
      for (const char* r : {"ccnt.counts_every_cycle", "ccnt.stopped_holds", "ccnt.wrap_sets_flag"})
        sc.skip(r, "CCNT does not count here (probe)", kRefCcnt);
      return;
    }
    // CCNT counts at least one cycle per instruction (XScale issues one instruction per cycle):
    // against PMN0's INSTR over the same stretch of code (each read one instruction after the
    // other's), where PMN0 counts.
    const bool pmn = (probe.working_slots & 2) != 0;
    P::stop(P::kAllSlots);
    if (pmn) P::configure(1, {xs::event::INSTR});
    P::write(0, 0);
    P::write(1, 0);
    P::start(3);
    const std::uint32_t c0 = P::ccnt(), i0 = static_cast<std::uint32_t>(P::read(1));
    xs_check_loop(1000, cell);
    const std::uint32_t c1 = P::ccnt(), i1 = static_cast<std::uint32_t>(P::read(1));
    P::stop(3);
    const std::uint32_t instr = pmn ? i1 - i0 : 1000 * kPerTrip;
    Text o, e;
    o.put("ccnt=").dec(c1 - c0).put(",instr=").dec(instr);
    e.put(pmn ? "ccnt>=instr" : "ccnt>=7000");
    sc.rule("ccnt.counts_every_cycle", c1 - c0 >= instr, o, e, kRefCcnt);

    // A stopped CCNT keeps its value (QEMU 7.2's reads 0 instead).
    const std::uint32_t held = P::ccnt();
    xs_check_loop(100, cell);
    Text h;
    h.put("before=").dec(held).put(",after=").dec(P::ccnt());
    sc.rule("ccnt.stopped_holds", held == P::ccnt() && held != 0, h, "after=before,nonzero", kRefCcnt);

    // CCNT wraps at 2^32 and sets its flag (cycles are not exact: the preset leaves room).
    P::clear_flags(1);
    P::write(0, 0xFFFFFF00u);
    P::start(1);
    xs_check_loop(200, cell);
    const std::uint32_t wrapped = P::ccnt();
    P::stop(1);
    const bool flag = (P::flags() & 1) != 0;
    Text w;
    w.hex(wrapped).put(flag ? "+flag" : "+noflag");
    sc.rule("ccnt.wrap_sets_flag", wrapped < 0x10000u && flag, w, "small+flag", kRefWrap);
    P::clear_flags(1);
  }

  void pmn_rules(const pmu::ProbeResult& probe) {
    P::stop(P::kAllSlots);
    P::set_overflow_interrupt(P::kAllSlots, false);
    for (unsigned s = 1; s < P::kSlots; ++s) P::configure(s, {xs::event::INSTR});

    // Counting: the loop's 7 instructions per trip, from the difference of two trip counts.
    const std::uint32_t few = run(0, 10).count, many = run(0, 1010).count;
    Text o, e;
    o.dec(many - few);
    e.dec(1000 * kPerTrip);
    sc.rule("count.instr_per_trip", many - few == 1000 * kPerTrip, o, e, kRefCount);

    // The exact rules below place an overflow on one event: the same run must count the same.
    const std::uint32_t trips = 50, c = run(0, trips).count, again = run(0, trips).count;
    Text r;
    r.dec(c).put(",").dec(again);
    const bool exact = c == again && c > trips * kPerTrip;
    sc.rule("count.repeatable", exact, r, "equal", kRefCount);

    // Every PMN counts the same INSTR over one run.
    P::stop(P::kAllSlots);
    for (unsigned s = 1; s < P::kSlots; ++s) P::write(s, 0);
    P::start(P::kAllSlots);
    xs_check_loop(trips, cell);
    P::stop(P::kAllSlots);
    Text every;
    bool alike = true;
    for (unsigned s = 1; s < P::kSlots; ++s) {
      const std::uint32_t v = static_cast<std::uint32_t>(P::read(s));
      every.put(s == 1 ? "" : ",").dec(v);
      alike = alike && v == static_cast<std::uint32_t>(P::read(1)) && (probe.working_slots & (1u << s));
    }
    sc.rule("count.every_pmn_alike", alike, every, "equal", kRefCount);

    // A stopped counter holds (PMNC.E = 0), and PMNC.P resets every PMN.
    const std::uint32_t held = static_cast<std::uint32_t>(P::read(1));
    xs_check_loop(100, cell);
    Text h;
    h.put("before=").dec(held).put(",after=").dec(P::read(1));
    sc.rule("count.stopped_counter_holds", held == P::read(1), h, "after=before", kRefPmnc);
    P::reset_pmns();
    Text pr;
    pr.dec(P::read(1));
    sc.rule("count.p_resets_pmns", P::read(1) == 0 && held != 0, pr, "0", kRefPmnc);

    if (!exact) {
      for (const char* k : {"wrap.at_2^32", "wrap.keeps_counting", "flag.write_0_keeps", "flag.counter_write_keeps",
                            "flag.two_overflows_both_kept", "flag.w1c_clears_only_named",
                            "irq.pending_at_overflow", "irq.sampling_preset_period", "irq.inten_gates"})
        sc.skip(k, "INSTR over the same run is not repeatable here", kRefCount);
    } else {
      exact_rules(c, trips);
    }
    irq_latency();
  }

  // c: INSTR over run(.., trips). A preset of 2^32 - c puts the wrap on the run's last event.
  void exact_rules(std::uint32_t c, std::uint32_t trips) {
    const Run before = run(0u - c - 1u, trips), at = run(0u - c, trips), after = run(0u - c + 7u, trips);
    Text o;
    o.put(count_text(before).c_str()).put(",").put(count_text(at).c_str());
    sc.rule("wrap.at_2^32", before.count == 0xFFFFFFFFu && !(before.flags & 2) && at.count == 0 && (at.flags & 2),
            o, "0xffffffff+noflag,0x00000000+flag", kRefWrap);
    sc.rule("wrap.keeps_counting", after.count == 7 && (after.flags & 2), count_text(after), "0x00000007+flag",
            kRefWrap);

    // The flag: a write of 0 leaves it, a counter write leaves it, a 1 clears only what it names.
    (void)run(0u - c, trips);
    P::write_flags(0);
    const bool kept0 = (P::flags() & 2) != 0;
    P::write(1, 5);
    const bool kept_w = (P::flags() & 2) != 0;
    sc.rule("flag.write_0_keeps", kept0, kept0 ? "set" : "clear", "set", kRefFlag);
    sc.rule("flag.counter_write_keeps", kept_w, kept_w ? "set" : "clear", "set", kRefFlag);

    // Two PMNs overflow in one run (PMN0 first, PMN1 at the last event): both flags kept, and a W1C
    // of PMN0's leaves PMN1's. The PXA27x A-stepping erratum loses the first.
    P::stop(P::kAllSlots);
    P::clear_flags(P::kAllSlots);
    P::write(1, 0u - c + 20u);
    P::write(2, 0u - c);
    P::start(6);
    xs_check_loop(trips, cell);
    P::stop(6);
    const std::uint32_t both = P::flags() & 6;
    Text b;
    b.hex(both, 2);
    sc.answer("flag.two_overflows_both_kept", b,
              "0x06=both_kept(manual)|0x04=first_lost(A-stepping_erratum)", kRefFlag);
    P::clear_flags(2);
    const std::uint32_t left = P::flags() & 6;
    Text l;
    l.hex(left, 2);
    sc.rule("flag.w1c_clears_only_named", both == 6 ? left == 4 : (left & 2) == 0, l, both == 6 ? "0x04" : "no_0x02",
            kRefFlag);
    P::clear_flags(P::kAllSlots);

    // The interrupt request (ICPR, interrupts masked): with INTEN, pending exactly when the flag
    // is; without INTEN, never.
    P::set_overflow_interrupt(2, true);
    const Run one_short = run(0u - c - 1u, trips), on = run(0u - c, trips);
    P::clear_flags(2);
    const std::uint32_t after_clear = pmu_pending();
    Text p;
    p.put(one_short.pending ? "pending" : "idle").put(",").put(on.pending ? "pending" : "idle").put(",")
        .put(after_clear ? "pending" : "idle");
    sc.rule("irq.pending_at_overflow", !one_short.pending && on.pending && !after_clear, p,
            "idle(1_short),pending(at_wrap),idle(flag_cleared)", kRefIrq);
    // The Sampler's preset for a period of c events: the request comes on the run's last event.
    using B = P;
    const std::uint64_t preset = prof::sampling_preset<B>(32, c);
    const Run sampled = run(static_cast<std::uint32_t>(preset), trips);
    const Run early = run(static_cast<std::uint32_t>(prof::sampling_preset<B>(32, c + 1)), trips);
    Text s;
    s.put("period=").dec(c).put(":").put(sampled.pending ? "pending" : "idle").put(",period+1:")
        .put(early.pending ? "pending" : "idle");
    sc.rule("irq.sampling_preset_period", sampled.pending && !early.pending, s, "pending,idle", kRefIrq);
    P::set_overflow_interrupt(2, false);
    const Run gated = run(0u - c, trips);
    sc.rule("irq.inten_gates", (gated.flags & 2) && !gated.pending, gated.pending ? "pending" : "idle", "idle",
            kRefIrq);
    P::clear_flags(P::kAllSlots);
  }

  // The interrupt taken: how many events the counter counted from its overflow to the handler's
  // first read (the board's entry path plus the part's skid).
  void irq_latency() {
    constexpr std::uint32_t kPeriod = 1000;
    g_irq_taken = 0;
    g_on_irq = [] {
      g_irq_count = static_cast<std::uint32_t>(P::read(1));
      g_irq_flags = P::flags();
      P::set_overflow_interrupt(2, false);
      P::clear_flags(2);
      g_irq_taken = g_irq_taken + 1;
    };
    P::stop(P::kAllSlots);
    P::clear_flags(P::kAllSlots);
    P::write(1, static_cast<std::uint32_t>(prof::sampling_preset<P>(32, kPeriod)));
    P::set_overflow_interrupt(2, true);
    board::pmu_irq_start(&on_pmu_irq);
    P::start(2);
    board::irq_enable();
    xs_check_loop(400, cell);  // 2800 instructions: the interrupt comes after 1000
    board::irq_disable();
    P::stop(2);
    board::pmu_irq_stop();
    P::set_overflow_interrupt(P::kAllSlots, false);
    P::clear_flags(P::kAllSlots);
    Text t;
    t.put("taken=").dec(g_irq_taken).put(",flag=").put(g_irq_flags & 2 ? "set" : "clear");
    const bool ok = g_irq_taken == 1 && (g_irq_flags & 2) && g_irq_count < kPeriod;
    sc.rule("irq.taken_with_flag", ok, t, "taken=1,flag=set", kRefIrq);
    if (!ok) {
      sc.skip("irq.events_to_handler", "the interrupt was not taken once", kRefIrq);
      return;
    }
    Text n;
    n.dec(g_irq_count);
    sc.answer("irq.events_to_handler", n, "the board's IRQ entry plus the part's skid, in instructions", kRefIrq);
  }
};

}  // namespace

int main() {
  board::init();
  const std::uint32_t midr = pmu::Regs<pmu::ArmCpBus>::read_raw<xs::MIDR>();
  const xs::Identity id = xs::identify(midr);
  Text part;
  part.put(id.part ? id.part : "unlisted").put(",midr=").hex(midr).put(",").put(xs::variant_name(id.variant));
  SiliconCheck sc{board::console, "xscale", part};
  if (id.variant == xs::Variant::xsc1)
    Checker<xs::Xsc1<pmu::Cp14Bus>>{sc}.all();
  else if (id.variant != xs::Variant::unknown)
    Checker<xs::Xsc2<pmu::Cp14Bus>>{sc}.all();
  else
    sc.skip("probe.every_counter_counts", "MIDR names no XScale core",
            "XScale Core Developer's Manual 7.2 (ID register)");
  sc.finish();
  board::exit(sc.failed() == 0 ? 0 : board::kExitFail);
}
