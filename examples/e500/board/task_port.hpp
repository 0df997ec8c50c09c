#pragma once
// The round-robin scheduler's board part (examples/common/scheduler.hpp) on the e500 board:
// contexts as task_switch.S lays them out, preemption from the decrementer's callback.
#include <cstdint>

#include "board/board.hpp"

extern "C" void task_yield();
extern "C" void task_trampoline();
extern "C" std::uint32_t task_preempted[2];

namespace board {

struct TaskPort {
  // A new task's first context below a zero back chain at the top of its stack: r3 = arg,
  // LR = exit, PC = entry, MSR = the present one with EE set; r2 and r13 (the EABI's small-data
  // pointers) as main has them.
  static std::uint32_t* task_frame(std::uint32_t* top, void (*entry)(std::uint32_t), std::uint32_t arg,
                                   void (*exit)()) {
    std::uint32_t* chain = top - 4;  // 16 bytes: keeps r1 16-byte aligned
    chain[0] = 0;
    std::uint32_t* f = chain - 40;   // 160 bytes
    for (int i = 0; i < 40; ++i) f[i] = 0;
    std::uint32_t r2, r13;
    asm("mr %0, 2\n\tmr %1, 13" : "=r"(r2), "=r"(r13));
    f[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(chain));
    f[3] = r2;            // r2 at 12
    f[4] = arg;           // r3 at 16
    f[14] = r13;          // r13 at 56
    f[36] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(exit));   // LR at 144
    f[37] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(entry));  // PC at 148
    f[38] = e500::mfmsr() | e500::MSR_EE;                                         // MSR at 152
    return f;
  }
  // From the decrementer's callback: the interrupt's rfi goes into task_trampoline with EE clear.
  // The board's interrupt frame sits 80 bytes below the interrupted r1 (start.S, FRAME_SIZE), its
  // SRR0 and SRR1 at 68 and 72 (F_SRR0, F_SRR1).
  static void preempt() {
    std::uint32_t sp = 0, fp = 0;
    interrupted_stack(sp, fp);
    auto* frame = reinterpret_cast<std::uint32_t*>(static_cast<std::uintptr_t>(sp - 80));
    task_preempted[0] = frame[68 / 4];
    task_preempted[1] = frame[72 / 4];
    frame[68 / 4] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&task_trampoline));
    frame[72 / 4] = frame[72 / 4] & ~e500::MSR_EE;
  }
  static void yield() { task_yield(); }
};

}  // namespace board
