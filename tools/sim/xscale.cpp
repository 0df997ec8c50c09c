// pmusim's ARM machine for XScale code: the PXA270 "mainstone" board of examples/xscale/ (the
// vector table at 0, SDRAM at 0xa0000000, the FFUART, the interrupt controller, the OS timer,
// semihosting exit) on Unicorn's PXA270 CPU, with the XSC2 model (hal/xscale/model.hpp) behind CP14.
//
// The PMU instructions, decoded from the ARM Architecture Reference Manual (ARMv5, A4.1.32 MCR and
// A4.1.36 MRC), not from the project's buses, at every word of the executable segments:
//   cond 1110 opc1:3 L CRn Rd 1110(coproc 14) opc2:3 1 CRm      L = 1 MRC, 0 MCR
// The condition is evaluated against the CPSR flags; MRC to Rd = 15 sets N, Z, C, V from bits
// 31:28. An access the model refuses, or any CP14 access from User mode (XScale core manual 8.2:
// the PMU is privileged), raises the undefined-instruction exception as on silicon.
//
// Events, one stated cost model: every instruction is one clock (CCNT) and one INSTR (0x07).
// From the same decode (XScale core manual 8.4, Table 8-12): BRANCH (0x05) for each B/BL reaching
// execution, taken or not ("may or may not have changed program flow"); DC_ACCESS (0x0A) once per
// register a load or store transfers (8.4.2: an LDM or STM counts one access per register of its
// list, an LDRD two; STRD is taken as two likewise; LDR/STR in every size and SWP one), whatever
// its condition; PC_CHANGE (0x0D) for every instruction that writes the PC by software ("all b,
// bl, blx, mov pc, ldm {.., pc}, ldr pc"), seen as execution not continuing at the next word (a B
// or BL to the next word: when its condition passes); not for exception entries. No cache, TLB or
// stall model: every other event stays at zero. Events reach the model in batches that end before
// any counter can wrap, so overflows land on the instruction they would.
//
// Interrupts: the model's line (FLAG & INTEN) is the interrupt controller's primary source 12, the
// PXA27x PMU source (Linux arch/arm/mach-pxa irqs.h IRQ_PMU; Microsoft Zelig's PXA27x
// InterruptController IRQ_INDEX_PMU); the OS timer's OSSR M0-M3 are sources 26-29 (PXA255
// Developer's Manual 4.2.2, Table 4-33). ICMR masks them and ICLR routes them to IRQ or FIQ (PXA255
// Developer's Manual 4.2.2); ICIP/ICFP show them. The CPU takes one at an instruction boundary
// while CPSR.I (F for FIQ) is clear, with the ARM entry rules (ARM ARM A2.6): SPSR_irq = CPSR, mode
// IRQ, I set (FIQ: mode FIQ, I and F set), ARM state, LR_irq = the next instruction + 4, PC = 0x18
// (FIQ 0x1C). Low vectors only. The board's own vector, dispatcher, Sampler and handler run.
//
// The OS timer (tools/sim/timers.hpp, PxaOsTimer): channels 0-3 at 3.25 MHz on the instruction
// clock (one instruction per nanosecond, QEMU's rate under -icount shift=0): 13 ticks per 4000
// instructions. A watchdog match (OWER set) ends the run, as the reset would.
#include <string>

#include <unicorn/unicorn.h>

#include "hal/core/location.hpp"
#include "hal/xscale/events.hpp"
#include "hal/xscale/model.hpp"
#include "tools/sim/machine.hpp"
#include "tools/sim/timers.hpp"

namespace pmusim {
namespace {

namespace xs = pmu::xscale;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u32 kVectorsBytes = 1u << 20;  // the boot flash at 0, where the vector table lives
constexpr u32 kSdram = 0xA0000000u, kSdramBytes = 64u << 20;
constexpr u64 kFfuart = 0x40100000u;      // THR +0, IER +4, LCR +0xC, LSR +0x14 (PXA27x manual ch. 10)
constexpr u64 kIcu = 0x40D00000u;         // ICIP +0, ICMR +4, ICLR +8, ICFP +0xC, ICPR +0x10
constexpr u64 kOsTimer = 0x40A00000u;     // OSMR0-3, OSCR0, OSSR, OWER, OIER (PXA255 manual 4.4.3)
constexpr u32 kPmuSource = 1u << 12;
constexpr unsigned kOsTimerSource = 26;   // OSSR M0-M3: sources 26-29
constexpr u32 PSR_I = 1u << 7, PSR_F = 1u << 6, PSR_T = 1u << 5, PSR_MODE = 0x1F;
constexpr u32 MODE_USR = 0x10, MODE_FIQ = 0x11, MODE_IRQ = 0x12, MODE_SVC = 0x13, MODE_ABT = 0x17, MODE_UND = 0x1B;
// Semihosting (ARM "Semihosting for AArch32 and AArch64"): SVC 0x123456 in ARM state.
constexpr u32 kSysOpen = 0x01, kSysWritec = 0x03, kSysWrite0 = 0x04, kSysExit = 0x18, kSysExitExtended = 0x20;
constexpr u32 kApplicationExit = 0x20026;  // ADP_Stopped_ApplicationExit

// What the decoder found at a word: one kind (bits 2:0) and, for a load or store, the data cache
// accesses it makes less one (bits 7:4: 1 to 16).
enum : std::uint8_t { kCp14 = 1, kSemihost, kBranch, kBranchToNext, kMemory, kKind = 7 };
constexpr std::uint8_t memory(unsigned accesses) { return static_cast<std::uint8_t>(kMemory | (accesses - 1) << 4); }
constexpr unsigned access_count(std::uint8_t tag) { return (tag >> 4) + 1u; }

std::uint8_t classify(u32 w) {
  const u32 cond = w >> 28;
  if (cond == 0xF) return 0;  // the unconditional space (BLX, PLD, MCR2/MRC2): none of these
  if ((w & 0x0F000F10u) == 0x0E000E10u) return kCp14;          // MRC/MCR p14
  if ((w & 0x0FFFFFFFu) == 0x0F123456u) return kSemihost;      // SVC 0x123456
  if ((w & 0x0E000000u) == 0x0A000000u)                        // B, BL (offset -1: the next word)
    return (w & 0x00FFFFFFu) == 0x00FFFFFFu ? kBranchToNext : kBranch;
  if ((w & 0x0C000000u) == 0x04000000u) return memory(1);      // LDR/STR(B)
  if ((w & 0x0E000000u) == 0x08000000u) {                      // LDM/STM: one per listed register
    const unsigned n = static_cast<unsigned>(__builtin_popcount(w & 0xFFFFu));
    return memory(n ? n : 1);  // an empty list is unpredictable (ARM ARM A4.1.20)
  }
  if ((w & 0x0E000090u) == 0x00000090u && (w & 0x60u) != 0)    // LDRH/STRH/LDRSB/LDRSH/LDRD/STRD
    return memory(!(w & (1u << 20)) && (w & 0x40u) ? 2 : 1);   // L = 0 with S set: LDRD, STRD
  if ((w & 0x0FB00FF0u) == 0x01000090u) return memory(1);      // SWP, SWPB
  return 0;
}

bool condition_passes(u32 cond, u32 cpsr) {
  const bool n = cpsr >> 31 & 1, z = cpsr >> 30 & 1, c = cpsr >> 29 & 1, v = cpsr >> 28 & 1;
  switch (cond) {
    case 0x0: return z;
    case 0x1: return !z;
    case 0x2: return c;
    case 0x3: return !c;
    case 0x4: return n;
    case 0x5: return !n;
    case 0x6: return v;
    case 0x7: return !v;
    case 0x8: return c && !z;
    case 0x9: return !c || z;
    case 0xA: return n == v;
    case 0xB: return n != v;
    case 0xC: return !z && n == v;
    case 0xD: return z || n != v;
    default: return true;
  }
}

struct Machine : Cpu {
  xs::Xsc2Model model;
  timers::PxaOsTimer ost;
  u64 ost_due = timers::kNever;  // the instruction count at which the OS timer next matches
  // ICU state (PXA255 manual 4.2.2): mask and level; the pending register is the sources' lines.
  u32 icmr = 0, iclr = 0;
  bool lcr_dlab = false;
  bool irq_wanted = false;  // a source is pending and unmasked: check CPSR each instruction
  // Events not yet given to the model, and how many instructions may pass before the next batch:
  // fewer than any counter needs to wrap.
  u64 pending = 0, branches = 0, accesses = 0, pc_changes = 0, horizon = 1;
  u32 last_pc = 0;
  std::uint8_t last_tag = 0xFF;  // 0xFF: the last PC move was not software's (entry, an exception)

  using Cpu::Cpu;

  u32 gpr(u32 n) {
    if (n <= 12) return reg(UC_ARM_REG_R0 + static_cast<int>(n));
    return reg(n == 13 ? UC_ARM_REG_SP : n == 14 ? UC_ARM_REG_LR : UC_ARM_REG_PC);
  }
  void set_gpr(u32 n, u32 v) {
    if (n <= 12) set(UC_ARM_REG_R0 + static_cast<int>(n), v);
    else set(n == 13 ? UC_ARM_REG_SP : UC_ARM_REG_LR, v);
  }
  u32 word(u32 a) {
    u32 v = 0;
    uc_mem_read(uc, a, &v, 4);  // little-endian core on a little-endian host
    return v;
  }

  u32 icpr() const { return (model.irq_line() ? kPmuSource : 0) | ost.ossr() << kOsTimerSource; }
  void update_irq() { irq_wanted = (icpr() & icmr) != 0; }
  // The OS timer brought to the instruction count: its matches into OSSR, the interrupt lines.
  // false: the watchdog reset the processor, which ends the run.
  bool timer_update() {
    ost.update(result.instructions);
    ost_due = ost.due();
    update_irq();
    if (!ost.watchdog_reset()) return true;
    stop("the OS timer's watchdog reset the processor (OSMR3 matched with OWER set)");
    return false;
  }

  void flush() {
    if (pending) {
      model.cycles(pending);
      model.event(xs::event::INSTR, pending);
      if (branches) model.event(xs::event::BRANCH, branches);
      if (accesses) model.event(xs::event::DC_ACCESS, accesses);
      if (pc_changes) model.event(xs::event::PC_CHANGE, pc_changes);
      pending = branches = accesses = pc_changes = 0;
    }
    horizon = 1ull << 32;
    for (unsigned slot = 0; slot < 5; ++slot) {
      const u64 to_wrap = (1ull << 32) - model.counter(slot);
      if (to_wrap < horizon) horizon = to_wrap;
    }
    update_irq();
  }

  // The ARM exception entry (ARM ARM A2.6): the mode's SPSR takes the CPSR, its LR `lr`.
  void enter(u32 mode, u32 vector, u32 lr, u32 mask) {
    const u32 cpsr = reg(UC_ARM_REG_CPSR);
    set(UC_ARM_REG_CPSR, (cpsr & ~(PSR_MODE | PSR_T)) | mode | mask);
    set(UC_ARM_REG_SPSR, cpsr);
    set(UC_ARM_REG_LR, lr);
    set(UC_ARM_REG_PC, vector);
  }
  void undefined(u32 pc) { enter(MODE_UND, 0x04, pc + 4, PSR_I); }

  void cp14(u32 pc, u32 w) {
    const u32 cpsr = reg(UC_ARM_REG_CPSR);
    if (!condition_passes(w >> 28, cpsr)) {
      set(UC_ARM_REG_PC, pc + 4);
      return;
    }
    const u32 opc1 = (w >> 21) & 7, crn = (w >> 16) & 15, rd = (w >> 12) & 15, opc2 = (w >> 5) & 7, crm = w & 15;
    const u32 key = pmu::detail::make_key(pmu::BusKind::arm_cp, (14u << 16) | (opc1 << 12) | (crn << 8) | (crm << 4) | opc2);
    const bool mrc = (w >> 20) & 1;
    bool ok = (cpsr & PSR_MODE) != MODE_USR;
    if (ok && mrc) {
      u64 v = 0;
      ok = model_read(model, key, v);
      if (ok && rd == 15) set(UC_ARM_REG_CPSR, (cpsr & 0x0FFFFFFFu) | (static_cast<u32>(v) & 0xF0000000u));
      else if (ok) set_gpr(rd, static_cast<u32>(v));
    } else if (ok) {
      ok = rd != 15 && model_write(model, key, gpr(rd));  // MCR from R15: unpredictable
    }
    if (ok) set(UC_ARM_REG_PC, pc + 4);
    else undefined(pc);
  }

  void semihost(u32 pc) {
    const u32 op = gpr(0), arg = gpr(1);
    if (op == kSysExit || op == kSysExitExtended) {
      const u32 reason = op == kSysExit ? arg : word(arg);
      result.exit_code = reason == kApplicationExit ? (op == kSysExit ? 0 : static_cast<int>(word(arg + 4) & 0xFF)) : 1;
      uc_emu_stop(uc);
      return;
    }
    if (op == kSysWritec) {
      console.put(static_cast<char>(word(arg) & 0xFF));
    } else if (op == kSysWrite0) {
      for (u32 a = arg;; ++a) {
        char c = 0;
        uc_mem_read(uc, a, &c, 1);
        if (!c) break;
        console.put(c);
      }
    } else if (op == kSysOpen) {
      set(UC_ARM_REG_R0, ~u32{0});  // no host files from pmusim: the firmware sees a refusal
    } else {
      stop("semihosting operation " + std::to_string(op) + " not provided");
      return;
    }
    set(UC_ARM_REG_PC, pc + 4);
  }

  static void on_code(uc_engine*, u64 address, u32, void* self) {
    auto& m = *static_cast<Machine*>(self);
    const u32 pc = static_cast<u32>(address);
    // The instruction before this one wrote the PC if this is not the word after it (counted
    // before an interrupt entry, which is the hardware's own PC change).
    if (pc != m.last_pc + 4 && m.last_tag != 0xFF) {
      m.last_tag = 0xFF;
      if (m.opt.pmu && ++m.pc_changes >= m.horizon) m.flush();
    }
    if (m.result.instructions >= m.ost_due && !m.timer_update()) return;
    if (m.irq_wanted) {
      const u32 cpsr = m.reg(UC_ARM_REG_CPSR);
      const u32 pend = m.icpr() & m.icmr;
      if ((pend & m.iclr) && !(cpsr & PSR_F)) {
        ++((pend & m.iclr & kPmuSource) ? m.result.interrupts : m.result.timer_interrupts);
        m.enter(MODE_FIQ, 0x1C, pc + 4, PSR_I | PSR_F);
        m.last_tag = 0xFF;
        return;
      }
      if ((pend & ~m.iclr) && !(cpsr & PSR_I)) {
        ++((pend & ~m.iclr & kPmuSource) ? m.result.interrupts : m.result.timer_interrupts);
        m.enter(MODE_IRQ, 0x18, pc + 4, PSR_I);
        m.last_tag = 0xFF;
        return;
      }
    }
    if (!m.step(pc)) return;
    const std::uint8_t tag = m.code.tag(pc);
    m.last_pc = pc;
    m.last_tag = tag;
    if (m.opt.pmu) {
      ++m.pending;
      switch (tag & kKind) {
        case kBranchToNext:  // its PC write does not show in the flow: its condition decides
          if (condition_passes(m.word(pc) >> 28, m.reg(UC_ARM_REG_CPSR))) ++m.pc_changes;
          [[fallthrough]];
        case kBranch:
          ++m.branches;
          break;
        case kMemory:
          m.accesses += access_count(tag);
          break;
      }
      if (m.pending >= m.horizon || m.accesses >= m.horizon || m.pc_changes >= m.horizon) m.flush();
    }
    if ((tag & kKind) == kCp14 || (tag & kKind) == kSemihost) {
      m.flush();  // the access sees every event before it
      m.last_tag = 0xFF;  // the hook moves the PC: not a software PC change
      if ((tag & kKind) == kCp14) m.cp14(pc, m.word(pc));
      else m.semihost(pc);
      m.flush();  // a write may have moved a counter or changed the line
    }
  }

  static bool on_intr(uc_engine*, u32 intno, void* self) {
    auto& m = *static_cast<Machine*>(self);
    const u32 pc = m.reg(UC_ARM_REG_PC);
    m.last_tag = 0xFF;
    if (intno == 1) {  // EXCP_UDEF: PC is the instruction
      m.undefined(pc);
    } else if (intno == 2) {  // EXCP_SWI: PC is the next instruction
      m.enter(MODE_SVC, 0x08, pc, PSR_I);
    } else if (intno == 7) {  // EXCP_BKPT, a prefetch abort on ARMv5 (ARM ARM A4.1.7): PC is the BKPT
      m.enter(MODE_ABT, 0x0C, pc + 4, PSR_I);
    } else {
      char b[112];
      std::snprintf(b, sizeof b,
                    "ARM exception %u at 0x%08x (pmusim enters undefined, SVC, BKPT and IRQ/FIQ only)", intno, pc);
      m.stop(b);
    }
    return true;
  }

  // Unicorn reports an undefined instruction here, not as an interrupt; PC is the instruction.
  static bool on_invalid(uc_engine*, void* self) {
    auto& m = *static_cast<Machine*>(self);
    m.last_tag = 0xFF;
    m.undefined(m.reg(UC_ARM_REG_PC));
    return true;
  }

  static u64 uart_read(uc_engine*, u64 offset, unsigned, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (offset == 0x14) return 0x60;  // LSR: TDRQ, TEMT
    if (offset == 0x0C) return m.lcr_dlab ? 0x83 : 0x03;
    return 0;
  }
  static void uart_write(uc_engine*, u64 offset, unsigned, u64 value, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (offset == 0x0C) m.lcr_dlab = (value & 0x80) != 0;
    if (offset == 0 && !m.lcr_dlab) m.console.put(static_cast<char>(value));
  }
  static u64 icu_read(uc_engine*, u64 offset, unsigned, void* self) {
    auto& m = *static_cast<Machine*>(self);
    m.flush();
    m.timer_update();
    switch (offset) {
      case 0x00: return m.icpr() & m.icmr & ~m.iclr;  // ICIP
      case 0x04: return m.icmr;
      case 0x08: return m.iclr;
      case 0x0C: return m.icpr() & m.icmr & m.iclr;   // ICFP
      case 0x10: return m.icpr();                     // ICPR
      default: return 0;                              // the *2 registers: sources 32-39, none
    }
  }
  static void icu_write(uc_engine*, u64 offset, unsigned, u64 value, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (offset == 0x04) m.icmr = static_cast<u32>(value);
    if (offset == 0x08) m.iclr = static_cast<u32>(value);
    m.update_irq();
  }
  static u64 ost_read(uc_engine*, u64 offset, unsigned, void* self) {
    auto& m = *static_cast<Machine*>(self);
    const u32 v = m.ost.read(static_cast<u32>(offset), m.result.instructions);
    m.timer_update();
    return v;
  }
  static void ost_write(uc_engine*, u64 offset, unsigned, u64 value, void* self) {
    auto& m = *static_cast<Machine*>(self);
    m.ost.write(static_cast<u32>(offset), static_cast<u32>(value), m.result.instructions);
    m.timer_update();
  }
};

}  // namespace

Result run_xscale(const ElfImage& image, const Options& options) {
  Result result;
  Console console(options);
  Machine m(console, options, result);
  if (!m.open(UC_ARCH_ARM, UC_MODE_ARM, "ARM")) return result;
  uc_ctl_set_cpu_model(m.uc, UC_CPU_ARM_PXA270);
  m.map_ram(0, kVectorsBytes);
  m.map_ram(kSdram, kSdramBytes);
  if (!m.load(image, ~0u, 4)) return result;
  uc_mmio_map(m.uc, kFfuart, 0x1000, &Machine::uart_read, &m, &Machine::uart_write, &m);
  uc_mmio_map(m.uc, kIcu, 0x1000, &Machine::icu_read, &m, &Machine::icu_write, &m);
  uc_mmio_map(m.uc, kOsTimer, 0x1000, &Machine::ost_read, &m, &Machine::ost_write, &m);
  m.each_code_segment(image, [&](u32 at, const Segment& s) {
    for (std::size_t i = 0; i + 3 < s.bytes.size(); i += 4) {
      const u32 w = u32{s.bytes[i]} | u32{s.bytes[i + 1]} << 8 | u32{s.bytes[i + 2]} << 16 | u32{s.bytes[i + 3]} << 24;
      if (const std::uint8_t t = classify(w)) m.code.set(static_cast<u32>(at + i), t);
    }
  });
  uc_hook code, intr, invalid;
  uc_hook_add(m.uc, &code, UC_HOOK_CODE, reinterpret_cast<void*>(&Machine::on_code), &m, 1, 0);
  uc_hook_add(m.uc, &intr, UC_HOOK_INTR, reinterpret_cast<void*>(&Machine::on_intr), &m, 1, 0);
  uc_hook_add(m.uc, &invalid, UC_HOOK_INSN_INVALID, reinterpret_cast<void*>(&Machine::on_invalid), &m, 1, 0);
  m.flush();
  m.run(image.entry, UC_ARM_REG_PC);
  return result;
}

}  // namespace pmusim
