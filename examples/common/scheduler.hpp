#pragma once
// A small preemptive round-robin scheduler for the examples (issue 35: per-task profiles need a
// real scheduler to prove them). Portable part; the context switch is per board:
//   examples/<board>/board/task_switch.S   task_trampoline (saves the whole context on the task's
//                                          own stack, calls sched_switch, restores the next one),
//                                          task_yield (the same, called as a function)
//   examples/<board>/board/task_port.hpp   task_frame (a new task's first context),
//                                          task_preempt (from the timer's interrupt: its return
//                                          goes into task_trampoline, interrupts still masked)
//
// Round robin over main() (the "no task" entry: it starts the scheduler and waits) and up to
// kMaxTasks tasks, each on its own stack; every timer tick moves to the next runnable entry. A task
// that returns is finished (its exit yields; it is never resumed). Single core. Each switch calls
// the hook (prof::TaskCounters::on_switch) with interrupts masked, between the two contexts.
#include <cstddef>
#include <cstdint>

namespace sched {

inline constexpr std::uint16_t kMain = 0xFFFF;  // main()'s id: the profiler's kNoTask
inline constexpr std::size_t kMaxTasks = 8;

using Entry = void (*)(std::uint32_t arg);
using SwitchHook = void (*)(std::uint16_t from, std::uint16_t to);

struct Tcb {
  std::uint32_t* sp = nullptr;  // the saved context (task_switch.S's frame) while not running
  std::uintptr_t top = 0;       // the first address above its stack (main's: set_main_stack_top)
  std::uint16_t id = kMain;
  volatile bool done = false;
};

struct State {
  Tcb tcb[kMaxTasks + 1];  // [0] is main
  std::size_t n = 1;
  volatile std::size_t current = 0;
  SwitchHook hook = nullptr;
  volatile std::uint32_t switches = 0;
};
inline State state;

// The next runnable entry after the current one (main always is).
inline std::size_t next_runnable() {
  std::size_t i = state.current;
  for (std::size_t k = 0; k < state.n; ++k) {
    i = i + 1 == state.n ? 0 : i + 1;
    if (!state.tcb[i].done) return i;
  }
  return 0;
}

// Whether a tick should switch: another entry is runnable.
inline bool want_switch() { return next_runnable() != state.current; }

inline void set_hook(SwitchHook h) { state.hook = h; }
inline void set_main_stack_top(std::uintptr_t top) { state.tcb[0].top = top; }
// The stack top of the entry with this id (a stack capture's bound: never read above it).
inline std::uintptr_t stack_top_of(std::uint16_t id) {
  for (std::size_t i = 0; i < state.n; ++i)
    if (state.tcb[i].id == id) return state.tcb[i].top;
  return 0;
}
inline std::uint32_t switches() { return state.switches; }
inline std::uint16_t current_id() { return state.tcb[state.current].id; }

// Forgets every task (from main, with the timer stopped), for another set.
inline void reset() {
  state.n = 1;
  state.current = 0;
}

// Every task has returned.
inline bool all_done() {
  for (std::size_t i = 1; i < state.n; ++i)
    if (!state.tcb[i].done) return false;
  return true;
}

// A finished task: never resumed. Its exit yields at once (the tick would do it at the next tick).
template <class Port>
[[noreturn]] void task_exit() {
  state.tcb[state.current].done = true;
  Port::yield();
  for (;;) {
  }
}

// Adds a task (before start()): `entry(arg)` on the stack [stack, stack + words), its context
// built by Port::task_frame. false: the table is full.
template <class Port>
bool add(std::uint16_t id, Entry entry, std::uint32_t arg, std::uint32_t* stack, std::size_t words) {
  if (state.n > kMaxTasks) return false;
  Tcb& t = state.tcb[state.n];
  t.id = id;
  t.top = reinterpret_cast<std::uintptr_t>(stack + words);
  t.done = false;
  t.sp = Port::task_frame(stack + words, entry, arg, &task_exit<Port>);
  state.n = state.n + 1;
  return true;
}

}  // namespace sched

// Called by task_switch.S with interrupts masked, on the switched-out task's stack (aligned):
// `frame` is its saved context; returns the context to restore.
extern "C" [[gnu::used]] inline std::uint32_t* sched_switch(std::uint32_t* frame) {
  using namespace sched;
  Tcb& from = state.tcb[state.current];
  from.sp = frame;
  const std::size_t next = next_runnable();
  Tcb& to = state.tcb[next];
  if (state.hook) state.hook(from.id, to.id);
  state.current = next;
  state.switches = state.switches + 1;
  return to.sp;
}
