#pragma once
// Counting more events than the PMU has counters: event groups rotated on the counters (like perf's
// multiplexing), each event's time enabled and time running kept, and a scaled estimate
// raw * enabled / running for each, as perf stat prints it.
//
//   struct Clock { static constexpr unsigned kWidth = 64; static std::uint64_t now(); };
//   static prof::Multiplexer<Pmu, Clock> mux;
//   prof::MuxEvent cyc, ins, ld, br;
//   mux.add(pmu::Preset::cycles, cyc);                  // or add_event<Code>, add(EventConfig)
//   mux.add_metric_group(pmu::xscale::metrics, "basic"); // every event the group's metrics read
//   mux.start();                                        // groups formed, group 0 counting
//   // in a periodic interrupt (the board's timer), or at region boundaries:
//   mux.rotate();
//   mux.stop();
//   prof::MuxValue v = mux.value(ld);                   // raw, enabled, running; v.scaled()
//
// Groups: start() places the events in add() order, each in the first group where a counter can
// take it beside the events already there. A counter's constraints are the driver's own: the slots
// slots_for() allows, check_event() (e500: threshold events on PMC0/PMC1 only), and configure()
// itself where counters share resources (NetBurst: two events on one ESCR do not fit one group;
// the trial configures the group for real). An event whose slots no other event can use (XScale's
// CCNT, the MIPS CM's cycle counter) is pinned: it counts all the time, in every group. The
// RM7000's one counter makes one group per event.
//
// Time: the Clock's ticks (a board's free-running timer: XScale OSCR0, e500 time base, MIPS Count,
// the TSC). enabled: ticks the multiplexer's counters counted, from start() to stop(); running:
// ticks this event spent on a counter. A slice runs from the Clock::now() read just before a
// start of the counters to the one just after their stop: a rotation's own work, with the counters
// stopped, is in no slice, so a group that takes longer to program is not credited with time it
// could not count in.
//
// A rotation (rotate()): stop the multiplexer's counters, read and accumulate them (an overflow
// condition adds its 2^width, so a slice may be up to one wrap long), acknowledge, program the
// next group's events, zero, start. The counters are stopped from the stop to the start: the
// rotation's own work is not counted by them. On XScale (PMNC.E) and the RM7000 (one counter)
// a stop is global: the Profiler's counters pause for the rotation too.
//
// Beside a Profiler: reserve() its slots (a sampled cycles counter, say) before start(); the
// multiplexer never reprograms, zeroes or acknowledges them. On a PMU whose start and stop are
// global (kGlobalEnable: XScale's PMNC.E) the two share the switch: start the Profiler first and
// stop the multiplexer first (its stop() then leaves the counters on); a Profiler::stop() while
// the multiplexer runs stops its counters too, and its estimates would come out low. A rotation
// pauses the Profiler's counters there. The RM7000's one counter cannot be shared at all.
//
// Interrupts (one core):
//   may be called from an interrupt handler:  rotate (the timer tick), value, running, rotations,
//                                             groups, group_of, pinned, events, event_of
//   thread context only:                      add*, reserve, clear, start, stop
// rotate() runs with interrupts masked (pmu::IrqGuard); value() retries when a rotation fell
// between its reads (a generation count), so a handler's or the thread's value is never half
// one slice and half the next.
//
// Regions: prof::MuxRegion (below) takes every event's value() at its begin and end, so a region's
// estimate per event is its calls' raw scaled by their own enabled / running, whatever rotations
// fell inside. Rotating at region boundaries instead of on a timer: call rotate() after a region.
#include <cstddef>
#include <cstdint>

#include "hal/core/bus/barrier.hpp"
#include "hal/core/bus/irq.hpp"
#include "hal/core/metric.hpp"
#include "profiler/profiler.hpp"

namespace prof {

struct MuxEvent {
  static constexpr std::uint8_t kInvalid = 0xFF;
  std::uint8_t index = kInvalid;
  constexpr bool valid() const { return index != kInvalid; }
};

// One event's counts: raw events counted while it was on a counter, and the Clock ticks the
// multiplexer ran (enabled) and it was on a counter (running).
struct MuxValue {
  std::uint64_t raw = 0;
  std::uint64_t enabled = 0;
  std::uint64_t running = 0;
  // raw * enabled / running (perf's scaling); raw when it ran all the time; 0 when it never ran
  // (never_ran(): report "not counted", not 0 events).
  std::uint64_t scaled() const {
    if (running == 0) return 0;
    if (running >= enabled) return raw;
    // raw * enabled may pass 2^64: split raw into its quotient and remainder by running.
    const std::uint64_t q = raw / running, r = raw % running;
    return q * enabled + mul_div(r, enabled, running);
  }
  bool never_ran() const { return running == 0; }

 private:
  // floor(a * b / c) for a < c, without a 128-bit type (32-bit targets have none): b's bits from
  // the top, the quotient and remainder doubled and added to, the remainder kept below c.
  static std::uint64_t mul_div(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    std::uint64_t q = 0, r = 0;
    auto add = [&](std::uint64_t x) {  // (q, r) += x / c with x < c
      const std::uint64_t sum = r + x;
      if (sum < r || sum >= c) {
        r = sum - c;
        ++q;
      } else {
        r = sum;
      }
    };
    for (int k = 63; k >= 0; --k) {
      q <<= 1;
      add(r);
      if ((b >> k) & 1u) add(a);
    }
    return q;
  }
};

template <Backend B, class Clock, unsigned MaxEvents = 16>
class Multiplexer {
 public:
  static constexpr unsigned kMaxEvents = MaxEvents;
  static constexpr unsigned kMaxGroups = MaxEvents;
  static_assert(MaxEvents >= 1 && MaxEvents < MuxEvent::kInvalid, "MaxEvents: 1..254");
  static_assert(Clock::kWidth >= 8 && Clock::kWidth <= 64, "Clock::kWidth: 8..64 bits");

  // --- adding events (thread context, stopped) ---
  template <Preset P>
  Status add(MuxEvent& out) {
    static_assert(supports<B>(P), "this PMU has no event for that preset (see its events.hpp)");
    return add(P, out);
  }
  Status add(Preset p, MuxEvent& out) {
    const pmu::PresetBinding* b = pmu::find_preset(B::catalog, p);
    if (!b) return Status::unsupported_event;
    const Status s = add(EventConfig{b->code, 0, 0}, out);
    if (s == Status::ok) events_[out.index].preset = static_cast<std::int8_t>(p);
    return s;
  }
  template <std::uint32_t Code>
  Status add_event(MuxEvent& out, std::uint32_t qualifier = 0, std::uint32_t options = 0) {
    static_assert(has_event<B>(Code), "this PMU has no event with that code (see its events.hpp)");
    return add(EventConfig{Code, qualifier, options}, out);
  }
  // The same event twice returns the first one's handle.
  Status add(EventConfig ev, MuxEvent& out) {
    if (running_) return Status::busy;
    if (!has_event<B>(ev.code)) return Status::unsupported_event;
    if (!candidates(ev)) return Status::unsupported_event;
    for (unsigned i = 0; i < count_; ++i) {
      if (same(events_[i].event, ev)) {
        out = MuxEvent{static_cast<std::uint8_t>(i)};
        return Status::ok;
      }
    }
    if (count_ >= kMaxEvents) return Status::no_free_counter;
    events_[count_] = Entry{};
    events_[count_].event = ev;
    out = MuxEvent{static_cast<std::uint8_t>(count_)};
    ++count_;
    scheduled_ = false;
    return Status::ok;
  }
  // Every event the named group's metrics read (hal/<pmu>/metrics.hpp), once each. unsupported_event
  // when the table has no such group; the first failing add's status otherwise.
  Status add_metric_group(const pmu::MetricTable& table, const char* group) {
    bool found = false;
    for (std::size_t i = 0; i < table.count; ++i) {
      const pmu::Metric& m = table.metrics[i];
      if (!pmu::metric_names_equal(m.group, group)) continue;
      found = true;
      MuxEvent h;
      for (unsigned k = 0; k < m.num_count; ++k)
        if (const Status s = add(config(m.num[k]), h); s != Status::ok) return s;
      for (unsigned k = 0; k < m.den_count; ++k)
        if (const Status s = add(config(m.den[k]), h); s != Status::ok) return s;
    }
    return found ? Status::ok : Status::unsupported_event;
  }

  // Slots the multiplexer must leave alone (a Profiler's counters). Thread context, stopped.
  Status reserve(std::uint32_t slots) {
    if (running_) return Status::busy;
    reserved_ = slots;
    scheduled_ = false;
    return Status::ok;
  }
  // Forgets every event (stops first).
  void clear() {
    stop();
    count_ = 0;
    groups_ = 0;
    scheduled_ = false;
  }

  // --- running ---
  // Forms the groups (once after the events change), zeroes every event's counts and times, and
  // starts group 0. no_free_counter: an event fits no counter beside the reserved ones (or the
  // pinned events), pmu_absent/busy as configure() says.
  Status start() {
    if (running_) return Status::busy;
    if (count_ == 0) return Status::bad_argument;
    if (!scheduled_) {
      const Status s = schedule();
      if (s != Status::ok) return s;
    }
    pmu::IrqGuard guard;  // a handler's value() sees the old totals or the new ones
    for (unsigned i = 0; i < count_; ++i) {
      events_[i].raw = 0;
      events_[i].running = 0;
    }
    enabled_ = 0;
    rotations_ = 0;
    generation_ = generation_ + 1;
    current_ = 0;
    B::stop(pinned_mask_ | mask_of(0));  // XScale, RM7000: configure() wants the PMU stopped
    const Status s = program(current_, true);
    if (s != Status::ok) {  // nothing left configured: NetBurst's ESCRs free again
      if constexpr (requires { B::deconfigure(0u); }) B::deconfigure(mask_of(0));
      live_ = 0;
      if (global_with_others()) B::start(reserved_);  // the Profiler's counters, stopped above
      return s;
    }
    slice_start_ = Clock::now();
    generation_ = generation_ + 1;
    running_ = true;
    B::start(live_);
    return Status::ok;
  }
  // Ends the current slice and stops the multiplexer's counters; value() keeps the totals.
  // On a PMU whose stop is global (kGlobalEnable: XScale's PMNC.E) with reserved slots in use, the
  // counters are left counting: stopping them would stop the Profiler's too. Their counts are read
  // here and never again.
  void stop() {
    if (!running_) return;
    pmu::IrqGuard guard;
    if (!global_with_others()) B::stop(mask_of(current_));
    close_slice(Clock::now());
    if constexpr (requires { B::deconfigure(0u); }) B::deconfigure(mask_of(current_));
    running_ = false;
    generation_ = generation_ + 1;
  }
  // The next group goes on the counters (a no-op with one group, beyond its slice bookkeeping,
  // or when stopped). From the timer interrupt, or from thread context at a region boundary.
  void rotate() {
    if (!running_) return;
    pmu::IrqGuard guard;
    const std::uint32_t old_mask = mask_of(current_);
    B::stop(old_mask);
    close_slice(Clock::now());
    const unsigned next = groups_ > 1 ? (current_ + 1 == groups_ ? 0 : current_ + 1) : current_;
    if (next != current_) {
      if constexpr (requires { B::deconfigure(0u); }) B::deconfigure(old_mask & ~pinned_mask_);
      current_ = next;
      // Programmed at start() in trial: it fits. A configure() refused here (another user took a
      // shared resource since) leaves that event off the counters for this slice: it is counted
      // in failed_rotations() and gets neither counts nor running time.
      if (program(current_, false) != Status::ok) failed_ = failed_ + 1;
    } else {
      zero(old_mask);
    }
    rotations_ = rotations_ + 1;
    generation_ = generation_ + 1;
    slice_start_ = Clock::now();  // the rotation's own work is in no slice
    B::start(live_);
  }

  // --- reading (any context) ---
  MuxValue value(MuxEvent e) const {
    if (!valid(e)) return {};
    const Entry& en = events_[e.index];
    for (unsigned tries = 0;; ++tries) {
      const std::uint32_t g = generation_;
      pmu::compiler_barrier();  // the 64-bit fields below are read after g, and before its re-check
      MuxValue v{en.raw, enabled_, en.running};
      if (running_) {
        const std::uint64_t now = Clock::now();
        const std::uint64_t dt = ticks(slice_start_, now);
        v.enabled += dt;
        if (counting(e.index)) {
          v.running += dt;
          v.raw += live(en.slot[current_]);
        }
      }
      pmu::compiler_barrier();
      if (g == generation_) return v;
      if (tries + 1 >= Profiler<B>::kReadTries) {
        giveups_ = giveups_ + 1;
        return v;
      }
    }
  }
  bool valid(MuxEvent e) const { return e.index < count_; }
  bool running() const { return running_; }
  unsigned events() const { return count_; }
  unsigned groups() const { return groups_; }
  std::uint32_t rotations() const { return rotations_; }
  // Rotations whose next group could not be programmed whole (a configure refused at run time).
  std::uint32_t failed_rotations() const { return failed_; }
  // value() calls that found a rotation on every pass (an interrupt storm): their last pass.
  std::uint32_t read_giveups() const { return giveups_; }
  // The group an event counts in (pinned: every group; kInvalid before start()).
  unsigned group_of(MuxEvent e) const { return valid(e) && scheduled_ ? events_[e.index].group : MuxEvent::kInvalid; }
  bool pinned(MuxEvent e) const { return valid(e) && scheduled_ && events_[e.index].group == kPinned; }
  EventConfig event_of(MuxEvent e) const { return valid(e) ? events_[e.index].event : EventConfig{}; }
  const char* preset_of(MuxEvent e) const {
    const std::int8_t p = valid(e) ? events_[e.index].preset : std::int8_t{-1};
    return p < 0 ? nullptr : pmu::preset_name(static_cast<Preset>(p));
  }
  const char* event_name(MuxEvent e) const {
    return valid(e) ? pmu::event_name(B::catalog, events_[e.index].event.code) : "?";
  }
  // The slot an event has in a group (kInvalid where it is not in that group).
  unsigned slot_in(MuxEvent e, unsigned group) const {
    return valid(e) && group < kMaxGroups ? events_[e.index].slot[group] : MuxEvent::kInvalid;
  }

 private:
  static constexpr std::uint8_t kPinned = 0xFE;
  struct Entry {
    EventConfig event{};
    std::int8_t preset = -1;
    std::uint8_t group = MuxEvent::kInvalid;  // kPinned: on its counter in every group
    std::uint8_t slot[kMaxGroups];            // its slot per group (kInvalid: not in it)
    std::uint64_t raw = 0;
    std::uint64_t running = 0;
    Entry() {
      for (auto& s : slot) s = MuxEvent::kInvalid;
    }
  };

  static constexpr std::uint32_t bit(unsigned s) { return std::uint32_t{1} << s; }
  static constexpr bool same(EventConfig a, EventConfig b) {
    return a.code == b.code && a.qualifier == b.qualifier && a.options == b.options;
  }
  static constexpr EventConfig config(const pmu::MetricEvent& m) {
    return EventConfig{m.code, m.qualifier, m.options};
  }
  static std::uint64_t ticks(std::uint64_t from, std::uint64_t to) {
    return (to - from) & low_mask(Clock::kWidth);
  }
  // Slots that may take ev, by the driver's static rules.
  std::uint32_t candidates(EventConfig ev) const {
    std::uint32_t m = B::slots_for(ev.code) & ~reserved_;
    if constexpr (requires { B::check_event(0u, ev); }) {
      for (unsigned s = 0; s < B::kSlots; ++s)
        if ((m & bit(s)) && B::check_event(s, ev) != Status::ok) m &= ~bit(s);
    }
    return m;
  }
  // On a counter that was programmed for this slice.
  bool counting(unsigned i) const {
    const unsigned s = events_[i].slot[current_];
    return s != MuxEvent::kInvalid && (live_ & bit(s)) != 0;
  }
  // A global stop would stop someone else's counters too.
  bool global_with_others() const {
    if constexpr (requires { B::kGlobalEnable; }) return B::kGlobalEnable && reserved_ != 0;
    return false;
  }
  std::uint32_t mask_of(unsigned group) const { return group_mask_[group]; }

  // Places the events: pinned ones first (slots no other event can use), then each of the others
  // in the first group with a free counter that takes it. Where configure() has shared resources
  // (a driver with deconfigure: NetBurst's ESCRs), each placement is tried on the hardware with
  // the group's events already there. Thread context, the multiplexer stopped.
  Status schedule() {
    std::uint32_t cand[kMaxEvents];
    for (unsigned i = 0; i < count_; ++i) {
      cand[i] = candidates(events_[i].event);
      if (!cand[i]) return Status::no_free_counter;
      events_[i].group = MuxEvent::kInvalid;
      for (auto& s : events_[i].slot) s = MuxEvent::kInvalid;
    }
    pinned_mask_ = 0;
    for (unsigned i = 0; i < count_; ++i) {
      std::uint32_t others = 0;
      for (unsigned j = 0; j < count_; ++j)
        if (j != i) others |= cand[j];
      const std::uint32_t own = cand[i] & ~others & ~pinned_mask_;
      if (!own) continue;
      const unsigned s = lowest(own);
      events_[i].group = kPinned;
      for (auto& sl : events_[i].slot) sl = static_cast<std::uint8_t>(s);
      pinned_mask_ |= bit(s);
    }
    groups_ = 0;
    for (unsigned i = 0; i < count_; ++i) {
      if (events_[i].group == kPinned) continue;
      bool placed = false;
      for (unsigned g = 0; g < kMaxGroups && !placed; ++g) {
        if (g == groups_) {  // a new group: only the pinned events on its counters
          group_mask_[g] = pinned_mask_;
          ++groups_;
        }
        const std::uint32_t free = cand[i] & ~group_mask_[g];
        for (unsigned s = 0; s < B::kSlots && !placed; ++s) {
          if (!(free & bit(s))) continue;
          if (!fits(g, i, s)) continue;
          events_[i].group = static_cast<std::uint8_t>(g);
          events_[i].slot[g] = static_cast<std::uint8_t>(s);
          group_mask_[g] |= bit(s);
          placed = true;
        }
        if (!placed && group_mask_[g] == pinned_mask_) return Status::no_free_counter;  // fits nowhere
      }
      if (!placed) return Status::no_free_counter;
    }
    if (groups_ == 0) {
      groups_ = 1;
      group_mask_[0] = pinned_mask_;
    }
    scheduled_ = true;
    return Status::ok;
  }
  // Trial for drivers whose counters share resources: the group's events so far plus this one
  // on slot s, configured for real, then released.
  bool fits(unsigned g, unsigned i, unsigned s) {
    if constexpr (requires { B::deconfigure(0u); }) {
      const std::uint32_t mask = group_mask_[g] | bit(s);
      bool ok = true;
      for (unsigned j = 0; j < count_ && ok; ++j) {
        const unsigned sj = j == i ? s : events_[j].slot[g];
        if (sj == MuxEvent::kInvalid) continue;
        ok = B::configure(sj, events_[j].event) == Status::ok;
      }
      B::deconfigure(mask);
      return ok;
    } else {
      (void)g, (void)i, (void)s;
      return true;
    }
  }
  static unsigned lowest(std::uint32_t m) {
    unsigned s = 0;
    while (!(m & bit(s))) ++s;
    return s;
  }

  // Programs group g's events (its counters stopped; the pinned ones only at start) and zeroes
  // its counters.
  // live_: the slots that took their event (every one of the group's unless a configure()
  // was refused; the first refusal is returned). The group's counters are zeroed either way.
  Status program(unsigned g, bool with_pinned) {
    Status first = Status::ok;
    live_ = mask_of(g);
    for (unsigned i = 0; i < count_; ++i) {
      const unsigned s = events_[i].slot[g];
      if (s == MuxEvent::kInvalid) continue;
      if (events_[i].group == kPinned && !with_pinned) continue;
      const Status st = B::configure(s, events_[i].event);
      if (st == Status::ok) continue;
      live_ &= ~bit(s);
      if (first == Status::ok) first = st;
    }
    zero(mask_of(g));
    return first;
  }
  void zero(std::uint32_t mask) {
    for (unsigned s = 0; s < B::kSlots; ++s)
      if (mask & bit(s)) B::write(s, 0);
    B::clear_overflow(mask);
  }
  // The current slice's counts and ticks into the totals; the counters are stopped.
  void close_slice(std::uint64_t now) {
    const std::uint64_t dt = ticks(slice_start_, now);
    enabled_ += dt;
    const std::uint32_t status = B::overflow_status();
    for (unsigned i = 0; i < count_; ++i) {
      if (!counting(i)) continue;
      const unsigned s = events_[i].slot[current_];
      events_[i].running += dt;
      events_[i].raw += extend(s, B::read(s), status);
    }
    slice_start_ = now;
    B::clear_overflow(mask_of(current_) & status);
  }
  // A slice's count on slot s: the low bits, plus 2^width when its overflow condition is set.
  static std::uint64_t extend(unsigned s, std::uint64_t raw, std::uint32_t status) {
    const unsigned w = B::width(s);
    return (raw & low_mask(w)) + ((status & bit(s)) ? Profiler<B>::carry(s, raw) : 0);
  }
  std::uint64_t live(unsigned s) const {
    for (unsigned i = 0;; ++i) {
      const std::uint32_t c1 = B::overflow_status() & bit(s);
      const std::uint64_t v = B::read(s);
      const std::uint32_t c2 = B::overflow_status() & bit(s);
      if (c1 == c2 || i + 1 >= Profiler<B>::kReadTries) return extend(s, v, c2);
    }
  }

  Entry events_[kMaxEvents]{};
  std::uint32_t group_mask_[kMaxGroups]{};
  std::uint32_t pinned_mask_ = 0;
  std::uint32_t reserved_ = 0;
  unsigned count_ = 0;
  unsigned groups_ = 0;
  bool scheduled_ = false;
  volatile bool running_ = false;
  volatile unsigned current_ = 0;
  std::uint64_t slice_start_ = 0;
  std::uint64_t enabled_ = 0;
  volatile std::uint32_t rotations_ = 0;
  volatile std::uint32_t failed_ = 0;
  volatile std::uint32_t generation_ = 0;  // bumped by every start, stop and rotation
  mutable volatile std::uint32_t giveups_ = 0;
  std::uint32_t live_ = 0;  // the current slice's programmed slots
};

// A region's multiplexed counts: per event, the raw events, enabled and running ticks its calls
// added; total[i].scaled() is the region's estimate (its calls' raw, scaled by their own time on a
// counter). A call across a start() of the multiplexer means nothing, adds 0 and is counted in
// `voided`.
template <class Mux>
struct MuxRegionStats {
  const char* name = "";
  std::uint64_t calls = 0;
  std::uint64_t voided = 0;
  MuxValue total[Mux::kMaxEvents]{};
  constexpr explicit MuxRegionStats(const char* n = "") : name(n) {}
};

// RAII: every event's value() at construction and at destruction. Any context the multiplexer's
// value() may be called from (a rotation between the two is what it measures across).
template <class Mux>
class MuxRegion {
 public:
  MuxRegion(const Mux& m, MuxRegionStats<Mux>& s) : m_(m), s_(s) {
    for (unsigned i = 0; i < m_.events(); ++i) begin_[i] = m_.value(MuxEvent{static_cast<std::uint8_t>(i)});
  }
  ~MuxRegion() {
    MuxValue end[Mux::kMaxEvents];
    bool void_ = false;
    for (unsigned i = 0; i < m_.events(); ++i) {
      end[i] = m_.value(MuxEvent{static_cast<std::uint8_t>(i)});
      void_ |= end[i].raw < begin_[i].raw || end[i].enabled < begin_[i].enabled || end[i].running < begin_[i].running;
    }
    s_.calls++;
    if (void_) {
      s_.voided++;
      return;
    }
    for (unsigned i = 0; i < m_.events(); ++i) {
      s_.total[i].raw += end[i].raw - begin_[i].raw;
      s_.total[i].enabled += end[i].enabled - begin_[i].enabled;
      s_.total[i].running += end[i].running - begin_[i].running;
    }
  }
  MuxRegion(const MuxRegion&) = delete;
  MuxRegion& operator=(const MuxRegion&) = delete;

 private:
  const Mux& m_;
  MuxRegionStats<Mux>& s_;
  MuxValue begin_[Mux::kMaxEvents];
};

}  // namespace prof
