#pragma once
// Behavioural model of the e500 core performance monitor, for host tests: a pmu::MockDevice that
// answers mfpmr/mtpmr on any MockBus<Tag> (set MockBus<Tag>::device = &model).
//
// What it models (CRM chapter 7 and seed 004):
// - PMGC0, PMLCa0-3, PMLCb0-3, PMC0-3 with their reserved bits reading as zero; all zero after
//   reset (CRM 7.2). The user copies UPMGC0, UPMLCa0-3, UPMLCb0-3, UPMC0-3 read as mirrors of the
//   supervisor registers. They are "read-only" (CRM 7.2.2-7.2.8); what an mtpmr to them does is not
//   spelt out in the sections we have, so the model makes it a program interrupt (trap): any write
//   attempt shows up in a test. Unknown PMR numbers trap too.
// - Counting: counters advance only on injected events (event(), cycles(), duration_event(), and
//   optionally every bus access, set_cycles_per_access()), and only while not frozen: PMGC0[FAC],
//   PMLCan[FC], FCS/FCU against the event's MSR[PR], FCM1/FCM0 against its MSR[PMM] (Table 7-8).
// - Overflow: a counter is in its overflow state while bit 31 is set; with PMLCan[CE] that is an
//   enabled condition (CRM 7.4). When a condition appears (a count reaching 0x8000_0000, or
//   software loading an overflowed value, or setting CE on one) and PMGC0[FCECE]=1, FAC is set.
//   While any condition exists, PMGC0[PMIE]=1 and MSR[EE]=1 (set_ee), the interrupt is taken: the
//   model clears PMIE (Table 7-3) and calls the interrupt callback with EE off (no nesting); if the
//   handler leaves a condition with PMIE set again, the interrupt is taken again after it returns.
// - Chaining: when PMCn rolls over from 0xFFFF_FFFF to 0 by counting, event 82+n happens once, in
//   the same processor context (CRM 7.6.1), so any counter selecting it increments; chains of
//   several counters propagate.
// - Thresholds: events 76..81 exist only on PMC0 and PMC1 (C0:76, C1:76 in CRM 7.6.2; thresholds
//   "only for PMC0 and PMC1", 7.2.5). They are injected with duration_event(code, duration); an
//   occurrence counts once on each selecting counter whose PMLCbn threshold, THRESHOLD x
//   2^THRESHMUL (Table 7-5), it exceeds ("only events that exceed this value are counted").
//   event() never counts them (they have no duration).
// - Absent mode (set_absent): every mfpmr/mtpmr traps, as on QEMU 7.2 and on cores without the APU.
// - User-mode accesses (set_user_access): supervisor PMRs trap (privileged), user copies read.
// - A one-shot hook that runs after the Nth access from now (after_access), e.g. to land a rollover
//   in the middle of a driver's read sequence; the hook may re-arm itself.
// Not modelled: time-base transition events (TBSEL/TBEE are stored only), the pm_event input,
// speculative counts, counters incrementing by up to 4 per cycle (an event() of n is n in a row).
//
// Freestanding: no heap, no exceptions, no RTTI, no std::function; callbacks are a function
// pointer plus a context pointer.
#include <cstddef>
#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"
#include "hal/e500/regs.hpp"

namespace pmu::e500 {

// The processor context an event happens in: MSR[PR] (user) and MSR[PMM] (the process mark).
struct Context {
  bool user = false;
  bool mark = false;
};

class Model final : public MockDevice {
 public:
  using Callback = void (*)(void* context);

  static constexpr std::uint32_t kFirstThresholdEvent = 76;  // Table 7-10: C0/C1:76..81
  static constexpr std::uint32_t kLastThresholdEvent = 81;
  static constexpr unsigned kMaxNesting = 16;        // count() re-entry through hooks and handlers
  static constexpr unsigned kMaxInterruptLoop = 64;  // back-to-back interrupts before "storm"

  Model() { reset_registers(); }

  // --- MockDevice ---------------------------------------------------------------------------
  MockResult read(std::uint32_t key, std::uint64_t& value) override {
    if ((key >> 24) != static_cast<std::uint32_t>(BusKind::pmr)) return MockResult::unhandled;
    std::uint32_t v = 0;
    const MockResult r = absent_ ? MockResult::trap : do_read(key & 0xFFFFFFu, v);
    value = r == MockResult::handled ? v : 0;
    after_access();
    return r;
  }
  MockResult write(std::uint32_t key, std::uint64_t value) override {
    if ((key >> 24) != static_cast<std::uint32_t>(BusKind::pmr)) return MockResult::unhandled;
    const MockResult r =
        absent_ ? MockResult::trap : do_write(key & 0xFFFFFFu, static_cast<std::uint32_t>(value));
    after_access();
    return r;
  }

  // --- set-up -----------------------------------------------------------------------------
  // Hard reset: every PMR zero (CRM 7.2), no pending condition. Keeps the test's settings.
  void reset_registers() {
    pmgc0_ = 0;
    for (unsigned n = 0; n < kCounters; ++n) pmlca_[n] = pmlcb_[n] = pmc_[n] = 0;
    cond_ = 0;
  }
  void set_absent(bool absent) { absent_ = absent; }
  void set_user_access(bool user) { user_access_ = user; }
  // Context of events injected without one and of the cycles that accesses take.
  void set_context(Context c) { ctx_ = c; }
  Context context() const { return ctx_; }
  // Every PMR access also counts this many processor cycles (event 1), as time passing.
  void set_cycles_per_access(std::uint32_t n) { cycles_per_access_ = n; }
  // MSR[EE]: interrupts are taken only while it is set; a pending one is taken when it is set.
  void set_ee(bool ee) {
    ee_ = ee;
    deliver();
  }
  void on_interrupt(Callback fn, void* context) {
    irq_fn_ = fn;
    irq_ctx_ = context;
  }
  // Runs fn once, right after the nth access from now (n >= 1); nullptr disarms.
  void after_access(std::uint64_t n, Callback fn, void* context) {
    hook_fn_ = fn;
    hook_ctx_ = context;
    hook_at_ = accesses_ + (n == 0 ? 1 : n);
  }

  // --- events -----------------------------------------------------------------------------
  // n occurrences of event `code`, one after another, in the current (or the given) context.
  void event(std::uint32_t code, std::uint64_t n = 1) { event(code, n, ctx_); }
  void event(std::uint32_t code, std::uint64_t n, Context c) {
    if (is_threshold_event(code)) return;  // these come with a duration: duration_event()
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

  // --- inspection (no side effects, not counted as accesses) --------------------------------
  std::uint32_t pmgc0() const { return pmgc0_; }
  std::uint32_t pmlca(unsigned n) const { return n < kCounters ? pmlca_[n] : 0; }
  std::uint32_t pmlcb(unsigned n) const { return n < kCounters ? pmlcb_[n] : 0; }
  std::uint32_t pmc(unsigned n) const { return n < kCounters ? pmc_[n] : 0; }
  std::uint32_t conditions() const { return cond_; }  // bit n: PMCn enabled overflow condition
  std::uint64_t accesses() const { return accesses_; }
  std::uint32_t interrupts() const { return interrupts_; }
  bool interrupt_storm() const { return storm_; }
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
    pmc_[n] = v;
    commit();
  }

 private:
  static constexpr std::uint32_t kFac = 0x80000000u, kPmie = 0x40000000u, kFcece = 0x20000000u;
  static constexpr std::uint32_t kFc = 0x80000000u, kFcs = 0x40000000u, kFcu = 0x20000000u;
  static constexpr std::uint32_t kFcm1 = 0x10000000u, kFcm0 = 0x08000000u, kCe = 0x04000000u;

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
  static constexpr Decoded decode(std::uint32_t pmr) {
    const bool user = pmr < kPmrPmc0 || (pmr >= kPmrUpmlca0 && pmr < kPmrPmlca0) ||
                      (pmr >= kPmrUpmlcb0 && pmr < kPmrPmlcb0) || pmr == kPmrUpmgc0;
    const std::uint32_t sup = user ? pmr + 16 : pmr;
    if (sup == kPmrPmgc0) return {Kind::pmgc0, 0, user};
    if (sup >= kPmrPmc0 && sup < kPmrPmc0 + kCounters) return {Kind::pmc, sup - kPmrPmc0, user};
    if (sup >= kPmrPmlca0 && sup < kPmrPmlca0 + kCounters)
      return {Kind::pmlca, sup - kPmrPmlca0, user};
    if (sup >= kPmrPmlcb0 && sup < kPmrPmlcb0 + kCounters)
      return {Kind::pmlcb, sup - kPmrPmlcb0, user};
    return {};
  }

  MockResult do_read(std::uint32_t pmr, std::uint32_t& v) const {
    const Decoded d = decode(pmr);
    if (d.kind == Kind::none) return MockResult::trap;          // illegal PMR number
    if (user_access_ && !d.user_copy) return MockResult::trap;  // privileged
    switch (d.kind) {
      case Kind::pmgc0: v = pmgc0_; break;
      case Kind::pmlca: v = pmlca_[d.n]; break;
      case Kind::pmlcb: v = pmlcb_[d.n]; break;
      case Kind::pmc: v = pmc_[d.n]; break;
      case Kind::none: break;
    }
    return MockResult::handled;
  }

  MockResult do_write(std::uint32_t pmr, std::uint32_t v) {
    const Decoded d = decode(pmr);
    if (d.kind == Kind::none || d.user_copy) return MockResult::trap;  // read-only copy / illegal
    if (user_access_) return MockResult::trap;                         // privileged
    switch (d.kind) {
      case Kind::pmgc0: pmgc0_ = v & kPmgc0Writable; break;
      case Kind::pmlca: pmlca_[d.n] = v & kPmlcaWritable; break;
      case Kind::pmlcb: pmlcb_[d.n] = v & kPmlcbWritable; break;
      case Kind::pmc: pmc_[d.n] = v; break;
      case Kind::none: break;
    }
    commit();
    return MockResult::handled;
  }

  // The access took its cycles; then the test's hook gets the last word before the next access.
  void after_access() {
    ++accesses_;
    if (cycles_per_access_ && !absent_) count(1, cycles_per_access_, ctx_, 0xFu);
    if (hook_fn_ && accesses_ == hook_at_) {
      const Callback fn = hook_fn_;
      hook_fn_ = nullptr;  // one-shot; fn may re-arm
      fn(hook_ctx_);
    }
  }

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
        const std::uint64_t v = pmc_[k];
        const std::uint64_t to_boundary = v < kPmcOverflow ? kPmcOverflow - v : 0x100000000ull - v;
        if (to_boundary < step) step = to_boundary;
      }
      std::uint32_t wrapped = 0;
      for (unsigned k = 0; k < kCounters; ++k) {
        if (!(m & (1u << k))) continue;
        const std::uint64_t v = pmc_[k] + step;
        if (v > 0xFFFFFFFFull) wrapped |= 1u << k;
        pmc_[k] = static_cast<std::uint32_t>(v);
      }
      n -= step;
      commit();
      for (unsigned k = 0; k < kCounters; ++k)
        if (wrapped & (1u << k)) count(kEventPmcOverflowBase + k, 1, c, 0xFu);  // CRM 7.6.1
    }
    --nesting_;
  }

  // Re-evaluates the enabled conditions after any change: a new one freezes all counters under
  // FCECE; any present one is taken as an interrupt under PMIE and EE (CRM 7.4, Table 7-3).
  void commit() {
    std::uint32_t now = 0;
    for (unsigned k = 0; k < kCounters; ++k)
      if ((pmc_[k] & kPmcOverflow) && (pmlca_[k] & kCe)) now |= 1u << k;
    const std::uint32_t rise = now & ~cond_;
    cond_ = now;
    if (rise && (pmgc0_ & kFcece)) pmgc0_ |= kFac;
    deliver();
  }

  void deliver() {
    unsigned taken = 0;
    while (!in_handler_ && ee_ && (pmgc0_ & kPmie) && cond_) {
      if (++taken > kMaxInterruptLoop) {
        storm_ = true;
        return;
      }
      pmgc0_ &= ~kPmie;  // "at which time PMGC0[PMIE] is cleared" (Table 7-3)
      ++interrupts_;
      if (!irq_fn_) return;
      in_handler_ = true;  // the handler runs with MSR[EE]=0
      irq_fn_(irq_ctx_);
      in_handler_ = false;
    }
  }

  std::uint32_t pmgc0_ = 0;
  std::uint32_t pmlca_[kCounters]{};
  std::uint32_t pmlcb_[kCounters]{};
  std::uint32_t pmc_[kCounters]{};
  std::uint32_t cond_ = 0;

  bool absent_ = false;
  bool user_access_ = false;
  bool ee_ = true;
  Context ctx_{};
  std::uint32_t cycles_per_access_ = 0;

  Callback irq_fn_ = nullptr;
  void* irq_ctx_ = nullptr;
  Callback hook_fn_ = nullptr;
  void* hook_ctx_ = nullptr;
  std::uint64_t hook_at_ = 0;

  std::uint64_t accesses_ = 0;
  std::uint32_t interrupts_ = 0;
  unsigned nesting_ = 0;
  bool in_handler_ = false;
  bool storm_ = false;
  bool nesting_exceeded_ = false;
};

}  // namespace pmu::e500
