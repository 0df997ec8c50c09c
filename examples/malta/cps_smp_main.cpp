// Two cores of the CPS cluster (issue 35, item 4): VP 0 starts VP 1 through the Cluster Power
// Controller (board::start_vp1); then
//  1. both VPs race for the cluster's CM counters with Driver::claim() at once, round after round,
//     VP 0 claiming after a delay that grows each round: exactly one wins, the other gets busy (and
//     configure() refuses it), and once the winner releases the other claims;
//  2. each VP measures its own workload on its own CP0 Count with interrupts off (a loop of a known
//     length: under pmusim, Count at half the instruction clock, twice the count is the loop's
//     instructions within one);
//  3. each VP samples its own workload from its own Count/Compare interrupt into its own ring, at
//     the same time: every sample lands in that VP's workload, never in the other's, and each VP's
//     sample count is its Count ticks over the period (+-1);
// then VP 0 writes one dump for both: SAMPLES, SAMPLE_TAGS with each sample's core, CORE (written by
// core 0 of 2) (docs/dump-format.md 1.5). VP 1 serves VP 0's requests through a mailbox.
#include <cstdint>

#include "board/board.hpp"
#include "hal/mips_cps/driver.hpp"
#include "profiler/dump/image.hpp"
#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/dump/writer.hpp"

extern "C" {
std::uint32_t smp_work_vp0(std::uint32_t n);
std::uint32_t smp_work_vp1(std::uint32_t n);
std::uint32_t smp_count_loop4(std::uint32_t n);
std::uint32_t smp_count_loop6(std::uint32_t n);
extern const char smp_work_vp0_end[], smp_work_vp1_end[];
}

namespace {

using u32 = std::uint32_t;
using Cm = pmu::mips_cps::Driver<pmu::mips_cps::HwBus>;
namespace cm = pmu::mips_cps;

constexpr unsigned kRounds = 40;
constexpr u32 kIters[2] = {200'000, 150'000};  // 800,000 and 900,000 workload instructions
constexpr u32 kPeriodTicks = 2'000;            // CP0 Count ticks per sample, on each VP
constexpr unsigned kRingSize = 1024;

// One VP's samples, written only by that VP's tick handler.
struct Ring {
  u32 pc[kRingSize], lr[kRingSize];
  volatile u32 n;
  volatile u32 dropped;
};
Ring rings[2];

void on_tick(u32 pc, u32 lr) {
  Ring& r = rings[board::cpu() & 1];
  const u32 n = r.n;
  if (n < kRingSize) {
    r.pc[n] = pc;
    r.lr[n] = lr;
    r.n = n + 1;
  } else {
    r.dropped = r.dropped + 1;
  }
}

// VP 0 -> VP 1 requests: VP 0 writes op and then seq; VP 1 runs it and writes result, then ack.
enum Op : u32 { kAlive, kClaim, kRelease, kConfigure, kCount, kSample };
struct Mailbox {
  volatile u32 seq, op, arg, ack, result, ready;
};
Mailbox mail;
volatile u32 count_delta[2], sampled_ticks[2];

u32 count() {
  u32 v;
  asm volatile("mfc0 %0, $9" : "=r"(v));
  return v;
}

// QEMU runs the two VPs in turn (one TCG thread under -icount) and switches at its virtual clock's
// next timer deadline, else every 100 ms of virtual time: a VP spinning for the other would spin
// 10^8 instructions each time. So, on QEMU only, each VP keeps its Count/Compare ticking (a handler
// that does nothing) while it waits: a deadline every kSliceTicks. Not under pmusim, whose cores
// alternate every 1,000 instructions, and whose Count check needs no interrupt in the loop.
constexpr u32 kSliceTicks = 1'000;
bool keepalive = false;
void nothing(u32, u32) {}
void slices_on() {
  if (!keepalive) return;
  board::timer_start(kSliceTicks, &nothing);
  board::irq_enable();
}

// Samples VP `vp`'s workload from its own Count/Compare; its Count ticks across the sampled window.
void sample_own_workload(unsigned vp) {
  board::irq_disable();
  const u32 c0 = count();
  board::timer_start(kPeriodTicks, &on_tick);
  board::irq_enable();
  vp == 0 ? smp_work_vp0(kIters[0]) : smp_work_vp1(kIters[1]);
  board::irq_disable();
  board::timer_stop();
  sampled_ticks[vp] = count() - c0;
  slices_on();
}

u32 run_op(u32 op) {
  switch (op) {
    case kClaim: return static_cast<u32>(Cm::claim());
    case kRelease: return static_cast<u32>(Cm::release());
    case kConfigure: return static_cast<u32>(Cm::configure(0, {cm::kCycleEvent, 0, 0}));
    case kCount:
      board::irq_disable();
      count_delta[1] = smp_count_loop6(kIters[1]);
      slices_on();
      return 0;
    case kSample: sample_own_workload(1); return 0;
    default: return 0;
  }
}

// VP 1: serves the mailbox forever (VP 0 ends the run).
[[noreturn]] void vp1_main() {
  u32 seen = 0;  // VP 0 may have posted already
  slices_on();
  mail.ready = 1;
  for (;;) {
    const u32 seq = mail.seq;
    if (seq == seen) continue;
    seen = seq;
    mail.result = run_op(mail.op);
    mail.ack = seq;
  }
}

// Posts a request to VP 1 and returns without waiting (wait() collects it).
u32 post(Op op) {
  mail.op = op;
  const u32 seq = mail.seq + 1;
  mail.seq = seq;
  return seq;
}
bool wait(u32 seq, u32& result) {
  for (u32 spins = 0; spins < 50'000'000u; ++spins)
    if (mail.ack == seq) {
      result = mail.result;
      return true;
    }
  return false;
}
u32 ask(Op op) {
  u32 r = 0xFFu;
  (void)wait(post(op), r);
  return r;
}

alignas(8) std::uint8_t vp1_stack[8192];

const pmu::Status kOk = pmu::Status::ok, kBusy = pmu::Status::busy;
pmu::Status st(u32 v) { return static_cast<pmu::Status>(v); }

void frame_putc(void*, char c) { board::putc(c); }

}  // namespace

extern "C" int main() {
  board::init();
  const examples::Console& out = board::console;
  out.line("pmukit mips-cps two cores (QEMU malta -cpu P5600 -smp 2; pmusim's CM machine)");
  unsigned failures = 0;
  const auto check = [&](bool ok, const char* what) {
    out.put(ok ? "CHECK PASS: " : "CHECK FAIL: ");
    out.line(what);
    failures += ok ? 0 : 1;
  };

  // pmusim: the CM model's counters; QEMU: a CM3 without a counter block (the claim is memory only).
  (void)Cm::probe();
  out.put("CM counters: ");
  out.line(cm::finding_text(Cm::discovery().finding));

  keepalive = !board::under_pmusim();
  slices_on();
  const bool started = board::start_vp1(&vp1_main, reinterpret_cast<std::uintptr_t>(vp1_stack + sizeof vp1_stack));
  u32 alive = 0;
  const bool answered = started && wait(post(kAlive), alive) && mail.ready == 1;
  out.line(answered ? "VP 1 started through the CPC (VP_RUN) and answers"
                    : "VP 1 did not start (the CPC did not release it)");
  check(answered, "VP 1 runs");
  if (!answered) {
    out.line("SMP FAIL");
    board::exit(board::kExitFail);
  }

  // 1. The claim race.
  unsigned wins[2] = {}, both = 0, neither = 0, refused_configure = 0, handed_over = 0, loser_busy = 0;
  for (unsigned r = 0; r < kRounds; ++r) {
    const u32 seq = post(kClaim);
    for (u32 d = 0; d < r * 100; ++d) asm volatile("");
    const pmu::Status s0 = Cm::claim();
    u32 v1 = 0;
    if (!wait(seq, v1)) break;
    const pmu::Status s1 = st(v1);
    if (s0 == kOk && s1 == kOk) ++both;
    if (s0 != kOk && s1 != kOk) ++neither;
    if (s0 == kOk) ++wins[0];
    if (s1 == kOk) ++wins[1];
    loser_busy += (s0 == kOk && s1 == kBusy) || (s1 == kOk && s0 == kBusy);
    // The loser may not program the counters; then the winner releases and the other claims.
    if (s0 == kOk) {
      refused_configure += st(ask(kConfigure)) == kBusy;
      (void)Cm::release();
      handed_over += st(ask(kClaim)) == kOk && Cm::owner() == 1;
      (void)ask(kRelease);
    } else if (s1 == kOk) {
      refused_configure += Cm::configure(0, {cm::kCycleEvent, 0, 0}) == kBusy;
      (void)ask(kRelease);
      handed_over += Cm::claim() == kOk && Cm::owner() == 0;
      (void)Cm::release();
    }
  }
  out.put("claim race: ");
  out.dec(kRounds);
  out.put(" rounds, VP 0 won ");
  out.dec(wins[0]);
  out.put(", VP 1 won ");
  out.dec(wins[1]);
  out.put(", both ");
  out.dec(both);
  out.put(", neither ");
  out.dec(neither);
  out.line("");
  check(both == 0 && neither == 0 && wins[0] + wins[1] == kRounds, "every round exactly one VP won the claim");
  check(loser_busy == kRounds, "the other VP got busy");
  check(refused_configure == kRounds, "configure() refused on the VP without the claim");
  check(handed_over == kRounds && Cm::owner() == -1, "after the winner's release the other VP claimed");

  // 2. Each VP's workload on its own Count, interrupts off.
  const u32 seq = post(kCount);
  board::irq_disable();
  count_delta[0] = smp_count_loop4(kIters[0]);
  slices_on();
  u32 dummy = 0;
  check(wait(seq, dummy), "VP 1 measured its workload");
  const std::uint64_t insns[2] = {4ull * kIters[0] + 1, 6ull * kIters[1] + 1};
  for (unsigned vp = 0; vp < 2; ++vp) {
    out.put("VP ");
    out.dec(vp);
    out.put(": workload ");
    out.dec(insns[vp]);
    out.put(" instructions from Count read to read, its Count advanced ");
    out.dec(count_delta[vp]);
    out.line(" ticks");
  }
  if (board::under_pmusim()) {
    bool exact = true;
    for (unsigned vp = 0; vp < 2; ++vp) {
      const std::int64_t d = std::int64_t{2} * count_delta[vp] - static_cast<std::int64_t>(insns[vp]);
      exact = exact && d >= -1 && d <= 1;
    }
    check(exact, "pmusim: each VP's Count says its own instructions (twice the ticks, within one)");
  }

  // 3. Both VPs sample their own workloads at once.
  const u32 seq3 = post(kSample);
  sample_own_workload(0);
  check(wait(seq3, dummy), "VP 1 sampled its workload");
  const u32 lo[2] = {reinterpret_cast<u32>(&smp_work_vp0), reinterpret_cast<u32>(&smp_work_vp1)};
  const u32 hi[2] = {reinterpret_cast<u32>(smp_work_vp0_end), reinterpret_cast<u32>(smp_work_vp1_end)};
  u32 total = 0;
  bool own = true, counts = true;
  for (unsigned vp = 0; vp < 2; ++vp) {
    const Ring& r = rings[vp];
    u32 in_own = 0, in_other = 0;
    for (u32 i = 0; i < r.n; ++i) {
      in_own += r.pc[i] >= lo[vp] && r.pc[i] < hi[vp];
      in_other += r.pc[i] >= lo[vp ^ 1] && r.pc[i] < hi[vp ^ 1];
    }
    const u32 expected = sampled_ticks[vp] / kPeriodTicks;
    out.put("VP ");
    out.dec(vp);
    out.put(": ");
    out.dec(r.n);
    out.put(" samples (");
    out.dec(r.dropped);
    out.put(" dropped), ");
    out.dec(in_own);
    out.put(" in its own workload, ");
    out.dec(in_other);
    out.put(" in the other VP's; ");
    out.dec(sampled_ticks[vp]);
    out.put(" Count ticks sampled, / period = ");
    out.dec(expected);
    out.line("");
    own = own && r.n > 0 && in_other == 0 && in_own + 2 >= r.n;
    counts = counts && r.dropped == 0 && r.n + 1 >= expected && r.n <= expected + 1;
    total += r.n;
  }
  check(own, "each VP's samples land in its own workload");
  check(counts, "each VP's sample count is its own Count ticks over the period (+-1)");
  out.put("samples: VP 0 ");
  out.dec(rings[0].n);
  out.put(" + VP 1 ");
  out.dec(rings[1].n);
  out.put(" = ");
  out.dec(total);
  out.line(" in the dump");

  board::irq_disable();
  board::timer_stop();
  // One dump for both VPs: each sample tagged with its core.
  pmu::dump::TextFrameSink frames{&frame_putc, nullptr};
  pmu::dump::Writer w{frames.sink()};
  w.begin({"mips-cps", "mips-cm", board::kCountHz, 32});
  w.image(pmu::dump::this_image());
  w.sample_source({pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter,
                   std::uint64_t{kPeriodTicks} * board::kCountNs, rings[0].dropped + rings[1].dropped});
  w.begin_samples(total);
  for (unsigned vp = 0; vp < 2; ++vp)
    for (u32 i = 0; i < rings[vp].n; ++i) w.sample(rings[vp].pc[i], rings[vp].lr[i]);
  w.begin_sample_tags(total, pmu::dump::kTagCore);
  for (unsigned vp = 0; vp < 2; ++vp)
    for (u32 i = 0; i < rings[vp].n; ++i) w.sample_tag(pmu::dump::kNoTask, static_cast<std::uint8_t>(vp));
  w.core(0, 2);
  check(w.finish() == pmu::dump::Status::ok, "dump written (SAMPLES, SAMPLE_TAGS with cores, CORE)");

  out.line(failures == 0 ? "SMP PASS" : "SMP FAIL");
  board::exit(failures == 0 ? 0 : board::kExitFail);
}
