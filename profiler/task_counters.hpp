#pragma once
// Per-task counters for firmware with a scheduler: the profiler's counters virtualised per task by a
// context-switch hook, and samples tagged with the task current at their interrupt.
//
//   static prof::TaskCounters<Pmu, 8> tasks{profiler};    // tasks 0..7 and the "no task" bucket
//   tasks.add_task(0, "net");  tasks.add_task(1, "ui");   // before the scheduler starts
//   profiler.start();  tasks.begin();                     // accounting from here, no task current
//   // in the scheduler's switch path, interrupts masked:
//   tasks.on_switch(from_id, to_id);
//   tasks.value(0, instr);                                // what task 0 ran, current task included
//
// At each switch the hook reads every added counter's 64-bit value and adds the difference since
// the previous switch to the task switched out: a task's counts are what ran while it was current
// (the switch path's own events on either side of the hook's reads included: docs/tasks.md),
// and the buckets of all tasks plus kNoTask (before the first switch, after a switch to an id
// outside the table) add up to the counters' own values exactly, whatever was sampled or folded in
// between (the hook reads through the profiler's consistent reads).
//
// Task ids: 0..MaxTasks-1 index the table directly (an RTOS's task number, not a pointer); kNoTask
// and any other id fall into the "no task" bucket (unknown_ids() counts switches to or from one).
//
// Regions inside a task (profiler/region.hpp): a switch inside a Region is not subtracted; its
// counts then include the other tasks' time until the switch back. The hook bumps the profiler's
// switch count (Profiler::note_switch) and the Region counts such calls in RegionStats::switched,
// so a report can drop or flag them. Fast and counter regions (fast_region.hpp, counter_region.hpp)
// do not count them: keep them inside one time slice, or mask the switch.
//
// Interrupts (one core; the scheduler's switch path and the sampling interrupt are the contexts):
//   may be called from an interrupt handler:  on_switch (a tick's preemption switches from its
//                                             handler), current, current_word, value_of_slice
//   thread context, interrupts masked or the  add_task, begin, value, switches_in, name, at_begin,
//   scheduler not yet started:                unknown_ids, mismatches
// on_switch itself runs its reads and updates with interrupts masked (pmu::IrqGuard): a sampling
// interrupt inside it sees either the old current task or the new one, never half an update.
// Samples: TaskSampleRing tags each with *current_word() read in the sampling interrupt. A board's
// assembly fast vector (examples/<board>/board/pmu_fast.S) writes pc and lr only: its samples stay
// untagged.
#include <cstddef>
#include <cstdint>

#include "hal/core/bus/irq.hpp"

#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace prof {

// The "no task" id (the dump's TASKS/TASK_COUNTS/SAMPLE_TAGS value for it: docs/dump-format.md).
inline constexpr std::uint16_t kNoTask = 0xFFFF;

template <Backend B, std::size_t MaxTasks>
class TaskCounters {
  static_assert(MaxTasks >= 1 && MaxTasks < kNoTask, "task ids are 16 bits, kNoTask excluded");

 public:
  static constexpr unsigned kMax = Profiler<B>::kMaxCounters;
  static constexpr std::size_t kMaxTasks = MaxTasks;

  explicit TaskCounters(Profiler<B>& p) : p_(p) {}

  // Names task `id` for the dump's TASKS chunk. bad_argument: an id outside 0..MaxTasks-1.
  Status add_task(std::uint16_t id, const char* name) {
    if (id >= MaxTasks) return Status::bad_argument;
    slots_[id].name = name;
    slots_[id].named = true;
    return Status::ok;
  }
  const char* name(std::uint16_t id) const { return id < MaxTasks ? slots_[id].name : nullptr; }
  bool named(std::uint16_t id) const { return id < MaxTasks && slots_[id].named; }

  // Zeroes every task's counts and starts the accounting from the counters' present values, with
  // `current` current. The counters accounted are those added by now: add them all first. Call after Profiler::start() (and after any reset: values read across a
  // reset are not comparable; the hook then charges nothing and counts the switch in resets()).
  void begin(std::uint16_t current = kNoTask) {
    pmu::IrqGuard guard;
    for (auto& s : slots_) s.clear_counts();
    none_.clear_counts();
    n_ = p_.counters_added();
    unknown_ = 0;
    mismatches_ = 0;
    resets_ = 0;
    read_now(last_);
    for (unsigned i = 0; i < kMax; ++i) begun_[i] = last_[i];
    epoch_ = p_.epoch();
    current_ = current;
  }

  // The context-switch hook: `from` was current up to here, `to` is from here on. Call it from the
  // scheduler's switch path with interrupts masked (or from the interrupt handler that switches);
  // it masks them itself for its own sequence. `from` is the task charged; one that is not the
  // task the hook last switched in is counted in mismatches() (a missed or doubled call).
  void on_switch(std::uint16_t from, std::uint16_t to) {
    pmu::IrqGuard guard;
    std::uint64_t now[kMax];
    read_now(now);
    Slot& f = slot(from);
    const unsigned n = n_;
    if (p_.epoch() == epoch_) {
      for (unsigned i = 0; i < n; ++i) f.total[i] += now[i] - last_[i];
    } else {
      resets_ = resets_ + 1;  // counters reset since the last switch: the slice is lost, not charged
      epoch_ = p_.epoch();
    }
    for (unsigned i = 0; i < n; ++i) last_[i] = now[i];
    if (from != current_) mismatches_ = mismatches_ + 1;
    if ((from >= MaxTasks && from != kNoTask) || (to >= MaxTasks && to != kNoTask)) unknown_ = unknown_ + 1;
    slot(to).switches_in += 1;
    current_ = to;
    p_.note_switch();
  }

  // The task switched in last (kNoTask before the first switch). Interrupt context: the sampling
  // interrupt tags its sample with it.
  std::uint16_t current() const { return current_; }
  const volatile std::uint16_t* current_word() const { return &current_; }

  // Counter i (add() order) of task `id` (kNoTask: the no-task bucket), including, for the current
  // task, what it has run since it was switched in. The sum over every named id and kNoTask is the
  // counter's own value since begin() (as read at the same moment).
  std::uint64_t value(std::uint16_t id, unsigned i) const {
    if (i >= kMax) return 0;
    pmu::IrqGuard guard;
    const Slot& s = slot_const(id);
    std::uint64_t v = s.total[i];
    if (same_bucket(id, current_) && p_.epoch() == epoch_) v += value_of_slice(i);
    return v;
  }
  // What counter i counted since the last switch (the current task's running slice).
  // The counters accounted (those added at begin()), in add() order.
  unsigned counters() const { return n_; }
  std::uint64_t value_of_slice(unsigned i) const {
    if (i >= n_) return 0;
    return p_.read(Counter{static_cast<std::uint8_t>(i)}) - last_[i];
  }
  // Counter i's value when begin() read it: the whole run is read() less this.
  std::uint64_t at_begin(unsigned i) const { return i < kMax ? begun_[i] : 0; }
  // How many times the task was switched in.
  std::uint64_t switches_in(std::uint16_t id) const { return slot_const(id).switches_in; }

  // Switches to or from an id outside the table (charged to the no-task bucket).
  std::uint32_t unknown_ids() const { return unknown_; }
  // Switches whose `from` was not the task switched in last.
  std::uint32_t mismatches() const { return mismatches_; }
  // Switches that found the counters reset since the previous one (that slice charged to nobody).
  std::uint32_t resets() const { return resets_; }

 private:
  struct Slot {
    const char* name = nullptr;
    bool named = false;
    std::uint64_t switches_in = 0;
    std::uint64_t total[kMax]{};
    void clear_counts() {
      switches_in = 0;
      for (auto& t : total) t = 0;
    }
  };

  static bool same_bucket(std::uint16_t a, std::uint16_t b) {
    return a == b || (a >= MaxTasks && b >= MaxTasks);
  }
  Slot& slot(std::uint16_t id) { return id < MaxTasks ? slots_[id] : none_; }
  const Slot& slot_const(std::uint16_t id) const { return id < MaxTasks ? slots_[id] : none_; }

  // Every added counter's 64-bit value: one register sweep when the profiler allows it (the
  // regions' take(), retried across a fold or an overflow), read() per counter otherwise (a linked
  // pair, a stopped profiler). Each counter's boundary is its own value: the buckets add up per
  // counter either way.
  void read_now(std::uint64_t* out) const {
    const unsigned n = n_;
    if (p_.sweepable()) {
      typename Profiler<B>::Snapshot s;
      p_.template take<false>(s);
      for (unsigned i = 0; i < n; ++i) out[i] = p_.value(s, Counter{static_cast<std::uint8_t>(i)});
    } else {
      for (unsigned i = 0; i < n; ++i) out[i] = p_.read(Counter{static_cast<std::uint8_t>(i)});
    }
  }

  Profiler<B>& p_;
  Slot slots_[MaxTasks]{};
  Slot none_{};
  std::uint64_t last_[kMax]{};  // the counters' values at the last switch
  std::uint64_t begun_[kMax]{};  // ... and at begin()
  std::uint32_t epoch_ = 0;
  unsigned n_ = 0;  // counters added at begin() (add them all before it)
  volatile std::uint16_t current_ = kNoTask;
  std::uint32_t unknown_ = 0;
  std::uint32_t mismatches_ = 0;
  std::uint32_t resets_ = 0;
};

// A Sampler sink: a SampleRing (its layout unchanged) and, beside each sample, the task current at
// its interrupt, read from a TaskCounters' current_word() (kNoTask until one is attached).
// Producer: the sampling interrupt of one core, as SampleRing. Consumer: read the tags with
// peek_tag() while the producer is stopped (after the run), in the order peek()/pop() give.
template <std::size_t N, RingFull Policy = RingFull::keep_oldest>
class TaskSampleRing {
 public:
  static constexpr std::size_t kCapacity = N;
  using Ring = SampleRing<N, Policy>;

  void attach(const volatile std::uint16_t* current) { current_ = current; }

  // Interrupt side. The tag goes in after the sample is kept (a dropped one must not overwrite the
  // oldest's tag); the consumer, on the same core, cannot run in between.
  bool record(std::uint32_t pc, std::uint32_t lr) {
    if (!ring_.record(pc, lr)) return false;
    tags_[(ring_.recorded() - 1) % N] = *current_;
    return true;
  }

  // Thread side: the oldest unread sample (SampleRing::pop), its tag left in place for tag_at().
  bool pop(Sample& out) { return ring_.pop(out); }
  // Producer stopped: the free-running index of the oldest unread sample, and the task of the
  // sample with free-running index i (valid while fewer than N samples came after it).
  std::uint32_t oldest_index() const { return ring_.recorded() - static_cast<std::uint32_t>(ring_.size()); }
  std::uint16_t tag_at(std::uint32_t i) const { return tags_[i % N]; }

  // Thread side, producer stopped: the i-th oldest unread sample and its task.
  bool peek(std::size_t i, Sample& out, std::uint16_t& task) {
    if (!ring_.peek(i, out)) return false;
    const std::uint32_t oldest = ring_.recorded() - static_cast<std::uint32_t>(ring_.size());
    task = tags_[(oldest + i) % N];
    return true;
  }
  Ring& ring() { return ring_; }
  std::size_t size() const { return ring_.size(); }
  std::uint64_t dropped() const { return ring_.dropped(); }
  void reset() { ring_.reset(); }

 private:
  static inline const volatile std::uint16_t kNone = kNoTask;
  Ring ring_;
  std::uint16_t tags_[N]{};
  const volatile std::uint16_t* current_ = &kNone;
};

}  // namespace prof
