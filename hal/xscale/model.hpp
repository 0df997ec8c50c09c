#pragma once
// Behavioural models of the XScale PMU for host tests: Xsc2Model and Xsc1Model implement
// pmu::MockDevice, so either plugs into any MockBus<Tag>:
//
//   pmu::xscale::Xsc2Model model;                 // the manual's PMU
//   pmu::MockBus<MyTag>::device = &model;         // the driver now talks to it
//   model.cycles(100); model.event(pmu::xscale::event::DC_MISS, 3);
//
// What the models do (core manual chapter 8):
//  - counters advance only while PMNC.E = 1: cycles(n) feeds CCNT, event(code, n) feeds every PMN
//    whose evtCount selects `code`;
//  - D = 1: CCNT advances once per 64 cycles; the remainder carries over between cycles() calls
//    (C resets it with CCNT);
//  - every counter wraps at 32 bits and sets its overflow flag; the flag stays set until a 1 is
//    written to it (W1C); writes to write-as-zero bits are dropped; P and C reset and read as 0;
//  - the interrupt line is (flags & enables) != 0, a level (the PXA27x's interrupt controller
//    passes the PMU's request on while it is asserted): the model calls the test's callback
//    while the line is high and the CPU can take it, so a handler that returns with a flag still
//    set is called again, and a flag cleared while the CPU masks interrupts takes the request
//    away (a plain function pointer and context; no heap, no exceptions).
// Options: the A-stepping erratum (a new overflow clears the flags already set), P/C reading back 1
// ("read unpredictable"), event selects stuck at one event, QEMU 7.2's partial PMU (Xsc2Model only), an absent PMU (every access
// traps), time passing on every access (for probe's busy loop), and a hook that runs test code
// after the Nth register access (e.g. to land an overflow in the middle of a driver sequence).
//
// Interrupt callbacks and hooks run at the end of the access that caused them, so they may use the
// bus themselves; their accesses then appear in the mock's log before the access that triggered them.
// Freestanding: compiles with -ffreestanding -fno-exceptions -fno-rtti.
#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/model/harness.hpp"
#include "hal/xscale/events.hpp"
#include "hal/xscale/regs.hpp"

namespace pmu::xscale {

enum class ModelMode : std::uint8_t {
  full,    // the manual's PMU
  qemu,    // QEMU 7.2's PXA270 (QEMU's hw/arm/pxa2xx.c, checked on QEMU 7.2): PMNC keeps what is written; CCNT
           // reads the free-running virtual clock while PMNC.E=1 and 0 while E=0, ignores writes,
           // C and D, never overflows into FLAG; INTEN, FLAG, EVTSEL, PMN0-2 read 0 and ignore
           // writes; PMN3 traps; no interrupt. Xsc2Model only (Xsc1Model treats it as full).
  absent,  // every PMU register access traps (a core without this PMU); MIDR still reads
};

struct ModelConfig {
  ModelMode mode = ModelMode::full;
  bool a_step_erratum = false;        // a new overflow clears the flags already set
  bool actions_read_as_one = false;   // P and C read back as 1 (the manual: unpredictable)
  bool stuck_event_selects = false;   // evtCount fields ignore writes and stay at INSTR (0x07):
                                      // PMNs count, but what they count cannot be chosen
  std::uint32_t midr = 0;             // 0: the variant's default (see the models)
  std::uint32_t pmu_id = 0;           // XSC2 PMNC.ID (31:24)
  std::uint32_t cycles_per_access = 0;  // after each access: cycles(n) and event(INSTR, n)
  std::uint64_t qemu_clock = 4000000;   // qemu mode: the virtual clock (ns) at start
};

using IrqCallback = model::Callback;

namespace detail {

// State and counting, in slot terms: slot 0 = CCNT, slot 1 + n = PMNn. The access bracket,
// hooks, absent mode and interrupt delivery are the kit's (model::Harness).
class ModelCore : public model::Harness {
 public:
  static constexpr unsigned kMaxSlots = 5;

  // --- what happens on the core ---
  void cycles(std::uint64_t n) {
    if (qemu()) {  // the virtual clock runs whether or not E is set
      cfg_.qemu_clock += n;
      return;
    }
    if (!e_ || absent()) return;
    std::uint64_t ticks = n;
    if (d_) {
      const std::uint64_t total = prescale_ + n;
      ticks = total / 64;
      prescale_ = static_cast<std::uint32_t>(total % 64);
    }
    add(0, ticks);
  }
  void event(std::uint32_t code, std::uint64_t n) {
    if (!e_ || absent() || qemu()) return;  // QEMU's PMN0-2 never count
    for (unsigned p = 0; p < pmns_; ++p)
      if (evt_[p] == code) add(p + 1, n);
  }

  // --- test-side view and presets (no bus access, not counted) ---
  std::uint32_t counter(unsigned slot) const { return static_cast<std::uint32_t>(count_.get(slot)); }
  std::uint32_t ccnt() const { return counter(0); }
  std::uint32_t pmn(unsigned n) const { return counter(n + 1); }
  void set_counter(unsigned slot, std::uint32_t v) { count_.set(slot, v); }
  std::uint32_t selected_event(unsigned n) const { return n < 4 ? evt_[n] : 0; }
  bool enabled() const { return e_; }
  bool divider() const { return d_; }
  std::uint32_t flags() const { return flags_; }       // slot mask
  std::uint32_t inten() const { return inten_; }       // slot mask
  std::uint64_t overflows(unsigned slot) const { return count_.wraps(slot); }
  bool irq_line() const { return line_; }
  unsigned irq_count() const { return irq_count_; }
  const ModelConfig& config() const { return cfg_; }

  // Forces an overflow flag as if slot had just wrapped (the counter itself is untouched).
  void raise_flag(unsigned slot) {
    if (slot < slots()) set_flag(slot);
  }


 protected:
  ModelCore(ModelConfig cfg, unsigned pmns) : Harness(BusKind::arm_cp), cfg_(cfg), pmns_(pmns) {
    if (cfg_.stuck_event_selects)
      for (auto& e : evt_) e = event::INSTR;
    set_absent(cfg_.mode == ModelMode::absent);
  }
  void select(unsigned pmn, std::uint32_t code) {
    if (!cfg_.stuck_event_selects) evt_[pmn] = code;
  }

  bool qemu() const { return cfg_.mode == ModelMode::qemu; }
  unsigned slots() const { return pmns_ + 1; }

  void add(unsigned slot, std::uint64_t n) {
    if (count_.add(slot, n) != 0) set_flag(slot);  // every counter wraps at 32 bits (§8.2.4.1)
  }
  void set_flag(unsigned slot) {
    if (qemu()) return;  // QEMU's FLAG reads 0
    const std::uint32_t bit = 1u << slot;
    if (cfg_.a_step_erratum && (flags_ & ~bit) != 0)
      flags_ = bit;  // A-stepping erratum: the earlier flags are lost
    else
      flags_ |= bit;
    update_line();
  }
  void clear_flags(std::uint32_t slots) {
    flags_ &= ~slots;
    update_line();
  }
  void set_inten(std::uint32_t slots) {
    inten_ = slots;
    update_line();
  }
  // The line is a level: the handler is called while it is high (from the end of the access that
  // raised it), again and again if it stays high. irq_count() counts its rising edges.
  void update_line() {
    const bool line = !qemu() && (flags_ & inten_) != 0;
    if (line && !line_) ++irq_count_;
    line_ = line;
    poll_interrupt();
  }
  bool interrupt_wanted() const override { return line_; }
  void interrupt_taken() override {}  // a level: it drops when software clears the flag
  void on_access_done() override {
    if (cfg_.cycles_per_access != 0) {  // time passes after each instruction
      cycles(cfg_.cycles_per_access);
      event(event::INSTR, cfg_.cycles_per_access);
    }
  }
  bool uncounted_read(std::uint32_t key, std::uint64_t& value) override {
    if (key != MIDR::location::key) return false;
    value = cfg_.midr;
    return true;
  }
  bool uncounted_write(std::uint32_t key, std::uint64_t) override {
    return key == MIDR::location::key;  // read-only: ignored
  }
  void reset_pmns() {
    for (unsigned p = 0; p < pmns_; ++p) count_.set(p + 1, 0);
  }
  void reset_ccnt() {
    count_.set(0, 0);
    prescale_ = 0;
  }

  ModelConfig cfg_;
  unsigned pmns_;
  bool e_ = false;
  bool d_ = false;
  std::uint32_t inten_ = 0;  // slot mask
  std::uint32_t flags_ = 0;  // slot mask
  std::uint32_t evt_[4]{};
  model::CounterBank<kMaxSlots> count_{32};
  std::uint32_t prescale_ = 0;  // cycles towards the next CCNT tick while D = 1

 private:
  bool line_ = false;
  unsigned irq_count_ = 0;
};

template <class R>
constexpr std::uint32_t key_of = R::location::key;

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// XSC2 (4 counters). Default MIDR: PXA27x, 0x69054117.
class Xsc2Model final : public detail::ModelCore {
 public:
  explicit Xsc2Model(ModelConfig cfg = {}) : ModelCore(cfg, 4) {
    if (cfg_.midr == 0) cfg_.midr = 0x69054117;
  }

  std::uint32_t pmnc_raw() const { return qemu_pmnc_; }  // qemu mode: what PMNC holds

 private:
  bool owns(std::uint32_t key) const override { return counter_slot(key) >= 0 || is_control(key); }
  MockResult on_read(std::uint32_t key, std::uint64_t& value) override {
    const int slot = counter_slot(key);
    if (qemu() && slot == 4) return MockResult::trap;
    value = read_register(key, slot);
    return MockResult::handled;
  }
  MockResult on_write(std::uint32_t key, std::uint64_t value) override {
    const int slot = counter_slot(key);
    if (qemu() && slot == 4) return MockResult::trap;
    write_register(key, slot, static_cast<std::uint32_t>(value));
    return MockResult::handled;
  }

  static int counter_slot(std::uint32_t key) {
    using namespace xsc2;
    if (key == detail::key_of<CCNT>) return 0;
    if (key == detail::key_of<PMN0>) return 1;
    if (key == detail::key_of<PMN1>) return 2;
    if (key == detail::key_of<PMN2>) return 3;
    if (key == detail::key_of<PMN3>) return 4;
    return -1;
  }
  static bool is_control(std::uint32_t key) {
    using namespace xsc2;
    return key == detail::key_of<PMNC> || key == detail::key_of<INTEN> ||
           key == detail::key_of<FLAG> || key == detail::key_of<EVTSEL>;
  }

  std::uint32_t read_register(std::uint32_t key, int slot) const {
    using namespace xsc2;
    if (key == detail::key_of<PMNC>) {
      if (qemu()) return qemu_pmnc_;
      std::uint32_t v = (e_ ? pmnc::E.mask : 0) | (d_ ? pmnc::D.mask : 0) |
                        ((cfg_.pmu_id & 0xFF) << pmnc::ID.offset);
      if (cfg_.actions_read_as_one) v |= pmnc::P.mask | pmnc::C.mask;
      return v;
    }
    if (qemu()) {  // CCNT is the clock while E=1, else 0; INTEN, FLAG, EVTSEL, PMN0-2 read 0
      return (slot == 0 && e_) ? static_cast<std::uint32_t>(cfg_.qemu_clock) : 0;
    }
    if (slot >= 0) return counter(static_cast<unsigned>(slot));
    if (key == detail::key_of<INTEN>) return inten_;  // bit n = slot n
    if (key == detail::key_of<FLAG>) return flags_;
    return evt_[0] | (evt_[1] << 8) | (evt_[2] << 16) | (evt_[3] << 24);  // EVTSEL
  }

  void write_register(std::uint32_t key, int slot, std::uint32_t v) {
    using namespace xsc2;
    if (key == detail::key_of<PMNC>) {
      if (qemu()) {  // keeps everything; only E has an effect
        qemu_pmnc_ = v;
        e_ = (v & pmnc::E.mask) != 0;
        return;
      }
      v &= PMNC::write_mask;
      if (v & pmnc::P.mask) reset_pmns();
      if (v & pmnc::C.mask) reset_ccnt();
      d_ = (v & pmnc::D.mask) != 0;
      e_ = (v & pmnc::E.mask) != 0;
      return;
    }
    if (qemu()) return;  // CCNT writes ignored too
    if (slot >= 0) {
      count_.set(static_cast<unsigned>(slot), v);
    } else if (key == detail::key_of<INTEN>) {
      set_inten(v & INTEN::write_mask);
    } else if (key == detail::key_of<FLAG>) {
      clear_flags(v & FLAG::w1c_mask);  // W1C
    } else {  // EVTSEL
      for (unsigned p = 0; p < 4; ++p) select(p, (v >> (8 * p)) & 0xFF);
    }
  }

  std::uint32_t qemu_pmnc_ = 0;
};

// ---------------------------------------------------------------------------------------------
// XSC1 (2 counters; enables, flags and event selects in PMNC). Default MIDR 0x69052000: the 80200
// A0/A1 ID (Intel, ARMv5TE, core generation 1).
class Xsc1Model final : public detail::ModelCore {
 public:
  explicit Xsc1Model(ModelConfig cfg = {}) : ModelCore(cfg, 2) {
    if (cfg_.midr == 0) cfg_.midr = 0x69052000;
    if (cfg_.mode == ModelMode::qemu) cfg_.mode = ModelMode::full;  // QEMU has no XSC1 PMU
  }

 private:
  bool owns(std::uint32_t key) const override {
    return counter_slot(key) >= 0 || key == detail::key_of<xsc1::PMNC>;
  }
  MockResult on_read(std::uint32_t key, std::uint64_t& value) override {
    const int slot = counter_slot(key);
    value = slot >= 0 ? counter(static_cast<unsigned>(slot)) : pmnc_value();
    return MockResult::handled;
  }
  MockResult on_write(std::uint32_t key, std::uint64_t value) override {
    const int slot = counter_slot(key);
    if (slot >= 0)
      count_.set(static_cast<unsigned>(slot), static_cast<std::uint32_t>(value));
    else
      write_pmnc(static_cast<std::uint32_t>(value));
    return MockResult::handled;
  }
  static int counter_slot(std::uint32_t key) {
    using namespace xsc1;
    if (key == detail::key_of<CCNT>) return 0;
    if (key == detail::key_of<PMN0>) return 1;
    if (key == detail::key_of<PMN1>) return 2;
    return -1;
  }
  std::uint32_t pmnc_value() const {
    using namespace xsc1::pmnc;
    std::uint32_t v = (e_ ? E.mask : 0) | (d_ ? D.mask : 0) | xsc1::inten_slot.mask_of(inten_) |
                      xsc1::flag_slot.mask_of(flags_) | evt_[0] << evtCount0.offset |
                      evt_[1] << evtCount1.offset;
    if (cfg_.actions_read_as_one) v |= P.mask | C.mask;
    return v;
  }

  void write_pmnc(std::uint32_t v) {
    using namespace xsc1::pmnc;
    v &= xsc1::PMNC::write_mask;  // 31:28, 11, 7 are write-as-zero
    if (v & P.mask) reset_pmns();
    if (v & C.mask) reset_ccnt();
    d_ = (v & D.mask) != 0;
    select(0, evtCount0.extract(v));
    select(1, evtCount1.extract(v));
    e_ = (v & E.mask) != 0;
    clear_flags(xsc1::flag_slot.slots_set(v));  // W1C
    set_inten(xsc1::inten_slot.slots_set(v));
  }
};

}  // namespace pmu::xscale
