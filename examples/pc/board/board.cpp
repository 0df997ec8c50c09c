// Board layer for i386 firmware on QEMU's PC: COM1, the isa-debug-exit device, the 8259 pair and
// the 8254 PIT, the local APIC's EOI, the IDT and the exception dispatcher start.S calls.
#include "board/board.hpp"

#include <cstddef>
#include <cstdint>

#include "hal/core/bus/msr.hpp"
// The one definition of pmu_fault_catch() for every PC firmware image (hal/core/fault.hpp).
#include "hal/core/fault_catch.hpp"

extern "C" const std::uint32_t pc_vector_table[];
extern "C" char __stack_bottom[], __stack_top[];

namespace {
void set_gate(unsigned vector, std::uint32_t handler);  // the IDT, below
}

namespace board {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;

void outb(std::uint16_t port, u8 v) { asm volatile("outb %0, %1" : : "a"(v), "Nd"(port) : "memory"); }
u8 inb(std::uint16_t port) {
  u8 v;
  asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port) : "memory");
  return v;
}

// COM1, a 16550: transmit holding register, FIFO control, line control, line status.
constexpr std::uint16_t kCom1 = 0x3f8;
constexpr std::uint16_t THR = kCom1 + 0, IER = kCom1 + 1, FCR = kCom1 + 2, LCR = kCom1 + 3, LSR = kCom1 + 5;
constexpr u8 LCR_8N1 = 0x03, FCR_FIFO_RESET = 0x07, LSR_THRE = 0x20, LSR_TEMT = 0x40;

// The two 8259As (master at 0x20, slave at 0xa0; Intel 8259A data sheet, ICW1-ICW4 and OCW2/3).
// The BIOS leaves IRQ 0-7 on vectors 8-15, which are CPU exceptions in protected mode: remap.
constexpr std::uint16_t kPic1 = 0x20, kPic2 = 0xa0;
constexpr u8 kIrqBase = 32;
constexpr u8 ICW1_INIT_ICW4 = 0x11, ICW4_8086 = 0x01, OCW2_EOI = 0x20, OCW3_READ_ISR = 0x0b;
u8 g_pic1_mask = 0xff;

// The 8254 PIT: channel 0 data port and the mode/command register (8254 data sheet).
constexpr std::uint16_t kPit0 = 0x40, kPitCmd = 0x43;
constexpr u8 PIT_CH0_LOHI_MODE2 = 0x34, PIT_CH0_LOHI_MODE0 = 0x30;

// Local APIC registers (Intel SDM Vol. 3A, Table 10-1): EOI and the spurious-interrupt vector
// register (bit 8: APIC software enable). IA32_APIC_BASE (MSR 0x1b) bits 35:12 hold the base.
constexpr u32 kApicEoi = 0xb0, kApicSvr = 0xf0, SVR_ENABLE = 0x100;
constexpr u8 kSpuriousVector = 255;
volatile u32& apic(u32 reg) { return *reinterpret_cast<volatile u32*>(apic_base() + reg); }

IrqHandler g_on_tick = nullptr;
IrqHandler g_on_perf = nullptr;

// PIT channel 0 in mode 2 (rate generator) every period_ticks, IRQ 0 unmasked on the master 8259,
// on whatever IDT vector 32 holds. With it stopped (timer_stop()).
void pit_run(std::uint16_t period_ticks) {
  outb(kPitCmd, PIT_CH0_LOHI_MODE2);
  outb(kPit0, static_cast<u8>(period_ticks));
  outb(kPit0, static_cast<u8>(period_ticks >> 8));
  outb(kPic1 + 1, g_pic1_mask &= static_cast<u8>(~1u));
}

const char* exception_name(u32 v) {
  switch (v) {
    case 0: return "divide error";
    case 1: return "debug";
    case 2: return "NMI";
    case 3: return "breakpoint";
    case 4: return "overflow";
    case 5: return "BOUND range exceeded";
    case 6: return "invalid opcode";
    case 7: return "device not available";
    case 8: return "double fault";
    case 10: return "invalid TSS";
    case 11: return "segment not present";
    case 12: return "stack fault";
    case 13: return "general protection";
    case 14: return "page fault";
    case 16: return "x87 FPU error";
    case 17: return "alignment check";
    case 18: return "machine check";
    case 19: return "SIMD floating-point";
    default: return v < 32 ? "exception" : "interrupt";
  }
}

}  // namespace

// What pc_trap_common (start.S) saves: PUSHAD's registers, the stub's vector and error code, and
// the CPU's EIP, CS and EFLAGS (a ring-0 to ring-0 interrupt pushes no stack pointer).
struct Frame {
  u32 edi, esi, ebp, esp, ebx, edx, ecx, eax;
  u32 vector, error;
  u32 eip, cs, eflags;
};
static_assert(sizeof(Frame) == 13 * 4 && offsetof(Frame, vector) == 32 && offsetof(Frame, eip) == 40,
              "Frame must match pc_trap_common in start.S");

void init() {
  outb(IER, 0);
  outb(LCR, LCR_8N1);  // the divisor is left as the BIOS (or QEMU) set it
  outb(FCR, FCR_FIFO_RESET);
  outb(kPic1, ICW1_INIT_ICW4);
  outb(kPic2, ICW1_INIT_ICW4);
  outb(kPic1 + 1, kIrqBase);      // ICW2: master IRQ 0-7 -> vectors 32-39
  outb(kPic2 + 1, kIrqBase + 8);  //       slave IRQ 8-15 -> vectors 40-47
  outb(kPic1 + 1, 0x04);          // ICW3: the slave on master IRQ 2
  outb(kPic2 + 1, 0x02);          //       the slave's cascade identity
  outb(kPic1 + 1, ICW4_8086);
  outb(kPic2 + 1, ICW4_8086);
  outb(kPic1 + 1, g_pic1_mask = 0xff);
  outb(kPic2 + 1, 0xff);
  timer_stop();
}

std::size_t try_write(const std::uint8_t* data, std::size_t n) {
  if ((inb(LSR) & LSR_THRE) == 0) return 0;
  if (n > kTxBurst) n = kTxBurst;
  for (std::size_t i = 0; i < n; ++i) outb(THR, data[i]);
  return n;
}

bool try_putc(char c) {
  const auto b = static_cast<std::uint8_t>(c);
  return try_write(&b, 1) == 1;
}

void putc(char c) {
  while ((inb(LSR) & LSR_THRE) == 0) {
  }
  outb(THR, static_cast<u8>(c));
}

extern "C" [[noreturn]] void pc_debug_exit(int code);

void exit(int code) {
  irq_disable();
  console.put("EXIT ");
  console.sdec(code);
  console.put('\n');
  while ((inb(LSR) & LSR_TEMT) == 0) {
  }
  pc_debug_exit(code);
}

std::uint64_t tsc() { return pmu::MsrBus::rdtsc(); }

void timer_start(std::uint16_t period_ticks, IrqHandler on_tick) {
  CriticalSection cs;
  timer_stop();
  g_on_tick = on_tick;
  pit_run(period_ticks);
}

void timer_stop() {
  CriticalSection cs;
  outb(kPic1 + 1, g_pic1_mask |= 1u);
  outb(kPitCmd, PIT_CH0_LOHI_MODE0);  // mode 0 with no count written: the counter waits
  g_on_tick = nullptr;
  set_gate(kIrqBase, pc_vector_table[kIrqBase]);  // the dispatcher again
}

void timer_vector_start(std::uint16_t period_ticks, void (*handler)()) {
  CriticalSection cs;
  timer_stop();
  set_gate(kIrqBase, reinterpret_cast<u32>(handler));
  pit_run(period_ticks);
}

namespace {
struct CpuidRegs {
  u32 a, b, c, d;
};
CpuidRegs cpuid(u32 leaf) {
  CpuidRegs r{leaf, 0, 0, 0};
  asm volatile("cpuid" : "+a"(r.a), "=b"(r.b), "+c"(r.c), "=d"(r.d));
  return r;
}
}  // namespace

bool has_apic() { return (cpuid(1).d >> 9) & 1u; }  // CPUID.01H:EDX.APIC

bool under_pmusim() {
  if (!(cpuid(1).c >> 31)) return false;  // CPUID.01H:ECX bit 31: running under a hypervisor
  const CpuidRegs r = cpuid(0x40000000u);
  return r.b == 0x6b756d70u && r.c == 0x6d707469u && r.d == 0x6d697375u;  // "pmuk" "itpm" "usim"
}

std::uintptr_t apic_base() {
  using IA32_APIC_BASE = pmu::Msr<0x1b>;
  return pmu::MsrBus::read<IA32_APIC_BASE, std::uint64_t>() & 0xfffff000u;  // below 4 GiB: no paging here
}

bool set_perf_handler(IrqHandler on_perf) {
  if (!has_apic()) return false;
  CriticalSection cs;
  g_on_perf = on_perf;
  apic(kApicSvr) = SVR_ENABLE | kSpuriousVector;
  return true;
}

bool pmi_vector_start(void (*handler)()) {
  if (!has_apic()) return false;
  CriticalSection cs;
  apic(kApicSvr) = SVR_ENABLE | kSpuriousVector;
  pc_pmu_lvt = static_cast<u32>(apic_base()) + 0x340;  // the LVT performance-counter entry (SDM Vol. 3A Table 10-1)
  set_gate(kPmiVector, reinterpret_cast<u32>(handler));
  return true;
}

void pmi_vector_stop() {
  CriticalSection cs;
  set_gate(kPmiVector, pc_vector_table[48]);  // the dispatcher again
}

void irq_enable() { asm volatile("sti" : : : "memory"); }
void irq_disable() { asm volatile("cli" : : : "memory"); }
bool irq_enabled() {
  u32 f;
  asm volatile("pushf\n\tpop %0" : "=r"(f));
  return (f >> 9) & 1u;
}

namespace {

// The interrupted function's return address through its frame pointer, when EBP points into
// this image's stack (it does not while a prologue or leaf without a frame runs).
u32 caller_of(const Frame& f) {
  const auto lo = reinterpret_cast<u32>(__stack_bottom), hi = reinterpret_cast<u32>(__stack_top);
  if (f.ebp < lo || f.ebp + 8 > hi || (f.ebp & 3u)) return 0;
  return reinterpret_cast<const u32*>(f.ebp)[1];
}

[[noreturn]] void unexpected(const Frame& f, const char* why) {
  console.put(exception_name(f.vector));
  console.put(" at 0x");
  console.hex(f.eip);
  console.put(" vector=");
  console.dec(f.vector);
  console.put(" error=0x");
  console.hex(f.error);
  if (why) {
    console.put(": ");
    console.put(why);
  }
  console.put('\n');
  exit(kExitFault);
}

// rdmsr (0f 32), wrmsr (0f 30) and rdpmc (0f 33): the accesses a PMU probe may fault on. They
// fault before doing anything (#GP for a missing MSR, #UD where the emulator has no rdpmc), so
// resuming 2 bytes on is exact.
bool is_pmu_access(u32 eip) {
  const auto* p = reinterpret_cast<const volatile u8*>(eip);
  return p[0] == 0x0f && (p[1] == 0x30 || p[1] == 0x32 || p[1] == 0x33);
}

// An IRQ 7 or 15 whose in-service bit is clear is the 8259's spurious interrupt: no EOI for it
// (a spurious IRQ 15 still needs the master's EOI for the cascade).
bool spurious_irq(u32 vector) {
  const std::uint16_t pic = vector == kIrqBase + 7 ? kPic1 : kPic2;
  outb(pic, OCW3_READ_ISR);
  if (inb(pic) & 0x80) return false;
  if (pic == kPic2) outb(kPic1, OCW2_EOI);
  return true;
}

}  // namespace
}  // namespace board

// The IDT: 32-bit interrupt gates (IF cleared on entry) in the flat code segment, ring 0
// (Intel SDM Vol. 3A 6.11, "IDT Descriptors").
namespace {
struct IdtGate {
  std::uint16_t offset_lo, selector;
  std::uint8_t zero, type;
  std::uint16_t offset_hi;
};
static_assert(sizeof(IdtGate) == 8, "an IDT gate is 8 bytes");
constexpr std::uint8_t kInterruptGate32 = 0x8e;  // present, DPL 0, 32-bit interrupt gate
alignas(8) IdtGate g_idt[256];

void set_gate(unsigned vector, std::uint32_t handler) {
  g_idt[vector] = {static_cast<std::uint16_t>(handler), 0x08, 0, kInterruptGate32,
                   static_cast<std::uint16_t>(handler >> 16)};
}
}  // namespace

extern "C" void pc_idt_init() {
  for (unsigned v = 0; v < 48; ++v) set_gate(v, pc_vector_table[v]);
  set_gate(board::kPmiVector, pc_vector_table[48]);
  set_gate(255, pc_vector_table[49]);
  struct __attribute__((packed)) {
    std::uint16_t limit;
    std::uint32_t base;
  } idtr{sizeof g_idt - 1, reinterpret_cast<std::uint32_t>(g_idt)};
  asm volatile("lidt %0" : : "m"(idtr));
}

namespace board {
// The interrupted ESP and EBP of the interrupt being handled (interrupted_stack()).
u32 g_irq_sp = 0, g_irq_fp = 0;
extern "C" char __stack_top[];  // pc.ld: the one stack's top

void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) {
  sp = g_irq_sp;
  fp = g_irq_fp;
}
std::uintptr_t stack_top() { return reinterpret_cast<std::uintptr_t>(__stack_top); }
std::uintptr_t stack_bottom() { return reinterpret_cast<std::uintptr_t>(__stack_bottom); }
}  // namespace board

// Called by pc_trap_common in start.S with interrupts off.
extern "C" void pc_trap_c(board::Frame* f) {
  using namespace board;
  const u32 v = f->vector;
  // Same privilege level: the CPU pushed EFLAGS, CS and EIP below the interrupted ESP, no SS:ESP.
  g_irq_sp = static_cast<u32>(reinterpret_cast<std::uintptr_t>(&f->eflags)) + 4;
  g_irq_fp = f->ebp;
  if (v == kIrqBase) {  // IRQ 0: the PIT
    if (!g_on_tick) unexpected(*f, "timer interrupt with no handler");
    g_on_tick(f->eip, caller_of(*f));
    outb(kPic1, OCW2_EOI);
    return;
  }
  if (v == kPmiVector) {
    if (!g_on_perf) unexpected(*f, "performance-counter interrupt with no handler");
    g_on_perf(f->eip, caller_of(*f));
    apic(kApicEoi) = 0;
    return;
  }
  if (v == kSpuriousVector) return;  // the APIC's spurious vector takes no EOI (SDM 10.9)
  if ((v == kIrqBase + 7 || v == kIrqBase + 15) && spurious_irq(v)) return;
  if ((v == 6 || v == 13) && is_pmu_access(f->eip) && pmu_fault_catch()) {
    f->eip += 2;
    return;
  }
  unexpected(*f, v >= kIrqBase ? "no handler for this interrupt" : nullptr);
}

extern "C" [[noreturn]] void pc_main_returned(int code) { board::exit(code); }
