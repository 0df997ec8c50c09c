#pragma once
// Behavioural model of the RM7000 performance counter, for host tests: a pmu::MockDevice that
// answers the CP0 accesses of the driver on any MockBus<Tag> (set MockBus<Tag>::device = &model).
//
// What it models (datasheet Table 10 and the interrupt section; hal/rm7000/README.md):
// - PerfControl ($22): Event Type, KM, UM, CE; reserved bits 7..5 and 31..11 read as zero, and a
//   write that sets any is counted (reserved_writes). PerfCount ($25): 32 bits, writable.
// - Counting: only injected events count (event(), cycles(), and optionally every access,
//   set_cycles_per_access), and only while CE = 1, the event is the selected Event Type and the
//   event's mode is enabled (KM for kernel, UM for user). The count keeps running after bit 31
//   sets (what OpenBSD's handler relies on; the datasheet does not say) and wraps at 2^32.
// - Interrupt 13: requested while PerfCount bit 31 is set (Cause.IP13 reads it); taken while
//   Interrupt Control IM13 = 1 (control register 20; only bits 15..8, 7 and 4..0 are writable) and
//   Status.IE = 1 (set_ie, default on). The request is a level: a handler that leaves bit 31 set is
//   interrupted again as soon as it returns (the harness reports a storm).
// - PRId (set_prid, default 0x2700, RM7000 as MAME reports it): answered, not counted as a PMU
//   access.
// - Inert mode (set_inert): what QEMU 7.2's MIPS CPUs do with these encodings. $22 reads 0 and
//   ignores writes, $25 keeps `value & 0x7ff` and never counts, and cfc0/ctc0 (control register 20)
//   are reserved instructions (trap).
// - Absent mode (harness set_absent): every access traps.
// Not modelled: other interrupts sharing Interrupt Control, the vector spacing, Cause.IV, pipeline
// hazards, what "kernel mode" means under EXL/ERL (the datasheet does not say).
#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"
#include "hal/core/model/harness.hpp"
#include "hal/rm7000/regs.hpp"

namespace pmu::rm7000 {

enum class Mode : std::uint8_t { kernel, user };

class Model final : public model::Harness {
 public:
  static constexpr std::uint32_t kIcrWritable = 0x0000FF9Fu;
  static constexpr std::uint32_t kIm13 = 0x2000u;
  static constexpr std::uint32_t kCauseIp13 = 0x00200000u;
  static constexpr unsigned kMaxNesting = 16;

  Model() : Harness(BusKind::cp0) {}

  // --- set-up -----------------------------------------------------------------------------
  void set_prid(std::uint32_t prid) { prid_ = prid; }
  void set_inert(bool inert) { inert_ = inert; }
  void set_mode(Mode m) { mode_ = m; }  // mode of events injected without one
  void set_cycles_per_access(std::uint32_t n) { cycles_per_access_ = n; }
  // Status.IE: a pending interrupt is taken when it is set.
  void set_ie(bool ie) {
    ie_ = ie;
    poll_interrupt();
  }

  // --- events -----------------------------------------------------------------------------
  void event(std::uint32_t code, std::uint64_t n = 1) { event(code, n, mode_); }
  void event(std::uint32_t code, std::uint64_t n, Mode m) {
    if (nesting_ >= kMaxNesting) {
      nesting_exceeded_ = true;
      return;
    }
    ++nesting_;
    // Step to each boundary (bit 31 setting, the wrap to 0) so that an interrupt lands on exactly
    // the event that raised it, and a handler sees the count as it was then.
    while (n && counts(code, m)) {
      const std::uint64_t v = count_;
      const std::uint64_t to_boundary = v < kPerfCountBit31 ? kPerfCountBit31 - v : 0x100000000ull - v;
      const std::uint64_t step = n < to_boundary ? n : to_boundary;
      count_ = static_cast<std::uint32_t>(v + step);
      n -= step;
      poll_interrupt();
    }
    --nesting_;
  }
  void cycles(std::uint64_t n) { event(0x00, n, mode_); }

  // --- inspection (no side effects, not counted as accesses) --------------------------------
  std::uint32_t perfcontrol() const { return perfcontrol_; }
  std::uint32_t perfcount() const { return count_; }
  std::uint32_t icr() const { return icr_; }
  std::uint32_t cause() const { return (count_ & kPerfCountBit31) && !inert_ ? kCauseIp13 : 0u; }
  unsigned reserved_writes() const { return reserved_writes_; }
  bool nesting_exceeded() const { return nesting_exceeded_; }
  // Test-side mtc0 to PerfCount (same effect as the instruction, not logged, not counted).
  void set_perfcount(std::uint32_t v) {
    count_ = v;
    poll_interrupt();
  }

 private:
  bool counts(std::uint32_t code, Mode m) const {
    if (inert_ || !(perfcontrol_ & kCountEnable)) return false;
    if ((perfcontrol_ & 0x1Fu) != code) return false;
    return (perfcontrol_ & (m == Mode::kernel ? kKernelMode : kUserMode)) != 0;
  }

  bool owns(std::uint32_t key) const override {
    return key == PerfControl::location::key || key == PerfCount::location::key ||
           key == InterruptControl::location::key || key == Cause::location::key;
  }
  bool uncounted_read(std::uint32_t key, std::uint64_t& v) override {
    if (key != PRId::location::key) return false;
    v = prid_;
    return true;
  }

  MockResult on_read(std::uint32_t key, std::uint64_t& v) override {
    if (key == PerfControl::location::key) {
      v = inert_ ? 0u : perfcontrol_;
    } else if (key == PerfCount::location::key) {
      v = count_;
    } else if (key == InterruptControl::location::key) {
      if (inert_) return MockResult::trap;
      v = icr_;
    } else {
      v = cause();
    }
    return MockResult::handled;
  }

  MockResult on_write(std::uint32_t key, std::uint64_t value) override {
    const auto v = static_cast<std::uint32_t>(value);
    if (key == PerfControl::location::key) {
      if (inert_) return MockResult::handled;
      if (v & ~kPerfControlWritable) ++reserved_writes_;
      perfcontrol_ = v & kPerfControlWritable;
    } else if (key == PerfCount::location::key) {
      count_ = inert_ ? (v & 0x7FFu) : v;
    } else if (key == InterruptControl::location::key) {
      if (inert_) return MockResult::trap;
      if (v & ~kIcrWritable) ++reserved_writes_;
      icr_ = v & kIcrWritable;
    } else {
      return MockResult::trap;  // Cause: the driver never writes it
    }
    poll_interrupt();
    return MockResult::handled;
  }

  void on_access_done() override {
    if (cycles_per_access_) cycles(cycles_per_access_);
  }
  bool interrupt_wanted() const override { return ie_ && (icr_ & kIm13) && cause(); }
  void interrupt_taken() override {}  // a level: nothing changes until software clears bit 31

  std::uint32_t prid_ = 0x2700u;
  std::uint32_t perfcontrol_ = 0;
  std::uint32_t count_ = 0;
  std::uint32_t icr_ = 0;
  bool ie_ = true;
  bool inert_ = false;
  Mode mode_ = Mode::kernel;
  std::uint32_t cycles_per_access_ = 0;
  unsigned reserved_writes_ = 0;
  unsigned nesting_ = 0;
  bool nesting_exceeded_ = false;
};

}  // namespace pmu::rm7000
