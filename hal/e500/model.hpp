#pragma once
// Behavioural model of the e500 core performance monitor, for host tests: a pmu::MockDevice that
// answers mfpmr/mtpmr on any MockBus<Tag> (set MockBus<Tag>::device = &model).
//
// What it models (CRM chapter 7):
// - PMGC0, PMLCa0-3, PMLCb0-3, PMC0-3 with their reserved bits reading as zero; all zero after
//   reset (CRM 7.2). The user copies UPMGC0, UPMLCa0-3, UPMLCb0-3, UPMC0-3 read as mirrors of the
//   supervisor registers. They are "read-only" (CRM 7.2.2-7.2.8); what an mtpmr to them does is not
//   spelt out in the sections we have, so the model makes it a program interrupt (trap): any write
//   attempt shows up in a test. Unknown PMR numbers trap too.
// - Counting: counters advance only on injected events (event(), cycles(), duration_event(), and
//   optionally every bus access, set_cycles_per_access()), and only while not frozen: PMGC0[FAC],
//   PMLCan[FC], FCS/FCU against the event's MSR[PR], FCM1/FCM0 against its MSR[PMM] (Table 7-8).
// - Overflow: a counter is in its overflow state while bit 31 is set; with PMLCan[CE] that is an
//   enabled condition (CRM 7.4; Table 7-3: "the msb = 1 in PMCx and PMLCax[CE] = 1"). With
//   PMGC0[FCECE]=1 the counters count "only until an enabled condition or event occurs", and FAC is
//   set (Table 7-3). The manual's condition is a state, so by default FAC is set whenever one
//   exists: when it appears (a count reaching 0x8000_0000, software loading an overflowed value,
//   setting CE or FCECE), and again after software clears FAC while it still exists. The switch
//   (FreezeReading::when_condition_appears) freezes only when a condition newly appears.
//   While any condition exists, PMGC0[PMIE]=1 and MSR[EE]=1 (set_ee), the interrupt is taken: the
//   model clears PMIE (Table 7-3) and calls the interrupt callback with EE off (no nesting); if the
//   handler leaves a condition with PMIE set again, the interrupt is taken again after it returns.
// - Chaining: event 82+n happens once each time PMCn's most significant bit goes from 1 to 0 (Table
//   7-10's chaining events), in the current processor context, so any counter selecting it
//   increments; chains of several counters propagate. Counting does it at the rollover from
//   0xFFFF_FFFF to 0 (CRM 7.6.1: the chained counter "increments each time the first counter rolls
//   over to zero"); by default a software write that clears the bit does it too. The switch
//   (ChainReading::counting_rollover) counts the counting rollovers only.
// - The time base (time_base(), the caller's TB): each 0-to-1 transition of the TB bit
//   PMGC0[TBSEL] selects (Table 7-3) is an occurrence of event 90, counted while PMGC0[TBEE] is set
//   (CRM 9.3.2: the e500v2 counts "transitions of the TBL bit selected by PMGC0[TBSEL]. This count
//   is enabled by setting PMGC0[TBEE]").
// - Thresholds: events 76..81 exist only on PMC0 and PMC1 (C0:76, C1:76 in CRM 7.6.2; thresholds
//   "only for PMC0 and PMC1", 7.2.5). They are injected with duration_event(code, duration); an
//   occurrence counts once on each selecting counter whose PMLCbn threshold, THRESHOLD x
//   2^THRESHMUL (Table 7-5), it exceeds ("only events that exceed this value are counted").
//   event() never counts them (they have no duration).
// - Absent mode (set_absent): every mfpmr/mtpmr traps, as on QEMU 7.2 and on cores without the APU.
// - User-mode accesses (set_user_access): supervisor PMRs trap (privileged), user copies read.
// - The kit's harness (hal/core/model/harness.hpp) brackets every access: a one-shot hook after
//   the Nth access from now (after_access), e.g. to land a rollover in the middle of a driver's
//   read sequence, and interrupt delivery at the end of the access that raised it.
// - The core (set_pvr, default e500v2 rev 3.0, 0x80210030 as QEMU's mpc8544ds reports): PVR reads
//   answer it (not counted as PMU accesses). On e500v1 (0x8020xxxx) TBSEL/TBEE are reserved: they
//   read as zero and any write that sets them is counted (reserved_writes), and event 90 does not
//   exist (event(90) counts nothing). On e500v2 event(90) injects occurrences directly, like any
//   other event, and time_base() derives them from the time base.
// Not modelled: TBEE's exception and freeze (a transition is counted; it neither interrupts nor
// freezes, though Table 7-3 makes it an enabled event), TBSEL's false transition when it changes,
// the pm_event input, speculative counts, counters incrementing by up to 4 per cycle (an event()
// of n is n in a row).
//
// Freestanding: no heap, no exceptions, no RTTI, no std::function; callbacks are a function
// pointer plus a context pointer.
#include <cstddef>
#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"
#include "hal/core/model/harness.hpp"
#include "hal/core/slots.hpp"
#include "hal/e500/regs.hpp"

namespace pmu::e500 {

// The processor context an event happens in: MSR[PR] (user) and MSR[PMM] (the process mark).
struct Context {
  bool user = false;
  bool mark = false;
};

// Two rules the manual states and silicon may read otherwise (hal/e500/README.md): the model
// follows the manual by default and takes the other reading as a switch.
enum class FreezeReading : std::uint8_t {
  while_condition_exists,  // Table 7-3: FCECE freezes while an enabled condition (a state) exists
  when_condition_appears,  // FCECE freezes only when a condition newly appears
};
enum class ChainReading : std::uint8_t {
  msb_falls,          // Table 7-10: PMCn's msb going from 1 to 0, a software write included
  counting_rollover,  // only PMCn rolling over to zero by counting (CRM 7.6.1's example)
};
struct Readings {
  FreezeReading freeze = FreezeReading::while_condition_exists;
  ChainReading chain = ChainReading::msb_falls;
};

class Model final : public model::Harness {
 public:
  using Callback = model::Callback;

  static constexpr std::uint32_t kFirstThresholdEvent = 76;  // Table 7-10: C0/C1:76..81
  static constexpr std::uint32_t kLastThresholdEvent = 81;
  static constexpr unsigned kMaxNesting = 16;        // count() re-entry through hooks and handlers

  explicit Model(Readings readings = {}) : Harness(BusKind::pmr), readings_(readings) { reset_registers(); }
  Readings readings() const { return readings_; }

  // --- set-up -----------------------------------------------------------------------------
  // Hard reset: every PMR zero (CRM 7.2), no pending condition. Keeps the test's settings.
  void reset_registers() {
    pmgc0_ = 0;
    for (unsigned n = 0; n < kCounters; ++n) {
      pmlca_[n] = pmlcb_[n] = 0;
      pmc_.set(n, 0);
    }
    cond_ = 0;
  }
  void set_user_access(bool user) { user_access_ = user; }
  void set_pvr(std::uint32_t pvr) { pvr_ = pvr; }
  // Writes of PMGC0 that set bits this core reserves (TBSEL/TBEE on e500v1).
  unsigned reserved_writes() const { return reserved_writes_; }
  // Context of events injected without one and of the cycles that accesses take.
  void set_context(Context c) { ctx_ = c; }
  Context context() const { return ctx_; }
  // Every PMR access also counts this many processor cycles (event 1), as time passing.
  void set_cycles_per_access(std::uint32_t n) { cycles_per_access_ = n; }
  // MSR[EE]: interrupts are taken only while it is set; a pending one is taken when it is set.
  void set_ee(bool ee) {
    ee_ = ee;
    poll_interrupt();
  }

  // --- events -----------------------------------------------------------------------------
  // n occurrences of event `code`, one after another, in the current (or the given) context.
  void event(std::uint32_t code, std::uint64_t n = 1) { event(code, n, ctx_); }
  void event(std::uint32_t code, std::uint64_t n, Context c) {
    if (is_threshold_event(code)) return;  // these come with a duration: duration_event()
    if (code == kEventTimeBaseTransition && !v2()) return;  // no such event on e500v1
    count(code, n, c, 0xFu);
  }
  void cycles(std::uint64_t n) { event(1, n, ctx_); }
  void cycles(std::uint64_t n, Context c) { event(1, n, c); }
  // One occurrence of threshold event `code` (76..81) lasting `duration` (cycles).
  void duration_event(std::uint32_t code, std::uint32_t duration) {
    duration_event(code, duration, ctx_);
  }
  void duration_event(std::uint32_t code, std::uint32_t duration, Context c) {
    if (!is_threshold_event(code)) return;
    std::uint32_t over = 0;
    for (unsigned n = 0; n < kCounters; ++n)
      if (static_cast<std::uint64_t>(duration) > threshold_value(pmlcb_[n])) over |= 1u << n;
    count(code, 1, c, over);
  }

  // The time base went from `from` to `to` (counting up): event 90 for each 0-to-1 transition of
  // the bit PMGC0[TBSEL] selects, while PMGC0[TBEE] is set (CRM 9.3.2; Table 7-3), in the current
  // context. e500v2 only.
  void time_base(std::uint64_t from, std::uint64_t to) {
    if (!v2() || !(pmgc0_ & kTbee) || to <= from) return;
    const unsigned b = timebase_bit(pmgc0_tbsel<PMGC0>.extract(pmgc0_));
    // Values in (0, v] whose bit b is 1 and bits below it 0: (v + 2^b) / 2^(b+1).
    const auto ones = [b](std::uint64_t v) { return (v + (std::uint64_t{1} << b)) >> (b + 1); };
    const std::uint64_t n = ones(to) - ones(from);
    if (n) count(kEventTimeBaseTransition, n, ctx_, 0xFu);
  }

  // --- inspection (no side effects, not counted as accesses) --------------------------------
  std::uint32_t pmgc0() const { return pmgc0_; }
  std::uint32_t pmlca(unsigned n) const { return n < kCounters ? pmlca_[n] : 0; }
  std::uint32_t pmlcb(unsigned n) const { return n < kCounters ? pmlcb_[n] : 0; }
  std::uint32_t pmc(unsigned n) const { return static_cast<std::uint32_t>(pmc_.get(n)); }
  std::uint32_t conditions() const { return cond_; }  // bit n: PMCn enabled overflow condition
  std::uint64_t wraps(unsigned n) const { return pmc_.wraps(n); }  // PMCn's rollovers to zero
  bool nesting_exceeded() const { return nesting_exceeded_; }
  // Would PMCn count an event in context c right now (ignoring which event it selects)?
  bool frozen(unsigned n, Context c) const {
    const std::uint32_t a = pmlca_[n];
    return (pmgc0_ & kFac) || (a & kFc) || ((a & kFcs) && !c.user) || ((a & kFcu) && c.user) ||
           ((a & kFcm1) && c.mark) || ((a & kFcm0) && !c.mark);
  }
  // Test-side mtpmr to PMCn (same side effects as the instruction, not logged, not counted).
  void set_pmc(unsigned n, std::uint32_t v) {
    if (n >= kCounters) return;
    const bool fell = msb_falls(n, v);
    pmc_.set(n, v);
    commit();
    if (fell) count(kEventPmcOverflowBase + n, 1, ctx_, 0xFu);
  }

 private:
  static constexpr std::uint32_t kFac = 0x80000000u, kPmie = 0x40000000u, kFcece = 0x20000000u;
  static constexpr std::uint32_t kFc = 0x80000000u, kFcs = 0x40000000u, kFcu = 0x20000000u;
  static constexpr std::uint32_t kFcm1 = 0x10000000u, kFcm0 = 0x08000000u, kCe = 0x04000000u;
  static constexpr std::uint32_t kTbselTbee = 0x00001900u;  // PMGC0 bits 51-52 and 55 (Table 7-3)
  static constexpr std::uint32_t kTbee = 0x00000100u;       // PMGC0 bit 55

  static constexpr bool is_threshold_event(std::uint32_t code) {
    return code >= kFirstThresholdEvent && code <= kLastThresholdEvent;
  }
  // Which counters have event `code` at all (Table 7-10: threshold events are C0/C1 only).
  static constexpr std::uint32_t counters_with(std::uint32_t code) {
    if (code == 0 || code >= 128) return 0;  // 0: "nothing"; EVENT is 7 bits
    return is_threshold_event(code) ? kThresholdCounters : 0xFu;
  }

  enum class Kind : std::uint8_t { none, pmgc0, pmlca, pmlcb, pmc };
  struct Decoded {
    Kind kind = Kind::none;
    unsigned n = 0;
    bool user_copy = false;
  };
  // Which register a location key names, from the descriptors of regs.hpp.
  static constexpr Decoded decode(std::uint32_t key) {
    if (key == PMGC0::location::key) return {Kind::pmgc0, 0, false};
    if (key == UPMGC0::location::key) return {Kind::pmgc0, 0, true};
    Decoded d{};
    static_for<kCounters>([&](auto n) {
      if (key == PMC<n>::location::key) d = {Kind::pmc, n, false};
      if (key == UPMC<n>::location::key) d = {Kind::pmc, n, true};
      if (key == PMLCa<n>::location::key) d = {Kind::pmlca, n, false};
      if (key == UPMLCa<n>::location::key) d = {Kind::pmlca, n, true};
      if (key == PMLCb<n>::location::key) d = {Kind::pmlcb, n, false};
      if (key == UPMLCb<n>::location::key) d = {Kind::pmlcb, n, true};
    });
    return d;
  }

  bool v2() const { return (pvr_ >> 16) != 0x8020; }
  bool uncounted_read(std::uint32_t key, std::uint64_t& v) override {
    if (key != PVR::location::key) return false;
    v = pvr_;
    return true;
  }

  MockResult on_read(std::uint32_t key, std::uint64_t& v) override {
    const Decoded d = decode(key);
    if (d.kind == Kind::none) return MockResult::trap;          // illegal PMR number
    if (user_access_ && !d.user_copy) return MockResult::trap;  // privileged
    switch (d.kind) {
      case Kind::pmgc0: v = pmgc0_; break;
      case Kind::pmlca: v = pmlca_[d.n]; break;
      case Kind::pmlcb: v = pmlcb_[d.n]; break;
      case Kind::pmc: v = pmc_.get(d.n); break;
      case Kind::none: break;
    }
    return MockResult::handled;
  }

  // A write of v to PMCn takes its msb from 1 to 0, and the chain event reading counts that.
  bool msb_falls(unsigned n, std::uint32_t v) const {
    return readings_.chain == ChainReading::msb_falls && (pmc_.get(n) & kPmcOverflow) && !(v & kPmcOverflow);
  }

  MockResult on_write(std::uint32_t key, std::uint64_t value) override {
    const Decoded d = decode(key);
    const auto v = static_cast<std::uint32_t>(value);
    if (d.kind == Kind::none || d.user_copy) return MockResult::trap;  // read-only copy / illegal
    if (user_access_) return MockResult::trap;                         // privileged
    const bool fell = d.kind == Kind::pmc && msb_falls(d.n, v);
    switch (d.kind) {
      case Kind::pmgc0: {
        const std::uint32_t reserved = v2() ? 0 : kTbselTbee;
        if (v & reserved) ++reserved_writes_;
        pmgc0_ = v & kPmgc0Writable & ~reserved;
        break;
      }
      case Kind::pmlca: pmlca_[d.n] = v & kPmlcaWritable; break;
      case Kind::pmlcb: pmlcb_[d.n] = v & kPmlcbWritable; break;
      case Kind::pmc: pmc_.set(d.n, v); break;
      case Kind::none: break;
    }
    commit();
    if (fell) count(kEventPmcOverflowBase + d.n, 1, ctx_, 0xFu);  // Table 7-10: the msb fell
    return MockResult::handled;
  }

  // Each access takes its cycles (time passing).
  void on_access_done() override {
    if (cycles_per_access_) count(1, cycles_per_access_, ctx_, 0xFu);
  }
  // An enabled condition with PMIE and MSR[EE] set is taken; taking it clears PMIE (Table 7-3).
  bool interrupt_wanted() const override { return ee_ && (pmgc0_ & kPmie) && cond_; }
  void interrupt_taken() override { pmgc0_ &= ~kPmie; }

  // Counters that count `code` in context c right now.
  std::uint32_t counting(std::uint32_t code, Context c, std::uint32_t allowed) const {
    std::uint32_t m = 0;
    const std::uint32_t have = counters_with(code) & allowed;
    for (unsigned n = 0; n < kCounters; ++n) {
      if (!(have & (1u << n))) continue;
      if (pmlca_event<PMLCa0>.extract(pmlca_[n]) != code) continue;
      if (!frozen(n, c)) m |= 1u << n;
    }
    return m;
  }

  // n occurrences of `code`, stepping from one boundary (bit 31 set, rollover to 0) to the next so
  // that every condition, freeze, interrupt and chain event lands on exactly the right occurrence.
  void count(std::uint32_t code, std::uint64_t n, Context c, std::uint32_t allowed) {
    if (nesting_ >= kMaxNesting) {
      nesting_exceeded_ = true;
      return;
    }
    ++nesting_;
    while (n) {
      const std::uint32_t m = counting(code, c, allowed);
      if (!m) break;
      std::uint64_t step = n;
      for (unsigned k = 0; k < kCounters; ++k) {
        if (!(m & (1u << k))) continue;
        const std::uint64_t v = pmc_.get(k);
        const std::uint64_t to_boundary = v < kPmcOverflow ? kPmcOverflow - v : 0x100000000ull - v;
        if (to_boundary < step) step = to_boundary;
      }
      std::uint32_t wrapped = 0;
      for (unsigned k = 0; k < kCounters; ++k) {
        if (!(m & (1u << k))) continue;
        if (pmc_.add(k, step) != 0) wrapped |= 1u << k;
      }
      n -= step;
      commit();
      for (unsigned k = 0; k < kCounters; ++k)
        if (wrapped & (1u << k)) count(kEventPmcOverflowBase + k, 1, c, 0xFu);  // CRM 7.6.1
    }
    --nesting_;
  }

  // Re-evaluates the enabled conditions after any change: under FCECE one freezes all counters
  // (every one that exists, or only a new one: FreezeReading); any present one is taken as an
  // interrupt under PMIE and EE (CRM 7.4, Table 7-3).
  void commit() {
    std::uint32_t now = 0;
    for (unsigned k = 0; k < kCounters; ++k)
      if ((pmc_.get(k) & kPmcOverflow) && (pmlca_[k] & kCe)) now |= 1u << k;
    const std::uint32_t rise = now & ~cond_;
    cond_ = now;
    const std::uint32_t freezing = readings_.freeze == FreezeReading::while_condition_exists ? now : rise;
    if (freezing && (pmgc0_ & kFcece)) pmgc0_ |= kFac;
    poll_interrupt();
  }

  Readings readings_;
  std::uint32_t pvr_ = 0x80210030u;
  unsigned reserved_writes_ = 0;
  std::uint32_t pmgc0_ = 0;
  std::uint32_t pmlca_[kCounters]{};
  std::uint32_t pmlcb_[kCounters]{};
  model::CounterBank<kCounters> pmc_{32};
  std::uint32_t cond_ = 0;

  bool user_access_ = false;
  bool ee_ = true;
  Context ctx_{};
  std::uint32_t cycles_per_access_ = 0;

  unsigned nesting_ = 0;
  bool nesting_exceeded_ = false;
};

}  // namespace pmu::e500
