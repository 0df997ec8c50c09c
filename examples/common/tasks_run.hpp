#pragma once
// Per-task profiles under the examples' round-robin scheduler (examples/common/scheduler.hpp),
// one routine for every board (issue 35). Three tasks with different workloads (crc32, insertion
// sort, Fibonacci: examples/common/workloads.hpp, each in its own section) and main() as the "no
// task" entry, preempted by the board's timer; prof::TaskCounters virtualises cycles and
// instructions per task, and the PMU overflow samples are tagged with the task current at their
// interrupt (prof::TaskSampleRing). Checks, under pmusim (every instruction counted exactly):
//  - every task's instructions are what it executes alone (measured before the scheduler starts,
//    interrupts off) plus what its sampling interrupts cost (measured) plus, per switch into it, at
//    most the hook's measured cost and kSwitchPathBound (the timer interrupt, the trampoline,
//    sched_switch: the switch path charged to the task on either side of the hook's reads);
//  - the buckets (three tasks and "no task") add up to the counters' whole run exactly;
//  - each task's samples land in its own workload's section, and never in another task's;
//  - stack capture per task stack: the switch hook moves the capture's bound (StackRing's stack
//    top) to the stack of the task switched in, so no capture reads above its own stack.
// Prints the hook's own cost (instructions of one on_switch, the two counters added).
//
//   struct Board {   // as examples/common/profile_run.hpp's, these members only
//     static constexpr const char* kTarget = "xscale";   // the dump's target id
//     static const examples::Console& console();
//     static void putc(char c);                           // the dump's text frames
//     static bool timer_start(void (*tick)(std::uint32_t pc, std::uint32_t lr));
//     static void timer_stop();
//     static bool pmu_interrupt(void (*irq)(std::uint32_t pc, std::uint32_t lr));
//     static void irq_enable();
//     static void irq_disable();
//     static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp);  // in the interrupt
//     static std::uintptr_t stack_top();                                     // main's stack
//   };
//   Port: the board's TaskPort (examples/<board>/board/task_port.hpp).
// Returns the number of failed checks.
#include <cstdint>

#include "examples/common/checks.hpp"
#include "examples/common/console.hpp"
#include "examples/common/scheduler.hpp"
#include "examples/common/workloads.hpp"
#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/dump/writer.hpp"
#include "profiler/emit.hpp"
#include "profiler/profiler.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"
#include "profiler/stack.hpp"
#include "profiler/task_counters.hpp"

namespace examples::tasks {

inline constexpr std::uint16_t kTasks = 3;
inline constexpr const char* kNames[kTasks] = {"crc", "sort", "fib"};
// What a switch charges to the tasks besides the hook (on_switch, measured by the run): the timer
// interrupt's entry and return, the trampoline, sched_switch and the board's preempt. The run
// prints the per-switch figure; under pmusim it is within this of the hook's cost on both boards.
inline constexpr std::uint64_t kSwitchPathBound = 400;
inline constexpr std::uint64_t kSamplePeriod = 5000;  // cycles between samples
inline constexpr std::size_t kStackWords = 1024;

// Each task's work; the same call measured alone and under the scheduler.
inline std::uint32_t sort_copy[work::kTableWords];
__attribute__((EXAMPLES_NOIPA)) inline void crc_task(std::uint32_t passes) {
  for (std::uint32_t i = 0; i < passes; ++i) work::sink = work::crc32(work::buffer, work::kBufferBytes);
}
__attribute__((EXAMPLES_NOIPA)) inline void sort_task(std::uint32_t passes) {
  for (std::uint32_t i = 0; i < passes; ++i) {
    for (std::uint32_t k = 0; k < work::kTableWords; ++k) sort_copy[k] = work::table[k];
    work::insertion_sort(sort_copy, work::kTableWords);
  }
}
__attribute__((EXAMPLES_NOIPA)) inline void fib_task(std::uint32_t passes) {
  for (std::uint32_t i = 0; i < passes; ++i) work::sink = work::fib(2000 + (i & 1));
}
inline constexpr sched::Entry kEntries[kTasks] = {&crc_task, &sort_task, &fib_task};
inline constexpr std::uint32_t kPasses[kTasks] = {2, 3, 60};
inline bool in_own_code(std::uint16_t t, std::uint32_t pc) {
  return t == 0 ? work::in_crc32(pc) : t == 1 ? work::in_sort(pc) : work::in_fib(pc);
}

inline std::uint32_t stacks[kTasks][kStackWords];

// Yields twice, then checks that its argument (kept in a callee-saved register or its frame
// across the yields) is what it was given: 3 steps when every resume lands after the call.
inline volatile std::uint32_t yield_steps = 0;
template <class Port>
__attribute__((EXAMPLES_NOIPA)) void yield_task(std::uint32_t arg) {
  yield_steps = 1;
  Port::yield();
  yield_steps = yield_steps + 1;
  Port::yield();
  if (arg == 0x5A5A0001u) yield_steps = yield_steps + 1;
}

template <prof::Backend B>
struct State {
  static inline prof::Profiler<B> profiler;
  static inline prof::Regions<B> regions{profiler};  // none measured: the dump's writer wants them
  static inline prof::TaskCounters<B, kTasks> counters{profiler};
  static inline prof::TaskSampleRing<1024> ring;
  static inline prof::Sampler<B, prof::TaskSampleRing<1024>> sampler{profiler, ring};
  static inline prof::StackRing<512, 256> stacks;  // the check's own copies, not dumped
  static inline volatile bool capture = false;     // the second run's: stacks captured
  static void hook(std::uint16_t from, std::uint16_t to) {
    counters.on_switch(from, to);
    stacks.set_stack_top(sched::stack_top_of(to));
  }
};

template <class Board, prof::Backend B>
void on_pmu(std::uint32_t pc, std::uint32_t lr) {
  using S = State<B>;
  S::sampler.on_pmu_interrupt(pc, lr);
  if (!S::capture) return;
  std::uint32_t sp = 0, fp = 0;
  Board::interrupted_stack(sp, fp);
  S::stacks.record(prof::StackContext{pc, lr, sp, fp});
}

template <class Port>
void on_tick(std::uint32_t, std::uint32_t) {
  if (sched::want_switch()) Port::preempt();
}

template <class Board, prof::Backend B, class Port>
int run() {
  using S = State<B>;
  const Console& out = Board::console();
  Checks checks{out};
  auto& p = S::profiler;
  prof::Counter cyc, ins;
  checks.status("add cycles", p.template add<pmu::Preset::cycles>(cyc));
  checks.status("add instructions", p.add(pmu::Preset::instructions, ins));
  if (!p.valid(cyc) || !p.valid(ins)) {
    checks.check(false, "cycles and instructions counters");
    return checks.failures;
  }
  Board::irq_disable();
  p.start();
  work::fill();

  // What each task executes alone, interrupts off: the call between two reads, less two reads.
  std::uint64_t alone[kTasks];
  std::uint64_t reads = 0;
  {
    const std::uint64_t a = p.read(ins);
    const std::uint64_t b = p.read(ins);
    reads = b - a;
    for (unsigned t = 0; t < kTasks; ++t) {
      const std::uint64_t x = p.read(ins);
      kEntries[t](kPasses[t]);
      alone[t] = p.read(ins) - x - reads;
    }
  }

  // The hook's own cost: one on_switch between two reads, less two reads (no task either side).
  std::uint64_t hook_cost = 0;
  {
    S::counters.begin();
    const std::uint64_t a = p.read(ins);
    const std::uint64_t b = p.read(ins);
    const std::uint64_t x = p.read(ins);
    S::counters.on_switch(prof::kNoTask, prof::kNoTask);
    hook_cost = p.read(ins) - x - (b - a);
  }
  out.put("on_switch: ");
  out.dec(hook_cost);
  out.line(" instructions (2 counters, interrupts masked by the caller)");

  for (unsigned t = 0; t < kTasks; ++t) {
    S::counters.add_task(static_cast<std::uint16_t>(t), kNames[t]);
    if (!sched::add<Port>(static_cast<std::uint16_t>(t), kEntries[t], kPasses[t], stacks[t], kStackWords))
      checks.check(false, "scheduler table");
  }
  sched::set_hook(&S::hook);
  sched::set_main_stack_top(Board::stack_top());
  S::stacks.set_stack_top(Board::stack_top());
  S::ring.attach(S::counters.current_word());
  checks.status("arm cycles", S::sampler.arm(cyc, kSamplePeriod));
  const bool pmu_irq = Board::pmu_interrupt(&on_pmu<Board, B>);

  // What one sampling interrupt adds to the code it interrupts: the fib task alone again, sampled,
  // less its unsampled count, per interrupt. Its samples are untagged and dropped after.
  std::uint64_t per_sample = 0;
  {
    const std::uint32_t i0 = p.interrupts();
    const std::uint64_t x = p.read(ins);
    Board::irq_enable();
    kEntries[2](kPasses[2]);
    Board::irq_disable();
    const std::uint64_t y = p.read(ins) - x - reads;
    const std::uint32_t n = p.interrupts() - i0;
    per_sample = n && y > alone[2] ? (y - alone[2] + n / 2) / n : 0;
    S::ring.reset();
  }
  out.put("sampling interrupt: ");
  out.dec(per_sample);
  out.line(" instructions each, charged to the task it interrupts");
  if (!Board::timer_start(&on_tick<Port>)) {
    checks.check(false, "timer start");
    return checks.failures;
  }
  S::counters.begin();
  Board::irq_enable();
  while (!sched::all_done()) {
  }
  Board::irq_disable();
  Board::timer_stop();
  S::sampler.disarm();
  p.stop();  // latched: every value below is read at this one moment

  // The whole run from begin() to the stop: the buckets' sum (the current one's slice included).
  std::uint64_t sum_ins = 0, sum_cyc = 0;
  for (unsigned t = 0; t < kTasks; ++t) {
    sum_ins += S::counters.value(static_cast<std::uint16_t>(t), ins.index);
    sum_cyc += S::counters.value(static_cast<std::uint16_t>(t), cyc.index);
  }
  sum_ins += S::counters.value(prof::kNoTask, ins.index);
  sum_cyc += S::counters.value(prof::kNoTask, cyc.index);
  const std::uint64_t whole_ins = p.read(ins) - S::counters.at_begin(ins.index);
  const std::uint64_t whole_cyc = p.read(cyc) - S::counters.at_begin(cyc.index);

  out.put("switches: ");
  out.dec(sched::switches());
  out.put(", samples: ");
  out.dec(S::ring.size());
  out.put(pmu_irq ? " (PMU overflow interrupt)" : " (no PMU interrupt)");
  out.line("");
  out.line("task  instructions  alone  error  switches-in  samples (own/other-task/elsewhere)  "
           "error less samples' cost, per switch");
  std::uint32_t own[kTasks]{}, cross[kTasks]{}, elsewhere[kTasks]{};
  for (std::size_t i = 0; i < S::ring.size(); ++i) {
    prof::Sample smp;
    std::uint16_t tag = 0;
    if (!S::ring.peek(i, smp, tag) || tag >= kTasks) continue;
    if (in_own_code(tag, smp.pc)) {
      ++own[tag];
      continue;
    }
    bool other = false;
    for (std::uint16_t u = 0; u < kTasks; ++u) other |= u != tag && in_own_code(u, smp.pc);
    ++(other ? cross[tag] : elsewhere[tag]);
  }
  bool exact = true, owned = true;
  for (unsigned t = 0; t < kTasks; ++t) {
    const auto id = static_cast<std::uint16_t>(t);
    const std::uint64_t v = S::counters.value(id, ins.index);
    const std::uint64_t in = S::counters.switches_in(id);
    const std::int64_t err = static_cast<std::int64_t>(v - alone[t]);
    const std::uint32_t taken = own[t] + cross[t] + elsewhere[t];
    const std::int64_t less_samples = err - static_cast<std::int64_t>(taken * per_sample);
    const std::int64_t per_switch = in ? less_samples / static_cast<std::int64_t>(in) : 0;
    out.put(kNames[t]);
    out.put("  ");
    out.dec(v);
    out.put("  ");
    out.dec(alone[t]);
    out.put("  ");
    out.sdec(err);
    out.put("  ");
    out.dec(in);
    out.put("  ");
    out.dec(taken);
    out.put(" (");
    out.dec(own[t]);
    out.put("/");
    out.dec(cross[t]);
    out.put("/");
    out.dec(elsewhere[t]);
    out.put(")  ");
    out.sdec(per_switch);
    out.line("");
    exact &= in > 0 && per_switch >= 0 && static_cast<std::uint64_t>(per_switch) <= hook_cost + kSwitchPathBound;
    owned &= cross[t] == 0 && own[t] > 0 && 5 * own[t] >= 4 * (own[t] + elsewhere[t]);
  }
  out.put("no task: ");
  out.dec(S::counters.value(prof::kNoTask, ins.index));
  out.put(" instructions; whole run ");
  out.dec(whole_ins);
  out.put(", sum of tasks ");
  out.dec(sum_ins);
  out.line("");
  checks.check(S::ring.dropped() == 0, "no sample dropped (each tag counts one interrupt)");
  out.put("switch path bound: ");
  out.dec(hook_cost + kSwitchPathBound);
  out.line(" instructions per switch (on_switch + the rest of the path)");
  checks.check(exact, "every task's instructions are what it executes alone, within the switch path per switch");
  checks.check(sum_ins == whole_ins && sum_cyc == whole_cyc,
               "the tasks' and no-task's counts add up to the whole run (instructions and cycles)");
  checks.check(!pmu_irq || owned, "each task's samples land in its own workload, none in another task's");
  checks.check(S::counters.mismatches() == 0 && S::counters.unknown_ids() == 0,
               "every switch's from was the task current");

  // The dump (docs/dump-format.md 1.5): TASKS, a TASK_COUNTS per task and for the no-task time,
  // the samples and their SAMPLE_TAGS, as text frames on the console.
  pmu::dump::TextFrameSink frames{[](void*, char c) { Board::putc(c); }, nullptr};
  pmu::dump::Writer writer{frames.sink()};
  const prof::DumpSamples source{pmu::dump::SampleSourceKind::pmu_overflow, static_cast<std::uint8_t>(p.slot_of(cyc)),
                                 kSamplePeriod};
  const prof::TaskDump task_dump = prof::task_dump(S::counters, &S::ring);
  prof::DumpExtras extras;
  extras.tasks = &task_dump;
  prof::RegionStats<B>* const* no_regions = nullptr;
  const auto ds = prof::write_dump(writer, {Board::kTarget, 0}, p, S::regions, no_regions, 0,
                                   pmu_irq ? &source : nullptr, &S::ring, extras);
  checks.check(ds == pmu::dump::Status::ok, "dump written (TASKS, TASK_COUNTS, SAMPLE_TAGS)");

  // A second run of the same tasks with stack capture in the sampling interrupt (its copy's cost
  // depends on the stack's depth, so the exact counts above are taken without it): every capture
  // stays within the stack its sp is on; the tasks' captures counted.
  sched::reset();
  for (unsigned t = 0; t < kTasks; ++t)
    sched::add<Port>(static_cast<std::uint16_t>(t), kEntries[t], kPasses[t], stacks[t], kStackWords);
  S::stacks.set_stack_top(Board::stack_top());
  S::capture = true;
  p.start();
  S::counters.begin();
  S::sampler.arm(cyc, kSamplePeriod);
  Board::timer_start(&on_tick<Port>);
  Board::irq_enable();
  while (!sched::all_done()) {
  }
  Board::irq_disable();
  Board::timer_stop();
  S::sampler.disarm();
  p.stop();
  S::capture = false;
  std::uint32_t in_task_stacks = 0, overreads = 0;
  for (std::size_t i = 0; i < S::stacks.size(); ++i) {
    const auto& e = S::stacks.peek(i);
    std::uintptr_t top = Board::stack_top();
    for (unsigned t = 0; t < kTasks; ++t) {
      const auto lo = reinterpret_cast<std::uintptr_t>(stacks[t]), hi = lo + sizeof stacks[t];
      if (e.ctx.sp >= lo && e.ctx.sp < hi) {
        top = hi;
        ++in_task_stacks;
      }
    }
    overreads += e.ctx.sp + e.bytes > top;
  }
  out.put("stack captures: ");
  out.dec(S::stacks.size());
  out.put(", ");
  out.dec(in_task_stacks);
  out.put(" on task stacks, ");
  out.dec(overreads);
  out.line(" reading above their stack's top");
  checks.check(!pmu_irq || (in_task_stacks > 0 && overreads == 0),
               "stack capture per task stack: none reads above its own stack");

  // A voluntary switch (Port::yield, task_switch.S's task_yield) resumed later by the timer: the
  // task goes on after its call, in its own state, its registers kept (the runs above yield only
  // from a finished task, which is never resumed).
  sched::reset();
  sched::set_hook(nullptr);
  yield_steps = 0;
  sched::add<Port>(0, &yield_task<Port>, 0x5A5A0001u, stacks[0], kStackWords);
  Board::timer_start(&on_tick<Port>);
  Board::irq_enable();
  for (std::uint32_t spins = 0; !sched::all_done() && spins < 100000000u; ++spins) {
  }
  Board::irq_disable();
  Board::timer_stop();
  checks.check(sched::all_done() && yield_steps == 3,
               "a task that yields is resumed after its call, its argument and state kept");
  return checks.failures;
}

}  // namespace examples::tasks
