// Board support for the PXA270 mainstone: FFUART, OS timer tick, exit, fatal exception reports.
//
// Sources for the hardware facts (the PXA27x manual's text was not at hand; the PXA25x/26x manuals
// describe the same OS timer and interrupt controller blocks at the same addresses, and QEMU's PXA270
// model, read for facts only, agrees with every address and bit used here):
// - UART: Intel PXA27x Processor Family Developer's Manual (280000-001) ch. 10, 16550-compatible
//   registers 4 bytes apart at 0x40100000; IER.UUE turns the unit on; LSR.TDRQ/TEMT for polling.
// - OS timer: PXA255 Developer's Manual 4.4.2 (PXA26x manual Table 4-49, "OS Timer Register Locations"):
//   OSMR0 0x40A00000, OSCR 0x40A00010, OSSR 0x40A00014 (write 1 to clear, 4.4.2.5), OIER 0x40A0001C.
//   Channels 0-3 count at 3.25 MHz on the PXA27x (3.6864 MHz on the PXA25x).
// - Interrupt controller: PXA255 Developer's Manual 4.2.2: ICIP 0x40D00000 (Table 4-33), ICMR
//   0x40D00004 (4.2.2.1, reset 0 = all masked), ICLR 0x40D00008 (4.2.2.2, 0 = IRQ). First-level source
//   bit 26 is "OS timer equals match register 0" (the same bit since the SA-1100, manual 9.2.1.1).
//   The PXA27x adds ICMR2/ICLR2 at +0xA0/+0xA4 for sources 32-39. Source 12 is the PXA27x core PMU
//   (the PXA27x manual's source table was not at hand: Linux arch/arm/mach-pxa irqs.h IRQ_PMU and
//   Microsoft Zelig's PXA27x InterruptController IRQ_INDEX_PMU both give 12).
#include "board/board.hpp"

#include <cstdint>

#include "board/arm_modes.h"
// The one definition of pmu_fault_catch() in every image that links this board (see fault.hpp).
#include "hal/core/fault_catch.hpp"

extern "C" void board_fiq_entry();  // vectors.S: the fatal report
extern "C" void board_pmu_fast_fiq();  // pmu_fast.S: the PMU's fast vector
extern "C" std::uint32_t board_pmu_fast_state[3];  // pmu_fast.S: its ring, period and fold count
extern "C" char __sys_stack_top[];   // mainstone.ld: main()'s (SYS mode) stack ends here

namespace board {
namespace {

inline std::uint32_t rd(std::uintptr_t addr) { return *reinterpret_cast<volatile std::uint32_t*>(addr); }
inline void wr(std::uintptr_t addr, std::uint32_t v) { *reinterpret_cast<volatile std::uint32_t*>(addr) = v; }

// ---- FFUART (PXA27x manual ch. 10): 16550-style registers on 4-byte strides --------------------------
constexpr std::uintptr_t FFUART = 0x40100000;
constexpr std::uintptr_t FFTHR = FFUART + 0x00;  // transmit holding (write); DLL when LCR.DLAB=1
constexpr std::uintptr_t FFIER = FFUART + 0x04;  // interrupt enable; DLH when LCR.DLAB=1
constexpr std::uintptr_t FFFCR = FFUART + 0x08;  // FIFO control (write)
constexpr std::uintptr_t FFLCR = FFUART + 0x0C;  // line control
constexpr std::uintptr_t FFLSR = FFUART + 0x14;  // line status
constexpr std::uint32_t IER_UUE = 1u << 6;       // UART unit enable: the PXA port is off without it
constexpr std::uint32_t FCR_TRFIFOE = 1u << 0, FCR_RESETRF = 1u << 1, FCR_RESETTF = 1u << 2;
constexpr std::uint32_t LCR_WLS_8BIT = 0x3, LCR_DLAB = 1u << 7;
constexpr std::uint32_t LSR_TDRQ = 1u << 5;      // transmit FIFO wants data (16550 THRE)
constexpr std::uint32_t LSR_TEMT = 1u << 6;      // transmitter empty: everything is on the wire
constexpr std::uint32_t kUartClockHz = 14'745'600, kBaud = 115'200;
// On silicon the boot loader has also routed the FFUART pins (GPIO alternate functions) and its clock
// (CKEN); QEMU needs neither.

// ---- OS timer (PXA255 manual 4.4; same block on PXA27x, channels 0-3 at 3.25 MHz) -----------------
constexpr std::uintptr_t OSMR0 = 0x40A00000;  // match register 0
constexpr std::uintptr_t OSCR0 = 0x40A00010;  // counter (OSCR on PXA25x)
constexpr std::uintptr_t OSSR = 0x40A00014;   // match status, write 1 to clear (4.4.2.5)
constexpr std::uintptr_t OIER = 0x40A0001C;   // interrupt enable
constexpr std::uint32_t OSSR_M0 = 1u << 0, OIER_E0 = 1u << 0;

// ---- Interrupt controller (PXA255 manual 4.2; PXA27x adds the *2 registers for sources 32-39) ------
constexpr std::uintptr_t ICIP = 0x40D00000;   // pending IRQs: pending, unmasked, routed to IRQ
constexpr std::uintptr_t ICMR = 0x40D00004;   // mask: 1 = source may interrupt (4.2.2.1)
constexpr std::uintptr_t ICLR = 0x40D00008;   // level: 0 = IRQ, 1 = FIQ (4.2.2.2)
constexpr std::uintptr_t ICMR2 = 0x40D000A0;
constexpr std::uintptr_t ICLR2 = 0x40D000A4;
constexpr std::uint32_t kIrqOst0 = 1u << 26;  // primary source 26: OS timer matched OSMR0
constexpr std::uint32_t kIrqPmu = 1u << 12;   // primary source 12: the core PMU (PXA27x)

// Timer state shared with the IRQ handler.
TickFn volatile g_on_tick = nullptr;
volatile std::uint32_t g_period = 0;
volatile std::uint32_t g_ticks = 0;
TickFn volatile g_on_pmu = nullptr;
// The interrupted context's stack pointer and r11 of the IRQ being handled (interrupted_stack()).
std::uint32_t g_irq_sp = 0;
std::uint32_t g_irq_fp = 0;

void uart_init() {
  constexpr std::uint32_t divisor = kUartClockHz / (16 * kBaud);  // 8
  wr(FFLCR, LCR_DLAB | LCR_WLS_8BIT);
  wr(FFTHR, divisor & 0xFF);  // DLL
  wr(FFIER, divisor >> 8);    // DLH
  wr(FFLCR, LCR_WLS_8BIT);    // 8N1, divisor latch closed
  wr(FFFCR, FCR_TRFIFOE | FCR_RESETRF | FCR_RESETTF);
  wr(FFIER, IER_UUE);         // unit on, no UART interrupts
}

// OS timer match 0 period_ticks from now, its interrupt enabled and routed to FIQ or IRQ (ICLR,
// PXA255 manual 4.2.2.2: 1 = FIQ), then unmasked. With the source masked (timer_stop()).
void ost0_run(std::uint32_t period_ticks, bool fiq) {
  wr(OSMR0, rd(OSCR0) + period_ticks);
  wr(OSSR, OSSR_M0);  // drop a match left from an earlier run
  wr(OIER, rd(OIER) | OIER_E0);
  wr(ICLR, fiq ? rd(ICLR) | kIrqOst0 : rd(ICLR) & ~kIrqOst0);
  wr(ICMR, rd(ICMR) | kIrqOst0);
}

void hex_line(const char* what, std::uint32_t addr) {
  write(what);
  write(" at 0x");
  console.hex(addr);
  putc('\n');
}

}  // namespace

void init() {
  // All sources masked and routed to IRQ; the OS timer quiet (4.4: status must be clear before the
  // CPU takes interrupts). The watchdog channel (OSMR3/OWER) is left as the reset state has it.
  wr(ICMR, 0);
  wr(ICMR2, 0);
  wr(ICLR, 0);
  wr(ICLR2, 0);
  wr(OIER, 0);
  wr(OSSR, 0xF);
  uart_init();
}

std::size_t try_write(const std::uint8_t* data, std::size_t n) {
  if ((rd(FFLSR) & LSR_TDRQ) == 0) return 0;
  if (n > kTxBurst) n = kTxBurst;
  for (std::size_t i = 0; i < n; ++i) wr(FFTHR, data[i]);
  return n;
}

bool try_putc(char c) {
  const auto b = static_cast<std::uint8_t>(c);
  return try_write(&b, 1) == 1;
}

void putc(char c) {
  while ((rd(FFLSR) & LSR_TDRQ) == 0) {
  }
  wr(FFTHR, static_cast<unsigned char>(c));
}

void write(const char* s) {
  while (*s) putc(*s++);
}

[[noreturn]] void exit(int code) {
  irq_disable();
  while ((rd(FFLSR) & LSR_TEMT) == 0) {
  }
  // SYS_EXIT_EXTENDED (0x20) takes a pointer to {reason, status}; reason ADP_Stopped_ApplicationExit.
  volatile std::uint32_t block[2] = {0x20026, static_cast<std::uint32_t>(code)};
  register std::uint32_t r0 asm("r0") = 0x20;
  register volatile std::uint32_t* r1 asm("r1") = block;
  asm volatile("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
  for (;;) {
  }
}

std::uint32_t timebase() { return rd(OSCR0); }

bool timer_start(std::uint32_t period_ticks, TickFn on_tick) {
  if (period_ticks < kMinPeriodTicks || on_tick == nullptr) return false;
  CriticalSection cs;
  timer_stop();
  g_on_tick = on_tick;
  g_period = period_ticks;
  g_ticks = 0;
  ost0_run(period_ticks, false);
  return true;
}

void timer_stop() {
  CriticalSection cs;
  wr(ICMR, rd(ICMR) & ~kIrqOst0);
  wr(OIER, rd(OIER) & ~OIER_E0);
  wr(OSSR, OSSR_M0);  // clearing OIER does not clear a status bit already set (4.4.2.2)
  wr(ICLR, rd(ICLR) & ~kIrqOst0);  // back to IRQ, in case fiq_timer_start() routed it to FIQ
  g_on_tick = nullptr;
}

std::uint32_t timer_ticks() { return g_ticks; }

std::uintptr_t stack_top() { return reinterpret_cast<std::uintptr_t>(__sys_stack_top); }

void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) {
  sp = g_irq_sp;
  fp = g_irq_fp;
}

void fiq_set_handler(FiqHandler h) {
  const std::uintptr_t target =
      h ? reinterpret_cast<std::uintptr_t>(h) : reinterpret_cast<std::uintptr_t>(&board_fiq_entry);
  // r8 is banked: write FIQ mode's copy from FIQ mode, with IRQ and FIQ masked, and come back.
  std::uint32_t saved, tmp;
  asm volatile(
      "mrs %0, cpsr\n\t"
      "orr %1, %0, #0xC0\n\t"
      "bic %1, %1, #0x1F\n\t"
      "orr %1, %1, #0x11\n\t"  // MODE_FIQ
      "msr cpsr_c, %1\n\t"
      "mov r8, %2\n\t"
      "msr cpsr_c, %0"
      : "=&r"(saved), "=&r"(tmp)
      : "r"(target)
      : "memory");
}

bool fiq_timer_start(std::uint32_t period_ticks) {
  if (period_ticks < kMinPeriodTicks) return false;
  CriticalSection cs;
  fiq_disable();
  timer_stop();
  ost0_run(period_ticks, true);
  return true;
}

void fiq_timer_stop() {
  fiq_disable();
  timer_stop();
}

bool pmu_irq_start(TickFn on_pmu) {
  if (on_pmu == nullptr) return false;
  CriticalSection cs;
  g_on_pmu = on_pmu;
  wr(ICLR, rd(ICLR) & ~kIrqPmu);
  wr(ICMR, rd(ICMR) | kIrqPmu);
  return true;
}

bool pmu_fiq_start(FiqHandler h) {
  CriticalSection cs;
  fiq_disable();
  fiq_set_handler(h);
  wr(ICLR, rd(ICLR) | kIrqPmu);  // 1 = FIQ (4.2.2.2)
  wr(ICMR, rd(ICMR) | kIrqPmu);
  return true;
}

void pmu_fiq_stop() {
  CriticalSection cs;
  fiq_disable();
  wr(ICMR, rd(ICMR) & ~kIrqPmu);
  wr(ICLR, rd(ICLR) & ~kIrqPmu);
}

bool pmu_fast_start(void* ring, std::uint32_t period, volatile std::uint32_t* folds) {
  if (ring == nullptr || period == 0 || folds == nullptr) return false;
  fiq_disable();
  board_pmu_fast_state[0] = reinterpret_cast<std::uintptr_t>(ring);
  board_pmu_fast_state[1] = period;
  board_pmu_fast_state[2] = reinterpret_cast<std::uintptr_t>(folds);
  return pmu_fiq_start(&board_pmu_fast_fiq);
}

void pmu_irq_stop() {
  CriticalSection cs;
  wr(ICMR, rd(ICMR) & ~kIrqPmu);
  g_on_pmu = nullptr;
}

}  // namespace board

// ---- Called from vectors.S ---------------------------------------------------------------------------

extern "C" void board_irq_dispatch(std::uint32_t pc, std::uint32_t lr, std::uint32_t sp, std::uint32_t fp) {
  using namespace board;
  g_irq_sp = sp;
  g_irq_fp = fp;
  if ((rd(OSSR) & OSSR_M0) == 0) {  // not the timer: the PMU is the only other source ever unmasked
    if ((rd(ICIP) & kIrqPmu) != 0)
      if (const TickFn f = g_on_pmu) f(pc, lr);
    return;
  }
  // Next match one period after the last one, so ticks do not drift with interrupt latency. A match
  // fires on equality only: if the counter is already past (or about to pass) the new value, re-base
  // from now rather than wait a full wrap.
  const std::uint32_t period = g_period;
  std::uint32_t next = rd(OSMR0) + period;
  const std::uint32_t now = rd(OSCR0);
  if (static_cast<std::int32_t>(next - now) < static_cast<std::int32_t>(kMinPeriodTicks / 2)) next = now + period;
  wr(OSMR0, next);
  wr(OSSR, OSSR_M0);  // write-1-to-clear; lowers the interrupt request
  g_ticks = g_ticks + 1;
  if (const TickFn f = g_on_tick) f(pc, lr);
}

extern "C" [[noreturn]] void board_undef_fatal(std::uint32_t lr_und, std::uint32_t spsr) {
  constexpr std::uint32_t kPsrThumb = 1u << 5;
  board::hex_line("undefined instruction", lr_und - ((spsr & kPsrThumb) ? 2 : 4));
  board::exit(board::kExitUndefinedInstruction);
}

extern "C" [[noreturn]] void board_fatal_exception(std::uint32_t kind, std::uint32_t addr) {
  using namespace board;
  switch (kind) {
    case FATAL_SWI:
      // svc 0x123456 reaching the vector means QEMU runs without -semihosting: exit() cannot work.
      if ((*reinterpret_cast<const volatile std::uint32_t*>(addr) & 0x0FFFFFFF) == 0x0F123456) {
        write("semihosting call trapped: run QEMU with -semihosting; halting\n");
        for (;;) {
        }
      }
      hex_line("unexpected SWI", addr);
      exit(kExitUnexpectedSwi);
    case FATAL_PREFETCH_ABORT:
      hex_line("prefetch abort", addr);
      exit(kExitPrefetchAbort);
    case FATAL_DATA_ABORT: {
      std::uint32_t far, fsr;
      asm volatile("mrc p15, 0, %0, c6, c0, 0" : "=r"(far));  // fault address
      asm volatile("mrc p15, 0, %0, c5, c0, 0" : "=r"(fsr));  // fault status
      write("data abort at 0x");
      console.hex(addr);
      write(" address 0x");
      console.hex(far);
      write(" FSR 0x");
      console.hex(fsr, 3);
      putc('\n');
      exit(kExitDataAbort);
    }
    case FATAL_FIQ:
      hex_line("unexpected FIQ", addr);
      exit(kExitUnexpectedFiq);
    default:
      hex_line("reserved exception vector", addr);
      exit(kExitReservedVector);
  }
}

extern "C" [[noreturn]] void board_exit_from_main(int code) { board::exit(code); }

// ---- Minimal C++ runtime hooks for -nostartfiles images ----------------------------------------------
// Destructors of static objects are registered through __aeabi_atexit; firmware never returns to an
// OS, so they are dropped (no heap, no atexit table).
extern "C" {
void* __dso_handle = nullptr;
int __aeabi_atexit(void*, void (*)(void*), void*) { return 0; }
[[noreturn]] void __cxa_pure_virtual() {
  board::write("pure virtual call\n");
  board::exit(board::kExitFail);
}
}
