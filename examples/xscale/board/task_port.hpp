#pragma once
// The round-robin scheduler's board part (examples/common/scheduler.hpp) on the XScale board: tasks
// in SYS mode, contexts as task_switch.S lays them out.
#include <cstdint>

extern "C" void task_yield();
extern "C" void task_preempt_irq();

namespace board {

struct TaskPort {
  // A new task's first context at the top of its stack: CPSR (SYS mode, IRQ enabled, FIQ masked as
  // the board keeps it outside its fast paths), r0 = arg, LR = exit, PC = entry.
  static std::uint32_t* task_frame(std::uint32_t* top, void (*entry)(std::uint32_t), std::uint32_t arg,
                                   void (*exit)()) {
    std::uint32_t* f = top - 16;
    for (int i = 0; i < 16; ++i) f[i] = 0;
    f[0] = 0x1Fu | 0x40u;  // MODE_SYS | PSR_F
    f[1] = arg;            // r0
    f[14] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(exit));   // LR
    f[15] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(entry));  // PC
    return f;
  }
  // From the timer's IRQ callback: switch when the IRQ returns.
  static void preempt() { task_preempt_irq(); }
  static void yield() { task_yield(); }
};

}  // namespace board
