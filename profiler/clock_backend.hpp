#pragma once
// A prof::Backend over a free-running clock, for parts whose PMU is absent (QEMU's e500, which
// traps on every mfpmr) or unusable: regions measure clock ticks instead of core cycles, and the
// profiler API, regions and the dump work unchanged.
//
//   struct Timebase {                                  // what a board provides
//     static constexpr unsigned kWidth = 64;           // bits after which now() wraps
//     static constexpr const char* kId = "e500-timebase";
//     static std::uint64_t now() { return board::timebase(); }
//   };
//   prof::Profiler<prof::ClockBackend<Timebase>> p;
//   p.add<pmu::Preset::cycles>(ticks);                 // the only event: clock ticks
//
// What it is:
//   - One slot (0), one event (kClockTicks, "CLOCK_TICKS") bound to Preset::cycles, so code
//     written for cycles compiles. It counts ticks of the clock, not core cycles: the ratio is the
//     board's business (e500: time base = CCB/8 on silicon, 400 MHz on QEMU). Every other preset
//     is a compile error through add<Preset>() and unsupported_event through add(Preset).
//   - start/stop are software: stop() adds the ticks since start() to an accumulator; read()
//     returns the accumulator while stopped and accumulator + ticks since start() while running.
//     write() sets the accumulator (the profiler writes 0 on reset).
//   - The value is a 64-bit software count (width() = 64); the clock's own wrap at 2^kWidth is
//     removed by modular subtraction, so one start()->read()/stop() interval must be shorter than
//     one wrap of the clock (forever for a 64-bit time base; 10.7 s for a 32-bit 400 MHz timer).
//     Intervals are accumulated in 64 bits, so any number of shorter start/stop segments add up.
//   - No overflow condition and no interrupt: overflow_status() is 0, set_overflow_interrupt() and
//     clear_overflow() do nothing, so the Sampler must be driven from a timer (on_timer_tick).
//   - Not linkable (kLink none). read() does not modify state, so it is safe from an interrupt.
#include <cstdint>

#include "hal/core/driver.hpp"
#include "hal/core/event.hpp"
#include "profiler/profiler.hpp"

namespace prof {

// Event code of the clock's one pseudo-event.
inline constexpr std::uint32_t kClockTicks = 1;

namespace clock_detail {
inline constexpr pmu::EventInfo kEvents[] = {
    {kClockTicks, "CLOCK_TICKS", "Ticks of a free-running clock (time base or timer), not core cycles",
     0x1, 0},
};
inline constexpr pmu::PresetBinding kPresets[] = {
    {pmu::Preset::cycles, kClockTicks, 0x1},
};
}  // namespace clock_detail

template <class Clock>
struct ClockBackend {
  static_assert(Clock::kWidth >= 1 && Clock::kWidth <= 64, "Clock::kWidth: 1..64 bits");

  // --- static description (prof::Backend) ---
  static constexpr pmu::PmuCatalog catalog{
      Clock::kId,
      "No PMU: a free-running clock as the only counter. CLOCK_TICKS stands in for the cycles "
      "preset and counts time base / timer ticks, not core cycles; no other event, no overflow "
      "interrupt (sample from a timer)",
      64,
      1,
      clock_detail::kEvents,
      1,
      clock_detail::kPresets,
      1,
  };
  static constexpr unsigned kSlots = 1;
  static constexpr pmu::LinkKind kLink = pmu::LinkKind::none;
  // A clock only wraps (at 2^64 here): no condition, no interrupt, no sampling (sample from a timer).
  static constexpr pmu::Capabilities kCapabilities{.overflow = false, .interrupt = false, .link = false, .sampling = false};
  // read() is software (the clock, the accumulator, the running flag), not one accessor: a fast
  // region on this backend has a window of several instructions (profiler/fast_region.hpp).
  static constexpr bool kSoftwareRead = true;
  static constexpr unsigned width(unsigned) { return 64; }
  static constexpr std::uint32_t slots_for(std::uint32_t code) { return code == kClockTicks ? 1u : 0u; }

  // Bits of the clock itself: elapsed ticks are taken modulo 2^kWidth.
  static constexpr std::uint64_t kClockMask =
      Clock::kWidth >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << Clock::kWidth) - 1;

  // --- run time ---
  static ProbeResult probe() { return {Status::ok, 0x1}; }

  //   bad_argument       slot != 0, or a qualifier / options (the clock has none)
  //   unsupported_event  any event but kClockTicks
  //   busy               the slot is running: stop() it first
  static Status configure(unsigned slot, EventConfig ev) {
    if (slot != 0 || ev.qualifier != 0 || ev.options != 0) return Status::bad_argument;
    if (ev.code != kClockTicks) return Status::unsupported_event;
    if (running_) return Status::busy;
    return Status::ok;
  }

  static void start(std::uint32_t mask) {
    if (!(mask & 1u) || running_) return;
    start_ = Clock::now();
    running_ = true;
  }
  static void stop(std::uint32_t mask) {
    if (!(mask & 1u) || !running_) return;
    acc_ = acc_ + elapsed(Clock::now());
    running_ = false;
  }

  static std::uint64_t read(unsigned slot) { return slot == 0 ? read<0>() : 0; }
  template <unsigned Slot>
  static std::uint64_t read() {
    static_assert(Slot == 0, "a clock backend has one slot (0)");
    return running_ ? acc_ + elapsed(Clock::now()) : acc_;
  }

  // Sets the count; a running slot keeps counting from the new value.
  static void write(unsigned slot, std::uint64_t value) {
    if (slot != 0) return;
    acc_ = value;
    if (running_) start_ = Clock::now();
  }

  static std::uint32_t overflow_status() { return 0; }
  static void clear_overflow(std::uint32_t) {}
  static void set_overflow_interrupt(std::uint32_t, bool) {}
  static Status link(unsigned, unsigned) { return Status::not_linkable; }

  static bool running() { return running_; }

 private:
  static std::uint64_t elapsed(std::uint64_t now) { return (now - start_) & kClockMask; }

  static inline std::uint64_t acc_ = 0;    // ticks of the stopped segments (and write()s)
  static inline std::uint64_t start_ = 0;  // clock at the last start() (or write() while running)
  static inline bool running_ = false;
};

namespace clock_detail {
struct ExampleClock {  // only for the static_assert below
  static constexpr unsigned kWidth = 32;
  static constexpr const char* kId = "clock";
  static std::uint64_t now() { return 0; }
};
static_assert(Backend<ClockBackend<ExampleClock>>);
}  // namespace clock_detail

}  // namespace prof
