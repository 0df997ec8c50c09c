#pragma once
// Behavioural model of the ARMv7-M DWT counters, for host tests: a pmu::MockDevice that answers the
// driver's MMIO accesses on any MockBus<Tag> (set MockBus<Tag>::device = &model).
//
// What it models (ARMv7-M ARM C1.6.5, C1.8.7 .. C1.8.13; hal/cortex_m_dwt/README.md):
// - DEMCR: only TRCENA (bit 24) matters; the other writable bits are kept. While TRCENA = 0 the
//   DWT counts nothing, its registers read 0 and ignore writes (the manual only says the DWT is
//   not enabled; reads of 0 are this model's choice, the driver does not rely on them).
// - DWT_CTRL: NUMCOMP/NOTRCPKT/NOEXTTRIG/NOCYCCNT/NOPRFCNT read-only (set_no_cyccnt,
//   set_no_prfcnt give the variants); the writable bits 22:16, 12:0 kept; a write to another bit
//   as 1 is counted (reserved_writes).
// - DWT_CYCCNT: 32 bits, counts cycles() while CYCCNTENA = 1, wraps to 0.
// - The five 8-bit counters: count event(code, n) (codes 1..5, events.hpp) modulo 256; each is set
//   to 0 when its EVTENA goes from 0 to 1. Whether a counter counts while its EVTENA is 0 the
//   manual does not say: the model counts it (the reading under which stop() cannot stop it; the
//   driver is right under either). A counter absent (NOPRFCNT / NOCYCCNT) reads 0, ignores writes.
// - DWT_LSR/DWT_LAR: set_locked(true) gives a Cortex-M7's lock, locked (SLI = SLK = 1): DWT_CTRL
//   and counter writes are ignored until kLarKey is written to DWT_LAR. Default: no lock (LSR 0).
// - No overflow flag, no interrupt: wraps emit only trace packets (not modelled).
// - Absent mode (harness set_absent): every access traps.
// - Unmapped mode (set_unmapped): nothing behind DEMCR and the DWT, every register reads 0 and
//   ignores writes, without a fault: what QEMU 7.2's Cortex-M boards (mps2-an386) show.
#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"
#include "hal/core/model/harness.hpp"
#include "hal/cortex_m_dwt/regs.hpp"

namespace pmu::cortex_m_dwt {

class Model final : public model::Harness {
 public:
  Model() : Harness(BusKind::mmio) {}

  // --- set-up -----------------------------------------------------------------------------
  void set_no_cyccnt(bool v) { ro_ = v ? ro_ | kNoCycCnt : ro_ & ~kNoCycCnt; }
  void set_no_prfcnt(bool v) { ro_ = v ? ro_ | kNoPrfCnt : ro_ & ~kNoPrfCnt; }
  void set_numcomp(std::uint32_t n) { ro_ = (ro_ & 0x0FFFFFFFu) | (n << 28); }
  void set_locked(bool locked) { lock_implemented_ = locked_ = locked; }
  void set_unmapped(bool v) { unmapped_ = v; }
  // Cycles per answered access (time passing while the driver runs).
  void set_cycles_per_access(std::uint32_t n) { cycles_per_access_ = n; }

  // --- events -----------------------------------------------------------------------------
  void cycles(std::uint64_t n) {
    if (!trcena() || !(ctrl_ & kCycCntEna) || (ro_ & kNoCycCnt)) return;
    cyccnt_ = static_cast<std::uint32_t>(cyccnt_ + n);
    cyccnt_total_ += n;
  }
  // n counts of the 8-bit counter `code` (1..5): CPI, EXC, SLEEP, LSU, FOLD.
  void event(std::uint32_t code, std::uint64_t n = 1) {
    if (code < 1 || code > 5 || !trcena() || (ro_ & kNoPrfCnt)) return;
    count8_[code - 1] = static_cast<std::uint8_t>(count8_[code - 1] + n);
    total8_[code - 1] += n;
  }

  // --- inspection (no side effects, not counted as accesses) --------------------------------
  std::uint32_t ctrl() const { return ro_ | ctrl_; }
  std::uint32_t demcr() const { return demcr_; }
  std::uint32_t cyccnt() const { return cyccnt_; }
  std::uint32_t count8(unsigned code) const { return code >= 1 && code <= 5 ? count8_[code - 1] : 0u; }
  // Counts since the register was last written or initialized, unwrapped: what a 64-bit
  // extension of it must read.
  std::uint64_t cyccnt_total() const { return cyccnt_total_; }
  std::uint64_t total8(unsigned code) const { return code >= 1 && code <= 5 ? total8_[code - 1] : 0u; }
  bool trcena() const { return (demcr_ >> 24) & 1u; }
  bool locked() const { return locked_; }
  unsigned reserved_writes() const { return reserved_writes_; }
  // Test-side store to a counter (as the instruction, not logged or counted).
  void set_cyccnt(std::uint32_t v) { cyccnt_ = v; }
  void set_count8(unsigned code, std::uint8_t v) {
    if (code >= 1 && code <= 5) count8_[code - 1] = v;
  }

 private:
  static int index8(std::uint32_t key) {
    if (key == DWT_CPICNT::location::key) return 0;
    if (key == DWT_EXCCNT::location::key) return 1;
    if (key == DWT_SLEEPCNT::location::key) return 2;
    if (key == DWT_LSUCNT::location::key) return 3;
    if (key == DWT_FOLDCNT::location::key) return 4;
    return -1;
  }
  bool owns(std::uint32_t key) const override {
    return key == DEMCR::location::key || key == DWT_CTRL::location::key || key == DWT_CYCCNT::location::key ||
           key == DWT_LAR::location::key || key == DWT_LSR::location::key || index8(key) >= 0;
  }

  MockResult on_read(std::uint32_t key, std::uint64_t& v) override {
    v = 0;
    if (unmapped_) return MockResult::handled;
    if (key == DEMCR::location::key) {
      v = demcr_;
    } else if (key == DWT_LAR::location::key) {
      return MockResult::trap;  // write-only: the driver never reads it
    } else if (!trcena()) {
      v = 0;
    } else if (key == DWT_LSR::location::key) {
      v = (lock_implemented_ ? kLsrSli : 0u) | (locked_ ? kLsrSlk : 0u);
    } else if (key == DWT_CTRL::location::key) {
      v = ro_ | ctrl_;
    } else if (key == DWT_CYCCNT::location::key) {
      v = (ro_ & kNoCycCnt) ? 0u : cyccnt_;
    } else {
      v = (ro_ & kNoPrfCnt) ? 0u : count8_[index8(key)];
    }
    return MockResult::handled;
  }

  MockResult on_write(std::uint32_t key, std::uint64_t value) override {
    const auto v = static_cast<std::uint32_t>(value);
    if (unmapped_) return MockResult::handled;
    if (key == DEMCR::location::key) {
      if (v & ~kDemcrWritable) ++reserved_writes_;
      demcr_ = v & kDemcrWritable;
      return MockResult::handled;
    }
    if (key == DWT_LSR::location::key) return MockResult::trap;  // read-only
    if (!trcena()) return MockResult::handled;
    if (key == DWT_LAR::location::key) {
      if (lock_implemented_) locked_ = v != kLarKey;
      return MockResult::handled;
    }
    if (locked_) return MockResult::handled;
    if (key == DWT_CTRL::location::key) {
      if (v & ~(kCtrlWritable | 0xFF000000u)) ++reserved_writes_;
      const std::uint32_t before = ctrl_;
      ctrl_ = v & kCtrlWritable;
      // C1.8.9 .. C1.8.13: each 8-bit counter is initialized to 0 when its EVTENA is set to 1.
      for (unsigned i = 0; i < 5; ++i)
        if ((ctrl_ & kEvtEna[i]) && !(before & kEvtEna[i])) count8_[i] = 0, total8_[i] = 0;
    } else if (key == DWT_CYCCNT::location::key) {
      if (!(ro_ & kNoCycCnt)) cyccnt_ = v, cyccnt_total_ = v;
    } else {
      if (v & ~0xFFu) ++reserved_writes_;
      if (!(ro_ & kNoPrfCnt)) count8_[index8(key)] = static_cast<std::uint8_t>(v), total8_[index8(key)] = v & 0xFFu;
    }
    return MockResult::handled;
  }

  void on_access_done() override {
    if (cycles_per_access_) cycles(cycles_per_access_);
  }
  bool interrupt_wanted() const override { return false; }  // the DWT has no interrupt
  void interrupt_taken() override {}

  std::uint32_t ro_ = 0x40000000u;  // NUMCOMP = 4, every counter present
  std::uint32_t ctrl_ = 0;
  std::uint32_t demcr_ = 0;
  std::uint32_t cyccnt_ = 0;
  std::uint8_t count8_[5]{};
  std::uint64_t cyccnt_total_ = 0;
  std::uint64_t total8_[5]{};
  bool lock_implemented_ = false;
  bool unmapped_ = false;
  bool locked_ = false;
  std::uint32_t cycles_per_access_ = 0;
  unsigned reserved_writes_ = 0;
};

}  // namespace pmu::cortex_m_dwt
