// NetBurst conformance image (docs/silicon.md): checks on the Pentium 4 it runs on the rules the
// NetBurst model (hal/netburst/model.hpp) encodes, one @PMUCHECK line each
// (examples/common/silicon_check.hpp), read back by `pmukit conformance`; what the model leaves open
// (hal/netburst/README.md: the OVF-late quirk the driver guards, the interrupt's skid) are ANSWER
// rows. The same image passes under pmusim (ctest netburst_silicon_check_pmusim); QEMU's Pentium 4
// has no performance monitoring (IA32_MISC_ENABLE bit 7 clear), so there the probe FAILs and every
// other rule SKIPs.
//
// Counts are exact where silicon's are: instr_retired NBOGUSNTAG (no uop_type ESCR tags anything
// here, so every retired instruction is untagged) over a loop of known shape and over the
// measurement's own code, the same on every run with interrupts off, so a preset can place an
// overflow or the PMI on an exact event (calibrated by one run from 0, checked repeatable first).
// The counters are the IQ block's (12 to 17: CRU_ESCR0 feeds 12, 13, 16; CRU_ESCR1 14, 15, 17);
// the cascade is 12 -> 14.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/silicon_check.hpp"
#include "hal/netburst/driver.hpp"

namespace {

namespace nb = pmu::netburst;
using Pmu = nb::Driver<nb::HwBus>;
using R = pmu::Regs<nb::HwBus>;
using examples::SiliconCheck;
using examples::Text;

constexpr const char* kRefCount =
    "Intel SDM Vol. 3B, Table 19-29 (instr_retired NBOGUSNTAG: non-bogus untagged instructions), 18.15.6.2";
constexpr const char* kRefWidth = "Intel SDM Vol. 3B, 18.15.2 (40-bit counters), Table 18-63";
constexpr const char* kRefOvf =
    "Intel SDM Vol. 3B, 18.15.3 (CCCR OVF: set when the counter overflows, sticky, cleared by software)";
constexpr const char* kRefPmi =
    "Intel SDM Vol. 3B, 18.15.3 (CCCR OVF_PMI: the PMI on the next event count after the overflow), 18.15.5.8";
constexpr const char* kRefLvt =
    "Intel SDM Vol. 3B, 18.15.5.8 (Pentium 4 masks the LVT performance counter entry on each PMI)";
constexpr const char* kRefCascade =
    "Intel SDM Vol. 3B, 18.15.5.6 (Cascading Counters, Example 18-1), Halting Event Counting";
constexpr const char* kRefStart = "Intel SDM Vol. 3B, 18.15.3 (CCCR ENABLE), Starting Event Counting";

constexpr unsigned kLo = 12, kHi = 14;  // IQ_COUNTER0 -> IQ_COUNTER2 (18.15.5.6: 0<->2 per block)
constexpr std::uint32_t kBit = 1u << kLo;
constexpr std::uint64_t kWrap = std::uint64_t{1} << 40;
constexpr std::uint64_t kMask40 = kWrap - 1;

// `trips` (at least 1) passes over the word at `cell`: mov, add, mov, dec, jnz. Hand-written so its
// count does not depend on the compiler. Per trip: 5 instructions retired.
asm(R"(
    .text
    .balign 4
    .global nb_check_loop
    .type   nb_check_loop, @function
nb_check_loop:
    movl    4(%esp), %ecx
    movl    8(%esp), %edx
1:  movl    (%edx), %eax
    addl    $1, %eax
    movl    %eax, (%edx)
    decl    %ecx
    jnz     1b
    ret
    .size   nb_check_loop, . - nb_check_loop
)");
extern "C" void nb_check_loop(std::uint32_t trips, std::uint32_t* cell);
constexpr std::uint32_t kPerTrip = 5;
std::uint32_t cell[2];

template <unsigned N>
bool ovf() {
  return (R::read_raw<nb::Cccr<N>>() & nb::cccr::OVF) != 0;
}

// One measured run on `slot` (default: the low counter): preset, started, `trips` passes, stopped.
std::uint64_t run(std::uint64_t preset, std::uint32_t trips, unsigned slot = kLo) {
  Pmu::stop(1u << slot);
  Pmu::write(slot, preset);
  Pmu::start(1u << slot);
  nb_check_loop(trips, cell);
  Pmu::stop(1u << slot);
  return Pmu::read(slot);
}

// The PMI as the handler first finds it: taken count, counter, OVF and the LVT entry's mask.
volatile std::uint32_t g_taken = 0, g_ovf = 0, g_masked = 0;
volatile std::uint64_t g_count = 0;
void on_pmi(std::uint32_t, std::uint32_t) {
  g_count = Pmu::read(kLo);
  g_ovf = ovf<kLo>();
  g_masked = Pmu::pmi_masked();
  Pmu::clear_overflow(kBit);  // OVF first, then the LVT entry unmasked (hal/netburst/README.md)
  g_taken = g_taken + 1;
}

// EFLAGS.IF open for a few instructions: a PMI the APIC holds is taken there.
void open_if() {
  board::irq_enable();
  nb_check_loop(4, cell);
  board::irq_disable();
}

struct Checker {
  SiliconCheck& sc;

  static constexpr const char* kRules[] = {
      "count.instr_per_trip", "count.repeatable", "count.every_iq_counter_alike", "count.stopped_counter_holds",
      "width.40_bits",
      // exact rules, from kFirstExact
      "wrap.at_2^40", "wrap.keeps_counting", "flag.ovf_sticky_until_written_0", "irq.pmi_on_next_event_after_overflow",
      "irq.lvt_masked_by_pmi", "irq.ovf_set_when_pmi_taken", "irq.events_to_handler", "cascade.hi_starts_at_lo_overflow",
      "cascade.hi_counts_every_event_after", "cascade.clearing_lo_ovf_halts_hi"};
  static constexpr unsigned kFirstExact = 5;
  static constexpr std::uint32_t kTrips = 50;
  bool exact_ = false;
  std::uint64_t c_ = 0;  // events the low counter counts over run(.., kTrips)

  void all() {
    const pmu::ProbeResult probe = Pmu::probe();
    Text seen;
    seen.put(pmu::status_name(probe.status));
    const bool ok = probe.status == pmu::Status::ok;
    sc.rule("probe.counter_counts", ok, seen, "ok", kRefStart);
    if (!ok) {
      for (const char* r : kRules) sc.skip(r, "no working performance monitoring here (probe)", kRefStart);
    } else {
      board::irq_disable();
      Pmu::reset();
      constexpr nb::Request kInstr = nb::checked("instr_retired:NBOGUSNTAG");
      for (unsigned s = 12; s < 18; ++s) (void)Pmu::configure(s, nb::config_of(kInstr));
      counting();
      if (!exact_) {
        for (unsigned i = kFirstExact; i < sizeof kRules / sizeof kRules[0]; ++i)
          sc.skip(kRules[i], "instr_retired over the same run is not repeatable here", kRefCount);
      } else {
        wrap();
        interrupt();
        cascade();
      }
      Pmu::reset();
    }
    sc.skip("freeze", "NetBurst has no global freeze: a counter stops only by its CCCR (ENABLE, CASCADE)", kRefStart);
  }

  void counting() {
    const std::uint64_t few = run(0, 10), many = run(0, 1010);
    Text o, e;
    o.dec(many - few);
    e.dec(1000 * kPerTrip);
    sc.rule("count.instr_per_trip", many - few == 1000 * kPerTrip, o, e, kRefCount);

    c_ = run(0, kTrips);
    const std::uint64_t again = run(0, kTrips);
    exact_ = c_ == again && c_ > kTrips * kPerTrip;
    Text r;
    r.dec(c_).put(",").dec(again);
    sc.rule("count.repeatable", exact_, r, "equal", kRefCount);

    // Every IQ counter counts the loop alike (the difference of two trip counts: each counter's
    // start and stop is its own code).
    Text every;
    bool alike = true;
    for (unsigned s = 12; s < 18; ++s) {
      const std::uint64_t d = run(0, 1010, s) - run(0, 10, s);
      every.put(s == 12 ? "" : ",").dec(d);
      alike = alike && d == 1000 * kPerTrip;
    }
    sc.rule("count.every_iq_counter_alike", alike, every, "5000_each", kRefCount);

    // A stopped counter (ENABLE clear) holds.
    const std::uint64_t held = run(0, kTrips);
    nb_check_loop(100, cell);
    Text h;
    h.put("before=").dec(held).put(",after=").dec(Pmu::read(kLo));
    sc.rule("count.stopped_counter_holds", held == Pmu::read(kLo) && held != 0, h, "after=before", kRefStart);

    // 40 bits: every bit written reads back (rdpmc), bit 32 and up included.
    Pmu::stop(kBit);
    Pmu::write(kLo, kMask40);
    const std::uint64_t ones = Pmu::read(kLo);
    Pmu::write(kLo, std::uint64_t{0xA5} << 32 | 0x5A5A5A5Au);
    const std::uint64_t pattern = Pmu::read(kLo);
    Text w;
    w.hex(ones, 10).put(",").hex(pattern, 10);
    sc.rule("width.40_bits", ones == kMask40 && pattern == (std::uint64_t{0xA5} << 32 | 0x5A5A5A5Au), w,
            "0xffffffffff,0xa55a5a5a5a", kRefWidth);
    Pmu::write(kLo, 0);
  }

  static Text count_text(std::uint64_t v, bool flag) {
    Text t;
    t.hex(v, 10).put(flag ? "+ovf" : "+noovf");
    return t;
  }

  // A counter wraps from 2^40 - 1 to 0, sets OVF there and counts on; OVF stays set through more
  // counting and a counter write, and goes only when software writes it 0.
  void wrap() {
    Pmu::clear_overflow(kBit);
    const std::uint64_t before = run(kWrap - c_ - 1, kTrips);
    const bool before_ovf = ovf<kLo>();
    Pmu::clear_overflow(kBit);
    const std::uint64_t at = run(kWrap - c_, kTrips);
    const bool at_ovf = ovf<kLo>();
    Text o;
    o.put(count_text(before, before_ovf).c_str()).put(",").put(count_text(at, at_ovf).c_str());
    sc.rule("wrap.at_2^40", before == kMask40 && !before_ovf && at == 0 && at_ovf, o,
            "0xffffffffff+noovf,0x0000000000+ovf", kRefOvf);
    Pmu::clear_overflow(kBit);
    const std::uint64_t after = run(kWrap - c_ + 7, kTrips);
    const bool after_ovf = ovf<kLo>();
    sc.rule("wrap.keeps_counting", after == 7 && after_ovf, count_text(after, after_ovf), "0x0000000007+ovf", kRefOvf);

    // OVF (set by the run above): another run from 0, a counter write, then OVF written 0.
    run(0, kTrips);
    const bool kept_run = ovf<kLo>();
    Pmu::write(kLo, 5);
    const bool kept_write = ovf<kLo>();
    Pmu::clear_overflow(kBit);
    const bool cleared = !ovf<kLo>();
    Text s;
    s.put("run:").put(kept_run ? "set" : "clear").put(",counter_write:").put(kept_write ? "set" : "clear")
        .put(",ovf_written_0:").put(cleared ? "clear" : "set");
    sc.rule("flag.ovf_sticky_until_written_0", kept_run && kept_write && cleared, s,
            "run:set,counter_write:set,ovf_written_0:clear", kRefOvf);
  }

  // The PMI (interrupts off, so the local APIC holds it until IF opens): with the driver's preset for
  // a period of c events it comes on the run's last event; for c + 1 the counter overflows on the
  // last event and no event follows, so no PMI (the SDM: on the next event count after the
  // overflow; a part that interrupts at the overflow itself takes it for c + 1 too).
  void interrupt() {
    if (!board::set_perf_handler(&on_pmi)) {
      for (const char* r : {"irq.pmi_on_next_event_after_overflow", "irq.lvt_masked_by_pmi",
                            "irq.ovf_set_when_pmi_taken", "irq.events_to_handler"})
        sc.skip(r, "no local APIC (CPUID.01H:EDX.APIC clear)", kRefLvt);
      return;
    }
    Pmu::set_apic_base(board::apic_base());
    Pmu::set_pmi_vector(board::kPmiVector);
    Pmu::set_overflow_interrupt(kBit, true);
    g_taken = 0;
    const auto sampled = [&](std::uint64_t period) {
      Pmu::stop(kBit);
      Pmu::clear_overflow(kBit);
      Pmu::preset_for_sampling(kLo, period);
      run(Pmu::read(kLo), kTrips);
      open_if();
    };
    sampled(c_ + 1);
    const std::uint32_t late_taken = g_taken;
    sampled(c_);
    const std::uint32_t taken = g_taken - late_taken;
    Text s;
    s.put("period=").dec(c_).put(":taken=").dec(taken).put(",period+1:taken=").dec(late_taken);
    sc.rule("irq.pmi_on_next_event_after_overflow", taken == 1 && late_taken == 0, s,
            "taken=1,taken=0(at_overflow:taken=1)", kRefPmi);
    Text m;
    m.put("masked_in_handler=").dec(g_masked);
    sc.rule("irq.lvt_masked_by_pmi", taken == 1 && g_masked == 1, m, "masked_in_handler=1", kRefLvt);

    // The PMI taken with interrupts on: what the handler first reads (OVF, and the events counted
    // from the overflow: the PMI's own event, the board's entry path and the part's skid).
    constexpr std::uint64_t kPeriod = 1000;
    Pmu::stop(kBit);
    Pmu::clear_overflow(kBit);
    Pmu::preset_for_sampling(kLo, kPeriod);
    g_taken = 0;
    g_count = 0;
    Pmu::start(kBit);
    board::irq_enable();
    nb_check_loop(400, cell);  // 2000 instructions: the PMI comes on the 1000th
    board::irq_disable();
    Pmu::stop(kBit);
    Pmu::set_overflow_interrupt(kBit, false);
    Pmu::clear_overflow(kBit);
    const std::uint64_t since = g_count;  // the counter wrapped at the overflow: events since
    if (g_taken == 1 && since < kPeriod) {
      Text o;
      o.put(g_ovf ? "set" : "late").put("(count_since_overflow=").dec(since).put(")");
      sc.answer("irq.ovf_set_when_pmi_taken", o, "set(the_SDM)|late(OVF_clear,bit_39_clear:overflow_status_guards)",
                kRefOvf);
      Text n;
      n.dec(since);
      sc.answer("irq.events_to_handler", n, "1(the_PMI's_event)+the_board's_entry_path+the_part's_skid", kRefPmi);
    } else {
      Text n;
      n.put("taken=").dec(g_taken).put(",count=").hex(since, 10);
      sc.rule("irq.ovf_set_when_pmi_taken", false, n, "taken=1,count<1000", kRefPmi);
      sc.skip("irq.events_to_handler", "the PMI was not taken once", kRefPmi);
    }
    Pmu::release_pmi_vector();
    board::set_perf_handler(nullptr);
  }

  // Cascade 12 -> 14, both on instr_retired: 14 (CASCADE, ENABLE clear) counts from 12's overflow
  // while 12's OVF is set; 12 counts on and wraps; clearing 12's OVF halts 14.
  void cascade() {
    Pmu::stop(kBit | 1u << kHi);
    Pmu::clear_overflow(kBit | 1u << kHi);
    const pmu::Status linked = Pmu::link(kLo, kHi);
    if (linked != pmu::Status::ok) {
      for (const char* r : {"cascade.hi_starts_at_lo_overflow", "cascade.hi_counts_every_event_after",
                            "cascade.clearing_lo_ovf_halts_hi"})
        sc.skip(r, pmu::status_name(linked), kRefCascade);
      return;
    }
    constexpr std::uint32_t both = kBit | 1u << kHi;
    // One pair run: 12 preset, 14 from 0; both started (14 takes CASCADE) and stopped.
    struct Pair {
      std::uint64_t lo, hi;
    };
    const auto pair = [&](std::uint64_t preset, std::uint32_t trips) {
      Pmu::stop(both);
      Pmu::clear_overflow(both);
      Pmu::write(kLo, preset);
      Pmu::write(kHi, 0);
      Pmu::start(both);
      nb_check_loop(trips, cell);
      Pmu::stop(both);
      return Pair{Pmu::read(kLo), Pmu::read(kHi)};
    };
    constexpr std::uint32_t kPairTrips = 400;  // 2000 instructions: both overflows well after the start
    const std::uint64_t c = pair(0, kPairTrips).lo;  // 12's events over a pair run
    // Overflow one event short of 12's stop, then 100 and 1100 events before it.
    const Pair short_of = pair(kWrap - c - 1, kPairTrips), early = pair(kWrap - c + 100, kPairTrips),
               earlier = pair(kWrap - c + 1100, kPairTrips);
    Text o;
    o.put("short:lo=").hex(short_of.lo, 10).put(",hi=").dec(short_of.hi).put(";at-100:lo=").dec(early.lo);
    sc.rule("cascade.hi_starts_at_lo_overflow", short_of.lo == kMask40 && short_of.hi == 0 && early.lo == 100 &&
                early.hi >= 100,
            o, "short:lo=0xffffffffff,hi=0;at-100:lo=100", kRefCascade);
    Text d;
    d.put("hi_difference=").dec(earlier.hi - early.hi).put(",lo=").dec(earlier.lo);
    sc.rule("cascade.hi_counts_every_event_after", earlier.hi - early.hi == 1000 && earlier.lo == 1100, d,
            "hi_difference=1000,lo=1100", kRefCascade);

    // Halting: 12's OVF set and both running, 14 counts; OVF cleared, 14 holds while 12 runs on.
    Pmu::stop(both);
    Pmu::write(kLo, kWrap - 10);
    Pmu::write(kHi, 0);
    Pmu::start(both);
    nb_check_loop(20, cell);  // 12 overflows: 14 runs
    Pmu::clear_overflow(kBit);
    const std::uint64_t hi0 = Pmu::read(kHi), lo0 = Pmu::read(kLo);
    nb_check_loop(100, cell);
    const std::uint64_t hi1 = Pmu::read(kHi), lo1 = Pmu::read(kLo);
    Pmu::stop(both);
    Text h;
    h.put("hi_before=").dec(hi0).put(",hi_moved=").dec(hi1 - hi0).put(",lo_moved=").dec(lo1 - lo0);
    sc.rule("cascade.clearing_lo_ovf_halts_hi", hi0 != 0 && hi1 == hi0 && lo1 - lo0 >= 500, h,
            "hi_before>0,hi_moved=0,lo_moved>=500", kRefCascade);
    Pmu::reset();
  }
};

}  // namespace

int main() {
  board::init();
  Text part;
  {
    std::uint32_t eax = R::read_raw<nb::CPUID1_EAX>();
    part.put("cpuid1=").hex(eax).put(board::under_pmusim() ? ",pmusim" : "");
  }
  SiliconCheck sc{board::console, "netburst", part};
  Checker{sc}.all();
  sc.finish();
  board::exit(sc.failed() == 0 ? 0 : board::kExitFail);
}
