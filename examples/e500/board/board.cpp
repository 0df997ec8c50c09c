// Board layer for QEMU mpc8544ds: UART, exit, decrementer sampling and the interrupt dispatcher that
// start.S calls. CRM = PowerPC e500 Core Family Reference Manual, Rev. 1; the SoC registers (DUART,
// GUTS) are named as in the MPC8544E reference manual.
#include "board/board.hpp"

#include <cstddef>
#include <cstdint>

// The one definition of pmu_fault_catch() for every e500 firmware image (see hal/core/fault.hpp).
#include "hal/core/fault_catch.hpp"

extern "C" char e500_vectors[];  // start.S: IVPR's base

namespace board {
namespace {

// IVOR10 as start.S set it, while decrementer_vector_start() has it elsewhere (0: not moved).
std::uint32_t g_ivor10 = 0;
// IVOR35 as start.S set it, while pmu_vector_start() has it elsewhere (0: not moved).
std::uint32_t g_ivor35 = 0;

// The decrementer from period_ticks, reloaded from DECAR at every expiry (TCR[ARE]), its
// interrupt enabled (TCR[DIE]) on whatever IVOR10 holds. With it stopped (decrementer_stop()).
void decrementer_run(std::uint32_t period_ticks) {
  const std::uint32_t tcr = e500::mfspr<e500::TCR>();
  e500::mtspr<e500::DECAR>(period_ticks);
  e500::mtspr<e500::DEC>(period_ticks);
  e500::mtspr<e500::TSR>(e500::TSR_DIS);  // drop a stale pending tick
  e500::mtspr<e500::TCR>(tcr | e500::TCR_DIE | e500::TCR_ARE);
}

// DUART channel 0: a 16550-compatible UART, byte-wide registers.
constexpr std::uint32_t kUart0 = kCcsrBase + 0x4500;
constexpr std::uint32_t UTHR = 0;  // transmitter holding (ULCR[DLAB] = 0)
constexpr std::uint32_t UFCR = 2;  // FIFO control (write)
constexpr std::uint32_t ULCR = 3;  // line control
constexpr std::uint32_t ULSR = 5;  // line status
constexpr std::uint8_t ULCR_8N1 = 0x03;
constexpr std::uint8_t UFCR_FEN_RESET = 0x07;  // FIFOs on, both cleared
constexpr std::uint8_t ULSR_THRE = 0x20;       // transmitter holding register empty
constexpr std::uint8_t ULSR_TEMT = 0x40;       // transmitter empty (shift register too)

// Global utilities: reset control register; HRESET_REQ asks for a hard reset of the device.
constexpr std::uint32_t kGutsRstcr = kCcsrBase + 0xE00B0;
constexpr std::uint32_t RSTCR_HRESET_REQ = 0x2;
constexpr std::uint32_t kGutsSvr = kCcsrBase + 0xE00A4;  // system version register
constexpr std::uint32_t kSvrPmusim = 0x504D5553u;         // "PMUS"

volatile std::uint8_t& uart(std::uint32_t reg) {
  return *reinterpret_cast<volatile std::uint8_t*>(kUart0 + reg);
}

IrqHandler g_on_tick = nullptr;
IrqHandler g_on_perfmon = nullptr;
std::uint32_t g_irq_sp = 0;  // the interrupted r1 of the interrupt being handled (interrupted_stack)

// IVOR numbers as passed by the start.S stubs (CRM Table 2-8).
enum Ivor : std::uint32_t {
  kCriticalInput = 0,
  kMachineCheck = 1,
  kDataStorage = 2,
  kInstructionStorage = 3,
  kExternalInput = 4,
  kAlignment = 5,
  kProgram = 6,
  kSystemCall = 8,
  kDecrementer = 10,
  kFixedIntervalTimer = 11,
  kWatchdog = 12,
  kDataTlbError = 13,
  kInstructionTlbError = 14,
  kDebug = 15,
  kSpeUnavailable = 32,
  kFpData = 33,
  kFpRound = 34,
  kPerformanceMonitor = 35,
};

const char* interrupt_name(std::uint32_t ivor) {
  switch (ivor) {
    case kCriticalInput: return "critical input";
    case kMachineCheck: return "machine check";
    case kDataStorage: return "data storage";
    case kInstructionStorage: return "instruction storage";
    case kExternalInput: return "external input";
    case kAlignment: return "alignment";
    case kProgram: return "program";
    case kSystemCall: return "system call";
    case kDecrementer: return "decrementer";
    case kFixedIntervalTimer: return "fixed-interval timer";
    case kWatchdog: return "watchdog";
    case kDataTlbError: return "data TLB error";
    case kInstructionTlbError: return "instruction TLB error";
    case kDebug: return "debug";
    case kSpeUnavailable: return "SPE unavailable";
    case kFpData: return "embedded FP data";
    case kFpRound: return "embedded FP round";
    case kPerformanceMonitor: return "performance monitor";
    default: return "unknown";
  }
}

}  // namespace

// Saved state of the interrupted code, built by e500_interrupt_common (offsets there: F_*).
struct Frame {
  std::uint32_t r0;
  std::uint32_t r3_to_r12[10];
  std::uint32_t cr, xer, ctr, lr;
  std::uint32_t srr0, srr1;  // written back to SRR0/SRR1 before rfi
};
static_assert(offsetof(Frame, r3_to_r12) == 12 - 8 && offsetof(Frame, cr) == 52 - 8 &&
                  offsetof(Frame, lr) == 64 - 8 && offsetof(Frame, srr0) == 68 - 8 &&
                  sizeof(Frame) == 76 - 8,
              "Frame must match the F_* offsets in start.S");

void init() {
  uart(ULCR) = ULCR_8N1;  // the divisor is left as QEMU (or a boot loader) set it
  uart(UFCR) = UFCR_FEN_RESET;

  e500::mtspr<e500::HID0>(e500::mfspr<e500::HID0>() | e500::HID0_TBEN);
  e500::isync();  // HID0 writes need context synchronization (CRM 2.16)

  e500::mtspr<e500::TCR>(e500::mfspr<e500::TCR>() & ~(e500::TCR_DIE | e500::TCR_FIE | e500::TCR_ARE));
  e500::mtspr<e500::TSR>(e500::TSR_DIS | e500::TSR_FIS);
}

std::size_t try_write(const std::uint8_t* data, std::size_t n) {
  if ((uart(ULSR) & ULSR_THRE) == 0) return 0;
  if (n > kTxBurst) n = kTxBurst;
  for (std::size_t i = 0; i < n; ++i) uart(UTHR) = data[i];
  return n;
}

bool try_putc(char c) {
  const auto b = static_cast<std::uint8_t>(c);
  return try_write(&b, 1) == 1;
}

void putc(char c) {
  while ((uart(ULSR) & ULSR_THRE) == 0) {
  }
  uart(UTHR) = static_cast<std::uint8_t>(c);
}

void exit(int code) {
  e500::wrteei_0();
  e500::mtspr<e500::TCR>(e500::mfspr<e500::TCR>() & ~(e500::TCR_DIE | e500::TCR_ARE));
  console.put("EXIT ");
  console.sdec(code);
  console.put('\n');
  while ((uart(ULSR) & ULSR_TEMT) == 0) {
  }
  *reinterpret_cast<volatile std::uint32_t*>(kGutsRstcr) = RSTCR_HRESET_REQ;
  for (;;) {
  }
}

void decrementer_start(std::uint32_t period_ticks, IrqHandler on_tick) {
  CriticalSection cs;
  decrementer_stop();
  g_on_tick = on_tick;
  decrementer_run(period_ticks);
}

void decrementer_stop() {
  CriticalSection cs;
  e500::mtspr<e500::TCR>(e500::mfspr<e500::TCR>() & ~(e500::TCR_DIE | e500::TCR_ARE));
  e500::mtspr<e500::DEC>(0);  // writing 0 does not raise a decrementer exception (CRM 2.6.5)
  e500::mtspr<e500::TSR>(e500::TSR_DIS);
  g_on_tick = nullptr;
  if (g_ivor10 != 0) {  // back to start.S's VECTOR 10 stub
    e500::mtspr<e500::IVOR10>(g_ivor10);
    e500::isync();
    g_ivor10 = 0;
  }
}

bool decrementer_vector_start(std::uint32_t period_ticks, void (*handler)()) {
  const auto addr = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(handler));
  const auto base = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&e500_vectors));
  if (period_ticks == 0 || (addr & 0xFu) != 0 || (addr & 0xFFFF0000u) != base) return false;
  CriticalSection cs;
  decrementer_stop();
  g_ivor10 = e500::mfspr<e500::IVOR10>();
  e500::mtspr<e500::IVOR10>(addr & 0xFFF0u);
  e500::isync();
  decrementer_run(period_ticks);
  return true;
}

bool pmu_vector_start(void (*handler)()) {
  const auto addr = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(handler));
  const auto base = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&e500_vectors));
  if ((addr & 0xFu) != 0 || (addr & 0xFFFF0000u) != base) return false;
  CriticalSection cs;
  if (g_ivor35 == 0) g_ivor35 = e500::mfspr<e500::IVOR35>();
  e500::mtspr<e500::IVOR35>(addr & 0xFFF0u);
  e500::isync();
  return true;
}

void pmu_vector_stop() {
  CriticalSection cs;
  if (g_ivor35 == 0) return;
  e500::mtspr<e500::IVOR35>(g_ivor35);  // back to start.S's VECTOR 35 stub
  e500::isync();
  g_ivor35 = 0;
}

bool under_pmusim() { return *reinterpret_cast<const volatile std::uint32_t*>(kGutsSvr) == kSvrPmusim; }

void set_perfmon_handler(IrqHandler on_perfmon) {
  CriticalSection cs;
  g_on_perfmon = on_perfmon;
}

namespace {

[[noreturn]] void unexpected_interrupt(std::uint32_t ivor, const Frame& f) {
  // Critical-class interrupts save their PC in CSRR0, machine check in MCSRR0 (CRM 5.7.1, 5.7.2).
  std::uint32_t pc = f.srr0;
  if (ivor == kCriticalInput || ivor == kWatchdog || ivor == kDebug) pc = e500::mfspr<e500::CSRR0>();
  if (ivor == kMachineCheck) pc = e500::mfspr<e500::MCSRR0>();
  console.put(interrupt_name(ivor));
  console.put(" interrupt at 0x");
  console.hex(pc);
  if (ivor == kMachineCheck) {
    console.put(" mcsr=0x");
    console.hex(e500::mfspr<e500::MCSR>());
  } else {
    console.put(" esr=0x");
    console.hex(e500::mfspr<e500::ESR>());
  }
  if (ivor == kDataStorage || ivor == kAlignment || ivor == kDataTlbError) {
    console.put(" dear=0x");
    console.hex(e500::mfspr<e500::DEAR>());
  }
  console.put('\n');
  exit(kExitFault);
}

}  // namespace
extern "C" char __stack_top[], __stack_bottom[];  // e500.ld: the one stack

void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp) {
  sp = g_irq_sp;
  fp = 0;  // r31 is not kept by the stub; the SVR4 CFI needs only r1
}
std::uintptr_t stack_top() { return reinterpret_cast<std::uintptr_t>(__stack_top); }
std::uintptr_t stack_bottom() { return reinterpret_cast<std::uintptr_t>(__stack_bottom); }

}  // namespace board

// Called by e500_interrupt_common in start.S with MSR[EE] clear.
extern "C" void e500_interrupt(std::uint32_t ivor, board::Frame* frame) {
  using namespace board;
  // The stub's stwu put the frame 80 bytes below the interrupted r1, and frame is r1 + 8.
  g_irq_sp = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(frame)) - 8 + 80;
  switch (ivor) {
    case kDecrementer:
      e500::mtspr<e500::TSR>(e500::TSR_DIS);  // write-1-to-clear, before MSR[EE] returns (CRM 5.7.9)
      if (g_on_tick != nullptr) g_on_tick(frame->srr0, frame->lr);
      return;
    case kPerformanceMonitor:
      if (g_on_perfmon == nullptr) break;
      g_on_perfmon(frame->srr0, frame->lr);
      return;
    case kProgram:
      // SRR0 holds the trapping instruction (CRM 5.7.7); skip it when a probe expected the fault.
      if (pmu_fault_catch()) {
        frame->srr0 += 4;
        return;
      }
      break;
    default:
      break;
  }
  unexpected_interrupt(ivor, *frame);
}

extern "C" [[noreturn]] void e500_main_returned(int code) { board::exit(code); }
