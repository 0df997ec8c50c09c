// e500 conformance image (docs/silicon.md): checks on the part it runs on the rules the e500 model
// (hal/e500/model.hpp) encodes, one @PMUCHECK line each (examples/common/silicon_check.hpp), read
// back by `pmukit conformance`; the open questions of the model (hal/e500/README.md) are ANSWER
// rows. The same image passes under pmusim (ctest e500_silicon_check_pmusim); QEMU 7.2's e500 has
// no performance monitor, so there every rule SKIPs.
//
// Counts are exact where silicon's are: instructions completed (event 2) over a loop of known shape
// and over the measurement's own code, the same on every run, so a preset can place the overflow
// condition or a rollover on an exact event (calibrated by one run from 0, checked repeatable).
// Freezing and the interrupt are observed, with the events past the condition reported as found.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/silicon_check.hpp"
#include "hal/core/bus/pmr.hpp"
#include "hal/e500/driver.hpp"

namespace {

namespace e5 = pmu::e500;
using Pmu = e5::Driver<pmu::PmrBus>;
using R = pmu::Regs<pmu::PmrBus>;
using examples::SiliconCheck;
using examples::Text;

constexpr const char* kRefCount =
    "e500 Core Reference Manual 7.2.7, Table 7-10 (event 2: instructions completed)";
constexpr const char* kRefCond =
    "e500 Core Reference Manual 7.2.7, Table 7-6 (overflow condition: PMCn bit 31)";
constexpr const char* kRefFreeze =
    "e500 Core Reference Manual 7.2.1, Table 7-3 (PMGC0: FAC, FCECE), 7.2.3 (PMLCa: FC, CE)";
constexpr const char* kRefIrq =
    "e500 Core Reference Manual 7.4, Table 7-3 (PMIE: cleared when the interrupt occurs)";
constexpr const char* kRefChain =
    "e500 Core Reference Manual 7.6.1 (chaining: increments when the first counter rolls over to zero)";
constexpr std::uint32_t kOv = 0x80000000u;
constexpr std::uint32_t kInstr = 2;

// `trips` (r3, at least 1) passes over the word at `cell` (r4): lwz, addi, stw, bdnz. Hand-written
// so its count does not depend on the compiler. Per trip: 4 instructions completed.
asm(R"(
    .text
    .balign 4
    .global e5_check_loop
    .type   e5_check_loop, @function
e5_check_loop:
    mtctr   3
1:  lwz     5, 0(4)
    addi    5, 5, 1
    stw     5, 0(4)
    bdnz    1b
    blr
    .size   e5_check_loop, . - e5_check_loop
)");
extern "C" void e5_check_loop(std::uint32_t trips, std::uint32_t* cell);
constexpr std::uint32_t kPerTrip = 4;
std::uint32_t cell[2];

std::uint32_t pmc(unsigned n) { return static_cast<std::uint32_t>(Pmu::read(n)); }

// One measured run: PMC0 preset, `mask` started (PMC0 and whatever else is programmed), `trips`
// passes, `mask` stopped.
std::uint32_t run(std::uint32_t preset, std::uint32_t trips, std::uint32_t mask = 1) {
  Pmu::stop(0xF);
  Pmu::write(0, preset);
  Pmu::start(mask);
  e5_check_loop(trips, cell);
  Pmu::stop(mask);
  return pmc(0);
}

// The performance monitor interrupt: taken count, PMGC0[PMIE] and PMC0 as the handler finds them.
volatile std::uint32_t g_taken = 0, g_pmie = 0, g_pmc0 = 0;
void on_perfmon(std::uint32_t, std::uint32_t) {
  g_pmc0 = pmc(0);
  g_pmie = R::read(e5::pmgc0_pmie<>);
  Pmu::set_overflow_interrupt(1, false);  // CE = 0: the condition no longer signals
  g_taken = g_taken + 1;
}

// MSR[EE] open for a few instructions: a pending performance monitor interrupt is taken there.
void open_ee() {
  board::ee_enable();
  e5_check_loop(4, cell);
  board::ee_disable();
}

struct Checker {
  SiliconCheck& sc;

  void all() {
    const pmu::ProbeResult probe = Pmu::probe();
    Text seen;
    seen.put(pmu::status_name(probe.status)).put(",slots=").hex(probe.working_slots, 1);
    const bool ok = probe.status == pmu::Status::ok && probe.working_slots == 0xF;
    sc.rule("probe.every_counter_counts", ok, seen, "ok,slots=0xf", kRefCount);
    if (!ok) {
      for (const char* r : kRules) sc.skip(r, "no working performance monitor here (probe)", kRefCount);
      return;
    }
    board::set_perfmon_handler(&on_perfmon);
    Pmu::reset();
    for (unsigned s = 0; s < 4; ++s) Pmu::configure(s, {kInstr});
    counting();
    if (!exact_) {
      for (unsigned i = kFirstExact; i < sizeof kRules / sizeof kRules[0]; ++i)
        sc.skip(kRules[i], "instructions completed over the same run are not repeatable here", kRefCount);
    } else {
      condition();
      interrupt();
      freeze();
      chain();
    }
    Pmu::reset();
    board::set_perfmon_handler(nullptr);
  }

  static constexpr const char* kRules[] = {
      "count.instr_per_trip", "count.repeatable", "count.every_pmc_alike", "count.fc_holds",
      "freeze.fac_freezes_all",
      // exact rules, from kFirstExact
      "wrap.condition_at_bit31", "wrap.rolls_over_to_0", "flag.clear_keeps_bits_30_0",
      "irq.sampling_preset_period", "irq.clears_pmie", "irq.events_to_handler", "freeze.fcece_at_condition",
      "freeze.fcece_skid", "freeze.fcece_on_state_or_edge", "chain.counts_rollovers", "chain.bit31_is_not_rollover",
      "chain.on_write_clearing_bit31"};
  static constexpr unsigned kFirstExact = 5;
  bool exact_ = false;
  std::uint32_t c_ = 0;  // events PMC0 counts over run(.., kTrips)
  static constexpr std::uint32_t kTrips = 50;

  void counting() {
    const std::uint32_t few = run(0, 10), many = run(0, 1010);
    Text o, e;
    o.dec(many - few);
    e.dec(1000 * kPerTrip);
    sc.rule("count.instr_per_trip", many - few == 1000 * kPerTrip, o, e, kRefCount);

    c_ = run(0, kTrips);
    const std::uint32_t again = run(0, kTrips);
    exact_ = c_ == again && c_ > kTrips * kPerTrip;
    Text r;
    r.dec(c_).put(",").dec(again);
    sc.rule("count.repeatable", exact_, r, "equal", kRefCount);

    // All four over one run (stop(0xF) freezes them by FAC on one instruction, start(0xF) releases
    // them by FAC).
    Pmu::stop(0xF);
    for (unsigned s = 0; s < 4; ++s) Pmu::write(s, 0);
    Pmu::start(0xF);
    e5_check_loop(kTrips, cell);
    Pmu::stop(0xF);
    Text every;
    bool alike = true;
    for (unsigned s = 0; s < 4; ++s) {
      every.put(s ? "," : "").dec(pmc(s));
      alike = alike && pmc(s) == pmc(0) && pmc(s) != 0;
    }
    sc.rule("count.every_pmc_alike", alike, every, "equal", kRefCount);

    // PMLCa0[FC] holds PMC0 while PMC1 counts; PMGC0[FAC] holds all.
    Pmu::stop(0xF);
    for (unsigned s = 0; s < 4; ++s) Pmu::write(s, 0);
    Pmu::start(2);
    e5_check_loop(kTrips, cell);
    Pmu::stop(2);
    Text fc;
    fc.put("pmc0=").dec(pmc(0)).put(",pmc1=").dec(pmc(1));
    sc.rule("count.fc_holds", pmc(0) == 0 && pmc(1) != 0, fc, "pmc0=0,pmc1>0", kRefFreeze);
    Pmu::write(1, 0);
    Pmu::start(0xF);
    Pmu::freeze_all();
    const std::uint32_t held[2] = {pmc(0), pmc(1)};
    e5_check_loop(kTrips, cell);
    Text fac;
    fac.put("moved=").dec(pmc(0) - held[0]).put(",").dec(pmc(1) - held[1]);
    sc.rule("freeze.fac_freezes_all", pmc(0) == held[0] && pmc(1) == held[1] && Pmu::all_frozen(), fac, "moved=0,0",
            kRefFreeze);
    Pmu::stop(0xF);
  }

  // The condition is bit 31 itself: set on the event that takes the count to 0x80000000, gone when
  // the count rolls over to 0 (it keeps counting) or bit 31 is written 0.
  void condition() {
    const std::uint32_t before = run(kOv - c_ - 1, kTrips);
    const bool before_cond = Pmu::overflow_status() & 1;
    const std::uint32_t at = run(kOv - c_, kTrips);
    const bool at_cond = Pmu::overflow_status() & 1;
    Text o;
    o.hex(before).put(before_cond ? "+cond" : "+nocond").put(",").hex(at).put(at_cond ? "+cond" : "+nocond");
    sc.rule("wrap.condition_at_bit31", before == kOv - 1 && !before_cond && at == kOv && at_cond, o,
            "0x7fffffff+nocond,0x80000000+cond", kRefCond);
    const std::uint32_t rolled = run(0u - c_ + 7u, kTrips);
    const bool rolled_cond = Pmu::overflow_status() & 1;
    Text w;
    w.hex(rolled).put(rolled_cond ? "+cond" : "+nocond");
    sc.rule("wrap.rolls_over_to_0", rolled == 7 && !rolled_cond, w, "0x00000007+nocond", kRefCond);
    (void)run(kOv - c_ + 5u, kTrips);
    Pmu::clear_overflow(1);
    Text cl;
    cl.hex(pmc(0)).put(Pmu::overflow_status() & 1 ? "+cond" : "+nocond");
    sc.rule("flag.clear_keeps_bits_30_0", pmc(0) == 5 && !(Pmu::overflow_status() & 1), cl, "0x00000005+nocond",
            kRefCond);
  }

  // The interrupt: the condition from preset_for_sampling after exactly the period (MSR[EE] clear),
  // taken when EE opens, PMIE cleared by the part; then how far past the condition the handler reads.
  void interrupt() {
    board::ee_disable();
    Pmu::set_overflow_interrupt(1, true);  // CE and PMIE
    g_taken = 0;
    // The driver's preset, then the very run c_ was calibrated on (the same start and stop path).
    const auto sampled = [&](std::uint32_t period) {
      Pmu::stop(0xF);
      Pmu::preset_for_sampling(0, period);
      run(pmc(0), kTrips);
      open_ee();
    };
    sampled(c_ + 1);
    const std::uint32_t short_taken = g_taken;
    sampled(c_);
    const std::uint32_t taken = g_taken - short_taken;
    Text s;
    s.put("period=").dec(c_).put(":taken=").dec(taken).put(",period+1:taken=").dec(short_taken);
    sc.rule("irq.sampling_preset_period", taken == 1 && short_taken == 0, s, "taken=1,taken=0", kRefIrq);
    Text p;
    p.put("pmie_in_handler=").dec(g_pmie);
    sc.rule("irq.clears_pmie", taken == 1 && g_pmie == 0, p, "pmie_in_handler=0", kRefIrq);

    constexpr std::uint32_t kPeriod = 1000;
    Pmu::stop(0xF);
    Pmu::set_overflow_interrupt(1, true);
    Pmu::preset_for_sampling(0, kPeriod);
    g_taken = 0;
    Pmu::start(1);
    board::ee_enable();
    e5_check_loop(1000, cell);  // 4000 instructions: the interrupt comes after 1000
    board::ee_disable();
    Pmu::stop(1);
    Pmu::set_overflow_interrupt(1, false);
    Text n;
    if (g_taken == 1 && g_pmc0 >= kOv) {
      n.dec(g_pmc0 - kOv);
      sc.answer("irq.events_to_handler", n, "the board's IVOR35 entry plus the part's skid, in instructions", kRefIrq);
    } else {
      n.put("taken=").dec(g_taken).put(",pmc0=").hex(g_pmc0);
      sc.rule("irq.events_to_handler", false, n, "taken=1,pmc0>=0x80000000", kRefIrq);
    }
    Pmu::enable_interrupt(false);
  }

  // FCECE: an enabled condition (bit 31 with CE) freezes every counter by setting FAC. Also: does
  // a condition already present when counting starts freeze (the condition as a state), or only
  // one that newly appears (an edge)? The model's question (hal/e500/README.md).
  void freeze() {
    Pmu::stop(0xF);
    Pmu::set_overflow_interrupt(1, true);
    Pmu::enable_interrupt(false);  // CE only
    Pmu::set_freeze_on_condition(true);
    Pmu::write(0, kOv - 500);
    Pmu::write(1, 0);
    Pmu::start(3);
    e5_check_loop(1000, cell);
    const bool frozen = Pmu::all_frozen();
    const std::uint32_t past = pmc(0) - kOv;
    Pmu::stop(0xF);
    Text f;
    f.put("fac=").dec(frozen).put(",pmc0=").hex(past + kOv);
    sc.rule("freeze.fcece_at_condition", frozen && past < 64, f, "fac=1,pmc0=0x80000000+skid", kRefFreeze);
    Text k;
    k.dec(past);
    sc.answer("freeze.fcece_skid", k, "events counted past the condition before the freeze", kRefFreeze);

    // The condition present before the release: PMC0 = 0x80000000 with CE, FCECE, then start.
    Pmu::stop(0xF);
    Pmu::write(0, kOv);
    Pmu::write(1, 0);
    Pmu::start(3);
    e5_check_loop(kTrips, cell);
    const bool refroze = Pmu::all_frozen();
    const std::uint32_t counted = pmc(1);
    Pmu::stop(0xF);
    Text st;
    st.put(refroze && counted < kTrips * kPerTrip ? "state" : "edge").put("(fac=").dec(refroze).put(",pmc1=")
        .dec(counted).put(")");
    sc.answer("freeze.fcece_on_state_or_edge", st,
              "state=freezes_at_once_on_msb=1_and_CE=1|edge=only_when_the_condition_newly_appears", kRefFreeze);
    Pmu::set_freeze_on_condition(false);
    Pmu::set_overflow_interrupt(1, false);
    Pmu::unfreeze_all();
    Pmu::stop(0xF);
  }

  // Chaining: PMC1 counts event 82, PMC0's rollovers to zero.
  void chain() {
    Pmu::stop(0xF);
    const pmu::Status linked = Pmu::link(0, 1);
    if (linked != pmu::Status::ok) {
      for (const char* r : {"chain.counts_rollovers", "chain.bit31_is_not_rollover", "chain.on_write_clearing_bit31"})
        sc.skip(r, pmu::status_name(linked), kRefChain);
      return;
    }
    // Calibrated with both started, as in every run below.
    Pmu::write(1, 0);
    const std::uint32_t c = run(0, kTrips, 3);
    const auto chained = [&](std::uint32_t preset) {
      Pmu::write(1, 0);
      run(preset, kTrips, 3);
      return pmc(1);
    };
    const std::uint32_t one_short = chained(0u - c - 1u), at = chained(0u - c), past = chained(0u - c + 3u);
    Text o;
    o.dec(one_short).put(",").dec(at).put(",").dec(past);
    sc.rule("chain.counts_rollovers", one_short == 0 && at == 1 && past == 1, o, "0,1,1", kRefChain);
    const std::uint32_t bit31 = chained(kOv - c + 3u);
    Text b;
    b.dec(bit31);
    sc.rule("chain.bit31_is_not_rollover", bit31 == 0, b, "0", kRefChain);

    // A software write that clears bit 31 of PMC0 (what clear_overflow does): while both count,
    // and while both are frozen.
    Pmu::stop(0xF);
    Pmu::write(0, kOv + 0x10);
    Pmu::write(1, 0);
    Pmu::start(3);
    Pmu::write(0, 0x10);
    Pmu::stop(3);
    const std::uint32_t running = pmc(1);
    Pmu::write(0, kOv + 0x10);
    Pmu::write(1, 0);
    Pmu::write(0, 0x10);
    Pmu::start(3);
    Pmu::stop(3);
    const std::uint32_t frozen = pmc(1);
    Text w;
    w.put("running:").put(running ? "counts" : "no").put(",frozen:").put(frozen ? "counts" : "no");
    sc.answer("chain.on_write_clearing_bit31", w, "no(rollover_only)|counts(any_bit31_1_to_0)", kRefChain);
    Pmu::reset();
  }
};

}  // namespace

int main() {
  board::init();
  const std::uint32_t pvr = R::read_raw<e5::PVR>();
  Text part;
  part.put("pvr=").hex(pvr).put(board::under_pmusim() ? ",pmusim" : "");
  SiliconCheck sc{board::console, "e500", part};
  Checker{sc}.all();
  sc.finish();
  board::exit(sc.failed() == 0 ? 0 : board::kExitFail);
}
