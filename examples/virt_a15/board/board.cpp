// QEMU "virt" board support for ARMv7-A: PL011, GICv2, generic timer, PMU interrupt, exit.
#include "board/board.hpp"

#include "hal/core/bus/semihosting.hpp"
#include "hal/core/fault_catch.hpp"  // the image's one pmu_fault_catch (startup.S's undef vector)

extern "C" {
extern char __sys_stack_top[], __sys_stack_size[];  // virt.ld: main()'s (SYS mode) stack
// The interrupted SYS-mode SP and r11, stored by the IRQ entry (startup.S) before the callback.
std::uint32_t virt_interrupted[2];
}

namespace virt {
namespace {

constexpr std::uintptr_t kUart = 0x09000000;   // PL011 UARTDR at offset 0
constexpr std::uintptr_t kGicd = 0x08000000;   // GICv2 distributor
constexpr std::uintptr_t kGicc = 0x08010000;   // GICv2 CPU interface
constexpr std::uint32_t kPmuIntid = 23;        // PPI 7
constexpr std::uint32_t kTimerIntid = 27;      // PPI 11: the virtual timer

inline void w32(std::uintptr_t a, std::uint32_t v) { *reinterpret_cast<volatile std::uint32_t*>(a) = v; }
inline std::uint32_t r32(std::uintptr_t a) { return *reinterpret_cast<volatile std::uint32_t*>(a); }

IrqCallback g_timer = nullptr;
IrqCallback g_pmu = nullptr;
std::uint32_t g_reload = 0;

void putc_fn(char c) { Board::putc(c); }
constexpr examples::Console kConsole{&putc_fn};

// Generic timer, CP15 c14 (ARM ARM ARMv7-A/R, B4.1 CNTFRQ, CNTV_TVAL, CNTV_CTL).
std::uint32_t cntfrq() {
  std::uint32_t v;
  asm volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(v));
  return v;
}
void cntv_tval(std::uint32_t v) { asm volatile("mcr p15, 0, %0, c14, c3, 0" : : "r"(v) : "memory"); }
void cntv_ctl(std::uint32_t v) {
  asm volatile("mcr p15, 0, %0, c14, c3, 1" : : "r"(v) : "memory");
  asm volatile("isb" ::: "memory");
}

void gic_enable(std::uint32_t intid) {
  static bool up = false;
  if (!up) {
    w32(kGicd + 0x000, 1);     // GICD_CTLR: forward
    w32(kGicc + 0x004, 0xFF);  // GICC_PMR: every priority
    w32(kGicc + 0x000, 1);     // GICC_CTLR: signal
    up = true;
  }
  auto* prio = reinterpret_cast<volatile std::uint8_t*>(kGicd + 0x400 + intid);
  *prio = 0xA0;
  w32(kGicd + 0x100 + 4 * (intid / 32), 1u << (intid % 32));  // GICD_ISENABLERn
}
void gic_disable(std::uint32_t intid) { w32(kGicd + 0x180 + 4 * (intid / 32), 1u << (intid % 32)); }

}  // namespace

void Board::putc(char c) {
  if (c == '\n') w32(kUart, '\r');
  w32(kUart, static_cast<unsigned char>(c));
}
std::size_t Board::try_write(const std::uint8_t* data, std::size_t n) {
  // UARTFR.TXFF (bit 5): the transmit FIFO is full (PrimeCell UART (PL011) TRM, 3.3.3 UARTFR).
  std::size_t i = 0;
  while (i < n && (r32(kUart + 0x18) & (1u << 5)) == 0) w32(kUart, data[i++]);
  return i;
}
void Board::puts(const char* s) {
  while (*s) putc(*s++);
}
const examples::Console& Board::console() { return kConsole; }
std::uint32_t Board::timer_frequency() { return cntfrq(); }
std::uint64_t Board::timer_count() {
  std::uint32_t lo, hi;
  asm volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi) : : "memory");  // CNTVCT
  return (std::uint64_t{hi} << 32) | lo;
}
std::uint32_t Board::timer_period_ticks(std::uint32_t hz) {
  const std::uint32_t ticks = hz == 0 ? 0 : cntfrq() / hz;
  return ticks < kMinTimerTicks ? 0 : ticks;
}
bool Board::timer_start(IrqCallback f, std::uint32_t hz) {
  g_reload = timer_period_ticks(hz);
  if (g_reload == 0 || f == nullptr) return false;
  g_timer = f;
  cntv_tval(g_reload);
  cntv_ctl(1);  // ENABLE, not masked
  gic_enable(kTimerIntid);
  return true;
}
void Board::timer_stop() {
  cntv_ctl(0);
  gic_disable(kTimerIntid);
  g_timer = nullptr;
}
bool Board::pmu_interrupt(IrqCallback f) {
  g_pmu = f;
  if (f)
    gic_enable(kPmuIntid);
  else
    gic_disable(kPmuIntid);
  return true;
}
void Board::irq_enable() { asm volatile("cpsie i" ::: "memory"); }
void Board::irq_disable() { asm volatile("cpsid i" ::: "memory"); }
void Board::interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) {
  sp = virt_interrupted[0];
  fp = virt_interrupted[1];
}
std::uintptr_t Board::stack_top() { return reinterpret_cast<std::uintptr_t>(__sys_stack_top); }
std::uintptr_t Board::stack_bottom() { return stack_top() - reinterpret_cast<std::uintptr_t>(__sys_stack_size); }
void Board::exit(int status) {
  // SYS_EXIT_EXTENDED (0x20), ADP_Stopped_ApplicationExit and the status: QEMU exits with it
  // (ARM semihosting v2).
  irq_disable();
  const std::uint32_t block[2] = {0x20026u, static_cast<std::uint32_t>(status)};
  pmu::semihosting::call(0x20, block);
  for (;;) asm volatile("wfi");
}

}  // namespace virt

extern "C" {
// The interrupted context's pc and lr (startup.S). One interrupt at a time (CPSR.I set in IRQ mode).
void virt_irq(std::uint32_t pc, std::uint32_t lr) {
  using namespace virt;
  const std::uint32_t iar = r32(kGicc + 0x00C);  // GICC_IAR: acknowledge
  const std::uint32_t id = iar & 0x3FF;
  if (id == kTimerIntid) {
    cntv_tval(g_reload);
    if (g_timer) g_timer(pc, lr);
  } else if (id == kPmuIntid) {
    if (g_pmu) g_pmu(pc, lr);
  }
  if (id < 1020) w32(kGicc + 0x010, iar);  // GICC_EOIR
}
void virt_exit(int status) { virt::Board::exit(status); }
[[noreturn]] static void fatal(const char* what, std::uint32_t at) {
  virt::Board::puts("FATAL ");
  virt::Board::puts(what);
  virt::Board::console().put(" at 0x");
  virt::Board::console().hex(at);
  virt::Board::puts("\n");
  virt::Board::exit(3);
}
void virt_fatal_undef(std::uint32_t pc) { fatal("undefined instruction", pc); }
void virt_fatal_svc() { fatal("unexpected SVC", 0); }
void virt_fatal_pabt() { fatal("prefetch abort", 0); }
void virt_fatal_dabt() { fatal("data abort", 0); }
}
