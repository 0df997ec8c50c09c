// Board layer for MIPS firmware on QEMU Malta: UART, exit, Count/Compare timer, the RM7000
// performance counter interrupt, and the exception dispatcher start.S calls. CP0 is reached through
// the kit's CP0 bus (hal/core/bus/cp0.hpp), so the hazards are the kit's.
#include "board/board.hpp"

#include <cstddef>
#include <cstdint>

#include "hal/core/bus/cp0.hpp"
#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"
#include "hal/rm7000/regs.hpp"  // the RM7000's PRId, Cause.IP13 and Interrupt Control IM13
// The one definition of pmu_fault_catch() for every Malta firmware image (hal/core/fault.hpp).
#include "hal/core/fault_catch.hpp"

namespace board {
namespace {

using u32 = std::uint32_t;
template <unsigned Reg>
u32 mfc0() {
  return pmu::Cp0Bus::read<pmu::Cp0<Reg>, u32>();
}
template <unsigned Reg>
void mtc0(u32 v) {
  pmu::Cp0Bus::write<pmu::Cp0<Reg>, u32>(v);
}
constexpr unsigned kCount = 9, kCompare = 11, kStatus = 12, kPrid = 15;
constexpr u32 ST_IE = 0x1, ST_IM7 = 0x8000;
constexpr u32 CAUSE_BD = 0x80000000u;
constexpr u32 CAUSE_IP7 = 0x8000u;
constexpr u32 ST_IM6 = 0x4000u, CAUSE_IP6 = 0x4000u;  // hardware interrupt 4: CM_PCInt under pmusim

// Interrupt Control IM13 (RM7000 CP0 control register 20): a set IP13 is our interrupt only while
// it is unmasked (a timer interrupt may find PerfCount bit 31 set while the counter is polled).
// cfc0 exists only on MIPS IV; set_perf_handler() routes IP13 only on an RM7000.
bool perf_unmasked() {
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
  return false;
#else
  return pmu::Regs<pmu::Cp0Bus>::read(pmu::rm7000::icr_im13) != 0;
#endif
}

// The Malta's 16550 UART (ISA I/O 0x3f8 through the GT-64120's I/O window at 0x18000000),
// byte registers, reached uncached through kseg1.
constexpr std::uintptr_t kUart = 0xB80003F8u;
constexpr u32 THR = 0, FCR = 2, LCR = 3, LSR = 5;
constexpr std::uint8_t LCR_8N1 = 0x03, FCR_FIFO_RESET = 0x07, LSR_THRE = 0x20, LSR_TEMT = 0x40;

volatile std::uint8_t& uart(u32 reg) { return *reinterpret_cast<volatile std::uint8_t*>(kUart + reg); }

// Per VP (cpu()): each core of the CPS has its own Count/Compare and its own tick handler.
IrqHandler g_on_tick_of[kMaxVps] = {};
IrqHandler g_on_perf = nullptr;
IrqHandler g_on_pcint = nullptr;
u32 g_period_of[kMaxVps] = {};
bool g_vector_image = false;  // 0x80000180 holds a timer_vector_start image, not the stub

const char* exception_name(u32 code) {
  switch (code) {
    case 0: return "interrupt";
    case 1: return "TLB modification";
    case 2: return "TLB load";
    case 3: return "TLB store";
    case 4: return "address error (load)";
    case 5: return "address error (store)";
    case 6: return "bus error (fetch)";
    case 7: return "bus error (data)";
    case 8: return "syscall";
    case 9: return "breakpoint";
    case 10: return "reserved instruction";
    case 11: return "coprocessor unusable";
    case 12: return "overflow";
    case 13: return "trap";
    default: return "exception";
  }
}

}  // namespace

// Saved state of the interrupted code, built by malta_exception in start.S (offsets F_* - 16).
struct Frame {
  u32 at, v0, v1, a0, a1, a2, a3;
  u32 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9;
  u32 ra, hi, lo;
  u32 epc;  // written back to EPC before eret
};
static_assert(offsetof(Frame, t0) == 44 - 16 && offsetof(Frame, ra) == 84 - 16 &&
                  offsetof(Frame, epc) == 96 - 16,
              "Frame must match the F_* offsets in start.S");

void init() {
  uart(LCR) = LCR_8N1;  // the divisor is left as QEMU (or a boot loader) set it
  uart(FCR) = FCR_FIFO_RESET;
  timer_stop();
}

std::size_t try_write(const std::uint8_t* data, std::size_t n) {
  if ((uart(LSR) & LSR_THRE) == 0) return 0;
  if (n > kTxBurst) n = kTxBurst;
  for (std::size_t i = 0; i < n; ++i) uart(THR) = data[i];
  return n;
}

bool try_putc(char c) {
  const auto b = static_cast<std::uint8_t>(c);
  return try_write(&b, 1) == 1;
}

void putc(char c) {
  while ((uart(LSR) & LSR_THRE) == 0) {
  }
  uart(THR) = static_cast<std::uint8_t>(c);
}

extern "C" [[noreturn]] void malta_uhi_exit(int code);

void exit(int code) {
  irq_disable();
  console.put("EXIT ");
  console.sdec(code);
  console.put('\n');
  while ((uart(LSR) & LSR_TEMT) == 0) {
  }
  malta_uhi_exit(code);
}

u32 count() { return mfc0<kCount>(); }
u32 revision() { return *reinterpret_cast<const volatile u32*>(0xBFC00010u); }  // kseg1, uncached
u32 prid() { return mfc0<kPrid>(); }

namespace {
// Copies a handler image to the general exception vector and makes it visible to instruction
// fetch: D-cache written back and I-cache invalidated line by line (a no-op under QEMU).
void install_vector(const u32* image, const u32* image_end) {
  constexpr std::uintptr_t kVector = 0x80000180u;  // kseg0: the general exception vector (BEV = 0)
  for (std::uintptr_t a = kVector; image != image_end; ++image, a += 4) {
    *reinterpret_cast<volatile u32*>(a) = *image;
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
    asm volatile("synci 0(%0)" : : "r"(a) : "memory");
#else
    // R4000-class CACHE operations: Hit_Writeback_Invalidate_D (0x15), Hit_Invalidate_I (0x10).
#if defined(__clang__)
    // CACHE is MIPS III, and clang compiles RM7000 code as MIPS II (its toolchain file says why).
    asm volatile(".set push\n\t.set mips3\n\tcache 0x15, 0(%0)\n\tcache 0x10, 0(%0)\n\t.set pop"
                 : : "r"(a) : "memory");
#else
    asm volatile("cache 0x15, 0(%0)\n\tcache 0x10, 0(%0)" : : "r"(a) : "memory");
#endif
#endif
  }
  asm volatile("sync" : : : "memory");
}
}  // namespace

extern "C" const u32 malta_vector_stub[], malta_vector_stub_end[];  // start.S

void timer_start(u32 period_ticks, IrqHandler on_tick) {
  timer_stop();  // the board's vector back, if an image held it
  CriticalSection cs;
  g_on_tick_of[cpu()] = on_tick;
  g_period_of[cpu()] = period_ticks;
  mtc0<kCompare>(count() + period_ticks);  // also acknowledges a pending timer interrupt
  mtc0<kStatus>(mfc0<kStatus>() | ST_IM7);
}

void timer_stop() {
  CriticalSection cs;
  mtc0<kStatus>(mfc0<kStatus>() & ~ST_IM7);
  mtc0<kCompare>(mfc0<kCompare>());  // acknowledge
  g_on_tick_of[cpu()] = nullptr;
  if (g_vector_image) {
    install_vector(malta_vector_stub, malta_vector_stub_end);
    g_vector_image = false;
  }
}

bool timer_vector_start(u32 period_ticks, const u32* image, const u32* image_end) {
  if (period_ticks == 0 || image_end <= image || image_end - image > static_cast<std::ptrdiff_t>(kVectorImageWords))
    return false;
  timer_stop();
  CriticalSection cs;
  install_vector(image, image_end);
  g_vector_image = true;
  mtc0<kCompare>(count() + period_ticks);
  mtc0<kStatus>(mfc0<kStatus>() | ST_IM7);
  return true;
}

bool pmu_vector_start(const u32* image, const u32* image_end) {
  if (image_end <= image || image_end - image > static_cast<std::ptrdiff_t>(kVectorImageWords)) return false;
  timer_stop();
  CriticalSection cs;
  install_vector(image, image_end);
  g_vector_image = true;
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
  if (under_pmusim()) mtc0<kStatus>(mfc0<kStatus>() | ST_IM6);  // CM_PCInt's line there
#endif
  return true;
}

void pmu_vector_stop() {
  CriticalSection cs;
  if (!g_on_pcint) mtc0<kStatus>(mfc0<kStatus>() & ~ST_IM6);
  if (g_vector_image) {
    install_vector(malta_vector_stub, malta_vector_stub_end);
    g_vector_image = false;
  }
}

bool set_perf_handler(IrqHandler on_perf) {
  if (pmu::rm7000::core_of_prid(prid()) != pmu::rm7000::Core::rm7000) return false;
  CriticalSection cs;
  g_on_perf = on_perf;
  return true;
}

bool set_cm_pcint_handler(IrqHandler on_pcint) {
  if (!under_pmusim()) return false;
  CriticalSection cs;
  g_on_pcint = on_pcint;
  mtc0<kStatus>((mfc0<kStatus>() & ~ST_IM6) | (on_pcint ? ST_IM6 : 0u));
  return true;
}

unsigned cpu() {
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
  u32 ebase;
  asm volatile("mfc0 %0, $15, 1" : "=r"(ebase));  // EBase (MIPS32 PRA): CPUNum in bits 9:0
  return (ebase & 0x3FFu) < kMaxVps ? ebase & 0x3FFu : 0;
#else
  return 0;
#endif
}

}  // namespace board

// Read by start.S on any VP but 0 (board::start_vp1).
extern "C" {
void (*volatile malta_secondary_entry)() = nullptr;
volatile std::uint32_t malta_secondary_sp = 0;
}

namespace board {

bool start_vp1(void (*entry)(), std::uintptr_t stack_top) {
#if defined(__mips_isa_rev) && __mips_isa_rev >= 2
  malta_secondary_sp = static_cast<std::uint32_t>(stack_top & ~std::uintptr_t{7});
  malta_secondary_entry = entry;
  // The CPC placed and enabled (GCR_CPC_BASE: CPCBase bits 31:15, CPCEN bit 0), then VP 1 released
  // from reset through the core-local block's VP_RUN, one bit per VP, as QEMU 7.2's Malta has them
  // (hw/misc/mips_cpc.c; pmusim the same). It starts at the reset vector, whose boot code jumps to
  // _start. A real CPS may want its power-up sequence first: untested on silicon.
  auto* gcr_cpc_base = reinterpret_cast<volatile u32*>(0xA0000000u | (kGcrPhys + 0x0088u));
  *gcr_cpc_base = kCpcPhys | 1u;
  auto* cpc = reinterpret_cast<volatile u32*>(0xA0000000u | kCpcPhys);
  cpc[(0x2000u + 0x28u) / 4] = 1u << 1;  // VP_RUN
  // QEMU releases the VP asynchronously (from its own loop, between translation blocks): up to
  // 10 ms of Count for VP_RUNNING to show it.
  const u32 start = count();
  do {
    if (cpc[(0x2000u + 0x30u) / 4] & (1u << 1)) return true;  // VP_RUNNING
  } while (count() - start < kCountHz / 100);
  return false;
#else
  (void)entry;
  (void)stack_top;
  return false;
#endif
}

void irq_enable() { mtc0<kStatus>(mfc0<kStatus>() | ST_IE); }
void irq_disable() { mtc0<kStatus>(mfc0<kStatus>() & ~ST_IE); }
bool irq_enabled() { return (mfc0<kStatus>() & ST_IE) != 0; }

namespace {

[[noreturn]] void unexpected(u32 cause, const Frame& f, const char* why) {
  console.put(exception_name((cause >> 2) & 0x1Fu));
  console.put(" at 0x");
  console.hex(f.epc);
  console.put(" cause=0x");
  console.hex(cause);
  if (why) {
    console.put(": ");
    console.put(why);
  }
  console.put('\n');
  exit(kExitFault);
}

// Resumes after a caught fault: the next instruction, or, when the faulting access sat in the delay
// slot of a `jr` (the assembler moves a one-instruction access there), that jump's target.
void skip(u32 cause, Frame& f) {
  if (!(cause & CAUSE_BD)) {
    f.epc += 4;
    return;
  }
  const u32 branch = *reinterpret_cast<const volatile u32*>(f.epc);
  const u32 rs = (branch >> 21) & 0x1Fu;
  if ((branch & 0xFC1FFFFFu) == 0x00000008u && rs == 31) {  // jr $ra
    f.epc = f.ra;
    return;
  }
  unexpected(cause, f, "a probed access faulted in a branch delay slot this board cannot resume");
}

}  // namespace
}  // namespace board

namespace board {
extern "C" char __stack_top[];  // malta.ld: the one stack's top
u32 g_irq_sp = 0;  // the interrupted $sp of the exception being handled (interrupted_stack())
void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) {
  sp = g_irq_sp;
  fp = 0;  // $30 is not kept by the handler; the o32 CFI needs only $sp
}
std::uintptr_t stack_top() { return reinterpret_cast<std::uintptr_t>(__stack_top); }
}  // namespace board

// Called by malta_exception in start.S with Status.EXL set.
extern "C" void malta_exception_c(std::uint32_t cause, board::Frame* f) {
  using namespace board;
  // The handler lowered $sp by F_SIZE (104) and passes its frame 16 bytes up (start.S).
  g_irq_sp = static_cast<u32>(reinterpret_cast<std::uintptr_t>(f)) - 16 + 104;
  const u32 code = (cause >> 2) & 0x1Fu;
  if (code == 0) {
    const u32 pending = cause & mfc0<kStatus>();
    bool handled = false;
    const unsigned vp = cpu();
    if ((pending & CAUSE_IP7) && g_on_tick_of[vp]) {
      // Next tick one period after the last one; if that is already past, one period from now.
      u32 next = mfc0<kCompare>() + g_period_of[vp];
      if (static_cast<std::int32_t>(next - count()) <= 0) next = count() + g_period_of[vp];
      mtc0<kCompare>(next);
      g_on_tick_of[vp](f->epc, f->ra);
      handled = true;
    }
    if (pmu::rm7000::cause_ip13.extract(cause) && g_on_perf && perf_unmasked()) {
      g_on_perf(f->epc, f->ra);
      handled = true;
    }
    if ((pending & CAUSE_IP6) && g_on_pcint) {
      g_on_pcint(f->epc, f->ra);
      handled = true;
    }
    if (!handled) unexpected(cause, *f, "no handler for the pending interrupt");
    return;
  }
  if ((code == 7 || code == 10 || code == 11) && pmu_fault_catch()) {  // DBE: a silent GCR
    skip(cause, *f);
    return;
  }
  unexpected(cause, *f, nullptr);
}

extern "C" [[noreturn]] void malta_main_returned(int code) { board::exit(code); }

// What malta_fast_vector (start.S) reads: the ring it records into and the timer period.
extern "C" {
void* volatile malta_fast_ring = nullptr;
volatile std::uint32_t malta_fast_period = 0;
// What malta_fast_pmu_vector_* read (board.hpp).
MaltaFastPmuState malta_fast_pmu_state{};
}
