#pragma once
// An idealised PMU behind the prof::Backend interface, for testing the profiler's own logic at
// every counter width (31: e500/RM7000 bit-31 condition, 32: XScale/CM wrap, 40: NetBurst) and
// link kind. Counters advance only when the test says so; an access hook lets a test inject
// events in the middle of any read sequence.
#include <gtest/gtest.h>

#include <cstdint>

#include "profiler/profiler.hpp"

namespace fake {

inline constexpr pmu::EventInfo kEvents[] = {
    {1, "CYCLES", "cycles", 0xF, 0},
    {2, "INSTR", "instructions", 0xF, 0},
    {3, "DMISS", "data cache misses", 0x3, 0},  // counters 0 and 1 only
    {9, "CHAIN", "counts the previous counter's rollovers", 0xE, pmu::kEventChainSource},
};
inline constexpr pmu::PresetBinding kPresets[] = {
    {pmu::Preset::cycles, 1, 0xF},
    {pmu::Preset::instructions, 2, 0xF},
    {pmu::Preset::dcache_misses, 3, 0x3},
};
inline constexpr pmu::PmuCatalog kCatalog{"fake", "test PMU", 32, 4, kEvents, 4, kPresets, 3};

struct State {
  std::uint64_t count[4]{};
  std::uint32_t event[4]{};
  bool running[4]{};
  bool irq_enabled[4]{};
  std::uint32_t ovf = 0;        // overflow conditions
  std::int8_t chained_to[4] = {-1, -1, -1, -1};  // hi counts rollovers of this lo
  std::uint32_t working = 0xF;
  bool absent = false;
  unsigned accesses = 0;
  unsigned hook_at = ~0u;       // run hook just before access number hook_at
  void (*hook)() = nullptr;
  void (*irq)() = nullptr;      // called when an enabled overflow condition is raised
  bool zero_when_stopped = false;  // QEMU's XScale CCNT: reads 0 while the PMU is disabled
  std::uint32_t cost_event = 0; // every backend access is one event of this code (0: none):
                                // the measurement's own cost, which calibration must remove
};

template <unsigned Width, pmu::LinkKind Link = pmu::LinkKind::chain>
struct Pmu {
  static inline State st{};
  static void reset_state() { st = State{}; }

  static constexpr const pmu::PmuCatalog& catalog = kCatalog;
  static constexpr unsigned kSlots = 4;
  static constexpr pmu::LinkKind kLink = Link;
  // No rearm<Slot>: the Sampler's general entry only.
  static constexpr pmu::Capabilities kCapabilities{.overflow = true, .interrupt = true,
                                                   .link = Link != pmu::LinkKind::none, .sampling = false};
  static constexpr unsigned width(unsigned) { return Width; }
  static constexpr std::uint32_t slots_for(std::uint32_t code) {
    for (const auto& e : kEvents)
      if (e.code == code) return e.counters;
    return 0;
  }
  static constexpr std::uint64_t reg_mask() {
    return Width >= 32 && Width < 64 ? (std::uint64_t{1} << (Width < 32 ? 32 : Width)) - 1
                                     : 0xFFFFFFFFull;
  }

  static pmu::ProbeResult probe() {
    if (st.absent) return {pmu::Status::pmu_absent, 0};
    return {pmu::Status::ok, st.working};
  }
  static pmu::Status configure(unsigned s, pmu::EventConfig ev) {
    if (!(slots_for(ev.code) & (1u << s))) return pmu::Status::unsupported_event;
    st.event[s] = ev.code;
    return pmu::Status::ok;
  }
  static void start(std::uint32_t m) {
    touch();
    for (unsigned s = 0; s < 4; ++s)
      if ((m & (1u << s)) && !cascade_waiting(s) && !cascade_done(s)) st.running[s] = true;
  }
  static bool cascade_done(unsigned s) {  // a cascade's low counter stays stopped after handover
    return Link == pmu::LinkKind::cascade && st.chained_to[s] >= 0 && (st.ovf & (1u << s));
  }
  static void stop(std::uint32_t m) {
    touch();
    for (unsigned s = 0; s < 4; ++s)
      if (m & (1u << s)) st.running[s] = false;
  }
  static std::uint64_t read(unsigned s) {
    touch();
    return st.zero_when_stopped && !st.running[s] ? 0 : st.count[s];
  }
  template <unsigned S>
  static std::uint64_t read() {
    return read(S);
  }
  static void write(unsigned s, std::uint64_t v) {
    touch();
    st.count[s] = v & reg_mask();
    update_condition(s, false);
  }
  static std::uint32_t overflow_status() {
    touch();
    return st.ovf;
  }
  // Width 31: the condition is bit 31 of the count; clearing it clears the bit (counter frozen).
  static void clear_overflow(std::uint32_t m) {
    touch();
    for (unsigned s = 0; s < 4; ++s) {
      if (!(m & (1u << s))) continue;
      if (Width == 31) st.count[s] &= 0x7FFFFFFFu;
      st.ovf &= ~(1u << s);
    }
  }
  static void set_overflow_interrupt(std::uint32_t m, bool on) {
    for (unsigned s = 0; s < 4; ++s)
      if (m & (1u << s)) st.irq_enabled[s] = on;
  }
  static pmu::Status link(unsigned lo, unsigned hi) {
    if (hi != lo + 1) return pmu::Status::not_linkable;
    st.chained_to[lo] = static_cast<std::int8_t>(hi);
    return pmu::Status::ok;
  }
  // A cascade's high counter waits for the low one's overflow, even when "started".
  static bool cascade_waiting(unsigned s) {
    if (Link != pmu::LinkKind::cascade) return false;
    for (unsigned lo = 0; lo < 4; ++lo)
      if (st.chained_to[lo] == static_cast<int>(s)) return !(st.ovf & (1u << lo));
    return false;
  }

  // --- test side: n events of `code` happen ---
  static void event(std::uint32_t code, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
      bool counts[4];  // decided before stepping: a handover starts counting at the next event
      for (unsigned s = 0; s < 4; ++s)
        counts[s] = st.running[s] && st.event[s] == code && !is_chain_target(s);
      for (unsigned s = 0; s < 4; ++s)
        if (counts[s]) step(s);
    }
  }
  // Jump a counter close to its overflow without stepping 2^40 times.
  static void set(unsigned s, std::uint64_t v) { st.count[s] = v & reg_mask(); }

 private:
  // A chain's high counter counts only rollovers; a cascade's high counter counts its event
  // but only once the low one has overflowed (it is started then).
  static bool is_chain_target(unsigned s) {
    for (unsigned lo = 0; lo < 4; ++lo)
      if (st.chained_to[lo] == static_cast<int>(s)) return Link == pmu::LinkKind::chain;
    return false;
  }
  static void step(unsigned s) {
    const std::uint64_t before = st.count[s];
    st.count[s] = (st.count[s] + 1) & reg_mask();
    const bool wrapped = st.count[s] == 0;
    if (wrapped && st.chained_to[s] >= 0) {
      const auto hi = static_cast<unsigned>(st.chained_to[s]);
      if (Link == pmu::LinkKind::chain && st.running[hi]) step(hi);
      if (Link == pmu::LinkKind::cascade) {  // hand over: low stops, high starts
        st.running[s] = false;
        st.running[hi] = true;
      }
    }
    if (Width == 31) {
      if (!(before & 0x80000000u) && (st.count[s] & 0x80000000u)) update_condition(s, true);
    } else if (wrapped) {
      update_condition(s, true);
    }
  }
  static void update_condition(unsigned s, bool raised) {
    if (Width == 31) {
      if (st.count[s] & 0x80000000u) st.ovf |= 1u << s;
      else st.ovf &= ~(1u << s);
    } else if (raised) {
      st.ovf |= 1u << s;
    }
    if (raised && st.irq_enabled[s] && st.irq) st.irq();
  }
  static void touch() {
    if (++st.accesses == st.hook_at && st.hook) st.hook();
    if (st.cost_event) event(st.cost_event, 1);
  }
};

// A started profiler with the cycles (slot 0) and instructions (slot 1) events added: the region
// tests' common set-up.
template <class B>
struct Rig {
  prof::Profiler<B> p;
  prof::Counter cyc, ins;
  Rig() {
    B::reset_state();
    EXPECT_EQ(p.add_on(0, {1, 0, 0}, cyc), prof::Status::ok);
    EXPECT_EQ(p.add_on(1, {2, 0, 0}, ins), prof::Status::ok);
    p.start();
  }
};

}  // namespace fake
