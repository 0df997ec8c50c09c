#pragma once
// Behavioural model of the NetBurst performance monitoring MSRs, for host tests: a pmu::MockDevice
// answering the driver's MSR, CPUID and local-APIC accesses on any MockBus<Tag>.
//
// What it models (SDM 18.15, cascading 18.15.5.6; hal/netburst/README.md):
// - 18 counters of 40 bits, 18 CCCRs, the 45 ESCRs (IQ_ESCR0/1 only on models 1 and 2: on later
//   models they read 0 and ignore writes). A write that sets a reserved bit raises #GP (trap) and
//   is counted (reserved_writes), as wrmsr does.
// - Counting: an injected event (event(): a row of kEvents, the mask bits it carries, how many, in
//   which mode) counts on every enabled counter whose CCCR selects an ESCR of its block and side that
//   holds this event select with a matching mask bit and the mode's OS/USR bit (T0 bits: one
//   logical processor), and whose ACTIVE_THREAD counts with one thread active (01 or 11).
//   COMPARE (with THRESHOLD, COMPLEMENT, EDGE) filters per clock: clocks() injects per-clock event
//   counts; a compare counter counts 1 per clock whose count is > THRESHOLD (<= with COMPLEMENT),
//   with EDGE only on a false->true change.
// - Overflow: a counter that wraps past 2^40 - 1 sets its CCCR's sticky OVF (FORCE_OVF: every
//   increment does); it keeps counting. OVF is cleared only by software writing it 0.
// - Cascade: a counter whose CCCR has CASCADE (and ENABLE clear) counts its own event while its
//   partner (0<->2, 1<->3 per block, 14->16, 15->17) has OVF set; clearing the partner's OVF halts it.
// - PMI: "generated on the next event count after the counter has overflowed" (SDM 18.15.3, the
//   CCCR's OVF_PMI flag; 18.15.5.8 presets -99 to interrupt on the 100th event): a counter
//   asserts it from the first event it counts with OVF set (OVF written 0 ends that; OVF written 1
//   by software is an overflow like another) while OVF_PMI_T0 is set. The local APIC takes it as
//   an edge (only LINT0/1 are level-triggered, SDM Vol. 3A 10.5.1) whenever it is asserted with the LVT
//   entry unmasked, and holds it until the CPU takes it (10.8.4: in the IRR), even if OVF is
//   cleared or the entry masked meanwhile; delivering it sets the LVT mask bit (NetBurst masks the
//   PMI on each interrupt), so a handler must clear OVF and then unmask: unmasking while a counter
//   still asserts latches another PMI, taken when the handler returns.
// - Execution tagging: uops of an upstream event (kExecTagging) whose ESCR has TAG_ENABLE carry its
//   tag value and all retire non-bogus: execution_event counts them with NBOGUSn for tag bit n.
// - Front-end tagging (SDM 18.15.6.2, Tables 19-29 and 19-31): load and store uops (event() on
//   uop_type with TAGLOADS or TAGSTORES: n such uops) are tagged when a uop_type ESCR (RAT_ESCR0/1,
//   event select 02H) has their type's bit and the mode's OS/USR bit. The ESCR alone tags: no
//   counter or CCCR takes part, and no counter ever increments on uop_type ("does not cause a
//   counter to increment"); the tag enable and tag value bits are execution tagging's. Every
//   tagged uop retires non-bogus: front_end_event counts it under NBOGUS. instructions_retired()
//   retires instructions: instr_retired counts one with a tagged uop under NBOGUSTAG, any other
//   under NBOGUSNTAG.
// - Quirks, as options: set_ovf_late (the PMI arrives before OVF is set: OVF lands one event
//   after the PMI), set_write_needs_twice (erratum N15: a counter write takes only when the same
//   value is written twice in a row).
// - CPUID.1 (family/model, HTT) and IA32_MISC_ENABLE (bit 7) are answered without counting.
//   set_qemu(): what QEMU's TCG does (MISC_ENABLE reads 1, every PMU MSR reads 0 and ignores writes,
//   rdpmc raises #UD). A counter read by rdpmc (BusKind::pmc) reads the same 40 bits as its MSR.
#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"
#include "hal/core/model/harness.hpp"
#include "hal/netburst/events.hpp"
#include "hal/netburst/regs.hpp"

namespace pmu::netburst {

enum class Mode : std::uint8_t { os, usr };

class Model final : public model::Harness {
 public:
  static constexpr unsigned kMaxNesting = 16;

  Model() : Harness(BusKind::msr, BusKind::pmc) {}

  // --- set-up -----------------------------------------------------------------------------
  void set_cpuid(std::uint32_t family, std::uint32_t model) {
    family_ = family;
    model_ = model;
  }
  void set_misc_enable(std::uint64_t v) { misc_ = v; }
  void set_vendor_ebx(std::uint32_t v) { vendor_ebx_ = v; }  // CPUID.0:EBX ("Genu" = 0x756E6547)
  void set_qemu(bool on) {
    qemu_ = on;
    misc_ = on ? 1u : 0x80u;
  }
  void set_ovf_late(bool on) { ovf_late_ = on; }
  // rdpmc faults while the MSRs work (a hypervisor that intercepts rdpmc).
  void set_rdpmc_faults(bool on) { rdpmc_faults_ = on; }
  void set_write_needs_twice(bool on) { write_twice_ = on; }
  void set_cycles_per_access(std::uint32_t n) { cycles_per_access_ = n; }

  // --- events -----------------------------------------------------------------------------
  // n events of row `row` carrying mask bits `mask`, in `mode`.
  void event(std::size_t row, std::uint16_t mask, std::uint64_t n = 1, Mode mode = Mode::os) {
    // Front-end tagging: uop_type counts nothing; the uops its ESCR tags retire non-bogus and
    // front_end_event counts them.
    if (kEvents[row].flags & kFrontEndTagging) {
      if (front_end_tagged(mask, mode)) event(kFrontEndEvent, kNbogus, n, mode);
      return;
    }
    // Execution tagging: an upstream ESCR with TAG_ENABLE marks the uops it selects with its tag
    // value; here every tagged uop retires non-bogus, so execution_event sees it with NBOGUSn set
    // for tag bit n (after this event's own counting).
    const std::uint16_t tagged = tag_of(row, mask, mode);
    const std::uint64_t uops = n;
    // In steps that end at the next wrap of any counter taking the event (so overflows, cascades
    // and interrupts land on the exact event), one at a time where a filter or FORCE_OVF acts.
    while (n) {
      std::uint64_t step = n;
      for (unsigned c = 0; c < kCounters; ++c) {
        if (!active(c) || !matches(c, row, mask, mode)) continue;
        if (cccr_[c] & (cccr::COMPARE | cccr::FORCE_OVF)) step = 1;
        if (pmi_due(c)) step = 1;  // its PMI comes on its next event
        const std::uint64_t to_wrap = kCounterMask - cnt_[c] + 1;
        if (to_wrap < step) step = to_wrap;
      }
      if (pending_ovf_ | late_wrap_) step = 1;
      tick(row, mask, 1, mode, false, step);
      n -= step;
    }
    if (tagged) event(kExecutionEvent, tagged, uops, mode);
  }
  // `clocks` clocks with `per_clock` events each (the compare/threshold/edge filters act per clock).
  void clocks(std::size_t row, std::uint16_t mask, std::uint32_t per_clock, std::uint64_t clocks, Mode mode = Mode::os) {
    for (std::uint64_t i = 0; i < clocks; ++i) tick(row, mask, per_clock, mode, true);
  }
  // The cycle event the driver's probe uses: global_power_events:RUNNING.
  void cycles(std::uint64_t n);
  // n instructions retiring non-bogus in `mode`, each with uops of the types in `uop_types`
  // (uop_type's mask bits: TAGLOADS, TAGSTORES; 0: neither): instr_retired counts them under
  // NBOGUSTAG where front-end tagging tags one of those types, else under NBOGUSNTAG (Table 19-29).
  void instructions_retired(std::uint64_t n, std::uint16_t uop_types = 0, Mode mode = Mode::os) {
    event(kInstrRetired, front_end_tagged(uop_types, mode) ? kNbogusTag : kNbogusNtag, n, mode);
  }
  // Events any one counter can take before a rule acts on an exact event (a wrap, a FORCE_OVF
  // increment, a PMI due on the next event, the late-OVF quirk): a caller that batches events
  // (pmusim) gives at most this many at a time, so each overflow and PMI lands where it would.
  std::uint64_t quiet_events() const {
    if (pending_ovf_ | late_wrap_) return 1;
    std::uint64_t h = kCounterMask + 1;
    for (unsigned n = 0; n < kCounters; ++n) {
      if ((cccr_[n] & cccr::FORCE_OVF) || pmi_due(n)) return 1;
      const std::uint64_t to_wrap = kCounterMask - cnt_[n] + 1;
      if (to_wrap < h) h = to_wrap;
    }
    return h;
  }

  // --- inspection -------------------------------------------------------------------------
  std::uint64_t counter(unsigned n) const { return n < kCounters ? cnt_[n] : 0; }
  std::uint64_t cccr(unsigned n) const { return n < kCounters ? cccr_[n] : 0; }
  std::uint64_t escr(EscrId id) const { return escr_[static_cast<unsigned>(id)]; }
  std::uint32_t lvt() const { return lvt_; }
  unsigned reserved_writes() const { return reserved_writes_; }
  unsigned counter_writes_lost() const { return writes_lost_; }
  void set_counter(unsigned n, std::uint64_t v) {
    if (n < kCounters) cnt_[n] = v & kCounterMask;
  }
  void set_lvt(std::uint32_t v) {
    lvt_ = v;
    latch_pmi();
  }

 private:
  static constexpr std::uint32_t kLvtMask = 1u << 16;

  static unsigned partner_of(unsigned hi) {  // the counter whose overflow starts `hi`
    if (hi == 16) return 14;
    if (hi == 17) return 15;
    return hi ^ 2u;
  }
  bool escr_present(unsigned i) const { return !kEscrTable[i].early_models_only || model_ < 3; }
  // The ESCR a counter's CCCR selects: the one of its block and side with that select value.
  int selected_escr(unsigned n) const {
    const unsigned sel = static_cast<unsigned>((cccr_[n] >> cccr::ESCR_SELECT_SHIFT) & 7u);
    for (unsigned i = 0; i < kEscrs; ++i)
      if (kEscrTable[i].select == sel && (kEscrTable[i].counters >> n & 1u) && escr_present(i)) return static_cast<int>(i);
    return -1;
  }
  bool active(unsigned n) const {
    const std::uint64_t c = cccr_[n];
    const unsigned at = static_cast<unsigned>((c >> cccr::ACTIVE_THREAD_SHIFT) & 3u);
    if (at != 1 && at != 3) return false;  // one logical processor is active: "single" or "any"
    if (c & cccr::ENABLE) return true;
    return (c & cccr::CASCADE) && (cccr_[partner_of(n)] & cccr::OVF);
  }
  // The tag value the event's ESCRs put on these uops (0: none tags them): an ESCR holding the
  // event with TAG_ENABLE, a selected mask bit and the mode's OS/USR bit; no counter needed.
  std::uint16_t tag_of(std::size_t row, std::uint16_t mask, Mode mode) const {
    const NbEvent& ev = kEvents[row];
    if (!(ev.flags & kExecTagging) || qemu_) return 0;
    std::uint16_t tag = 0;
    for (EscrId id : ev.escr) {
      if (id == EscrId::none) continue;
      const std::uint64_t v = escr_[static_cast<unsigned>(id)];
      if (((v >> escr::EVENT_SELECT_SHIFT) & 0x3Fu) != ev.event_select || !(v & escr::TAG_ENABLE)) continue;
      if (!(((v >> escr::EVENT_MASK_SHIFT) & 0xFFFFu) & mask)) continue;
      if (!(v & (mode == Mode::os ? escr::T0_OS : escr::T0_USR))) continue;
      tag = static_cast<std::uint16_t>(tag | ((v >> escr::TAG_VALUE_SHIFT) & 0xFu));
    }
    return tag;
  }
  static constexpr std::size_t kExecutionEvent = event_row("execution_event");
  static constexpr std::size_t kFrontEndEvent = event_row("front_end_event");
  static constexpr std::size_t kInstrRetired = event_row("instr_retired");
  static constexpr std::size_t kUopType = event_row("uop_type");
  static constexpr std::uint16_t kNbogus = 1u << 0;      // front_end_event NBOGUS
  static constexpr std::uint16_t kNbogusNtag = 1u << 0;  // instr_retired NBOGUSNTAG
  static constexpr std::uint16_t kNbogusTag = 1u << 1;   // instr_retired NBOGUSTAG
  // Front-end tagging: does a uop_type ESCR tag uops of these types (TAGLOADS, TAGSTORES) in this
  // mode? Its event select and mask bit and the mode's OS/USR bit; no counter or CCCR needed.
  bool front_end_tagged(std::uint16_t types, Mode mode) const {
    if (qemu_ || !types) return false;
    const NbEvent& ev = kEvents[kUopType];
    for (EscrId id : ev.escr) {
      if (id == EscrId::none) continue;
      const std::uint64_t v = escr_[static_cast<unsigned>(id)];
      if (((v >> escr::EVENT_SELECT_SHIFT) & 0x3Fu) != ev.event_select) continue;
      if (!(((v >> escr::EVENT_MASK_SHIFT) & 0xFFFFu) & types)) continue;
      if (v & (mode == Mode::os ? escr::T0_OS : escr::T0_USR)) return true;
    }
    return false;
  }
  // Overflowed with its PMI enabled, the PMI not yet raised: it comes on the counter's next event.
  bool pmi_due(unsigned n) const {
    const std::uint64_t c = cccr_[n];
    return (c & cccr::OVF) && (c & cccr::OVF_PMI_T0) && !(pmi_raised_ >> n & 1u);
  }

  bool matches(unsigned n, std::size_t row, std::uint16_t mask, Mode mode) const {
    const int e = selected_escr(n);
    if (e < 0) return false;
    const std::uint64_t v = escr_[e];
    const NbEvent& ev = kEvents[row];
    if (ev.flags & kFrontEndTagging) return false;  // uop_type only tags
    if (((v >> escr::EVENT_SELECT_SHIFT) & 0x3Fu) != ev.event_select) return false;
    if (ev.escr[0] != static_cast<EscrId>(e) && ev.escr[1] != static_cast<EscrId>(e)) return false;
    if ((((v >> escr::EVENT_MASK_SHIFT) & 0xFFFFu) & mask) == 0) return false;
    return (v & (mode == Mode::os ? escr::T0_OS : escr::T0_USR)) != 0;
  }
  void tick(std::size_t row, std::uint16_t mask, std::uint32_t per_clock, Mode mode, bool filtered,
            std::uint64_t amount = 1) {
    if (nesting_ >= kMaxNesting) {
      nesting_exceeded_ = true;
      return;
    }
    if (qemu_) return;
    ++nesting_;
    bool counted_any = false;
    std::uint64_t inc[kCounters]{};
    for (unsigned n = 0; n < kCounters; ++n) {
      if (!active(n) || !matches(n, row, mask, mode)) continue;
      const std::uint64_t c = cccr_[n];
      std::uint64_t k = filtered ? per_clock : amount;
      if (c & cccr::COMPARE) {
        const unsigned thr = static_cast<unsigned>((c >> cccr::THRESHOLD_SHIFT) & 0xFu);
        bool out = (c & cccr::COMPLEMENT) ? per_clock <= thr : per_clock > thr;
        const bool rising = out && !last_out_[n];
        last_out_[n] = out;
        if (c & cccr::EDGE) out = rising;
        k = out ? 1u : 0u;
      }
      inc[n] = k;
    }
    for (unsigned n = 0; n < kCounters; ++n) {  // all counters of this clock, then their effects
      if (!inc[n]) continue;
      counted_any = true;
      const std::uint32_t bit = 1u << n;
      const bool overflowed = (cccr_[n] & cccr::OVF) != 0;  // before this event
      const std::uint64_t before = cnt_[n];
      const bool wrapped = before + inc[n] > kCounterMask;  // a step never passes more than one wrap
      cnt_[n] = (before + inc[n]) & kCounterMask;
      // The next event count after the overflow raises the PMI (with OVF_PMI_T0: pmi_due).
      if (overflowed) pmi_raised_ |= bit;
      if (pending_ovf_ & bit) {  // quirk: OVF lands one event after its PMI
        cccr_[n] |= cccr::OVF;
        pending_ovf_ &= ~bit;
        pmi_raised_ |= bit;
      } else if (late_wrap_ & bit) {  // quirk: the PMI comes on time, OVF not yet set
        late_wrap_ &= ~bit;
        pending_ovf_ |= bit;
        if (cccr_[n] & cccr::OVF_PMI_T0) late_pmi_ = true;
      }
      if (wrapped || (cccr_[n] & cccr::FORCE_OVF)) {
        if (ovf_late_ && !(cccr_[n] & cccr::FORCE_OVF))
          late_wrap_ |= bit;
        else
          cccr_[n] |= cccr::OVF;
      }
    }
    if (counted_any) latch_pmi();
    --nesting_;
  }

  bool owns(std::uint32_t key) const override {
    const std::uint32_t a = key & 0x00FFFFFFu;
    if ((key >> 24) == static_cast<std::uint32_t>(BusKind::pmc)) return true;  // #GP past counter 17
    if ((key >> 24) != static_cast<std::uint32_t>(BusKind::msr)) return false;
    if (a >= 0x300 && a < 0x300 + kCounters) return true;
    if (a >= 0x360 && a < 0x360 + kCounters) return true;
    if (a == IA32_PEBS_ENABLE::location::address || a == PEBS_MATRIX_VERT::location::address) return true;
    return escr_index(a) >= 0;
  }
  static int escr_index(std::uint32_t a) {
    for (unsigned i = 0; i < kEscrs; ++i)
      if (kEscrTable[i].msr == a) return static_cast<int>(i);
    return -1;
  }
  // CPUID, IA32_MISC_ENABLE and the LVT entry: not PMU MSR accesses.
  bool uncounted_read(std::uint32_t key, std::uint64_t& v) override {
    if (key == CPUID1_EAX_KEY) {
      v = (family_ == 0xF ? ((model_ >> 4) & 0xFu) << 16 : 0u) | ((family_ & 0xFu) << 8) | ((model_ & 0xFu) << 4);
      return true;
    }
    if (key == Cpuid<0, 1>::key) {
      v = vendor_ebx_;
      return true;
    }
    if (key == CPUID1_EBX_KEY || key == CPUID1_EDX_KEY) {
      v = 0;  // no Hyper-Threading
      return true;
    }
    if (key == IA32_MISC_ENABLE::location::key) {
      v = misc_;
      return true;
    }
    if (key == LVT_PERF::location::key) {
      v = lvt_;
      return true;
    }
    return false;
  }
  bool uncounted_write(std::uint32_t key, std::uint64_t v) override {
    if (key != LVT_PERF::location::key) return false;
    // Unmasked while a counter still asserts: the APIC latches a new PMI, delivered even if OVF
    // is cleared before the handler returns.
    lvt_ = static_cast<std::uint32_t>(v);
    latch_pmi();
    return true;
  }

  MockResult on_read(std::uint32_t key, std::uint64_t& v) override {
    const std::uint32_t a = key & 0x00FFFFFFu;
    v = 0;
    if ((key >> 24) == static_cast<std::uint32_t>(BusKind::pmc)) {
      // rdpmc: QEMU's TCG raises #UD; an index with no counter, #GP (SDM Vol. 2B, RDPMC).
      if (qemu_ || rdpmc_faults_ || a >= kCounters) return MockResult::trap;
      v = cnt_[a];
      return MockResult::handled;
    }
    if (qemu_) return MockResult::handled;
    if (a >= 0x300 && a < 0x312) v = cnt_[a - 0x300];
    else if (a >= 0x360 && a < 0x372) v = cccr_[a - 0x360];
    else if (a == IA32_PEBS_ENABLE::location::address) v = pebs_;
    else if (a == PEBS_MATRIX_VERT::location::address) v = matrix_;
    else {
      const int i = escr_index(a);
      v = escr_present(static_cast<unsigned>(i)) ? escr_[i] : 0;
    }
    return MockResult::handled;
  }

  MockResult on_write(std::uint32_t key, std::uint64_t v) override {
    const std::uint32_t a = key & 0x00FFFFFFu;
    if (qemu_) return MockResult::handled;
    auto reserved = [&](std::uint64_t writable) {
      if (!(v & ~writable)) return false;
      ++reserved_writes_;
      return true;
    };
    if (a >= 0x300 && a < 0x312) {
      const unsigned n = a - 0x300;
      if (reserved(kCounterMask)) return MockResult::trap;
      if (write_twice_ && !(last_write_key_ == key && last_write_value_ == v)) {
        ++writes_lost_;  // erratum N15: this write did not take
      } else {
        cnt_[n] = v;
      }
      last_write_key_ = key;
      last_write_value_ = v;
      return MockResult::handled;
    }
    last_write_key_ = 0;
    if (a >= 0x360 && a < 0x372) {
      if (reserved(kCccrWritable)) return MockResult::trap;
      const unsigned n = a - 0x360;
      cccr_[n] = v;
      if (!(v & cccr::OVF)) {  // cleared: no overflow, no PMI raised (a set OVF stays as it was)
        pending_ovf_ &= ~(1u << n);
        late_wrap_ &= ~(1u << n);
        pmi_raised_ &= ~(1u << n);
      }
      latch_pmi();
    } else if (a == IA32_PEBS_ENABLE::location::address) {
      if (reserved(0x07FFFFFFull)) return MockResult::trap;
      pebs_ = v;
    } else if (a == PEBS_MATRIX_VERT::location::address) {
      if (reserved(0x1FFFull)) return MockResult::trap;
      matrix_ = v;
    } else {
      if (reserved(kEscrWritable)) return MockResult::trap;
      const int i = escr_index(a);
      if (escr_present(static_cast<unsigned>(i))) escr_[i] = v;
    }
    return MockResult::handled;
  }

  void on_access_done() override {
    if (cycles_per_access_) cycles(cycles_per_access_);
  }
  // A counter asserts its PMI from its first event after the overflow until OVF is cleared.
  bool asserting() const {
    for (unsigned n = 0; n < kCounters; ++n)
      if ((cccr_[n] & cccr::OVF) && (cccr_[n] & cccr::OVF_PMI_T0) && (pmi_raised_ >> n & 1u))
        return true;
    return late_pmi_;
  }
  // The APIC accepts an asserted PMI while the LVT entry is unmasked; from then on it is pending
  // whatever happens to OVF or the entry, until the CPU takes it.
  void latch_pmi() {
    if (!(lvt_ & kLvtMask) && asserting()) pmi_pending_ = true;
    poll_interrupt();
  }
  bool interrupt_wanted() const override { return pmi_pending_; }
  void interrupt_taken() override {
    lvt_ |= kLvtMask;  // NetBurst masks the LVT entry on every PMI
    late_pmi_ = false;
    pmi_pending_ = false;
  }

  static constexpr std::uint32_t CPUID1_EAX_KEY = Cpuid<1, 0>::key;
  static constexpr std::uint32_t CPUID1_EBX_KEY = Cpuid<1, 1>::key;
  static constexpr std::uint32_t CPUID1_EDX_KEY = Cpuid<1, 3>::key;

  std::uint32_t family_ = 0xF, model_ = 2;
  std::uint32_t vendor_ebx_ = 0x756E6547u;
  std::uint64_t misc_ = 0x80u;
  bool qemu_ = false, ovf_late_ = false, write_twice_ = false, late_pmi_ = false, pmi_pending_ = false;
  bool rdpmc_faults_ = false;
  std::uint32_t cycles_per_access_ = 0;
  std::uint64_t cnt_[kCounters]{};
  std::uint64_t cccr_[kCounters]{};
  std::uint64_t escr_[kEscrs]{};
  std::uint64_t pebs_ = 0, matrix_ = 0;
  std::uint32_t lvt_ = kLvtMask;  // masked at reset
  bool last_out_[kCounters]{};
  std::uint32_t pending_ovf_ = 0;  // quirk: OVF due on the counter's next event
  std::uint32_t late_wrap_ = 0;    // quirk: wrapped, OVF not set; the PMI due on the next event
  std::uint32_t pmi_raised_ = 0;   // counted an event since the overflow: the PMI is raised
  std::uint32_t last_write_key_ = 0;
  std::uint64_t last_write_value_ = 0;
  unsigned reserved_writes_ = 0, writes_lost_ = 0, nesting_ = 0;
  bool nesting_exceeded_ = false;
};

inline void Model::cycles(std::uint64_t n) {
  for (std::size_t i = 0; i < kNumEvents; ++i)
    if (kEvents[i].event_select == 0x13 && kEvents[i].escr[0] == EscrId::FSB_ESCR0) {
      event(i, 0x1, n, Mode::os);
      return;
    }
}

}  // namespace pmu::netburst
