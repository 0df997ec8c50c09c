#pragma once
// The round-robin scheduler's board part (examples/common/scheduler.hpp) on QEMU virt (ARMv7-A):
// tasks in SYS mode, contexts as board/task_switch.S lays them out (r0-r12, LR, PC, CPSR).
#include <cstdint>

extern "C" void task_yield();
extern "C" void task_preempt_irq();

namespace virt {

struct TaskPort {
  // A new task's first context at the top of its stack: r0 = arg, LR = exit, PC = entry, CPSR
  // SYS mode, IRQ enabled, FIQ masked (the board never unmasks it), ARM state (a Thumb entry's
  // address has bit 0 set: T).
  static std::uint32_t* task_frame(std::uint32_t* top, void (*entry)(std::uint32_t), std::uint32_t arg,
                                   void (*exit)()) {
    std::uint32_t* f = top - 16;
    for (int i = 0; i < 16; ++i) f[i] = 0;
    const auto pc = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(entry));
    f[0] = arg;                                                                  // r0
    f[13] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(exit));  // LR
    f[14] = pc & ~1u;                                                            // PC
    f[15] = 0x1Fu | 0x40u | ((pc & 1u) << 5);                                    // SYS | F | T
    return f;
  }
  // From the timer's IRQ callback: switch when the IRQ returns.
  static void preempt() { task_preempt_irq(); }
  static void yield() { task_yield(); }
};

}  // namespace virt
