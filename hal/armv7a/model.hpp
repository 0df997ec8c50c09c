#pragma once
// Behavioural model of the ARMv7-A Performance Monitors for host tests: a pmu::MockDevice, so it
// plugs into any MockBus<Tag>:
//
//   pmu::armv7a::Model model{{.counters = 6}};   // PMCR.N = 6
//   pmu::MockBus<MyTag>::device = &model;
//   model.cycles(100); model.event(pmu::armv7a::event::INST_RETIRED, 3);
//
// What it does (ARMv7 ARM C12 and the B4.1 register entries):
//  - a counter advances only while PMCR.E = 1 and its PMCNTENSET bit is set: cycles(n) feeds
//    PMCCNTR and every event counter whose PMXEVTYPER.evtCount is CPU_CYCLES; event(code, n) the
//    event counters that count `code`; a PMSWINC write of bit n adds one to event counter n when
//    it counts SW_INCR;
//  - PMCR.D = 1: PMCCNTR advances once per 64 cycles (the remainder carries; PMCR.C resets it);
//  - every counter is 32 bits, wraps to 0 and sets its PMOVSR bit; PMOVSR is write-1-to-clear;
//  - PMCR.P resets every event counter, PMCR.C the cycle counter; both read as 0;
//  - PMCNTENSET/PMINTENSET write 1 to set, PMCNTENCLR/PMINTENCLR write 1 to clear, all read the
//    enables; bits of counters past PMCR.N are ignored;
//  - PMXEVTYPER/PMXEVCNTR reach the counter PMSELR.SEL selects; a SEL at or past N reads as 0 and
//    ignores writes (the manual: UNPREDICTABLE);
//  - the overflow interrupt request is a level, (PMOVSR & PMINTENSET) != 0: the test's callback
//    runs while it is asserted and the CPU can take it (model::Harness).
// Options: the number of counters (PMCR.N), PMCEID0/1 or their trapping (a PMUv1 part; QEMU 7.2's
// cortex-a15 and cortex-a7, measured), IMP/IDCODE, an absent PMU (every access traps, as without
// the extension), time passing on every access.
#include <cstdint>

#include "hal/armv7a/events.hpp"
#include "hal/armv7a/regs.hpp"
#include "hal/core/bus/mock.hpp"
#include "hal/core/model/harness.hpp"

namespace pmu::armv7a {

struct ModelConfig {
  unsigned counters = 6;                 // PMCR.N
  std::uint32_t imp = 0x41;              // PMCR.IMP: ARM
  std::uint32_t idcode = 0x0F;           // PMCR.IDCODE (Cortex-A15's: its TRM)
  std::uint32_t pmceid0 = 0x3FFFFFFF;    // common events 0x00-0x1D implemented
  std::uint32_t pmceid1 = 0;
  std::uint32_t midr = 0x412FC0F1;       // Cortex-A15 r2p1
  bool pmceid_traps = false;             // PMCEID0/1 undefined (PMUv1; QEMU 7.2's ARMv7 CPUs)
  bool absent = false;                   // every PMU access traps
  std::uint32_t cycles_per_access = 0;   // after each access: cycles(n) and event(INST_RETIRED, n)
};

class Model : public model::Harness {
 public:
  static constexpr unsigned kMaxCounters = kMaxEventCounters;

  explicit Model(ModelConfig cfg = {}) : Harness(BusKind::arm_cp), cfg_(cfg) {
    if (cfg_.counters > kMaxCounters) cfg_.counters = kMaxCounters;
    set_absent(cfg_.absent);
  }

  // --- what happens on the core ---
  void cycles(std::uint64_t n) {
    if (!pmcr_e_ || absent()) return;
    if (enabled(31)) {
      std::uint64_t ticks = n;
      if (pmcr_d_) {
        const std::uint64_t total = prescale_ + n;
        ticks = total / 64;
        prescale_ = static_cast<std::uint32_t>(total % 64);
      }
      add(31, ticks);
    }
    count_event(event::CPU_CYCLES, n);
  }
  void event(std::uint32_t code, std::uint64_t n) {
    if (!pmcr_e_ || absent()) return;
    count_event(code, n);
  }

  // --- test-side view (no bus access, not counted) ---
  std::uint32_t ccnt() const { return static_cast<std::uint32_t>(count_.get(31)); }
  std::uint32_t pmn(unsigned n) const { return static_cast<std::uint32_t>(count_.get(n)); }
  std::uint32_t evtype(unsigned n) const { return n < kMaxCounters ? evtype_[n] : 0; }
  std::uint32_t pmselr() const { return sel_; }
  std::uint32_t pmovsr() const { return ovs_; }
  std::uint32_t pmcntenset() const { return cnten_; }
  std::uint32_t pmintenset() const { return inten_; }
  bool enabled_e() const { return pmcr_e_; }
  bool divider() const { return pmcr_d_; }
  void set_pmn(unsigned n, std::uint32_t v) { count_.set(n, v); }
  const ModelConfig& config() const { return cfg_; }

 private:
  // Bits of the per-counter registers that exist: C (31) and P0..P(N-1).
  std::uint32_t implemented() const {
    return 0x80000000u | (cfg_.counters >= 31 ? 0x7FFFFFFFu : (1u << cfg_.counters) - 1);
  }
  bool enabled(unsigned bit) const { return (cnten_ >> bit) & 1u; }
  void count_event(std::uint32_t code, std::uint64_t n) {
    for (unsigned i = 0; i < cfg_.counters; ++i)
      if (enabled(i) && evtype_[i] == code) add(i, n);
  }
  void add(unsigned bit, std::uint64_t n) {
    if (count_.add(bit, n) != 0) {
      ovs_ |= 1u << bit;  // every counter overflows from 0xFFFFFFFF to 0 (C12, overflow)
      poll_interrupt();
    }
  }
  bool selected_ok() const { return sel_ < cfg_.counters; }

  MockResult on_read(std::uint32_t k, std::uint64_t& v) override {
    if (k == PMCR::location::key) {
      v = (cfg_.imp << 24) | ((cfg_.idcode & 0xFF) << 16) | ((cfg_.counters & 0x1F) << 11) |
          (pmcr_dp_ << 5) | (pmcr_x_ << 4) | (std::uint32_t{pmcr_d_} << 3) | std::uint32_t{pmcr_e_};
    } else if (k == PMCNTENSET::location::key || k == PMCNTENCLR::location::key) {
      v = cnten_;
    } else if (k == PMOVSR::location::key) {
      v = ovs_;
    } else if (k == PMSELR::location::key) {
      v = sel_;
    } else if (k == PMCEID0::location::key) {
      if (cfg_.pmceid_traps) return MockResult::trap;
      v = cfg_.pmceid0;
    } else if (k == PMCEID1::location::key) {
      if (cfg_.pmceid_traps) return MockResult::trap;
      v = cfg_.pmceid1;
    } else if (k == PMCCNTR::location::key) {
      v = count_.get(31);
    } else if (k == PmxevtyperAccess::key) {
      v = selected_ok() ? evtype_[sel_] : 0;
    } else if (k == PmxevcntrAccess::key) {
      v = selected_ok() ? count_.get(sel_) : 0;
    } else if (k == PMUSERENR::location::key) {
      v = useren_;
    } else if (k == PMINTENSET::location::key || k == PMINTENCLR::location::key) {
      v = inten_;
    } else if (k == PMSWINC::location::key) {
      return MockResult::trap;  // write-only (B4.1 PMSWINC: reads UNPREDICTABLE / UNDEFINED)
    } else {
      return MockResult::unhandled;
    }
    return MockResult::handled;
  }
  MockResult on_write(std::uint32_t k, std::uint64_t raw) override {
    const auto v = static_cast<std::uint32_t>(raw);
    if (k == PMCR::location::key) {
      pmcr_e_ = v & 1u;
      pmcr_d_ = (v >> 3) & 1u;
      pmcr_x_ = (v >> 4) & 1u;
      pmcr_dp_ = (v >> 5) & 1u;
      if (v & 2u)  // P: every event counter to 0, not PMCCNTR
        for (unsigned i = 0; i < cfg_.counters; ++i) count_.set(i, 0);
      if (v & 4u) {  // C: PMCCNTR to 0 (and the divider's count towards 64)
        count_.set(31, 0);
        prescale_ = 0;
      }
    } else if (k == PMCNTENSET::location::key) {
      cnten_ |= v & implemented();
    } else if (k == PMCNTENCLR::location::key) {
      cnten_ &= ~v;
    } else if (k == PMOVSR::location::key) {
      ovs_ &= ~v;  // write 1 to clear
    } else if (k == PMSWINC::location::key) {
      for (unsigned i = 0; i < cfg_.counters; ++i)
        if (((v >> i) & 1u) && pmcr_e_ && enabled(i) && evtype_[i] == event::SW_INCR) add(i, 1);
    } else if (k == PMSELR::location::key) {
      sel_ = v & 0x1Fu;
    } else if (k == PMCEID0::location::key || k == PMCEID1::location::key || k == MIDR::location::key) {
      return MockResult::trap;  // read-only
    } else if (k == PMCCNTR::location::key) {
      count_.set(31, v);
    } else if (k == PmxevtyperAccess::key) {
      if (selected_ok()) evtype_[sel_] = v & 0xFFu;  // PMUv1: evtCount only
    } else if (k == PmxevcntrAccess::key) {
      if (selected_ok()) count_.set(sel_, v);
    } else if (k == PMUSERENR::location::key) {
      useren_ = v & 1u;
    } else if (k == PMINTENSET::location::key) {
      inten_ |= v & implemented();
    } else if (k == PMINTENCLR::location::key) {
      inten_ &= ~v;
    } else {
      return MockResult::unhandled;
    }
    poll_interrupt();
    return MockResult::handled;
  }
  bool uncounted_read(std::uint32_t k, std::uint64_t& v) override {
    if (k != MIDR::location::key) return false;
    v = cfg_.midr;
    return true;
  }
  void on_access_done() override {
    if (cfg_.cycles_per_access != 0) {
      cycles(cfg_.cycles_per_access);
      event(event::INST_RETIRED, cfg_.cycles_per_access);
    }
  }
  bool interrupt_wanted() const override { return (ovs_ & inten_) != 0; }
  void interrupt_taken() override {}  // a level: it drops when software clears PMOVSR

  ModelConfig cfg_;
  bool pmcr_e_ = false, pmcr_d_ = false;
  std::uint32_t pmcr_x_ = 0, pmcr_dp_ = 0;
  std::uint32_t cnten_ = 0, inten_ = 0, ovs_ = 0, sel_ = 0, useren_ = 0;
  std::uint32_t evtype_[kMaxCounters]{};
  std::uint32_t prescale_ = 0;
  model::CounterBank<32> count_{32};  // index = the counter's bit: 0..30 event counters, 31 PMCCNTR
};

}  // namespace pmu::armv7a
