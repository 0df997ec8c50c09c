#pragma once
// The boards' timers under pmusim, on each machine's one time base: the count of instructions
// executed. pmusim runs one instruction per nanosecond of virtual time, as QEMU does under
// `-icount shift=0`, so a clock of f Hz ticks f / 10^9 times per instruction, and every timer is a
// pure function of the instruction count: no host time, the same run reads the same values. These
// classes know nothing of Unicorn; each machine (tools/sim/*.cpp) reads and writes them at the
// instruction count of the access, and asks due() when to look again for a match or an expiry.
#include <cstdint>

namespace pmusim::timers {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

inline constexpr u64 kNever = ~u64{0};

// A clock of `num` ticks per `den` instructions.
struct Rate {
  u64 num, den;
  // Ticks completed once n instructions have run.
  u64 ticks(u64 n) const { return static_cast<u64>(static_cast<unsigned __int128>(n) * num / den); }
  // The instruction count at which tick t completes: the least n with ticks(n) >= t.
  u64 instruction_of(u64 t) const {
    const unsigned __int128 n = (static_cast<unsigned __int128>(t) * den + num - 1) / num;
    return n >= kNever ? kNever : static_cast<u64>(n);
  }
};

// A free-running 32-bit up-counter with match channels: the PXA27x OS timer's OSCR0 and OSMR0-3,
// MIPS CP0 Count and Compare. A channel matches when the counter steps onto its value; a value
// written equal to the count matches only after a full wrap (2^32 ticks).
template <unsigned Channels>
class UpCounter {
 public:
  explicit constexpr UpCounter(Rate r) : rate_(r) {
    for (unsigned c = 0; c < Channels; ++c) at_[c] = rate_.instruction_of(tick_[c] = u64{1} << 32);
  }
  u32 count(u64 now) const { return static_cast<u32>(rate_.ticks(now) + offset_); }
  void set_count(u32 v, u64 now) {
    offset_ = v - static_cast<u32>(rate_.ticks(now));
    for (unsigned c = 0; c < Channels; ++c) arm(c, now);
  }
  u32 match(unsigned c) const { return match_[c]; }
  void set_match(unsigned c, u32 v, u64 now) {
    match_[c] = v;
    arm(c, now);
  }
  // The channels (bit c) that matched at an instruction count up to `now` since the last call;
  // each one's next match is then a full wrap later.
  unsigned matched(u64 now) {
    unsigned m = 0;
    for (unsigned c = 0; c < Channels; ++c)
      while (at_[c] <= now) {
        m |= 1u << c;
        at_[c] = rate_.instruction_of(tick_[c] += u64{1} << 32);
      }
    return m;
  }
  // The instruction count of the next match of any channel.
  u64 due() const {
    u64 d = kNever;
    for (unsigned c = 0; c < Channels; ++c) d = at_[c] < d ? at_[c] : d;
    return d;
  }

 private:
  void arm(unsigned c, u64 now) {
    const u32 ahead = match_[c] - count(now);
    tick_[c] = rate_.ticks(now) + (ahead ? ahead : u64{1} << 32);
    at_[c] = rate_.instruction_of(tick_[c]);
  }
  Rate rate_;
  u32 offset_ = 0;                              // count = ticks + offset (mod 2^32)
  u32 match_[Channels] = {};
  u64 tick_[Channels] = {}, at_[Channels] = {};  // each channel's next match: its tick, its instruction
};

// The PXA27x OS timer, channels 0-3 (PXA255 Developer's Manual 4.4, the same block on the PXA27x,
// whose channels 0-3 count 3.25 MHz): OSMR0-3 +0x00..+0x0C, OSCR0 +0x10, OSSR +0x14, OWER +0x18,
// OIER +0x1C. A match sets its OSSR bit only while its OIER bit is set (4.4.2.1, 4.4.2.2); OSSR is
// write-1-to-clear (4.4.2.5); OWER's WME is set-only, and with it an OSMR3 match resets the
// processor (4.4.1). OSSR bits 0-3 are the interrupt controller's sources 26-29.
class PxaOsTimer {
 public:
  static constexpr Rate kRate{13, 4000};  // 3.25 MHz
  u32 read(u32 offset, u64 now) {
    update(now);
    switch (offset) {
      case 0x00: case 0x04: case 0x08: case 0x0C: return counter_.match(offset / 4);
      case 0x10: return counter_.count(now);
      case 0x14: return ossr_;
      case 0x18: return wme_ ? 1u : 0u;
      case 0x1C: return oier_;
      default: return 0;  // channels 4-11 and their registers: not modelled
    }
  }
  void write(u32 offset, u32 v, u64 now) {
    update(now);
    switch (offset) {
      case 0x00: case 0x04: case 0x08: case 0x0C: counter_.set_match(offset / 4, v, now); break;
      case 0x10: counter_.set_count(v, now); break;
      case 0x14: ossr_ &= ~v; break;
      case 0x18: wme_ = wme_ || (v & 1u); break;
      case 0x1C: oier_ = v & 0xFu; break;
      default: break;
    }
  }
  // Takes the matches up to `now` into OSSR (and the watchdog).
  void update(u64 now) {
    const unsigned m = counter_.matched(now);
    ossr_ |= m & oier_;
    if (wme_ && (m & 8u)) watchdog_ = true;
  }
  u64 due() const { return counter_.due(); }
  u32 ossr() const { return ossr_; }
  bool watchdog_reset() const { return watchdog_; }

 private:
  UpCounter<4> counter_{kRate};
  u32 ossr_ = 0, oier_ = 0;
  bool wme_ = false, watchdog_ = false;
};

// MIPS CP0 Count and Compare (MIPS32 PRA, Count register 9 and Compare register 11; the R4000
// manual for MIPS IV cores): Count runs at half the pipeline clock, here one pipeline clock per
// instruction; the timer interrupt is requested when Count steps onto Compare and stays requested
// until Compare is written.
class CountCompare {
 public:
  static constexpr Rate kRate{1, 2};
  u32 count(u64 now) const { return counter_.count(now); }
  void set_count(u32 v, u64 now) {
    update(now);
    counter_.set_count(v, now);
  }
  u32 compare() const { return counter_.match(0); }
  void set_compare(u32 v, u64 now) {
    update(now);
    counter_.set_match(0, v, now);
    pending_ = false;
  }
  bool pending(u64 now) {
    update(now);
    return pending_;
  }
  void update(u64 now) { pending_ = pending_ || counter_.matched(now) != 0; }
  u64 due() const { return counter_.due(); }

 private:
  UpCounter<1> counter_{kRate};
  bool pending_ = false;
};

// The Book E decrementer (e500 Core Reference Manual 2.6.4, 2.6.5): DEC counts down at the time
// base's rate from the next time-base tick after a write; stepping from 1 to 0 sets TSR[DIS] and,
// with TCR[ARE], loads DECAR instead (a DECAR of 0 then stops it at 0); without ARE it stays at 0.
// Writing 0 raises nothing.
class Decrementer {
 public:
  explicit constexpr Decrementer(Rate time_base) : rate_(time_base) {}
  u32 dec(u64 now) {
    update(now);
    return value_ ? value_ - static_cast<u32>(rate_.ticks(now) - tick0_) : 0u;
  }
  void set_dec(u32 v, u64 now) {
    update(now);
    value_ = v;
    tick0_ = rate_.ticks(now);
    arm();
  }
  void set_decar(u32 v, u64 now) {
    update(now);
    decar_ = v;
  }
  void set_auto_reload(bool are, u64 now) {
    update(now);
    are_ = are;
  }
  // TSR[DIS] (write 1 to clear: clear_dis()).
  bool dis(u64 now) {
    update(now);
    return dis_;
  }
  void clear_dis(u64 now) {
    update(now);
    dis_ = false;
  }
  void update(u64 now) {
    while (at_ <= now) {
      dis_ = true;
      tick0_ += value_;
      value_ = are_ ? decar_ : 0u;
      arm();
    }
  }
  u64 due() const { return at_; }

 private:
  void arm() { at_ = value_ ? rate_.instruction_of(tick0_ + value_) : kNever; }
  Rate rate_;
  u32 value_ = 0, decar_ = 0;
  u64 tick0_ = 0, at_ = kNever;  // DEC = value_ at tick tick0_; its next 1 -> 0 step at instruction at_
  bool are_ = false, dis_ = false;
};

// Channel 0 of the PC's 8254 PIT (Intel 8254 data sheet), at 1.193182 MHz, whose OUT is IRQ 0:
// the control word at port 0x43 (SC 7:6, RW 5:4, mode 3:1), the count at port 0x40 (RW 3: low
// byte then high). A count loads on the tick after it is written; mode 2 (rate generator) and
// mode 3 (square wave) then give a rising edge every N ticks, mode 0 (interrupt on terminal
// count) one edge after N; a control word stops the channel until its count is written. A
// counter latch command (RW 0) holds the count for the next reads. Channels 1 and 2 take their
// writes and count nothing.
class Pit8254 {
 public:
  static constexpr Rate kRate{1'193'182, 1'000'000'000};
  void write(u32 port, std::uint8_t v, u64 now) {
    if (port == 0x43) {
      if ((v >> 6) != 0) return;  // channels 1, 2 and the read-back command
      const unsigned rw = (v >> 4) & 3u;
      if (rw == 0) {  // counter latch
        if (!latched_) {
          latch_ = current(now);
          latched_ = true;
          read_high_ = false;
        }
        return;
      }
      rw_ = rw;
      mode_ = (v >> 1) & 7u;
      if (mode_ > 5) mode_ -= 4;  // 6 and 7 are modes 2 and 3
      running_ = false;
      write_high_ = read_high_ = latched_ = false;
      due_ = kNever;
      return;
    }
    if (port != 0x40) return;
    if (rw_ == 3 && !write_high_) {
      reload_ = (reload_ & 0xFF00u) | v;
      write_high_ = true;
      return;
    }
    reload_ = rw_ == 1 ? v : rw_ == 2 ? static_cast<u32>(v) << 8 : (reload_ & 0x00FFu) | static_cast<u32>(v) << 8;
    write_high_ = false;
    running_ = true;
    start_ = kRate.ticks(now) + 1;
    edge_ = start_ + period();
    due_ = kRate.instruction_of(edge_);
  }
  std::uint8_t read(u64 now) {
    const u32 c = latched_ ? latch_ : current(now);
    const bool high = rw_ == 2 || (rw_ == 3 && read_high_);
    if (rw_ == 3) read_high_ = !read_high_;
    if (latched_ && (rw_ != 3 || !read_high_)) latched_ = false;
    return static_cast<std::uint8_t>(high ? c >> 8 : c);
  }
  // Rising edges of OUT up to `now` since the last call: true if any.
  bool edges(u64 now) {
    bool any = false;
    while (due_ <= now) {
      any = true;
      if (mode_ == 2 || mode_ == 3) {
        edge_ += period();
        due_ = kRate.instruction_of(edge_);
      } else {
        due_ = kNever;
      }
    }
    return any;
  }
  u64 due() const { return due_; }

 private:
  u64 period() const { return reload_ ? reload_ : 0x10000u; }
  u32 current(u64 now) const {
    if (!running_) return reload_ & 0xFFFFu;
    const u64 t = kRate.ticks(now);
    if (t < start_) return reload_ & 0xFFFFu;
    const u64 gone = t - start_;
    if (mode_ == 2 || mode_ == 3) return static_cast<u32>(period() - gone % period()) & 0xFFFFu;
    return static_cast<u32>(period() - gone) & 0xFFFFu;  // mode 0: on past 0, modulo 2^16
  }
  unsigned rw_ = 3, mode_ = 0;
  u32 reload_ = 0, latch_ = 0;
  bool running_ = false, write_high_ = false, read_high_ = false, latched_ = false;
  u64 start_ = 0, edge_ = 0, due_ = kNever;
};

// One 8259A (Intel 8259A data sheet): ICW1 (bit 4 set, at the command port) starts the
// initialization sequence, ICW2 (vector base), ICW3 unless single, ICW4 if ICW1 asked for it
// (bit 1: automatic EOI), at the data port; then the data port is the mask (OCW1), OCW2 at the
// command port ends an interrupt (non-specific EOI: the highest-priority in-service bit; specific:
// the named one) and OCW3 selects what the command port reads (IRR or ISR). Edge-triggered
// requests, fixed priority (IR0 highest). Not modelled: special mask, poll, rotation, level mode.
class Pic8259 {
 public:
  void write(bool data, std::uint8_t v) {
    if (!data) {
      if (v & 0x10) {  // ICW1
        icw4_ = v & 1u;
        single_ = (v >> 1) & 1u;
        step_ = 2;
        imr_ = isr_ = irr_ = 0;
        read_isr_ = auto_eoi_ = false;
      } else if ((v & 0x18) == 0x08) {  // OCW3
        if (v & 2u) read_isr_ = v & 1u;
      } else {  // OCW2
        const unsigned op = v >> 5;
        if (op == 1 || op == 5) isr_ &= isr_ - 1;            // non-specific EOI: the lowest IR in service
        if (op == 3 || op == 7) isr_ &= ~(1u << (v & 7u));  // specific EOI
      }
      return;
    }
    switch (step_) {
      case 2:
        base_ = v & 0xF8u;
        step_ = single_ ? (icw4_ ? 4 : 0) : 3;
        return;
      case 3:
        step_ = icw4_ ? 4 : 0;
        return;
      case 4:
        auto_eoi_ = (v >> 1) & 1u;
        step_ = 0;
        return;
      default:
        imr_ = v;
    }
  }
  std::uint8_t read(bool data) const { return static_cast<std::uint8_t>(data ? imr_ : read_isr_ ? isr_ : irr_); }
  void raise(unsigned irq) { irr_ |= 1u << irq; }
  // The request the 8259A would present to the CPU: the highest-priority unmasked IRR bit above
  // every in-service one; -1 for none.
  int pending() const {
    const u32 want = irr_ & ~imr_ & 0xFFu;
    if (!want) return -1;
    const u32 low = want & (0u - want);
    if (isr_ && (isr_ & (0u - isr_)) <= low) return -1;
    unsigned irq = 0;
    while (!(low >> irq & 1u)) ++irq;
    return static_cast<int>(irq);
  }
  // The INTA cycles: the request moves from IRR to ISR (not with automatic EOI); its vector.
  unsigned acknowledge() {
    const int irq = pending();
    if (irq < 0) return base_ + 7;  // a spurious IR7
    irr_ &= ~(1u << irq);
    if (!auto_eoi_) isr_ |= 1u << irq;
    return base_ + static_cast<unsigned>(irq);
  }

 private:
  u32 imr_ = 0xFF, irr_ = 0, isr_ = 0, base_ = 0;
  unsigned step_ = 0;
  bool icw4_ = false, single_ = false, auto_eoi_ = false, read_isr_ = false;
};

// The PC board's clocks (examples/pc): the time-stamp counter on the instruction clock (one per
// instruction, QEMU's TCG under -icount shift=0: 1 GHz), written through IA32_TIME_STAMP_COUNTER
// (MSR 0x10; Intel SDM Vol. 3B, 17.17); the 8254's channel 0 on IRQ 0 of the master 8259A (ports
// 0x20/0x21), the slave 8259A (0xA0/0xA1) with no sources of its own.
class PcTimers {
 public:
  static bool owns(u32 port) { return (port >= 0x40 && port <= 0x43) || (port & ~0x81u) == 0x20; }
  void out(u32 port, std::uint8_t v, u64 now) {
    if (port >= 0x40) {
      update(now);
      pit_.write(port, v, now);
    } else {
      (port & 0x80 ? slave_ : master_).write(port & 1u, v);
    }
  }
  std::uint8_t in(u32 port, u64 now) {
    update(now);
    if (port >= 0x40) return port == 0x40 ? pit_.read(now) : 0xFF;
    return (port & 0x80 ? slave_ : master_).read(port & 1u);
  }
  // IRQ 0's edges up to `now` into the master's IRR.
  void update(u64 now) {
    if (pit_.edges(now)) master_.raise(0);
  }
  u64 due() const { return pit_.due(); }
  bool requesting() const { return master_.pending() >= 0; }
  unsigned acknowledge() { return master_.acknowledge(); }
  u64 tsc(u64 now) const { return now + tsc_offset_; }
  void set_tsc(u64 v, u64 now) { tsc_offset_ = v - now; }

 private:
  Pit8254 pit_;
  Pic8259 master_, slave_;
  u64 tsc_offset_ = 0;
};

}  // namespace pmusim::timers
