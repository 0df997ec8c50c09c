#pragma once
// Behavioural model of the MIPS CPS Coherence Manager's performance counters, for host tests: a
// pmu::MockDevice answering the driver's GCR (MMIO) and discovery (CP0) accesses on any
// MockBus<Tag> (set MockBus<Tag>::device = &model).
//
// What it models (the CPS text's rules; hal/mips_cps/README.md):
// - Discovery: Config..Config3 (M chain, CMGCR), CMGCRBase (physical base >> 4), GCR_BASE read-back,
//   GCR_REV; each settable to build the present, absent, moved and unknown-revision cases.
//   EBase.CPUNum is the VP running the driver now (set_cpu), for the ownership contract.
//   These are answered without counting as PMU accesses.
// - PC_CTL: CountOn per counter; a Reset bit zeroes its counter and clears its overflow bit in the
//   same write, before counting starts, and reads back 0; Perf_Num_Cnt reads 2; bits outside the
//   defined fields read 0 and a write setting any is counted (reserved_writes).
// - Counting: CM cycles (cycles()) on PC_CYCLE; injected events (event()) on PC_CNT0/1 when their
//   PC_EVENT field selects the event and the qualifier matches: a caller-provided predicate over the
//   PC_QUALn value and the event's attributes (the layouts are not public; default: every event
//   matches). 32-bit counters that roll over to 0; the roll-over sets the counter's PC_OV bit.
// - PC_OV: write 1 to clear, 0 leaves a bit alone.
// - Perf_Ovf_Stop: while it is set and any overflow bit is set, no counter counts (all three stop;
//   clearing the bit lets them go on). Where a counter stops is an open question of the CPS text
//   (hal/mips_cps/README.md), so it is the model's one switch, OvfStopReading:
//     stops_at_max (default, the text's words: the counters stop "when any counter ... reaches its
//       maximum value of 0xFFFFFFFF"): the count that brings a counter to 0xFFFFFFFF sets its
//       overflow bit and stops all three; that counter holds 0xFFFFFFFF. A counter already at
//       0xFFFFFFFF when it counts (written there, or let go without moving it) rolls over to 0 and
//       sets its bit, as without Perf_Ovf_Stop.
//     stops_after_roll_over: the counter rolls over to 0 and sets its bit, then all three stop.
// - CM_PCInt: a level, asserted while Perf_Int_En and any overflow bit are set, taken as the PMU
//   interrupt (the board's wiring assumed).
// - Absent mode (harness set_absent): every GCR access traps (a bus error). Inert mode
//   (set_inert): QEMU 7.2's CPS, whose whole debug block reads 0 and ignores writes.
// Not modelled: CM3's 64-bit GCRs, GCR_ACCESS write protection, the GCR relocation by a GCR_BASE
// write, timing of the counters against the cores (every injected event is counted at once).
#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"
#include "hal/core/model/harness.hpp"
#include "hal/mips_cps/regs.hpp"

namespace pmu::mips_cps {

// Where Perf_Ovf_Stop stops the counters (header comment; hal/mips_cps/README.md).
enum class OvfStopReading : std::uint8_t {
  stops_at_max,           // the counter holds 0xFFFFFFFF with its overflow bit set
  stops_after_roll_over,  // the counter rolls over to 0, sets its overflow bit, then all stop
};

class Model final : public model::Harness {
 public:
  // Does an event with these attributes match this qualifier? (The caller's reading of its core's
  // qualifier layout.)
  using QualifierMatch = bool (*)(std::uint32_t event, std::uint32_t qualifier, std::uint32_t attributes,
                                  void* context);
  static constexpr unsigned kMaxNesting = 16;
  static constexpr std::uint32_t kQemuCmGcrBase = 0x01FBF800u;  // QEMU Malta: GCR at 0x1FBF8000
  static constexpr std::uint32_t kConfigM = 0x80000000u;
  static constexpr std::uint32_t kConfig3Cmgcr = 0x20000000u;

  explicit Model(OvfStopReading reading = OvfStopReading::stops_at_max)
      : Harness(BusKind::mmio), reading_(reading) {}
  OvfStopReading reading() const { return reading_; }

  // --- discovery set-up ---------------------------------------------------------------------
  void set_config_chain(bool config, bool config1, bool config2) {
    config_m_[0] = config;
    config_m_[1] = config1;
    config_m_[2] = config2;
  }
  void set_cmgcr(bool present) { cmgcr_ = present; }
  void set_cmgcrbase(std::uint32_t v) { cmgcrbase_ = v; }
  // What GCR_BASE reads (default: the address CMGCRBase gives).
  void set_gcr_base_readback(std::uint32_t v) {
    gcr_base_ = v;
    gcr_base_set_ = true;
  }
  void set_gcr_rev(std::uint32_t v) { gcr_rev_ = v; }
  void set_cpu(std::uint32_t cpunum) { cpu_ = cpunum; }
  void set_inert(bool inert) { inert_ = inert; }
  void set_perf_num_cnt(std::uint32_t n) { num_cnt_ = n & 0xFu; }
  // CM cycles that pass with every answered debug-block access (0: only cycles() advances PC_CYCLE).
  void set_cycles_per_access(std::uint32_t n) { cycles_per_access_ = n; }
  void set_qualifier_match(QualifierMatch fn, void* context) {
    match_ = fn;
    match_ctx_ = context;
  }

  // --- the CM at work -------------------------------------------------------------------------
  void cycles(std::uint64_t n) { count(0, n); }
  // n events `code` with `attributes` (what the qualifier predicate sees).
  void event(std::uint32_t code, std::uint64_t n = 1, std::uint32_t attributes = 0) {
    for (unsigned c = 0; c < 2; ++c) {
      if (((event_ >> (8 * c)) & 0xFFu) != code) continue;
      if (match_ && !match_(code, qual_[c], attributes, match_ctx_)) continue;
      count(1 + c, n);
    }
  }

  // --- inspection (no side effects, not counted) ----------------------------------------------
  std::uint32_t pc_ctl() const { return ctl_; }
  std::uint32_t pc_ov() const { return ov_; }
  std::uint32_t pc_event() const { return event_; }
  std::uint32_t qualifier(unsigned c) const { return c < 2 ? qual_[c] : 0; }
  std::uint32_t counter(unsigned slot) const { return slot < 3 ? cnt_[slot] : 0; }
  unsigned reserved_writes() const { return reserved_writes_; }
  bool nesting_exceeded() const { return nesting_exceeded_; }
  bool pcint() const { return (ctl_ & kIntEn) && ov_; }
  std::uint64_t gcr_phys() const { return std::uint64_t{cmgcrbase_ & ~0x7FFu} << 4; }

 private:
  static constexpr std::uint32_t kIntEn = 0x40000000u, kOvfStop = 0x20000000u;
  static constexpr unsigned kCountOn[3] = {4, 6, 8};

  bool stopped_by_overflow() const { return (ctl_ & kOvfStop) && ov_; }
  bool counting(unsigned slot) const {
    return !inert_ && ((ctl_ >> kCountOn[slot]) & 1u) && !stopped_by_overflow();
  }
  // Counts n on one slot, stepping to each roll-over (or, under Perf_Ovf_Stop read as
  // stops_at_max, to 0xFFFFFFFF) so the interrupt lands on the event that caused it and a handler
  // sees the count as it was then.
  void count(unsigned slot, std::uint64_t n) {
    if (nesting_ >= kMaxNesting) {
      nesting_exceeded_ = true;
      return;
    }
    ++nesting_;
    while (n && counting(slot)) {
      const bool stop_at_max =
          (ctl_ & kOvfStop) && reading_ == OvfStopReading::stops_at_max && cnt_[slot] != 0xFFFFFFFFu;
      const std::uint64_t to_mark = stop_at_max ? 0xFFFFFFFFull - cnt_[slot] : 0x100000000ull - cnt_[slot];
      const std::uint64_t step = n < to_mark ? n : to_mark;
      cnt_[slot] = static_cast<std::uint32_t>(cnt_[slot] + step);
      n -= step;
      if (step == to_mark) ov_ |= 1u << slot;
      poll_interrupt();
    }
    --nesting_;
  }

  // Which GCR offset a key names; 0xFFFFFFFF for none of ours.
  static std::uint32_t offset_of(std::uint32_t key) { return key & 0x00FFFFFFu; }
  bool owns(std::uint32_t key) const override {
    const std::uint32_t off = offset_of(key);
    for (std::uint32_t o : kTouchedOffsets)
      if (o == off) return true;
    return false;
  }
  bool is_global(std::uint32_t off) const {
    return off == GCR_BASE::location::offset || off == GCR_REV::location::offset;
  }
  // CP0 discovery registers and the GCR's global registers: not PMU accesses.
  bool uncounted_read(std::uint32_t key, std::uint64_t& v) override {
    if ((key >> 24) == static_cast<std::uint32_t>(BusKind::cp0)) {
      if (key == Config::location::key) v = config_m_[0] ? kConfigM : 0u;
      else if (key == Config1::location::key) v = config_m_[1] ? kConfigM : 0u;
      else if (key == Config2::location::key) v = config_m_[2] ? kConfigM : 0u;
      else if (key == Config3::location::key) v = cmgcr_ ? kConfig3Cmgcr : 0u;
      else if (key == CMGCRBase::location::key) v = cmgcrbase_;
      else if (key == EBase::location::key) v = 0x80000000u | (cpu_ & 0x3FFu);
      else return false;
      return true;
    }
    if ((key >> 24) != static_cast<std::uint32_t>(BusKind::mmio) || absent()) return false;
    const std::uint32_t off = offset_of(key);
    if (!is_global(off)) return false;
    if (off == GCR_BASE::location::offset)
      v = gcr_base_set_ ? gcr_base_ : static_cast<std::uint32_t>(gcr_phys() & 0xFFFF8000u);
    else
      v = gcr_rev_;
    return true;
  }

  MockResult on_read(std::uint32_t key, std::uint64_t& v) override {
    const std::uint32_t off = offset_of(key);
    if (inert_ || is_global(off)) {  // a global register read while absent: trapped by the harness
      v = 0;
      return MockResult::handled;
    }
    if (off == PC_CTL::location::offset) v = ctl_ | num_cnt_;
    else if (off == PC_OV::location::offset) v = ov_;
    else if (off == PC_EVENT::location::offset) v = event_;
    else if (off == PC_CYCLE::location::offset) v = cnt_[0];
    else if (off == PC_CNT0::location::offset) v = cnt_[1];
    else if (off == PC_CNT1::location::offset) v = cnt_[2];
    else if (off == PC_QUAL0::location::offset) v = qual_[0];
    else v = qual_[1];
    return MockResult::handled;
  }

  MockResult on_write(std::uint32_t key, std::uint64_t value) override {
    const std::uint32_t off = offset_of(key);
    const auto v = static_cast<std::uint32_t>(value);
    if (inert_ || is_global(off)) return MockResult::handled;  // the driver never writes these
    if (off == PC_CTL::location::offset) {
      if (v & ~kPcCtlWritable) ++reserved_writes_;
      for (unsigned s = 0; s < 3; ++s) {
        if (v & (1u << (kCountOn[s] + 1))) {  // Reset: counter and overflow bit, before counting
          cnt_[s] = 0;
          ov_ &= ~(1u << s);
        }
      }
      ctl_ = v & kPcCtlWritable & ~kPcCtlResetBits;
    } else if (off == PC_OV::location::offset) {
      if (v & ~0x7u) ++reserved_writes_;
      ov_ &= ~(v & 0x7u);
    } else if (off == PC_EVENT::location::offset) {
      if (v & ~0xFFFFu) ++reserved_writes_;
      event_ = v & 0xFFFFu;
    } else if (off == PC_CYCLE::location::offset) {
      cnt_[0] = v;
    } else if (off == PC_CNT0::location::offset) {
      cnt_[1] = v;
    } else if (off == PC_CNT1::location::offset) {
      cnt_[2] = v;
    } else if (off == PC_QUAL0::location::offset) {
      qual_[0] = v;
    } else {
      qual_[1] = v;
    }
    poll_interrupt();
    return MockResult::handled;
  }

  void on_access_done() override {
    if (cycles_per_access_) cycles(cycles_per_access_);
  }
  bool interrupt_wanted() const override { return pcint(); }
  void interrupt_taken() override {}  // a level: it drops when software clears the overflow bits

  OvfStopReading reading_;
  bool config_m_[3] = {true, true, true};
  bool cmgcr_ = true;
  std::uint32_t cmgcrbase_ = kQemuCmGcrBase;
  std::uint32_t gcr_base_ = 0;
  bool gcr_base_set_ = false;
  std::uint32_t gcr_rev_ = 0x0701u;  // CM2.5 revision 1 (a P5600-era part)
  std::uint32_t cpu_ = 0;
  bool inert_ = false;
  std::uint32_t num_cnt_ = kPerfNumCnt;
  std::uint32_t cycles_per_access_ = 0;
  QualifierMatch match_ = nullptr;
  void* match_ctx_ = nullptr;

  std::uint32_t ctl_ = 0;  // without Perf_Num_Cnt
  std::uint32_t ov_ = 0;
  std::uint32_t event_ = 0;
  std::uint32_t qual_[2] = {0, 0};
  std::uint32_t cnt_[3] = {0, 0, 0};
  unsigned reserved_writes_ = 0;
  unsigned nesting_ = 0;
  bool nesting_exceeded_ = false;
};

}  // namespace pmu::mips_cps
